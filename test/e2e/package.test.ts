/**
 * The published package, as a user installs it: `npm pack` of this checkout holds neither the demo
 * nor a second copy of lib/ (only the library, compiled one module per file); installed into a fresh
 * project, its `node_modules/.bin` holds `ax-ts` only (the demo's `tasks` is never put on a user's
 * PATH), and every entry point package.json exports (`ax-ts`, `ax-ts/mcp`, `ax-ts/golden`, …) loads from
 * `dist/` and exports at run time exactly the value names test/api/public-api.snapshot.json pins
 * (its types are checked from the sources by test/api/public-api.test.ts).
 * Needs `npm run build` first (npm test does it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicEntries } from '../helpers/entries.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'ax-pack-'));
const project = join(tmp, 'user-project');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      npm_config_loglevel: 'error',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
      npm_config_update_notifier: 'false',
    },
    timeout: 240_000,
  });

beforeAll(() => {
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', tmp], repo)) as { filename: string }[];
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'user-project', version: '1.0.0', private: true, type: 'module' }),
  );
  npm(
    ['install', '--prefer-offline', '--ignore-scripts', '--no-package-lock', join(tmp, packed[0]!.filename)],
    project,
  );
}, 300_000);

describe('npm pack: what the tarball holds', () => {
  const files = (
    JSON.parse(npm(['pack', '--dry-run', '--json'], repo)) as { files: { path: string }[] }[]
  )[0]!.files.map((f) => f.path);

  it('no file of the demo (cmd/tasks and its build)', () => {
    expect(files.filter((f) => /(^|\/)tasks[./]|cmd\/tasks|dist\/bin\//.test(f))).toEqual([]);
  });

  it('no second copy of lib/: every compiled file is one module of the checkout (no bundle, no chunk)', () => {
    const compiled = files.filter((f) => f.startsWith('dist/'));
    expect(compiled.length).toBeGreaterThan(0);
    for (const f of compiled) {
      const source = f.replace(/^dist\//, '').replace(/(\.d)?\.js$|\.d\.ts$/, '.ts');
      expect(existsSync(join(repo, source)) || existsSync(join(repo, f.replace(/^dist\//, ''))), f).toBe(true);
    }
  });
});

describe('npm pack → install into a fresh project', () => {
  it('puts only ax-ts on the PATH (node_modules/.bin)', () => {
    const bins = readdirSync(join(project, 'node_modules/.bin')).filter((n) => !n.startsWith('.'));
    const ours = bins.filter((n) => ['ax-ts', 'tasks'].includes(n));
    expect(ours).toEqual(['ax-ts']);
    const pkg = JSON.parse(readFileSync(join(project, 'node_modules/ax-ts/package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    expect(Object.keys(pkg.bin)).toEqual(['ax-ts']);
  });

  it('the installed ax-ts binary runs', () => {
    const out = execFileSync(join(project, 'node_modules/.bin/ax-ts'), ['--help'], { encoding: 'utf8' });
    expect(out).toMatch(/Usage:/);
  });

  it('each entry point loads and exports exactly the value names of the API snapshot', () => {
    const pinned = JSON.parse(readFileSync(join(repo, 'test/api/public-api.snapshot.json'), 'utf8')) as Record<
      string,
      Record<string, string>
    >;
    const entries = publicEntries(repo).map((e) => e.name);
    expect(entries).toEqual(Object.keys(pinned));
    const script = `const out = {}; for (const e of ${JSON.stringify(entries)}) out[e] = Object.keys(await import(e)).sort(); console.log(JSON.stringify(out));`;
    writeFileSync(join(project, 'names.mjs'), script);
    const got = JSON.parse(execFileSync(process.execPath, ['names.mjs'], { cwd: project, encoding: 'utf8' })) as Record<
      string,
      string[]
    >;
    for (const [entry, names] of Object.entries(pinned)) {
      const values = Object.entries(names)
        .filter(([, kind]) => kind !== 'type')
        .map(([n]) => n)
        .sort();
      expect(got[entry], entry).toEqual(values);
    }
  });
});
