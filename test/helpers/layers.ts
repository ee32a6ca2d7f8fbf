/**
 * The layering rule of `lib/`, checked over the sources as text: every import (static, type-only,
 * re-export or dynamic) of a `lib/` module may point only into its own folder or into a lower
 * layer, no module may reach itself through its imports (a circle), and nothing in `lib/` may
 * import `mcp/` or `frontends/` (leaves) or `cmd/`. Used by test/arch/layers.test.ts on the real tree and on a copy
 * with a deliberate upward import, so the check is proven to fail.
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

/** One broken rule: `from` imports `to` (paths relative to the repository). */
export interface Violation {
  rule: 'upward' | 'circle' | 'leaf' | 'unknown-layer';
  from: string;
  to: string;
  detail: string;
}

function sources(dir: string): string[] {
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

/** The rank of a `lib/` file: its layer's index, `LAYERS.length` for lib/index.ts, undefined when outside every layer. */
function rank(libDir: string, file: string): number | undefined {
  const rel = relative(libDir, file).split(sep);
  if (rel.length === 1) return rel[0] === 'index.ts' ? TIERS.length : undefined;
  const i = TIERS.findIndex((tier) => (tier as readonly string[]).includes(rel[0]!));
  return i < 0 ? undefined : i;
}

/** Checks the layering of `<repo>/lib`. @returns every violation found (empty when the rules hold). */
export function checkLayers(repo: string): Violation[] {
  const libDir = join(repo, 'lib');
  const files = sources(libDir);
  const show = (p: string) => relative(repo, p);
  const violations: Violation[] = [];
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const from = rank(libDir, f);
    if (from === undefined) {
      violations.push({
        rule: 'unknown-layer',
        from: show(f),
        to: '',
        detail: `not in a layer folder (${LAYERS.join(', ')})`,
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
        if (
          d.startsWith(join(repo, 'mcp') + sep) ||
          d.startsWith(join(repo, 'cmd') + sep) ||
          d.startsWith(join(repo, 'frontends') + sep) ||
          d.startsWith(join(repo, 'golden') + sep)
        ) {
          violations.push({
            rule: 'leaf',
            from: show(f),
            to: show(d),
            detail: 'lib/ may not import mcp/, frontends/, cmd/ or golden/',
          });
        }
        continue;
      }
      const to = rank(libDir, d);
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
