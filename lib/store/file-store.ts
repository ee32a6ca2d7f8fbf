/**
 * The default {@link IdempotencyStore}: one JSON file per key under a directory (by default
 * `$XDG_STATE_HOME/<program>/idempotency/`, else `~/.local/state/<program>/idempotency/`), safe under
 * concurrent processes. Every change happens under a short per-key lock file (created exclusively,
 * held for milliseconds) and is written atomically (temporary file, fsync, rename), so a reader
 * never sees half an entry and two processes can never both claim one key.
 * Source: XDG Base Directory Specification (state home); docs/contract.md#idempotency-keys-and-replayed-retries.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { AxError } from '../contract/errors.ts';
import { privateDirectory, type Untrusted } from '../platform/trust.ts';
import {
  scopeId,
  type ClaimOptions,
  type ClaimResult,
  type IdempotencyStore,
  type ReplayRecord,
  type ReplayScope,
} from './idempotency.ts';

/** A pause of `ms` milliseconds (not node:timers/promises: importing it costs every start a module). */
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A lock file older than this is left over by a crashed process and is removed, ms. */
export const STALE_ENTRY_LOCK_MS = 10_000;
/** How long an operation waits for a per-key lock before it fails, ms. */
export const ENTRY_LOCK_WAIT_MS = 10_000;

type Entry =
  | { v: 1; scope: ReplayScope; fingerprint: string; state: 'running'; token: string; lease_until: number; pid: number }
  | { v: 1; scope: ReplayScope; fingerprint: string; state: 'recorded'; record: ReplayRecord; expires_at: number };

/**
 * The directory the default store uses for `program`: `$XDG_STATE_HOME/<program>/idempotency` when
 * XDG_STATE_HOME is an absolute path (the XDG rule), else `$HOME/.local/state/<program>/idempotency`.
 * @returns undefined when neither variable is usable (a key then refuses to run; see replay.ts).
 */
export function defaultIdempotencyDir(program: string, env: Record<string, string | undefined>): string | undefined {
  const safe = program.replace(/[^A-Za-z0-9._-]/g, '_') || 'program';
  const xdg = env.XDG_STATE_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, safe, 'idempotency');
  if (env.HOME && path.isAbsolute(env.HOME)) return path.join(env.HOME, '.local', 'state', safe, 'idempotency');
  return undefined;
}

function randomHex(n: number): string {
  return Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(n))).toString('hex');
}

async function sha256(text: string): Promise<string> {
  const { createHash } = await import('node:crypto');
  return createHash('sha256').update(text).digest('hex');
}

/** The refusal of a directory another user could write (docs/security.md). */
function untrusted(dir: string, u: Untrusted): AxError {
  const why =
    u.reason === 'foreign_owner'
      ? `is owned by another user (uid ${u.uid})`
      : u.reason === 'writable_by_others'
        ? `is writable by other users (mode ${u.mode})`
        : 'is not a directory';
  return new AxError(
    'idempotency_store_unavailable',
    `the idempotency store ${dir} cannot be trusted: ${u.path} ${why}, ` +
      `so another user could plant or change recorded outcomes`,
    {
      fix: `Use a state directory only you can write (chmod go-w, or set XDG_STATE_HOME to a directory of your own).`,
      context: { reason: 'untrusted_directory', path: u.path, fault: u.reason, ...(u.mode ? { mode: u.mode } : {}) },
    },
  );
}

/**
 * A file-backed store in `dir` (created on first use, mode 0700; files 0600). Safe for any number
 * of processes sharing the directory on one machine (a local filesystem: rename must be atomic).
 * Expired entries are replaced when their key is used again and swept now and then. Before its
 * first use the directory and every one above it are checked: a directory another user owns or
 * can write (other than a root-owned sticky one such as /tmp) is refused, so nobody else can plant
 * a record that would replay, or a claim that would block a key (docs/security.md).
 * @param dir absolute directory for the entries.
 * @throws (from its methods) AxError `idempotency_store_unavailable` (reason `untrusted_directory`)
 *   for such a directory, the filesystem's errors (EACCES, ENOSPC, …) and an Error when a per-key
 *   lock is not acquired within {@link ENTRY_LOCK_WAIT_MS}.
 */
export function fileIdempotencyStore(dir: string): IdempotencyStore {
  let made = false;
  const fileOf = async (scope: ReplayScope) => {
    if (!made) {
      const u = privateDirectory(dir);
      if (u) throw untrusted(dir, u);
      made = true;
    }
    return path.join(dir, `${await sha256(scopeId(scope))}.json`);
  };
  const read = async (file: string): Promise<Entry | undefined> => {
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
    try {
      const v = JSON.parse(text) as Entry;
      return v && v.v === 1 && (v.state === 'running' || v.state === 'recorded') ? v : undefined;
    } catch {
      return undefined; // not ours or damaged: treated as free and replaced under the lock
    }
  };
  const write = async (file: string, entry: Entry) => {
    const tmp = `${file}.${process.pid}.${randomHex(6)}.tmp`;
    const fh = await fs.open(tmp, 'wx', 0o600);
    try {
      await fh.writeFile(JSON.stringify(entry));
      await fh.sync();
    } finally {
      await fh.close();
    }
    try {
      await fs.rename(tmp, file);
    } catch (e) {
      await fs.rm(tmp, { force: true });
      throw e;
    }
  };
  const live = (e: Entry | undefined, now: number): e is Entry =>
    !!e && (e.state === 'running' ? e.lease_until > now : e.expires_at > now);
  const locked = async <T>(file: string, op: () => Promise<T>): Promise<T> => {
    const lock = `${file}.lock`;
    const deadline = Date.now() + ENTRY_LOCK_WAIT_MS;
    for (let attempt = 0; ; attempt++) {
      try {
        const fh = await fs.open(lock, 'wx', 0o600);
        await fh.writeFile(`${process.pid} ${Date.now()}\n`);
        await fh.close();
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      try {
        const st = await fs.stat(lock);
        if (Date.now() - st.mtimeMs > STALE_ENTRY_LOCK_MS) {
          const moved = `${lock}.${randomHex(6)}.stale`;
          await fs.rename(lock, moved).then(
            () => fs.rm(moved, { force: true }),
            () => {},
          );
          continue;
        }
      } catch {
        continue; // released meanwhile
      }
      if (Date.now() > deadline)
        throw new Error(`idempotency store: the lock ${lock} was held for more than ${ENTRY_LOCK_WAIT_MS} ms`);
      await sleep(2 + Math.random() * Math.min(40, 2 ** Math.min(attempt, 5)));
    }
    try {
      return await op();
    } finally {
      await fs.rm(lock, { force: true });
    }
  };
  const sweep = async () => {
    const now = Date.now();
    const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json')).slice(0, 256);
    for (const n of names) {
      const file = path.join(dir, n);
      const e = await read(file).catch(() => undefined);
      if (!e || live(e, now - 60_000)) continue; // only entries expired for a minute or more
      await locked(file, async () => {
        const again = await read(file);
        if (!again || !live(again, Date.now() - 60_000)) await fs.rm(file, { force: true });
      }).catch(() => {});
    }
  };
  // documents: one file each (`<sha256 of the id>.doc`, replaced atomically under its lock), removed
  // once expired — when read, and by a sweep at most once a minute when one is written
  const docFile = async (id: string) =>
    (await fileOf({ program: '', command: '', key: '' })).replace(/[^/]+$/, `${await sha256(id)}.doc`);
  const readDoc = async (file: string): Promise<{ doc: string; expires_at: number } | undefined> => {
    try {
      const d = JSON.parse(await fs.readFile(file, 'utf8')) as { doc?: unknown; expires_at?: unknown };
      return typeof d.doc === 'string' && typeof d.expires_at === 'number'
        ? { doc: d.doc, expires_at: d.expires_at }
        : undefined;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' || e instanceof SyntaxError) return undefined;
      throw e;
    }
  };
  const dropExpiredDoc = (file: string) =>
    locked(file, async () => {
      const again = await readDoc(file);
      if (again && again.expires_at <= Date.now()) await fs.rm(file, { force: true });
    });
  let sweepDocsAt = 0;
  const sweepDocs = async () => {
    const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.doc')).slice(0, 256);
    for (const n of names) {
      const file = path.join(dir, n);
      const d = await readDoc(file).catch(() => undefined);
      if (d && d.expires_at <= Date.now()) await dropExpiredDoc(file).catch(() => {});
    }
  };
  return {
    async claim(scope: ReplayScope, fingerprint: string, options: ClaimOptions): Promise<ClaimResult> {
      const file = await fileOf(scope);
      const seen = await read(file);
      const answer = (e: Entry): ClaimResult =>
        e.state === 'running'
          ? { state: 'running', fingerprint: e.fingerprint }
          : { state: 'recorded', fingerprint: e.fingerprint, record: e.record };
      if (live(seen, Date.now())) return answer(seen); // the common retry: no lock needed to read
      const result = await locked(file, async () => {
        const now = Date.now();
        const e = await read(file);
        if (live(e, now)) return answer(e);
        const token = randomHex(16);
        await write(file, {
          v: 1,
          scope,
          fingerprint,
          state: 'running',
          token,
          lease_until: now + options.leaseMs,
          pid: process.pid,
        });
        return { state: 'claimed', token } as const;
      });
      if (result.state === 'claimed' && Math.random() < 1 / 32) void sweep().catch(() => {});
      return result;
    },
    async renew(scope: ReplayScope, token: string, leaseMs: number): Promise<boolean> {
      const file = await fileOf(scope);
      return locked(file, async () => {
        const e = await read(file);
        if (!e || e.state !== 'running' || e.token !== token) return false;
        await write(file, { ...e, lease_until: Date.now() + leaseMs });
        return true;
      });
    },
    async complete(
      scope: ReplayScope,
      token: string,
      fingerprint: string,
      record: ReplayRecord,
      ttlMs: number,
    ): Promise<void> {
      const file = await fileOf(scope);
      await locked(file, async () => {
        const e = await read(file);
        const ours = e?.state === 'running' && e.token === token;
        if (!ours && live(e, Date.now())) return; // another run's live claim or record: never overwritten
        await write(file, { v: 1, scope, fingerprint, state: 'recorded', record, expires_at: Date.now() + ttlMs });
      });
    },
    async release(scope: ReplayScope, token: string): Promise<void> {
      const file = await fileOf(scope);
      await locked(file, async () => {
        const e = await read(file);
        if (e?.state === 'running' && e.token === token) await fs.rm(file, { force: true });
      });
    },
    async putDocument(id: string, json: string, ttlMs: number): Promise<void> {
      const file = await docFile(id);
      await locked(file, async () => {
        const tmp = `${file}.${process.pid}.${randomHex(6)}.tmp`;
        await fs.writeFile(tmp, JSON.stringify({ v: 1, doc: json, expires_at: Date.now() + ttlMs }), {
          mode: 0o600,
          flag: 'wx',
        });
        await fs.rename(tmp, file).catch(async (e: unknown) => {
          await fs.rm(tmp, { force: true });
          throw e;
        });
      });
      if (Date.now() >= sweepDocsAt) {
        sweepDocsAt = Date.now() + 60_000;
        void sweepDocs().catch(() => {});
      }
    },
    async getDocument(id: string): Promise<string | undefined> {
      const file = await docFile(id);
      const d = await readDoc(file);
      if (!d) return undefined;
      if (d.expires_at > Date.now()) return d.doc;
      await dropExpiredDoc(file).catch(() => {});
      return undefined;
    },
  };
}
