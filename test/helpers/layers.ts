/**
 * The layering rule of a layered folder (`lib/`, `mcp/`), checked over the sources as text: every
 * import (static, type-only, re-export or dynamic) of one of its modules may point only into its own
 * folder or into a lower layer, no module may reach itself through its imports (a circle), and
 * nothing may import a folder the house keeps above it (`lib/` may not import `mcp/`, `frontends/`
 * or `cmd/`; `mcp/` may not import `frontends/` or `cmd/`). Used by test/arch/layers.test.ts on the
 * real tree and on copies with a deliberate upward import, so the check is proven to fail.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The layers of `lib/`, lowest first; `index.ts` (the public surface) sits above them all. Folders of
 * one layer are peers: each may import only lower layers, never another peer.
 */
export const TIERS = [
  ['contract'],
  ['platform'],
  ['tree'],
  ['parse'],
  ['help'],
  ['schema'],
  ['completion'],
  ['builtins'],
  ['store', 'config', 'observe', 'ask'],
  ['run'],
  ['build'],
] as const;

/** Every layer folder of `lib/`, lowest first. */
export const LAYERS: readonly string[] = TIERS.flat();

/**
 * The layers of `mcp/`, lowest first; `index.ts` (`ax-ts/mcp`) sits above them all
 * (docs/architecture.md#mcp-room-by-room).
 */
export const MCP_TIERS = [['base'], ['isolate'], ['call'], ['protocol'], ['transport'], ['serve']] as const;

/** A layered folder: where it is, its layers lowest first, and the folders it may never import. */
export interface LayeredFolder {
  /** The folder, relative to the repository (`lib`). */
  dir: string;
  /** Its layer folders, lowest first; the folders of one entry are peers. */
  tiers: readonly (readonly string[])[];
  /** Folders of the repository it may not import (the leaves above it). */
  above: readonly string[];
}

/** `lib/`: nothing above it may be imported. */
export const LIB: LayeredFolder = { dir: 'lib', tiers: TIERS, above: ['mcp', 'cmd', 'frontends', 'golden'] };

/** `mcp/`: it imports `lib/`, never the front ends or programs above it. */
export const MCP: LayeredFolder = { dir: 'mcp', tiers: MCP_TIERS, above: ['cmd', 'frontends', 'golden'] };

/** One broken rule: `from` imports `to` (paths relative to the repository). */
export interface Violation {
  rule: 'upward' | 'circle' | 'leaf' | 'unknown-layer';
  from: string;
  to: string;
  detail: string;
}

/** The TypeScript sources below `dir` (declarations aside). */
export function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : n.endsWith('.ts') && !n.endsWith('.d.ts') ? [p] : [];
  });
}

const IMPORT_RE =
  /(?:^|\n)\s*(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

/** The relative imports of one file, resolved to absolute paths. */
export function importsOf(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of src.matchAll(IMPORT_RE)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (spec?.startsWith('.')) out.push(resolve(dirname(file), spec));
  }
  return out;
}

/** The rank of a file of a layered folder: its layer's index, the number of layers for its index.ts, undefined when outside every layer. */
function rank(folder: LayeredFolder, libDir: string, file: string): number | undefined {
  const rel = relative(libDir, file).split(sep);
  if (rel.length === 1) return rel[0] === 'index.ts' ? folder.tiers.length : undefined;
  const i = folder.tiers.findIndex((tier) => tier.includes(rel[0]!));
  return i < 0 ? undefined : i;
}

/**
 * Checks the layering of one layered folder of `<repo>` (`lib/` unless told).
 * @returns every violation found (empty when the rules hold).
 */
export function checkLayers(repo: string, folder: LayeredFolder = LIB): Violation[] {
  const libDir = join(repo, folder.dir);
  const files = sources(libDir);
  const show = (p: string) => relative(repo, p);
  const violations: Violation[] = [];
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const from = rank(folder, libDir, f);
    if (from === undefined) {
      violations.push({
        rule: 'unknown-layer',
        from: show(f),
        to: '',
        detail: `not in a layer folder (${folder.tiers.flat().join(', ')})`,
      });
      continue;
    }
    const deps = importsOf(f);
    graph.set(
      f,
      deps.filter((d) => d.startsWith(libDir + sep)),
    );
    for (const d of deps) {
      if (!d.startsWith(libDir + sep)) {
        if (folder.above.some((a) => d.startsWith(join(repo, a) + sep))) {
          violations.push({
            rule: 'leaf',
            from: show(f),
            to: show(d),
            detail: `${folder.dir}/ may not import ${folder.above.map((a) => `${a}/`).join(', ')}`,
          });
        }
        continue;
      }
      const to = rank(folder, libDir, d);
      const sameFolder = dirname(relative(libDir, f)).split(sep)[0] === dirname(relative(libDir, d)).split(sep)[0];
      if (to === undefined || (!sameFolder && to >= from)) {
        violations.push({
          rule: 'upward',
          from: show(f),
          to: show(d),
          detail: `layer ${relative(libDir, f).split(sep)[0]} may import only lower layers, not ${relative(libDir, d).split(sep)[0]}`,
        });
      }
    }
  }
  // circles: depth-first search with colours; each back edge closes one circle
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const visit = (f: string): void => {
    state.set(f, 1);
    stack.push(f);
    for (const d of graph.get(f) ?? []) {
      if (state.get(d) === 1) {
        const circle = stack.slice(stack.indexOf(d)).concat(d).map(show);
        violations.push({ rule: 'circle', from: show(f), to: show(d), detail: circle.join(' → ') });
      } else if (!state.has(d)) visit(d);
    }
    stack.pop();
    state.set(f, 2);
  };
  for (const f of graph.keys()) if (!state.has(f)) visit(f);
  return violations;
}

/** The code lines of `text` (comment lines aside) that match one of `patterns`. */
export function codeLinesMatching(text: string, patterns: readonly RegExp[]): string[] {
  return text.split('\n').filter((line) => !/^\s*(\*|\/\/)/.test(line) && patterns.some((re) => re.test(line)));
}

/**
 * Every code line of the sources below `dirs` (relative to `repo`) that matches one of `patterns`,
 * as `<file>: <line>`, but in the files `exempt` lets through (paths relative to `repo`).
 */
export function sourceLinesMatching(
  repo: string,
  dirs: readonly string[],
  exempt: (file: string) => boolean,
  patterns: readonly RegExp[],
): string[] {
  return dirs
    .flatMap((d) => sources(join(repo, d)))
    .map((f) => relative(repo, f))
    .filter((f) => !exempt(f))
    .flatMap((f) => codeLinesMatching(readFileSync(join(repo, f), 'utf8'), patterns).map((l) => `${f}: ${l.trim()}`));
}
