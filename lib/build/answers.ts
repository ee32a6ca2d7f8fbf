/**
 * Answers a built program's entry gives without running the program (docs/shipping.md): a bare
 * `--version` / `--help` from the answers the build precomputed, and a bare `__schema [--as=X]`
 * from the schema manifest beside the entry, each only while the build it came from is unchanged.
 * Compiled into the entry (entry.ts): Node built-ins only.
 */
import { openSync, readFileSync, readSync, closeSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { stdStat } from '../platform/std-stat.ts';
import type { BuildFacts } from './facts.ts';

/** The format of a schema manifest's index.json (manifest.ts writes it). */
export const MANIFEST_FORMAT = 'ax-ts/schema-manifest/2';

/** Random bytes from the OS CSPRNG (/dev/urandom; Web Crypto where it is missing). */
export function randomBytes(n: number): Buffer {
  const b = Buffer.allocUnsafe(n);
  try {
    const fd = openSync('/dev/urandom', 'r');
    try {
      if (readSync(fd, b, 0, n, null) === n) return b;
    } finally {
      closeSync(fd);
    }
  } catch {
    /* fall back below */
  }
  globalThis.crypto.getRandomValues(b);
  return b;
}

/** Writes the whole text to fd 1 or returns false (nothing written: let the real program answer). */
function writeOut(text: string): boolean {
  const buf = Buffer.from(text);
  try {
    if (buf.length > 4096) return false; // only pipe-atomic sizes: all or nothing
    return writeSync(1, buf) === buf.length;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EPIPE') process.exit(141); // the reader has gone, as main() reports it
    return false;
  }
}

/** Writes all of `buf` to fd 1 (waiting out EAGAIN); false only if nothing could be written. */
function writeAll(buf: Buffer): boolean {
  let at = 0;
  let waits = 0;
  while (at < buf.length) {
    try {
      at += writeSync(1, buf, at, buf.length - at);
      waits = 0;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') process.exit(141);
      if (code === 'EAGAIN' && waits++ < 6000) {
        // a non-blocking pipe is full: let the reader catch up
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        continue;
      }
      if (at === 0) return false;
      process.stderr.write(`cannot write to stdout: ${(e as Error).message}\n`);
      process.exit(1);
    }
  }
  return true;
}

/** The shape a bare `__schema [--as=X | --as X]` asks for, else undefined. */
export function schemaShape(args: readonly string[]): string | undefined {
  if (args[0] !== '__schema') return undefined;
  if (args.length === 1) return 'ax';
  if (args.length === 2 && args[1]!.startsWith('--as=')) return args[1]!.slice(5);
  if (args.length === 3 && args[1] === '--as') return args[2];
  return undefined;
}

interface ManifestIndex {
  format?: unknown;
  hash?: unknown;
  docs?: Record<string, number>;
  files?: Record<string, { size: number; mtimeMs: number }>;
}

/**
 * Answers `__schema` from the manifest `<name>.schema/` beside the entry, when it was made from
 * this very build and no file of the program has changed since (the build's content hash, the
 * size and mtime of the bundle and of each lazy chunk).
 */
function fromManifest(facts: BuildFacts, dir: string, shape: string): boolean {
  const mdir = join(dir, `${facts.name}.schema`);
  let index: ManifestIndex;
  try {
    index = JSON.parse(readFileSync(join(mdir, 'index.json'), 'utf8')) as ManifestIndex;
  } catch {
    return false;
  }
  if (index.format !== MANIFEST_FORMAT || index.hash !== facts.hash || !index.docs || !Object.hasOwn(index.docs, shape))
    return false;
  if (!index.files || !index.files[facts.main]) return false;
  for (const [f, sig] of Object.entries(index.files)) {
    try {
      const st = statSync(join(dir, f));
      if (st.size !== sig.size || st.mtimeMs !== sig.mtimeMs) return false;
    } catch {
      return false;
    }
  }
  let buf: Buffer;
  try {
    buf = readFileSync(join(mdir, `${shape}.out`));
  } catch {
    return false;
  }
  if (buf.length !== index.docs[shape]) return false; // a half-written document
  return writeAll(buf);
}

/**
 * Answers a bare `--version`, `--help` or `__schema` from what the build computed ahead; false
 * when it may not (`AX_PRECOMPUTED=0`, `AGENT_MODE` set, other arguments, a changed bundle).
 */
export function precomputed(facts: BuildFacts, dir: string, args: readonly string[]): boolean {
  const env = process.env;
  if (env.AX_PRECOMPUTED === '0' || (env.AGENT_MODE ?? '').trim() !== '') return false;
  const shape = schemaShape(args);
  if (shape !== undefined) return fromManifest(facts, dir, shape);
  const a = facts.answers;
  if (!a || args.length !== 1) return false;
  try {
    if (statSync(join(dir, facts.main)).size !== facts.size) return false; // not the bundle the answers came from
  } catch {
    return false;
  }
  if (a.help !== undefined && (args[0] === '--help' || args[0] === '-h')) return writeOut(a.help);
  if (args[0] !== '--version' || a.version === undefined) return false;
  // json mode only (stdout a pipe, file or socket); a terminal or a character device: the real program
  try {
    const out = stdStat(1);
    if (!(out.isFIFO() || out.isFile() || out.isSocket())) return false;
  } catch {
    return false;
  }
  const r = randomBytes(40); // 16 bytes trace id, 8 span id, 16 UUID
  r[30] = (r[30]! & 0x0f) | 0x40; // UUID v4: version nibble
  r[32] = (r[32]! & 0x3f) | 0x80; // and variant bits
  const h = r.toString('hex');
  const uuid = `${h.slice(48, 56)}-${h.slice(56, 60)}-${h.slice(60, 64)}-${h.slice(64, 68)}-${h.slice(68, 80)}`;
  return writeOut(
    a.version
      .replace('@TRACE_ID@', h.slice(0, 32))
      .replace('@SPAN_ID@', h.slice(32, 48))
      .replace('@IDEMPOTENCY_KEY@', uuid),
  );
}
