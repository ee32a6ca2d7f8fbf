/**
 * `ax-ts build` bundles an entry written as docs/frontends.md shows, `await
 * withAx(program).parseAsync()` at its top level (docs/shipping.md#ax-ts-build): the commander notes
 * fixture, built as a directory and as one file, answers a person, a json-mode caller, `__schema` and
 * an MCP client exactly as the source run does; an entry whose top-level await rejects ends as
 * Node's own does (the error, exit 1); an entry that also exports names is refused with the reason.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../lib/build/index.ts';
import { AxError } from '../../lib/index.ts';
import { bundledFixture } from '../helpers/bundled.ts';
import { REPO, TSX_LOADER } from '../helpers/spawn.ts';

const FIXTURE = 'test/fixtures/tla-commander.ts';
const ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function runNode(args: string[], env: Record<string, string> = ENV): Run {
  const r = spawnSync(process.execPath, args, { cwd: REPO, env, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Trace and span ids, idempotency keys: what differs between two runs of one call. */
const masked = (text: string): string =>
  text
    .replace(/"(trace_id|span_id|idempotency_key)":"[^"]*"/g, '"$1":"…"')
    .replace(/"duration_ms":\d+/g, '"duration_ms":0')
    .replace(/\d+(\.\d+)?ms/g, 'Nms');

const INVOCATIONS: string[][] = [
  ['--help'],
  ['add', 'buy', 'milk', '-t', 'home'],
  ['add', '--nope', 'x'],
  ['ls', '-n', '1'],
  ['add', 'buy', 'milk', '--format', 'json'],
  ['list', '--format', 'json'],
  ['nope', '--format', 'json'],
  ['__schema', '--as=mcp'],
];

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe.each([
  ['a directory (entry, bundle, chunks)', false],
  ['one file', true],
])('the commander program built as %s', (_label, singleFile) => {
  let entry: string;
  beforeAll(async () => {
    if (singleFile) {
      const dir = mkdtempSync(join(tmpdir(), 'ax-tla-one-'));
      dirs.push(dir);
      entry = (await buildProgram({ entry: FIXTURE, cwd: REPO, outDir: dir, name: 'notes', singleFile: true })).entry;
    } else {
      const built = await bundledFixture(FIXTURE, 'notes', { prefix: 'ax-tla-dir-' });
      dirs.push(built.dir);
      entry = built.entry;
    }
  }, 120_000);

  it.each(INVOCATIONS)('answers %s as the source does', (...words) => {
    const source = runNode(['--import', TSX_LOADER, FIXTURE, ...words]);
    const built = runNode([entry, ...words]);
    expect(built.status).toBe(source.status);
    expect(masked(built.stdout)).toBe(masked(source.stdout));
    expect(masked(built.stderr)).toBe(masked(source.stderr));
  });
});

describe('entries ax-ts build rewrites, or refuses', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ax-tla-entries-'));
    dirs.push(dir);
  });

  it('a top-level await that rejects: the error printed, exit 1, as Node does with the source', async () => {
    const file = join(dir, 'rejects.mjs');
    writeFileSync(
      file,
      "import { sep } from 'node:path';\nconsole.log('before', sep);\nawait Promise.reject(new Error('boom'));\n",
    );
    const { entry } = await buildProgram({
      entry: file,
      cwd: dir,
      outDir: join(dir, 'out-rejects'),
      name: 'rejects',
      precompute: false,
    });
    const source = runNode([file]);
    const built = runNode([entry]);
    expect(source.status).toBe(1);
    expect(built.status).toBe(1);
    expect(built.stdout).toBe('before /\n');
    expect(built.stderr).toContain('Error: boom');
  }, 60_000);

  it('an entry that also exports names is refused: build_failed, naming why and what to do', async () => {
    const file = join(dir, 'exports.ts');
    writeFileSync(file, 'export const answer = 42;\nawait Promise.resolve();\nconsole.log(answer);\n');
    const failure = await buildProgram({
      entry: file,
      cwd: dir,
      outDir: join(dir, 'out-exports'),
      name: 'exports',
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(AxError);
    expect(failure).toMatchObject({ kind: 'build_failed', context: { reason: 'top_level_await_export' } });
    expect((failure as AxError).fix).toMatch(/Move the exported names/);
  }, 60_000);
});
