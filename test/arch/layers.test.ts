/**
 * The architecture stays visible: `lib/` is a stack of layer folders (contract → tree → parse → help
 * → schema → completion → builtins → run, then lib/index.ts) whose imports point only down, with no
 * import circle; so is `mcp/` (base → isolate → call → protocol → transport → serve, then
 * mcp/index.ts); `mcp/` and `frontends/` are leaves nothing in `lib/` imports (`frontends/` only
 * through the public entries); `cmd/` programs use only the public
 * entry points. The check (test/helpers/layers.ts) is also run on copies of `lib/` and `mcp/` with a
 * deliberate upward import and a deliberate circle, to prove it fails when it should.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLayers, importsOf, LAYERS, MCP, MCP_TIERS } from '../helpers/layers.ts';
import { publicEntries as entries } from '../helpers/entries.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'ax-layers-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function copyLib(name: string, folder = 'lib'): string {
  const dir = join(tmp, name);
  cpSync(join(repo, folder), join(dir, folder), { recursive: true });
  return dir;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? tsFiles(p) : n.endsWith('.ts') ? [p] : [];
  });
}

describe('layers of lib/', () => {
  it('every lib/ file is in a layer folder, every import points down, and there is no circle', () => {
    expect(checkLayers(repo)).toEqual([]);
    for (const layer of LAYERS) expect(statSync(join(repo, 'lib', layer)).isDirectory(), layer).toBe(true);
  });

  it('fails on a deliberate upward import (tree → run)', () => {
    const dir = copyLib('upward');
    const file = join(dir, 'lib/tree/flags.ts');
    writeFileSync(file, `import { execute } from '../run/execute.ts';\nvoid execute;\n${readFileSync(file, 'utf8')}`);
    const v = checkLayers(dir);
    expect(v.some((x) => x.rule === 'upward' && x.from === 'lib/tree/flags.ts' && x.to === 'lib/run/execute.ts')).toBe(
      true,
    );
  });

  it('fails on a type-only upward import and on a dynamic one', () => {
    const dir = copyLib('type-upward');
    const file = join(dir, 'lib/parse/parse.ts');
    writeFileSync(
      file,
      `import type { ExecuteOptions } from '../run/options.ts';\n${readFileSync(file, 'utf8')}\nexport const later = () => import('../schema/walk.ts');\n`,
    );
    const v = checkLayers(dir)
      .filter((x) => x.rule === 'upward')
      .map((x) => x.to);
    expect(v).toEqual(expect.arrayContaining(['lib/run/options.ts', 'lib/schema/walk.ts']));
  });

  it('fails when one peer folder imports another (config → replay)', () => {
    const dir = copyLib('peer');
    const file = join(dir, 'lib/config/config.ts');
    writeFileSync(
      file,
      `import type { IdempotencyStore } from '../store/idempotency.ts';\n${readFileSync(file, 'utf8')}`,
    );
    const v = checkLayers(dir).filter((x) => x.rule === 'upward');
    expect(v.map((x) => [x.from, x.to])).toEqual([['lib/config/config.ts', 'lib/store/idempotency.ts']]);
  });

  it('fails on a circle inside one layer', () => {
    const dir = copyLib('circle');
    const file = join(dir, 'lib/tree/args.ts');
    writeFileSync(
      file,
      `import type { Command } from './command.ts';\nexport type _C = Command;\n${readFileSync(file, 'utf8')}`,
    );
    const v = checkLayers(dir).filter((x) => x.rule === 'circle');
    expect(v.length).toBeGreaterThan(0);
    expect(v[0]!.detail).toMatch(/lib\/tree\/(args|command)\.ts → .* → lib\/tree\/(args|command)\.ts/);
  });

  it('fails when lib/ imports mcp/ or a file sits outside the layers', () => {
    const dir = copyLib('leaf');
    const file = join(dir, 'lib/run/run.ts');
    writeFileSync(file, `import '../../mcp/index.ts';\n${readFileSync(file, 'utf8')}`);
    writeFileSync(join(dir, 'lib/stray.ts'), 'export const x = 1;\n');
    const rules = checkLayers(dir).map((x) => x.rule);
    expect(rules).toContain('leaf');
    expect(rules).toContain('unknown-layer');
  });
});

describe('layers of mcp/', () => {
  it('every mcp/ file is in a layer folder, every import points down, and there is no circle', () => {
    expect(checkLayers(repo, MCP)).toEqual([]);
    for (const layer of MCP_TIERS.flat()) expect(statSync(join(repo, 'mcp', layer)).isDirectory(), layer).toBe(true);
  });

  it('fails on a deliberate upward import (call → transport), type-only or dynamic', () => {
    const dir = copyLib('mcp-upward', 'mcp');
    const file = join(dir, 'mcp/call/tools.ts');
    writeFileSync(
      file,
      `import type { HttpBounds } from '../transport/http.ts';\n${readFileSync(file, 'utf8')}\nexport const later = () => import('../protocol/server.ts');\n`,
    );
    const v = checkLayers(dir, MCP).filter((x) => x.rule === 'upward');
    expect(v.map((x) => [x.from, x.to])).toEqual([
      ['mcp/call/tools.ts', 'mcp/transport/http.ts'],
      ['mcp/call/tools.ts', 'mcp/protocol/server.ts'],
    ]);
  });

  it('fails on a circle, a file outside the layers and an import of frontends/', () => {
    const dir = copyLib('mcp-circle', 'mcp');
    const file = join(dir, 'mcp/isolate/children.ts');
    writeFileSync(
      file,
      `import '../isolate/printed.ts';\nimport '../../frontends/shared/call.ts';\n${readFileSync(file, 'utf8')}`,
    );
    writeFileSync(join(dir, 'mcp/stray.ts'), 'export const x = 1;\n');
    const v = checkLayers(dir, MCP);
    expect(v.filter((x) => x.rule === 'circle')[0]?.detail).toMatch(/mcp\/isolate\/(children|printed)\.ts → /);
    expect(v.map((x) => x.rule)).toEqual(expect.arrayContaining(['leaf', 'unknown-layer']));
  });
});

describe('mcp/, frontends/ and cmd/ sit on top', () => {
  it('mcp/ imports lib/ but nothing of frontends/, cmd/ or golden/', () => {
    for (const f of tsFiles(join(repo, 'mcp'))) {
      for (const d of importsOf(f)) {
        const rel = relative(repo, d);
        expect(
          rel.startsWith('cmd/') || rel.startsWith('golden/') || rel.startsWith('frontends/'),
          `${relative(repo, f)} imports ${rel}`,
        ).toBe(false);
      }
    }
  });

  it('frontends/ imports only its own folder, the public entries lib/index.ts and mcp/index.ts, the process patches and the relaunch', () => {
    const allowed = new Set(
      ['lib/index.ts', 'mcp/index.ts', 'lib/platform/process-patches.ts', 'lib/platform/relaunch.ts'].map((f) =>
        resolve(repo, f),
      ),
    );
    for (const f of tsFiles(join(repo, 'frontends'))) {
      for (const d of importsOf(f)) {
        if (d.startsWith(join(repo, 'frontends'))) continue;
        expect(allowed.has(d), `${relative(repo, f)} imports ${relative(repo, d)}`).toBe(true);
      }
    }
  });

  it('cmd/ programs import only the public entry points (package.json exports: lib/index.ts, mcp/index.ts, …)', () => {
    const publicEntries = new Set(entries(repo).map((e) => resolve(repo, e.source)));
    expect(publicEntries.has(resolve(repo, 'lib/index.ts'))).toBe(true);
    for (const f of tsFiles(join(repo, 'cmd'))) {
      for (const d of importsOf(f)) {
        if (d.startsWith(join(repo, 'cmd'))) continue;
        expect(publicEntries.has(d), `${relative(repo, f)} imports ${relative(repo, d)}`).toBe(true);
      }
    }
  });
});
