/**
 * Whether a directory may be trusted with what the program records in it (replayed outcomes,
 * caches): nobody but the current user (and root) may be able to change what it holds. The rule
 * is OpenSSH's for `~/.ssh` (StrictModes, `secure_path`), applied to the directory and every
 * directory above it: each is a real directory owned by the current user or root, and writable by
 * nobody else — except a directory with the sticky bit owned by root (`/tmp`), where others may
 * add names but not rename or remove ours. So a state directory another local user created (a
 * shared `XDG_STATE_HOME`), or one below a directory they can write, is refused rather than read.
 * Where the platform has no user ids (Windows), nothing is checked. docs/security.md has the model.
 */
import { lstatSync, mkdirSync, realpathSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Why a directory is not trusted: the directory at fault and what is wrong with it. */
export interface Untrusted {
  /** The directory at fault (the one asked about or one above it), as resolved. */
  path: string;
  /** `not_a_directory`, `foreign_owner` (another user owns it) or `writable_by_others`. */
  reason: 'not_a_directory' | 'foreign_owner' | 'writable_by_others';
  /** The owner's user id (for `foreign_owner`). */
  uid?: number;
  /** The mode bits, as octal text (`0777`). */
  mode?: string;
}

/** The sticky bit (S_ISVTX). */
const STICKY = 0o1000;

/** What is wrong with one directory of the chain, if anything (`leaf`: the one asked about). */
function fault(path: string, st: Stats, me: number, leaf: boolean): Untrusted | undefined {
  const mode = `0${(st.mode & 0o7777).toString(8)}`;
  if (!st.isDirectory()) return { path, reason: 'not_a_directory', mode };
  if (st.uid !== me && st.uid !== 0) return { path, reason: 'foreign_owner', uid: st.uid, mode };
  // the directory itself must be ours alone; above it, a root-owned sticky directory (/tmp) is fine
  if ((st.mode & 0o022) !== 0 && (leaf || !(st.mode & STICKY) || st.uid !== 0))
    return { path, reason: 'writable_by_others', mode };
  if (leaf && st.uid !== me) return { path, reason: 'foreign_owner', uid: st.uid, mode };
  return undefined;
}

/**
 * Checks `dir` (which must exist) and every directory above it, after resolving symbolic links.
 * @returns undefined when it may be trusted, else what is wrong (the first fault from the top).
 * @throws the file system's error when a directory cannot be examined (ENOENT, EACCES).
 */
export function untrustedDirectory(dir: string): Untrusted | undefined {
  return checkChain(dir, true);
}

/** {@link untrustedDirectory}'s walk; `leaf` false checks `dir` by the rule of the directories above. */
function checkChain(dir: string, leaf: boolean): Untrusted | undefined {
  const me = typeof process.getuid === 'function' ? process.getuid() : undefined;
  if (me === undefined) return undefined;
  const real = realpathSync(resolve(dir));
  const chain: string[] = [];
  for (let d = real; ; d = dirname(d)) {
    chain.unshift(d);
    if (dirname(d) === d) break;
  }
  for (const d of chain) {
    const found = fault(d, lstatSync(d), me, leaf && d === real);
    if (found) return found;
  }
  return undefined;
}

/**
 * Makes `dir` (and what is missing above it) with mode 0700, then checks it as
 * {@link untrustedDirectory} does. The nearest directory that exists is checked first, so nothing
 * is created below one that cannot be trusted; each level is made on its own ({@link makeDirectories}).
 * @returns undefined when it may be trusted, else what is wrong.
 * @throws the file system's error when it cannot be made or examined.
 */
export function privateDirectory(dir: string): Untrusted | undefined {
  const missing = missingDirectories(dir);
  if (missing.length) {
    const above = checkChain(dirname(missing[0]!), false);
    if (above) return above;
    makeDirectories(missing);
  }
  return untrustedDirectory(dir);
}

/**
 * What {@link privateDirectory} would find before making `dir`, without making anything: for a `dir`
 * that does not exist, the nearest directory above it that does, checked by the rule of the
 * directories above; for one that exists, {@link untrustedDirectory}.
 * @returns undefined when it could be made and trusted, else what is wrong.
 * @throws the file system's error when a directory cannot be examined.
 */
export function untrustedToMake(dir: string): Untrusted | undefined {
  const missing = missingDirectories(dir);
  return missing.length ? checkChain(dirname(missing[0]!), false) : untrustedDirectory(dir);
}

/**
 * The directories of `dir`'s path that do not exist yet, outermost first (empty when `dir` exists).
 * @throws the file system's error other than ENOENT, or ENOENT when not even the root exists.
 */
export function missingDirectories(dir: string): string[] {
  const missing: string[] = [];
  for (let d = resolve(dir); ; d = dirname(d)) {
    try {
      lstatSync(d);
      return missing;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(d) === d) throw e;
      missing.unshift(d);
    }
  }
}

/**
 * Makes each of `dirs` (outermost first, as {@link missingDirectories} lists them) with mode 0700,
 * one level at a time: `mkdirSync`'s `recursive` loops forever, at full CPU, where a parent exists
 * but refuses children with ENOENT, as `/proc/self` does. One made meanwhile by another process is
 * fine. @throws the file system's error.
 */
export function makeDirectories(dirs: readonly string[]): void {
  for (const d of dirs) {
    try {
      mkdirSync(d, { mode: 0o700 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}
