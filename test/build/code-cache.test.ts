/**
 * The V8 code cache of a built program is code (lib/build/code-cache.ts, docs/shipping.md#the-code-cache):
 * V8 checks only the length of the source before it runs cached data, so whoever can write a cache
 * file the program reads runs code as its user. Each case plants what an attacker or an accident
 * would leave — another program's cache of the same length (which V8 itself accepts: proved first),
 * symlinks and hard links, a cache directory writable by others or owned by another user, flipped
 * bits and truncations — and the program must print exactly what it prints uncached (same stdout,
 * stderr and exit code) and never the forged code's output. Runs the built demo (dist/bin/tasks.js;
 * `npm run build` first).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  linkSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checksum } from '../../lib/build/checksum.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(root, 'dist/bin/tasks.js');
const MAIN = join(root, 'dist/bin/tasks.main.js');
const ARGS = ['--help']; // the bundle itself runs it (AX_PRECOMPUTED=0), with V8's usual flags
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

interface Run {
  stdout: string;
  stderr: string;
  status: number | null;
}

function run(home: string, extra: { uid?: number; gid?: number; env?: Record<string, string> } = {}): Run {
  const r = spawnSync(process.execPath, [BIN, ...ARGS], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: home, AX_PRECOMPUTED: '0', ...extra.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // a run that hangs (a cache read that blocks) fails its test instead of holding the suite
    timeout: 30_000,
    killSignal: 'SIGKILL',
    ...(extra.uid !== undefined ? { uid: extra.uid, gid: extra.gid } : {}),
  });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

const REFERENCE = run('/nonexistent', { env: { AX_CODE_CACHE: '0' } });

/** A fresh HOME (mode 0755, so another user can reach it) whose cache a first run has written. */
function primed(): { home: string; dir: string; file: string; key: string } {
  const home = mkdtempSync(join(tmpdir(), 'ax-cc-'));
  chmodSync(home, 0o755);
  expect(run(home)).toEqual(REFERENCE);
  const dir = join(home, '.cache/ax-ts/v8');
  const files = readdirSync(dir).filter((f) => f.endsWith('.bin'));
  expect(files).toHaveLength(1);
  return { home, dir, file: join(dir, files[0]!), key: files[0]!.slice(0, -'.bin'.length) };
}

/** The cache file format: magic, key, payload length and checksum, payload (what the program itself writes). */
function cacheFile(key: string, payload: Buffer): Buffer {
  const k = Buffer.from(key);
  const h = Buffer.alloc(20 + k.length);
  h.write('AXV8CC02', 0, 'latin1');
  h.writeUInt32LE(k.length, 8);
  k.copy(h, 12);
  h.writeUInt32LE(payload.length, 12 + k.length);
  h.writeUInt32LE(checksum(payload), 16 + k.length);
  return Buffer.concat([h, payload]);
}

/** V8 cached data of another source of the bundle's length, and proof that V8 alone would run it. */
const FORGED = (() => {
  const r = spawnSync(process.execPath, [join(root, 'test/fixtures/forge-code-cache.cjs'), MAIN], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  });
  const made = JSON.parse(r.stderr.trim().split('\n').pop()!) as { data: string; accepted: boolean };
  return { payload: Buffer.from(made.data, 'base64'), accepted: made.accepted, ranForged: r.stdout === 'FORGED\n' };
})();

/** The run's outcome equals the uncached run's. */
function ranAsUncached(home: string, extra: Parameters<typeof run>[1] = {}): void {
  const r = run(home, extra);
  expect(r.stdout).not.toContain('FORGED');
  expect(r).toEqual(REFERENCE);
}

/** Whether `file` is a whole cache file of this program under `key`, written by the program (not the forgery). */
function wholeCache(file: string, key: string): boolean {
  const b = readFileSync(file);
  const k = Buffer.byteLength(key);
  const payload = b.subarray(20 + k);
  return (
    b.subarray(0, 8).toString('latin1') === 'AXV8CC02' &&
    b.toString('utf8', 12, 12 + k) === key &&
    b.readUInt32LE(12 + k) === payload.length &&
    b.readUInt32LE(16 + k) === checksum(payload) &&
    !payload.equals(FORGED.payload) &&
    payload.length > 1000
  );
}

describe('the code cache trusts nothing it did not write', () => {
  it('the forgery is real: V8 accepts another source’s cached data of the same length and runs its code', () => {
    expect(FORGED.accepted).toBe(true);
    expect(FORGED.ranForged).toBe(true);
  });

  it('a forged payload under the genuine header (length patched, CRC left) is not run; the file is written again', () => {
    const p = primed();
    const head = readFileSync(p.file).subarray(0, 20 + Buffer.byteLength(p.key));
    const forged = Buffer.concat([head, FORGED.payload]);
    forged.writeUInt32LE(FORGED.payload.length, 12 + Buffer.byteLength(p.key));
    writeFileSync(p.file, forged, { mode: 0o600 });
    ranAsUncached(p.home);
    expect(wholeCache(p.file, p.key)).toBe(true); // written again by this run
  });

  it('V8 data alone (no header, as caches used to be) and a whole forged file under another key are not run', () => {
    const p = primed();
    writeFileSync(p.file, FORGED.payload, { mode: 0o600 });
    ranAsUncached(p.home);
    writeFileSync(p.file, cacheFile(`${p.key}-other`, FORGED.payload), { mode: 0o600 });
    ranAsUncached(p.home);
  });

  it('a symlink at the cache file’s name is not followed: not read, replaced by a file, its target untouched', () => {
    const p = primed();
    const elsewhere = join(p.home, 'planted.bin');
    writeFileSync(elsewhere, cacheFile(p.key, FORGED.payload), { mode: 0o600 });
    rmSync(p.file);
    symlinkSync(elsewhere, p.file);
    ranAsUncached(p.home);
    expect(lstatSync(p.file).isSymbolicLink()).toBe(false);
    expect(wholeCache(p.file, p.key)).toBe(true);
    expect(readFileSync(elsewhere).equals(cacheFile(p.key, FORGED.payload))).toBe(true);
  });

  it('a FIFO at the cache file’s name is not waited on: the run compiles from source and writes a file there', () => {
    const p = primed();
    rmSync(p.file);
    execFileSync('mkfifo', [p.file]); // opening it for reading would block until a writer came
    ranAsUncached(p.home);
    expect(lstatSync(p.file).isFile()).toBe(true);
    expect(wholeCache(p.file, p.key)).toBe(true);
  });

  it('a hard-linked cache file, or one writable by others, is not read', () => {
    const p = primed();
    const forged = cacheFile(p.key, FORGED.payload); // a file that passes every check of its content
    rmSync(p.file);
    writeFileSync(join(p.home, 'other-name.bin'), forged, { mode: 0o600 });
    linkSync(join(p.home, 'other-name.bin'), p.file);
    ranAsUncached(p.home);
    rmSync(p.file);
    writeFileSync(p.file, forged);
    chmodSync(p.file, 0o666);
    ranAsUncached(p.home);
  });

  it.each([
    ['group-writable', 0o770],
    ['world-writable', 0o777],
  ])('a %s cache directory is neither read nor written', (_, mode) => {
    const p = primed();
    writeFileSync(p.file, cacheFile(p.key, FORGED.payload), { mode: 0o600 });
    chmodSync(p.dir, mode);
    ranAsUncached(p.home);
    expect(readFileSync(p.file).equals(cacheFile(p.key, FORGED.payload))).toBe(true); // not written either
  });

  it('a symlink for the cache directory is not followed', () => {
    const p = primed();
    writeFileSync(p.file, cacheFile(p.key, FORGED.payload), { mode: 0o600 });
    const real = join(p.home, 'real-v8');
    rmSync(real, { recursive: true, force: true });
    renameSync(p.dir, real);
    symlinkSync(real, p.dir);
    ranAsUncached(p.home);
  });

  it.runIf(asRoot)(
    'a cache directory owned by another user is not read (root running with a user’s HOME, as under sudo -E; skipped unless run as root, which alone can make another user’s files)',
    () => {
      const p = primed();
      writeFileSync(p.file, cacheFile(p.key, FORGED.payload), { mode: 0o644 });
      chownSync(p.file, NOBODY, NOBODY);
      chownSync(p.dir, NOBODY, NOBODY);
      ranAsUncached(p.home);
      expect(readFileSync(p.file).equals(cacheFile(p.key, FORGED.payload))).toBe(true);
    },
  );

  it.runIf(asRoot)(
    'run as nobody, a cache directory another user (root) owns is not read (skipped unless run as root, which alone can run as nobody)',
    () => {
      const p = primed();
      chmodSync(p.dir, 0o755);
      chmodSync(join(p.home, '.cache'), 0o755);
      chmodSync(join(p.home, '.cache/ax-ts'), 0o755);
      writeFileSync(p.file, cacheFile(p.key, FORGED.payload), { mode: 0o644 }); // readable by nobody
      const r = run(p.home, { uid: NOBODY, gid: NOBODY });
      expect(r.stdout).not.toContain('FORGED');
      expect(r).toEqual(REFERENCE);
    },
  );

  it('one flipped bit anywhere, or a truncation, is ignored and the file written again', () => {
    const p = primed();
    const genuine = readFileSync(p.file);
    const at = [12, 40, 200, genuine.length >> 3, genuine.length >> 1, genuine.length - 100, genuine.length - 1];
    for (const [i, pos] of at.entries()) {
      const bad = Buffer.from(genuine);
      bad[pos] = bad[pos]! ^ (1 << (i % 8));
      writeFileSync(p.file, bad, { mode: 0o600 });
      ranAsUncached(p.home);
      expect(wholeCache(p.file, p.key), `bit at ${pos}`).toBe(true);
    }
    for (const len of [0, 10, genuine.length >> 1, genuine.length - 1]) {
      writeFileSync(p.file, genuine.subarray(0, len), { mode: 0o600 });
      ranAsUncached(p.home);
      expect(wholeCache(p.file, p.key), `truncated to ${len}`).toBe(true);
    }
  });

  it('files of the cache directory are written with random names and mode 0600 in a 0700 directory', () => {
    const p = primed();
    expect(lstatSync(p.dir).mode & 0o777).toBe(0o700);
    expect(lstatSync(p.file).mode & 0o777).toBe(0o600);
    expect(readdirSync(p.dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(wholeCache(p.file, p.key)).toBe(true);
  });
});
