/**
 * The schema manifest (`ax-ts build` writes it; `ax-ts schema-manifest` writes it again) and the
 * entry that serves it: a bare `__schema [--as=X]` answered from the manifest is byte for byte what
 * the program prints, and the manifest is never served once anything it depends on changed (the
 * bundle, its chunks, the manifest itself) or when it is corrupt. Runs the built demo (dist/bin) and
 * the ax-ts tool (dist/cmd/ax-ts); `npm test` builds both.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SCHEMA_SHAPES } from '../../lib/schema/shapes.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(root, 'dist/bin/tasks.js');
const AX = join(root, 'dist/cmd/ax-ts/main.js');

function run(bin: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: mkdtempSync(join(tmpdir(), 'ax-home-')), ...env },
    maxBuffer: 1 << 28,
  });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}
const reference = (bin: string, args: string[]) => run(bin, args, { AX_PRECOMPUTED: '0', AX_CODE_CACHE: '0' });

/** A copy of dist/bin under <tmp>/pkg/dist/bin with its own package.json, and a fresh manifest for it. */
function copyWithManifest(version = '0.1.0') {
  const dir = mkdtempSync(join(tmpdir(), 'ax-manifest-'));
  const pkg = join(dir, 'pkg');
  mkdirSync(join(pkg, 'dist'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'copy', version }));
  cpSync(join(root, 'dist/bin'), join(pkg, 'dist/bin'), { recursive: true });
  const bin = join(pkg, 'dist/bin/tasks.js');
  const made = run(AX, ['schema-manifest', bin, '--format', 'json']);
  expect(made.status, made.stderr).toBe(0);
  return { pkg, bin, main: join(pkg, 'dist/bin/tasks.main.js'), manifest: join(pkg, 'dist/bin/tasks.schema') };
}

/** Replaces the first byte of a document with another of the same size: what the entry serves then shows. */
function tamper(file: string): string {
  const text = readFileSync(file, 'utf8');
  const out = `${text.slice(0, -2)}X\n`;
  writeFileSync(file, out);
  return out;
}

/** A bare `__schema`, then every shape of the registry, in both spellings of `--as`. */
const FORMS: string[][] = [
  ['__schema'],
  ...SCHEMA_SHAPES.map((s, i) => (i % 2 ? ['__schema', '--as', s] : ['__schema', `--as=${s}`])),
];

describe('schema manifest', () => {
  it('the build wrote the demo’s manifest; every shape served is byte-identical to the program’s own', () => {
    const index = JSON.parse(readFileSync(join(root, 'dist/bin/tasks.schema/index.json'), 'utf8'));
    expect(index).toMatchObject({
      format: 'ax-ts/schema-manifest/2',
      program: 'tasks',
      version: JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version,
    });
    expect(Object.keys(index.docs).sort()).toEqual([...SCHEMA_SHAPES].sort());
    for (const args of FORMS) {
      const got = run(BIN, args);
      expect(got).toEqual(reference(BIN, args));
      expect(got.status).toBe(0);
    }
  });

  it('is what answers (a changed document shows), and only for a bare __schema', () => {
    const p = copyWithManifest();
    const served = tamper(join(p.manifest, 'mcp.out'));
    expect(run(p.bin, ['__schema', '--as=mcp']).stdout).toBe(served);
    for (const [args, env] of [
      [['__schema', '--as=mcp', '--format', 'json'], {}],
      [['__schema', '--as=mcp'], { AGENT_MODE: 'json' }],
      [['__schema', '--as=mcp'], { AX_PRECOMPUTED: '0' }],
    ] as [string[], Record<string, string>][]) {
      const r = run(p.bin, args, env);
      expect(r.stdout).not.toBe(served);
      expect(r).toEqual(run(p.bin, args, { ...env, AX_PRECOMPUTED: '0', AX_CODE_CACHE: '0' }));
    }
  });

  it.each([
    [
      'the bundle is touched',
      (p: ReturnType<typeof copyWithManifest>) => utimesSync(p.main, new Date(), new Date(Date.now() + 5000)),
    ],
    [
      'the bundle is edited',
      (p: ReturnType<typeof copyWithManifest>) => writeFileSync(p.main, `${readFileSync(p.main, 'utf8')}\n`),
    ],
    [
      'the index names another build',
      (p: ReturnType<typeof copyWithManifest>) => {
        const f = join(p.manifest, 'index.json');
        writeFileSync(f, readFileSync(f, 'utf8').replace(/"hash": "[0-9a-f]+"/, '"hash": "0000000000000000"'));
      },
    ],
    [
      'the index is corrupt',
      (p: ReturnType<typeof copyWithManifest>) => writeFileSync(join(p.manifest, 'index.json'), '{"format": '),
    ],
    ['the index is gone', (p: ReturnType<typeof copyWithManifest>) => rmSync(join(p.manifest, 'index.json'))],
    [
      'the document is truncated',
      (p: ReturnType<typeof copyWithManifest>) =>
        writeFileSync(join(p.manifest, 'ax.out'), readFileSync(join(p.manifest, 'ax.out')).subarray(0, 100)),
    ],
    ['the document is gone', (p: ReturnType<typeof copyWithManifest>) => rmSync(join(p.manifest, 'ax.out'))],
  ])('is never served when %s', (_n, change) => {
    const p = copyWithManifest();
    const stale = tamper(join(p.manifest, 'ax.out')); // what a stale manifest would print
    change(p);
    const r = run(p.bin, ['__schema']);
    expect(r.stdout).not.toBe(stale);
    expect(r).toEqual(reference(p.bin, ['__schema']));
    expect(r.status).toBe(0);
  });

  it('the version is the one built in: a package.json with another version beside the program changes nothing', () => {
    const p = copyWithManifest();
    const served = tamper(join(p.manifest, 'ax.out'));
    writeFileSync(join(p.pkg, 'package.json'), JSON.stringify({ name: 'copy', version: '9.0.0' }));
    expect(run(p.bin, ['__schema']).stdout).toBe(served); // still this build's manifest
    expect(JSON.parse(run(p.bin, ['--version', '--format', 'json']).stdout).data.version).toBe(
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version,
    );
  });

  it('a copied program ignores the manifest it was copied with (other mtimes) until one is written for it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ax-manifest-copy-'));
    cpSync(join(root, 'dist/bin'), join(dir, 'bin'), { recursive: true });
    const bin = join(dir, 'bin/tasks.js');
    tamper(join(dir, 'bin/tasks.schema/ax.out'));
    expect(run(bin, ['__schema'])).toEqual(reference(bin, ['__schema']));
  });

  it('refuses an entry that is not a built program (validation_error, exit 2)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ax-manifest-bad-'));
    const plain = join(dir, 'plain.js');
    writeFileSync(plain, 'console.log("hi")\n');
    const r = run(AX, ['schema-manifest', plain, '--format', 'json']);
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stderr.trim().split('\n').pop()!).error).toMatchObject({
      kind: 'validation_error',
      context: { reason: 'not_a_bundled_entry' },
    });
    const missing = run(AX, ['schema-manifest', join(dir, 'nope.js'), '--format', 'json']);
    expect(missing.status).toBe(2);
  });
});
