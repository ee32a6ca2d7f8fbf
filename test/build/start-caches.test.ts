/**
 * The start-up fast paths of a built program (lib/build, `ax-ts build`): the precomputed bare
 * `--version`/`--help` answers and the V8 code cache never change a byte of output or the exit code
 * (compared with the same program run with both turned off), and each is ignored when what it
 * depends on changed, when it is corrupt, or when it cannot be written. Runs the real bundle
 * (dist/bin/tasks.js; `npm test` builds it first). No timings are asserted here: speed is
 * `npm run bench`'s business.
 */
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(root, 'dist/bin/tasks.js');

interface Run {
  stdout: string;
  stderr: string;
  status: number | null;
}

function run(bin: string, args: string[], env: Record<string, string> = {}): Run {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: mkdtempSync(join(tmpdir(), 'ax-home-')), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

/** The uncached, non-precomputed run of the same program: the reference output. */
const reference = (bin: string, args: string[], env: Record<string, string> = {}) =>
  run(bin, args, { ...env, AX_CODE_CACHE: '0', AX_PRECOMPUTED: '0' });

const IDS =
  /"trace_id":"[0-9a-f]{32}","span_id":"[0-9a-f]{16}","idempotency_key":"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"/g;
const mask = (t: string) =>
  t
    .replace(IDS, '"ids":"…"')
    .replace(/"trace_id":"[0-9a-f]{32}"/g, '"trace_id":"…"')
    .replace(/"duration_ms":\d+/g, '"duration_ms":"…"');
const masked = (r: Run) => ({ ...r, stdout: mask(r.stdout), stderr: mask(r.stderr) });

/** A copy of dist/bin under `<tmp>/pkg/dist/bin`, with `<tmp>/pkg/package.json` at `version`. */
function copyProgram(version = '0.1.0'): { dir: string; bin: string; main: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ax-prog-'));
  const pkg = join(dir, 'pkg');
  mkdirSync(join(pkg, 'dist'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'copy', version }));
  cpSync(join(root, 'dist/bin'), join(pkg, 'dist/bin'), { recursive: true });
  return { dir, bin: join(pkg, 'dist/bin/tasks.js'), main: join(pkg, 'dist/bin/tasks.main.js') };
}

describe('precomputed --version and --help', () => {
  it('the build precomputed them (the entry carries the answers)', () => {
    const entry = readFileSync(BIN, 'utf8');
    expect(entry).toContain('@TRACE_ID@');
    expect(entry).toContain('"help":"');
  });

  it.each([['--help'], ['-h']])('%s is byte-identical to the program’s own answer', (flag) => {
    const fast = run(BIN, [flag]);
    expect(fast).toEqual(reference(BIN, [flag]));
    expect(fast.status).toBe(0);
    expect(fast.stdout).toContain('Usage:');
  });

  it('--version (json, stdout a pipe) equals the program’s own answer but for fresh, well-formed ids', () => {
    const a = run(BIN, ['--version']);
    const b = run(BIN, ['--version']);
    expect(a.status).toBe(0);
    expect(a.stdout).toMatch(IDS);
    expect(masked(a)).toEqual(masked(reference(BIN, ['--version'])));
    expect(a.stdout).not.toBe(b.stdout); // new ids every run
    expect(JSON.parse(a.stdout).data).toEqual({
      name: 'tasks',
      version: JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version,
    });
  });

  it('AGENT_MODE and other arguments go to the program itself', () => {
    for (const [args, env] of [
      [['--version'], { AGENT_MODE: 'text' }],
      [['--version'], { AGENT_MODE: 'bogus' }],
      [['--version', '--format', 'text'], {}],
      [['--help', 'list'], {}],
    ] as [string[], Record<string, string>][]) {
      expect(masked(run(BIN, args, env))).toEqual(masked(reference(BIN, args, env)));
    }
    expect(run(BIN, ['--version'], { AGENT_MODE: 'text' }).stdout).toBe(
      `tasks version ${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version}\n`,
    );
  });

  it('the version is the one built in: a package.json with another version beside a copy changes nothing', () => {
    const p = copyProgram('7.7.7');
    const r = run(p.bin, ['--version']);
    expect(JSON.parse(r.stdout).data.version).toBe(
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version,
    );
    expect(masked(r)).toEqual(masked(reference(p.bin, ['--version'])));
  });

  it('a changed bundle is asked, not answered for', () => {
    const p = copyProgram();
    appendFileSync(p.main, '\nprocess.stderr.write("the bundle ran\\n");\n');
    for (const flag of ['--help', '--version']) {
      const r = run(p.bin, [flag]);
      expect(r.stderr).toBe('the bundle ran\n');
      expect(masked(r)).toEqual(masked(reference(p.bin, [flag])));
    }
  });
});

describe('V8 code cache', () => {
  const cacheFiles = (xdg: string) => (existsSync(join(xdg, 'ax-ts/v8')) ? readdirSync(join(xdg, 'ax-ts/v8')) : []);
  const cases: [string, string[]][] = [
    ['list', ['list', '--format', 'json']],
    ['__schema', ['__schema']],
    ['help of a command', ['add', '--help']],
  ];

  it.each(cases)('%s: first and later runs are byte-identical to the uncached run', (_n, args) => {
    const xdg = mkdtempSync(join(tmpdir(), 'ax-xdg-'));
    const store = join(xdg, 'tasks.json');
    const env = { XDG_CACHE_HOME: xdg, TASKS_FILE: store, AX_PRECOMPUTED: '0' }; // the bundle itself runs (no schema manifest)
    const want = masked(reference(BIN, args, env));
    expect(want.status).toBe(0);
    const first = run(BIN, args, env);
    expect(masked(first)).toEqual(want);
    const files = cacheFiles(xdg);
    expect(files).toHaveLength(1);
    // a bare __schema runs without V8's optimizing compiler, so its cache has a key of its own
    const variant = args[0] === '__schema' ? '-noopt' : '';
    expect(files[0]).toMatch(
      new RegExp(
        `^tasks-[0-9a-f]{8}-${process.version.replace(/\./g, '\\.')}-${process.arch}-[0-9a-f]{16}-\\d+-\\d+${variant}\\.bin$`,
      ),
    );
    const file = join(xdg, 'ax-ts/v8', files[0]!);
    const written = statSync(file).mtimeMs;
    const bytes = readFileSync(file);
    expect(bytes.length).toBeGreaterThan(1000);
    expect(masked(run(BIN, args, env))).toEqual(want);
    // accepted: a later run does not write it again
    expect(statSync(file).mtimeMs).toBe(written);
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('a bare __schema (no optimizing compiler) and an ordinary run keep a cache each, and neither rewrites the other', () => {
    const xdg = mkdtempSync(join(tmpdir(), 'ax-xdg-'));
    const env = { XDG_CACHE_HOME: xdg, TASKS_FILE: join(xdg, 'tasks.json'), AX_PRECOMPUTED: '0' };
    const list = ['list', '--format', 'json'];
    expect(run(BIN, list, env).status).toBe(0);
    expect(run(BIN, ['__schema', '--as=mcp'], env).status).toBe(0);
    const files = cacheFiles(xdg).sort();
    expect(files).toHaveLength(2);
    expect(files.filter((f) => f.endsWith('-noopt.bin'))).toHaveLength(1);
    const mtimes = () => files.map((f) => statSync(join(xdg, 'ax-ts/v8', f)).mtimeMs);
    const before = mtimes();
    const wantSchema = masked(reference(BIN, ['__schema', '--as=mcp'], env));
    expect(masked(run(BIN, list, env))).toEqual(masked(reference(BIN, list, env)));
    expect(masked(run(BIN, ['__schema', '--as=mcp'], env))).toEqual(wantSchema);
    expect(mtimes()).toEqual(before);
    // AX_SCHEMA_NO_OPT=0: the same bytes with V8's flags left alone (then it shares the ordinary cache)
    expect(masked(run(BIN, ['__schema', '--as=mcp'], { ...env, AX_SCHEMA_NO_OPT: '0' }))).toEqual(wantSchema);
    expect(mtimes()).toEqual(before);
  });

  it('the chunks a run requires are cached too (mcp-server: the MCP runtime), and still work from the cache', () => {
    const xdg = mkdtempSync(join(tmpdir(), 'ax-xdg-'));
    const env = { XDG_CACHE_HOME: xdg, TASKS_FILE: join(xdg, 't.json') };
    const init = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`;
    const serve = () =>
      spawnSync(process.execPath, [BIN, 'mcp-server'], {
        input: init,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', HOME: xdg, ...env },
      });
    const first = serve();
    expect(first.status).toBe(0);
    expect(JSON.parse(first.stdout.split('\n')[0]!).result.serverInfo.name).toBe('tasks');
    const files = cacheFiles(xdg);
    expect(files.some((f) => f.endsWith('.mcp-runtime.bin'))).toBe(true);
    expect(files).toHaveLength(2); // the bundle and the runtime chunk
    const again = serve();
    expect(again.status).toBe(0);
    expect(again.stdout).toBe(first.stdout);
  });

  it('AX_CODE_CACHE=0 neither reads nor writes it', () => {
    const xdg = mkdtempSync(join(tmpdir(), 'ax-xdg-'));
    expect(run(BIN, ['__schema'], { XDG_CACHE_HOME: xdg, AX_CODE_CACHE: '0', AX_PRECOMPUTED: '0' }).status).toBe(0);
    expect(cacheFiles(xdg)).toEqual([]);
  });

  it('a corrupt or truncated cache is rejected, replaced, and changes nothing', () => {
    const xdg = mkdtempSync(join(tmpdir(), 'ax-xdg-'));
    const env = { XDG_CACHE_HOME: xdg, AX_PRECOMPUTED: '0' };
    const want = reference(BIN, ['__schema'], env);
    expect(run(BIN, ['__schema'], env)).toEqual(want);
    const file = join(xdg, 'ax-ts/v8', cacheFiles(xdg)[0]!);
    const good = readFileSync(file);
    for (const bad of [Buffer.from('not a code cache at all'), good.subarray(0, good.length >> 1), Buffer.alloc(0)]) {
      writeFileSync(file, bad);
      expect(run(BIN, ['__schema'], env)).toEqual(want);
      expect(readFileSync(file).length).toBeGreaterThan(1000); // rewritten after the successful run
    }
  });

  it('an unwritable cache directory changes nothing (no error, same output, same exit code)', () => {
    const xdg = mkdtempSync(join(tmpdir(), 'ax-xdg-'));
    writeFileSync(join(xdg, 'ax-ts'), 'a file where the cache directory should be');
    const env = { XDG_CACHE_HOME: xdg, AX_PRECOMPUTED: '0' };
    expect(run(BIN, ['__schema'], env)).toEqual(reference(BIN, ['__schema'], env));
    const usage = run(BIN, ['lst'], env);
    expect(masked(usage)).toEqual(masked(reference(BIN, ['lst'], env)));
    expect(usage.status).toBe(2);
  });

  it('a failed run writes no cache; a run without HOME or XDG_CACHE_HOME still works', () => {
    const xdg = mkdtempSync(join(tmpdir(), 'ax-xdg-'));
    const r = run(BIN, ['lst'], { XDG_CACHE_HOME: xdg, AX_PRECOMPUTED: '0' });
    expect(r.status).toBe(2);
    expect(cacheFiles(xdg)).toEqual([]);
    const bare = spawnSync(process.execPath, [BIN, '__schema'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', AX_PRECOMPUTED: '0' },
    });
    expect(bare.status).toBe(0);
    expect(bare.stdout).toBe(reference(BIN, ['__schema']).stdout);
  });

  it('a relative XDG_CACHE_HOME is ignored (XDG: only absolute paths count); HOME/.cache is used', () => {
    const home = mkdtempSync(join(tmpdir(), 'ax-home-'));
    expect(run(BIN, ['__schema'], { HOME: home, XDG_CACHE_HOME: 'relative/dir', AX_PRECOMPUTED: '0' }).status).toBe(0);
    expect(readdirSync(join(home, '.cache/ax-ts/v8'))).toHaveLength(1);
  });
});
