/**
 * The V8 code cache of a built program (docs/shipping.md#the-code-cache): the compiled code of the
 * bundle and of each chunk it loads, kept per user so a later start skips compiling. V8 checks
 * only the source's length before it runs cached code, so the cache is code: nothing another user
 * could have written is read, and nothing is trusted that was not written whole by this program.
 * - **Where:** `$XDG_CACHE_HOME/ax-ts/v8` (an absolute `XDG_CACHE_HOME`), else `~/.cache/ax-ts/v8`;
 *   never a shared temporary directory. Used only while that directory is a directory (not a
 *   symlink) owned by this process's user and writable by no one else (`lstat`); each file only
 *   while it is a regular file (opened without following a symlink, and without waiting: a FIFO is
 *   refused, not blocked on) owned by this user, with one link and no write bit for others (`fstat`
 *   of the open file).
 * - **What:** a header (magic, the file's key — program, installation, Node version, architecture,
 *   build hash, bundle size and mtime, variant — and a checksum of the payload, checksum.ts), then
 *   V8's cached data. Another key, a payload that does not match its sum (a flipped bit, a truncation, another
 *   program's cache of the same length) is not given to V8: the script compiles from source and
 *   the file is written again.
 * - **Written** at exit of a run that exited 0, for each script that had no usable cache: to a new
 *   file with a random name (`O_CREAT|O_EXCL|O_NOFOLLOW`, mode 0600), then renamed over the old.
 * - `AX_CODE_CACHE=0` turns it off; so does a single executable (SEA) or a bun-compiled binary.
 * Compiled into the entry (entry.ts): Node built-ins only.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { randomBytes } from './answers.ts';
import { checksum } from './checksum.ts';
import { makeDirectories, missingDirectories } from '../platform/trust.ts';

/** The first bytes of every cache file: its format. */
const MAGIC = Buffer.from('AXV8CC02', 'latin1');
/** Largest cache file read, bytes: past it the file is not a cache this program wrote. */
const MAX_BYTES = 256 * 1024 * 1024;

/** Where one program's caches live and the key of this build. */
export interface CacheSite {
  dir: string;
  /** Start of every file name of this installation (any build). */
  prefix: string;
  /** Start of every file name of this build. */
  key: string;
  /** Added to the key in this run's file names: runs under other V8 flags keep files of their own. */
  variant: string;
}

/** FNV-1a, 32 bits, as 8 hex digits: a short, stable name for a directory. */
function fnv(s: string): string {
  let x = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) x = Math.imul(x ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return x.toString(16).padStart(8, '0');
}

/**
 * Whether `dir` may hold a cache this process reads or writes: a real directory (not a symlink)
 * owned by this process's user, not writable by group or others.
 */
function trusted(dir: string): boolean {
  if (typeof process.getuid !== 'function') return false;
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === process.getuid() && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * The cache site of the bundle `file` of program `name` (build `hash`), or undefined when the
 * cache is off or has no home. `variant` separates runs made under other V8 flags.
 */
export function cacheSite(name: string, hash: string, file: string, variant: string): CacheSite | undefined {
  const env = process.env;
  if (env.AX_CODE_CACHE === '0') return undefined;
  try {
    const xdg = env.XDG_CACHE_HOME;
    const base = xdg && isAbsolute(xdg) ? xdg : env.HOME && isAbsolute(env.HOME) ? join(env.HOME, '.cache') : undefined;
    if (!base) return undefined;
    const st = statSync(file);
    const prefix = `${name}-${fnv(join(file, '..'))}-`;
    return {
      dir: join(base, 'ax-ts', 'v8'),
      prefix,
      key: `${prefix}${process.version}-${process.arch}-${hash}-${st.size}-${Math.floor(st.mtimeMs)}`,
      variant,
    };
  } catch {
    return undefined;
  }
}

/** The header of a cache file for `key` and `payload`. */
function header(key: string, payload: Uint8Array): Buffer {
  const k = Buffer.from(key, 'utf8');
  const h = Buffer.alloc(MAGIC.length + 12 + k.length);
  MAGIC.copy(h, 0);
  h.writeUInt32LE(k.length, MAGIC.length);
  k.copy(h, MAGIC.length + 4);
  h.writeUInt32LE(payload.length, MAGIC.length + 4 + k.length);
  h.writeUInt32LE(checksum(payload), MAGIC.length + 8 + k.length);
  return h;
}

/**
 * The cached data of script `tag` when a trusted, whole cache file for this build holds it; else
 * undefined (compile from source). Never throws.
 */
export function readCache(site: CacheSite, tag: string): Buffer | undefined {
  if (!trusted(site.dir)) return undefined;
  let fd: number | undefined;
  try {
    // O_NONBLOCK: a FIFO (or a device) planted at the name is opened without waiting for a writer,
    // then refused by the fstat below; a regular file reads as ever
    fd = openSync(
      join(site.dir, `${site.key}${site.variant}${tag}.bin`),
      constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0),
    );
    const st = fstatSync(fd);
    if (!st.isFile() || st.uid !== process.getuid!() || (st.mode & 0o022) !== 0 || st.nlink !== 1) return undefined;
    if (st.size > MAX_BYTES) return undefined;
    const buf = Buffer.allocUnsafe(st.size);
    let at = 0;
    while (at < buf.length) {
      const n = readSync(fd, buf, at, buf.length - at, at);
      if (n === 0) return undefined; // shorter than it was: being replaced
      at += n;
    }
    const key = `${site.key}${site.variant}${tag}`;
    const keyLen = Buffer.byteLength(key, 'utf8');
    const start = MAGIC.length + 12 + keyLen;
    if (buf.length <= start || !buf.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    if (buf.readUInt32LE(MAGIC.length) !== keyLen) return undefined;
    if (buf.toString('utf8', MAGIC.length + 4, MAGIC.length + 4 + keyLen) !== key) return undefined;
    const payload = buf.subarray(start);
    if (buf.readUInt32LE(MAGIC.length + 4 + keyLen) !== payload.length) return undefined;
    if (buf.readUInt32LE(MAGIC.length + 8 + keyLen) !== checksum(payload)) return undefined;
    return payload;
  } catch {
    return undefined; // no cache yet, unreadable, a symlink (ELOOP): compile from source
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Creates `dir` (mode 0700) and those above it that are missing; true when it is then trusted. */
function ensureDir(dir: string): boolean {
  try {
    makeDirectories(missingDirectories(dir));
  } catch {
    return false;
  }
  return trusted(dir);
}

/**
 * Writes the cached data of each `[tag, data]` (see the module comment) and removes the files of
 * this installation under another key. Fails silently: the next run compiles from source again.
 */
export function writeCaches(site: CacheSite, entries: readonly [string, Buffer][]): void {
  if (!ensureDir(site.dir)) return;
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  for (const [tag, data] of entries) {
    const key = `${site.key}${site.variant}${tag}`;
    const tmp = join(site.dir, `.${randomBytes(12).toString('hex')}.tmp`);
    let fd: number | undefined;
    try {
      fd = openSync(tmp, flags, 0o600);
      for (const part of [header(key, data), data]) {
        for (let at = 0; at < part.length;) at += writeSync(fd, part, at, part.length - at);
      }
      closeSync(fd);
      fd = undefined;
      renameSync(tmp, join(site.dir, `${key}.bin`)); // replaces a file or a planted symlink, never follows it
    } catch {
      if (fd !== undefined) closeSync(fd);
      rmSync(tmp, { force: true });
    }
  }
  try {
    for (const n of readdirSync(site.dir)) {
      // caches of this same installation under another key (another build, another Node) are dead weight
      if (n.startsWith(site.prefix) && !n.startsWith(site.key) && n.endsWith('.bin'))
        rmSync(join(site.dir, n), { force: true });
    }
  } catch {
    /* unreadable: leave them */
  }
}
