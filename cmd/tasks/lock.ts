/**
 * The store's cross-process lock, robust to `kill -9` at any instant: a lock file is created
 * atomically (written whole to a temp file, then hard-linked into place), so it always names its
 * owner (pid, creation time, token); a lock whose owner is dead (no such process, or a zombie) is
 * removed at once, one older than {@link STALE_LOCK_MS} as well. Temp files of killed lockers are
 * removed by the next locker.
 */
import { promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';

/** A lock older than this (milliseconds) is considered stale even if its holder pid looks alive. */
export const STALE_LOCK_MS = 30_000;

/** A lock file with no readable owner (written by something else) is stale after this long, ms. */
const UNREADABLE_STALE_MS = 1000;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const errCode = (e: unknown): string | undefined => (isObj(e) && typeof e.code === 'string' ? e.code : undefined);

/**
 * `n` random bytes as hex (temp-file names, lock tokens). `node:crypto` comes through
 * `process.getBuiltinModule` on first use: a run that never writes never loads it (docs/performance.md).
 */
export function randomHex(n: number): string {
  return process.getBuiltinModule('node:crypto').randomBytes(n).toString('hex');
}

/** Waits `ms` milliseconds; rejects with the signal's reason if it aborts first (no node:timers/promises at start). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Whether process `pid` is gone: no such process, or a zombie (killed, not yet reaped; Linux). */
export function processDead(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return errCode(e) === 'ESRCH';
  }
  if (process.platform !== 'linux') return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return true; // vanished between the two checks
  }
}

/** A lock held by this process. */
export interface HeldLock {
  path: string;
  token: string;
}

/** What a lock file says about its owner. */
export interface LockInfo {
  pid?: number;
  token?: string;
  stale: boolean;
}

/** Why a lock could not be handled: the path and the underlying error (mapped to store_io by the caller). */
export class LockIoError extends Error {
  constructor(
    readonly path: string,
    readonly action: string,
    cause: unknown,
  ) {
    super(`Cannot ${action} ${path}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/**
 * Creates `target` holding `{pid, created_at, token}`, atomically: true if created, false if it
 * exists. The content is written to `<target>.<pid>.<random>.tmp` first and linked into place, so
 * the file never exists empty or half-written. @throws LockIoError on other failures.
 */
async function claim(target: string, token: string): Promise<boolean> {
  const tmp = `${target}.${process.pid}.${randomHex(6)}.tmp`;
  try {
    await fs.writeFile(tmp, `${JSON.stringify({ pid: process.pid, created_at: new Date().toISOString(), token })}\n`, {
      mode: 0o600,
      flag: 'wx',
    });
    await fs.link(tmp, target);
    return true;
  } catch (e) {
    if (errCode(e) === 'EEXIST') return false;
    throw new LockIoError(target, 'create lock file', e);
  } finally {
    await fs.unlink(tmp).catch(() => {});
  }
}

/** Reads a lock (or guard) file; null if absent. */
export async function inspectLock(lockPath: string): Promise<LockInfo | null> {
  let raw: string;
  let mtimeMs: number;
  try {
    [raw, mtimeMs] = await Promise.all([fs.readFile(lockPath, 'utf8'), fs.stat(lockPath).then((s) => s.mtimeMs)]);
  } catch (e) {
    if (errCode(e) === 'ENOENT') return null;
    throw new LockIoError(lockPath, 'read lock file', e);
  }
  let body: Obj = {};
  try {
    const p: unknown = JSON.parse(raw);
    if (isObj(p)) body = p;
  } catch {
    /* not ours: judged by its age */
  }
  const pid = Number.isSafeInteger(body.pid) && (body.pid as number) > 0 ? (body.pid as number) : undefined;
  const at = typeof body.created_at === 'string' ? Date.parse(body.created_at) : NaN;
  const age = Date.now() - (Number.isNaN(at) ? mtimeMs : at);
  const stale = pid === undefined ? age > UNREADABLE_STALE_MS : age > STALE_LOCK_MS || processDead(pid);
  return { pid, token: typeof body.token === 'string' ? body.token : undefined, stale };
}

/**
 * Removes `file` only if it still holds `token` (undefined: a file without one): it is moved aside
 * first (atomic), checked, and linked back if it turned out to be someone else's fresh file.
 */
async function removeIfSame(file: string, token: string | undefined): Promise<boolean> {
  const aside = `${file}.${process.pid}.${randomHex(6)}.tmp`;
  try {
    await fs.rename(file, aside);
  } catch {
    return false; // gone already
  }
  let same: boolean;
  try {
    const body: unknown = JSON.parse(await fs.readFile(aside, 'utf8'));
    same = isObj(body) && body.token === token;
  } catch {
    same = token === undefined;
  }
  if (!same) await fs.link(aside, file).catch(() => {}); // put a fresh one back (if no one took the place meanwhile)
  await fs.unlink(aside).catch(() => {});
  return same;
}

/**
 * Removes a stale lock; true if it did. A `<lock>.break` guard (claimed like a lock, broken like
 * one when its owner died) and a re-check under it stop a slow breaker from deleting a lock that
 * another process freshly took after an earlier break.
 */
async function breakStaleLock(lockPath: string, staleToken: string | undefined): Promise<boolean> {
  const guard = `${lockPath}.break`;
  const mine = randomHex(8);
  if (!(await claim(guard, mine))) {
    const g = await inspectLock(guard);
    if (g?.stale || (g && g.pid === undefined)) await removeIfSame(guard, g.token);
    return false;
  }
  try {
    const now = await inspectLock(lockPath);
    if (!now?.stale || now.token !== staleToken) return false;
    return await removeIfSame(lockPath, staleToken);
  } finally {
    await removeIfSame(guard, mine);
  }
}

/**
 * Deletes `<base>.<pid>.<hex>.tmp` files in `dir`, for each of `bases`, whose pid is dead (left by
 * a killed process).
 */
export async function sweepTemps(dir: string, bases: string[]): Promise<void> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return;
  }
  const alt = bases.map((b) => b.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const re = new RegExp(`^(?:${alt})\\.(\\d+)\\.[0-9a-f]+\\.tmp$`);
  for (const n of names) {
    const m = re.exec(n);
    if (!m) continue;
    const pid = Number(m[1]);
    if (processDead(pid)) await fs.unlink(path.join(dir, n)).catch(() => {});
  }
}

/**
 * Takes `lockPath`, waiting up to `timeoutMs` (polling every 5–25 ms).
 * @returns the held lock, or `{timedOut}` with the holder's pid when it could not be taken in time.
 * @throws LockIoError; the signal's reason when `signal` aborts; RangeError for a negative/NaN timeout.
 */
export async function acquireLock(
  lockPath: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<HeldLock | { timedOut: true; pid?: number }> {
  if (!(timeoutMs >= 0)) throw new RangeError(`lockTimeoutMs must be >= 0, got ${timeoutMs}`);
  const deadline = Date.now() + timeoutMs;
  const token = randomHex(8);
  for (;;) {
    signal?.throwIfAborted();
    if (await claim(lockPath, token)) return { path: lockPath, token };
    const info = await inspectLock(lockPath);
    if (info?.stale && (await breakStaleLock(lockPath, info.token))) continue;
    if (info && Date.now() >= deadline) return { timedOut: true, pid: info.pid };
    await sleep(5 + Math.random() * 20, signal).catch((e: unknown) => {
      throw signal?.aborted ? signal.reason : e;
    });
  }
}

/** Deletes the lock only if it is still ours (it may have been broken as stale and re-taken by someone else). */
export async function releaseLock(lock: HeldLock): Promise<void> {
  try {
    if ((await inspectLock(lock.path))?.token === lock.token) await removeIfSame(lock.path, lock.token);
  } catch {
    /* nothing useful to do; a leftover lock is broken as stale later */
  }
}
