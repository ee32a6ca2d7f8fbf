/**
 * Persistence of the `tasks` demo CLI: one JSON file, read-modify-write under a cross-process lock
 * (lock.ts), atomic replace. A symlinked store is written through to its target, keeping its mode.
 */
import { closeSync, fstatSync, openSync, promises as fs, readSync } from 'node:fs';
import * as path from 'node:path';
import { acquireLock, LockIoError, randomHex, releaseLock, sweepTemps } from './lock.ts';

export { STALE_LOCK_MS } from './lock.ts';

/** Lifecycle state of a task. */
export type TaskStatus = 'open' | 'done';

/** One task. `created_at`/`done_at` are ISO-8601 timestamps; `due` is the date string the CLI accepted, or null. */
export interface Task {
  id: number;
  title: string;
  status: TaskStatus;
  tags: string[];
  due: string | null;
  created_at: string;
  done_at: string | null;
}

/** Remembered outcome of an idempotent command: `fingerprint` is {@link fingerprintArgs} of its arguments. */
export interface IdempotencyEntry {
  fingerprint: string;
  result: Task;
}

/** Whole store file, format version 1. `next_id` (≥ 1) is greater than every task id in `tasks`. */
export interface StoreData {
  version: 1;
  next_id: number;
  tasks: Task[];
  idempotency: Record<string, IdempotencyEntry>;
}

/** Machine-readable reason of a {@link StoreError}. */
export type StoreErrorCode = 'store_corrupt' | 'store_locked' | 'store_io' | 'store_path_unknown';

/**
 * Every failure of this module that a user can act on. `path` is the file concerned
 * (store file, lock file or directory; '' when no path could be determined) and
 * `fix` is one human sentence saying what to do about it. The underlying error, if any, is `cause`.
 */
export class StoreError extends Error {
  readonly code: StoreErrorCode;
  readonly path: string;
  readonly fix: string;
  constructor(code: StoreErrorCode, message: string, filePath: string, fix: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
    this.code = code;
    this.path = filePath;
    this.fix = fix;
  }
}

/** Options of {@link updateStore}. */
export interface UpdateOptions {
  /** Aborts waiting for the lock (rejects with the signal's reason, an AbortError by default). */
  signal?: AbortSignal;
  /** How long to wait for the lock before throwing `store_locked`, in milliseconds. Default 10000. */
  lockTimeoutMs?: number;
}

/** Returns a new empty store: `{version: 1, next_id: 1, tasks: [], idempotency: {}}`. */
export function emptyStore(): StoreData {
  return { version: 1, next_id: 1, tasks: [], idempotency: {} };
}

/**
 * `node:crypto`, loaded on first use through `process.getBuiltinModule` (Node ≥ 22.3): most runs
 * (list, show, --version) never hash anything, and neither `node:module` (createRequire) nor Web
 * Crypto is loaded at start (each costs 2–4 ms, docs/performance.md).
 */
const nodeCrypto = (): typeof import('node:crypto') => process.getBuiltinModule('node:crypto');

/**
 * SHA-256 (lowercase hex) of the canonical JSON of `args`: object keys sorted recursively,
 * `undefined`-valued keys dropped. Used as the idempotency fingerprint.
 */
export function fingerprintArgs(args: unknown): string {
  const canon = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canon)
      : isObj(v)
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .filter((k) => v[k] !== undefined)
              .map((k) => [k, canon(v[k])]),
          )
        : v;
  return nodeCrypto()
    .createHash('sha256')
    .update(JSON.stringify(canon(args)) ?? 'null')
    .digest('hex');
}

/**
 * Absolute path of the store file. Precedence: `flagValue` (the --store flag), then `env.TASKS_FILE`
 * (both resolved against process.cwd() if relative), then `$XDG_DATA_HOME/ax-tasks/tasks.json`
 * (only if XDG_DATA_HOME is absolute, per the XDG spec), then `$HOME/.local/share/ax-tasks/tasks.json`.
 * Empty strings count as unset.
 * @throws StoreError `store_path_unknown` when none of these is available.
 */
export function resolveStorePath(flagValue: string | undefined, env: Record<string, string | undefined>): string {
  if (flagValue) return path.resolve(flagValue);
  if (env.TASKS_FILE) return path.resolve(env.TASKS_FILE);
  const xdg = env.XDG_DATA_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'ax-tasks', 'tasks.json');
  if (env.HOME) return path.resolve(env.HOME, '.local', 'share', 'ax-tasks', 'tasks.json');
  throw new StoreError(
    'store_path_unknown',
    'Cannot determine where the task store lives: neither HOME nor XDG_DATA_HOME is set.',
    '',
    'Pass --store <file> or set TASKS_FILE to the path of the store file.',
  );
}

/**
 * Reads and validates a store without locking (safe: writers replace the file atomically).
 * A missing file yields {@link emptyStore}. Never modifies the file.
 *
 * Synchronous: `JSON.parse` of the text holds the event loop anyway, for longer than reading the
 * file from the page cache does, so an asynchronous read would only add thread-pool hops (four of
 * them with `fs.promises.readFile`: −330 µs per MCP `show` in the measurement in docs/performance.md) and a promise
 * to every command that reads. A file over {@link MAX_STORE_BYTES} is refused once its first 64 KiB
 * are read (a stat then gives its size; a device, whose size no stat gives, once that much is read):
 * reading and parsing one would hold the process, and its signals, for seconds.
 * @throws StoreError `store_corrupt` if the file is not valid JSON or not a version-1 store;
 *   `store_io` if it is larger than {@link MAX_STORE_BYTES}, and on other read errors.
 */
export function readStore(filePath: string): StoreData {
  return loadStore(filePath).data;
}

/**
 * Read-modify-write of the store at `filePath` under an exclusive cross-process lock (`<file>.lock`,
 * next to the real file when `filePath` is a symlink). Creates missing parent directories (mode
 * 0o700). `mutate` gets the current data (empty store if the file is missing), edits it in place
 * and returns any value, which `updateStore` returns. Unless the serialised data equals the file's
 * current bytes, it is written atomically: `<file>.<pid>.<random>.tmp` in the same directory (the
 * file's mode, 0o600 for a new file), fsync, rename over the file, fsync the directory (best
 * effort). A symlink is followed (also a dangling one): its target is replaced, the link stays.
 * The lock is always released. Temp files of killed writers are removed.
 * Nothing is written if the store is corrupt (then `mutate` is not called) or if `mutate` throws
 * (its error propagates unchanged).
 * A lock whose holder is dead is removed at once; one older than {@link STALE_LOCK_MS} too.
 * @throws StoreError `store_corrupt` (also when `next_id` would pass 2^53 − 1), `store_locked` (lock
 *   not acquired within `lockTimeoutMs`), `store_io`; the signal's reason if `opts.signal` aborts
 *   while waiting; RangeError for a negative/NaN `lockTimeoutMs`; Error if `mutate` leaves the data
 *   in another invalid shape (nothing is written then either).
 */
export async function updateStore<T>(
  filePath: string,
  mutate: (data: StoreData) => T | Promise<T>,
  opts: UpdateOptions = {},
): Promise<T> {
  const file = await realTarget(path.resolve(filePath));
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 }).catch((e: unknown) => {
    throw ioError(dir, 'create directory', e);
  });
  const lockPath = `${file}.lock`;
  const timeoutMs = opts.lockTimeoutMs ?? 10_000;
  const lock = await acquireLock(lockPath, timeoutMs, opts.signal).catch((e: unknown) => {
    throw e instanceof LockIoError ? ioError(e.path, e.action, e.cause) : e;
  });
  if ('timedOut' in lock) {
    const holder = lock.pid !== undefined ? ` (held by pid ${lock.pid})` : '';
    throw new StoreError(
      'store_locked',
      `Store ${file} is locked by another process${holder}; gave up after ${timeoutMs} ms.`,
      lockPath,
      `Wait for the other tasks command to finish and retry; if none is running, delete the lock file ${lockPath}.`,
    );
  }
  try {
    // temps of killed writers and lockers
    await sweepTemps(dir, [path.basename(file), path.basename(lockPath), `${path.basename(lockPath)}.break`]);
    const { data, raw } = loadStore(file);
    const result = await mutate(data);
    if (typeof data.next_id === 'number' && !Number.isSafeInteger(data.next_id)) {
      throw new StoreError(
        'store_corrupt',
        `Store file ${file} cannot take another task: next_id would pass 2^53 − 1 (${Number.MAX_SAFE_INTEGER})`,
        file,
        `Renumber the tasks in ${file} (set next_id to one more than the highest id) or start a new store with --store / TASKS_FILE.`,
      );
    }
    const problem = shapeProblem(data);
    if (problem) throw new Error(`updateStore: mutate left the store in an invalid shape: ${problem}`);
    const text = `${JSON.stringify(data, null, 2)}\n`;
    if (text !== raw) await writeAtomic(file, text);
    return result;
  } finally {
    await releaseLock(lock);
  }
}

/** The file a path finally names: symlinks followed, a dangling one to the path it points to (at most 40 links). */
async function realTarget(file: string): Promise<string> {
  let p = file;
  for (let i = 0; i < 40; i++) {
    let target: string;
    try {
      target = await fs.readlink(p);
    } catch (e) {
      if (errCode(e) === 'EINVAL' || errCode(e) === 'ENOENT') break; // not a link, or nothing there
      throw ioError(p, 'read link', e);
    }
    p = path.resolve(path.dirname(p), target);
  }
  // a symlinked directory on the way: resolve it too, so the lock and temp files sit by the real file
  const dir = await fs.realpath(path.dirname(p)).catch(() => path.dirname(p));
  return path.join(dir, path.basename(p));
}

// ---- internals ----

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const errCode = (e: unknown): string | undefined => (isObj(e) && typeof e.code === 'string' ? e.code : undefined);
const errMsg = (e: unknown): string => (e instanceof Error ? e.message : String(e));

function ioError(p: string, action: string, e: unknown): StoreError {
  return new StoreError(
    'store_io',
    `Cannot ${action} ${p}: ${errMsg(e)}`,
    p,
    `Check that ${p} is accessible (permissions, free disk space) or choose another store with --store / TASKS_FILE.`,
    { cause: e },
  );
}

/**
 * The largest store file read, in bytes (64 MiB: some 300,000 tasks; a store of 1,000 is about
 * 200 KB). See {@link readStore}.
 */
export const MAX_STORE_BYTES = 64 * 1024 * 1024;

/** The first read of {@link readText} (64 KiB: a store of some 300 tasks; a larger one grows a buffer of its own). */
const FIRST_READ = 64 * 1024;
/** The buffer of every first read, kept (docs/performance.md: an MCP server reads the store on every call). */
let firstBuffer: Buffer | undefined;

/**
 * The file's text, or a StoreError `store_io` when it is larger than {@link MAX_STORE_BYTES}.
 * Reads into a buffer until the end of the file, without a stat for a small file (four system
 * calls: open, read, read, close); a file that fills the first buffer is measured before any more
 * of it is read, so a file over the limit is refused at once, and one whose size cannot be known
 * (a device) is refused once that much has been read. @throws the fs error.
 */
function readText(file: string): string {
  const fd = openSync(file, 'r');
  try {
    let buf = (firstBuffer ??= Buffer.allocUnsafe(FIRST_READ));
    let n = 0;
    for (;;) {
      if (n === buf.length) {
        const size = n === FIRST_READ ? fstatSync(fd).size : 0;
        if (size > MAX_STORE_BYTES || n > MAX_STORE_BYTES) {
          throw new StoreError(
            'store_io',
            `Store file ${file} ${size > MAX_STORE_BYTES ? `is ${size} bytes,` : 'holds'} more than the ${MAX_STORE_BYTES / 1024 / 1024} MiB tasks reads`,
            file,
            `Move ${file} away (e.g. mv '${file}' '${file}.big') and start a new store, or choose another one with --store / TASKS_FILE.`,
          );
        }
        const bigger = Buffer.allocUnsafe(Math.min(Math.max(size + 1, 2 * n), MAX_STORE_BYTES + 1));
        buf.copy(bigger, 0, 0, n);
        buf = bigger;
      }
      const r = readSync(fd, buf, n, buf.length - n, null);
      if (r === 0) break;
      n += r;
    }
    return buf.toString('utf8', 0, n);
  } finally {
    closeSync(fd);
  }
}

/** The store's data and its text as read (null when the file is missing); see {@link readStore}. */
function loadStore(file: string): { data: StoreData; raw: string | null } {
  let raw: string;
  try {
    raw = readText(file);
  } catch (e) {
    if (errCode(e) === 'ENOENT') return { data: emptyStore(), raw: null };
    throw e instanceof StoreError ? e : ioError(file, 'read store file', e);
  }
  let parsed: unknown;
  let problem: string | null;
  try {
    parsed = JSON.parse(raw);
    problem = shapeProblem(parsed);
  } catch (e) {
    problem = jsonProblem(e);
  }
  if (!problem) return { data: parsed as StoreData, raw };
  throw new StoreError(
    'store_corrupt',
    `Store file ${file} is corrupt: ${problem}`,
    file,
    `Repair ${file} by hand or move it away (e.g. mv '${file}' '${file}.bak'); a missing store file is treated as empty.`,
  );
}

/**
 * What is wrong with unparsable store text, without quoting any of it: JSON.parse's own message
 * cites the file's content, which must never reach an error message (an agent reads those).
 */
function jsonProblem(e: unknown): string {
  const at = /position (\d+)/.exec(errMsg(e));
  return at ? `invalid JSON (at byte offset ${at[1]})` : 'invalid JSON';
}

const strOrNull = (v: unknown) => v === null || typeof v === 'string';
const allStrings = (a: unknown[]) => {
  for (let i = 0; i < a.length; i++) if (typeof a[i] !== 'string') return false;
  return true;
};

// Checked on every read of the store (1,000 tasks in the benchmark's `list`): plain loops, no
// per-task closures or iterators.
function taskProblem(t: unknown): string | null {
  if (!isObj(t)) return 'not an object';
  if (!Number.isSafeInteger(t.id) || (t.id as number) < 1) return 'id must be a positive integer';
  if (typeof t.title !== 'string') return 'title must be a string';
  if (t.status !== 'open' && t.status !== 'done') return "status must be 'open' or 'done'";
  if (!Array.isArray(t.tags) || !allStrings(t.tags)) return 'tags must be an array of strings';
  if (!strOrNull(t.due)) return 'due must be a string or null';
  if (typeof t.created_at !== 'string') return 'created_at must be a string';
  if (!strOrNull(t.done_at)) return 'done_at must be a string or null';
  return null;
}

function shapeProblem(v: unknown): string | null {
  if (!isObj(v)) return 'top level is not an object';
  if (v.version !== 1) return `unsupported version ${JSON.stringify(v.version)} (expected 1)`;
  const next = v.next_id;
  if (typeof next !== 'number' || !Number.isSafeInteger(next) || next < 1) return 'next_id must be a positive integer';
  if (!Array.isArray(v.tasks)) return 'tasks must be an array';
  const seen = new Set<number>();
  for (let i = 0; i < v.tasks.length; i++) {
    const t: unknown = v.tasks[i];
    const p = taskProblem(t);
    if (p) return `tasks[${i}]: ${p}`;
    const id = (t as Task).id;
    if (seen.has(id)) return `tasks[${i}]: duplicate id ${id}`;
    if (id >= next) return `tasks[${i}]: id ${id} is not below next_id ${next}`;
    seen.add(id);
  }
  if (!isObj(v.idempotency)) return 'idempotency must be an object';
  for (const [k, e] of Object.entries(v.idempotency)) {
    if (!isObj(e) || typeof e.fingerprint !== 'string')
      return `idempotency[${JSON.stringify(k)}]: fingerprint must be a string`;
    const p = taskProblem(e.result);
    if (p) return `idempotency[${JSON.stringify(k)}].result: ${p}`;
  }
  return null;
}

async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomHex(6)}.tmp`;
  const mode = await fs.stat(file).then(
    (st) => st.mode & 0o7777,
    () => 0o600,
  );
  let h: fs.FileHandle | undefined;
  try {
    h = await fs.open(tmp, 'wx', 0o600);
    if (mode !== 0o600) await h.chmod(mode); // the file's own mode, not the umask's
    await h.writeFile(text, 'utf8');
    await h.sync();
    await h.close();
    h = undefined;
    await fs.rename(tmp, file);
  } catch (e) {
    await h?.close().catch(() => {});
    await fs.unlink(tmp).catch(() => {});
    throw ioError(file, 'write store file', e);
  }
  try {
    // Best effort: make the rename durable. Fails harmlessly on e.g. Windows.
    const d = await fs.open(path.dirname(file), 'r');
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  } catch {
    /* ignore */
  }
}
