/**
 * Replayed retries (docs/contract.md#idempotency-keys-and-replayed-retries, beyond ax-go): the gate
 * a run with a caller-given key passes
 * before its handler runs. It claims the key in the {@link IdempotencyStore}, replays a recorded
 * outcome, refuses other arguments (`idempotency_conflict`), waits for a run that holds the key
 * (then replays it, or answers `idempotency_in_progress`), and records the outcome at the end.
 * Loaded only by runs that give a key to a command that replays.
 */
import { AxError } from '../contract/errors.ts';
import { fileIdempotencyStore, defaultIdempotencyDir } from './file-store.ts';
import {
  CLAIM_LEASE_MS,
  IDEMPOTENCY_STORE_ENV,
  type IdempotencyStore,
  type ReplayRecord,
  type ReplayScope,
} from './idempotency.ts';

/** How a run reaches its store and how long it keeps and waits. */
export interface ReplaySettings {
  /** The author's store; default: the file store under the state directory of `program`. */
  store?: IdempotencyStore;
  /** How long an outcome is kept, ms. */
  ttlMs: number;
  /** How long a retry waits for a run holding its key, ms. */
  waitMs: number;
}

/** An open claim: record or release it exactly once. */
export interface ReplayGate {
  /** Records the outcome (a success or a non-retryable failure). @returns false when the store failed. */
  complete(record: Omit<ReplayRecord, 'recordedAt'>): Promise<boolean>;
  /** Frees the key without recording (a retryable failure or an interrupt). Never throws. */
  release(): Promise<void>;
}

const fileStores = new Map<string, IdempotencyStore>();

/**
 * The store a run uses: the author's option, else the Redis store `AX_IDEMPOTENCY_STORE` names
 * (lib/store/redis-store.ts, imported only then), else the file store.
 * @throws AxError `idempotency_store_unavailable` when there is none.
 */
export async function storeFor(
  settings: ReplaySettings,
  program: string,
  env: Record<string, string | undefined>,
  keyLabel: string,
): Promise<IdempotencyStore> {
  if (settings.store) return settings.store;
  const shared = env[IDEMPOTENCY_STORE_ENV]?.trim();
  if (shared) return (await import('./redis-store.ts')).redisStoreFromEnv(shared);
  const dir = defaultIdempotencyDir(program, env);
  if (!dir) {
    throw new AxError(
      'idempotency_store_unavailable',
      `${keyLabel} was given but there is no place to record it: neither XDG_STATE_HOME nor HOME is set`,
      {
        fix: `Set XDG_STATE_HOME (or HOME) so retries can replay, or call without ${keyLabel}.`,
        context: { reason: 'no_state_directory' },
      },
    );
  }
  let s = fileStores.get(dir);
  if (!s) fileStores.set(dir, (s = fileIdempotencyStore(dir)));
  return s;
}

/** The failure of a store, as the run reports it: a store's own AxError keeps its fix, reason and retryability. */
function unavailable(e: unknown, keyLabel: string, store: 'file' | 'custom'): AxError {
  const own = e instanceof AxError && e.kind === 'idempotency_store_unavailable' ? e : undefined;
  return new AxError(
    'idempotency_store_unavailable',
    `${keyLabel} was given but its store cannot be used: ${e instanceof Error ? e.message : String(e)}`,
    {
      cause: e,
      fix:
        own?.fix ??
        (store === 'file'
          ? `Make the state directory writable (XDG_STATE_HOME or ~/.local/state), or call without ${keyLabel}.`
          : `Check the idempotency store the program was given, or call without ${keyLabel}.`),
      retryable: own?.retryable,
      retryAfterSeconds: own?.retryAfterSeconds,
      context: { reason: 'store_failed', ...own?.context },
    },
  );
}

/**
 * SHA-256 (hex) of the canonical JSON of the bound values (object keys sorted, `undefined` dropped):
 * the same arguments give the same fingerprint whatever their order on the command line or in JSON.
 */
export async function fingerprint(values: Record<string, unknown>): Promise<string> {
  const canon = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canon)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
              .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
          )
        : v;
  const { createHash } = await import('node:crypto');
  return createHash('sha256')
    .update(JSON.stringify(canon(values)) ?? 'null')
    .digest('hex');
}

/** What the gate needs from the run. */
export interface GateRequest {
  scope: ReplayScope;
  fingerprint: string;
  settings: ReplaySettings;
  env: Record<string, string | undefined>;
  signal: AbortSignal;
  /** `--idempotency-key` on the CLI, `idempotency_key` over MCP. */
  keyLabel: string;
  /** The record kinds this command writes (its output kind, and `error`): a record of another kind is refused. */
  kinds: readonly ReplayRecord['kind'][];
}

/**
 * Passes the gate: resolves with the recorded outcome to replay, or with an open claim.
 * @throws AxError `idempotency_conflict` (the key was used with other arguments), `idempotency_in_progress`
 *   (its run still holds it after `waitMs`), `idempotency_store_unavailable`, or `interrupted`.
 */
export async function openGate(req: GateRequest): Promise<{ replay: ReplayRecord } | { gate: ReplayGate }> {
  const store = await storeFor(req.settings, req.scope.program, req.env, req.keyLabel);
  const kind = req.settings.store || req.env[IDEMPOTENCY_STORE_ENV]?.trim() ? 'custom' : 'file';
  const deadline = Date.now() + req.settings.waitMs;
  for (let wait = 20; ; wait = Math.min(wait * 2, 250)) {
    let claim;
    try {
      claim = await store.claim(req.scope, req.fingerprint, { leaseMs: CLAIM_LEASE_MS });
    } catch (e) {
      throw unavailable(e, req.keyLabel, kind);
    }
    if (claim.state !== 'claimed' && claim.fingerprint !== req.fingerprint) throw conflict(req);
    if (claim.state === 'recorded') {
      const bad = recordFault(claim.record, req.kinds);
      if (bad) throw badRecord(req, kind, bad);
      return { replay: claim.record };
    }
    if (claim.state === 'claimed') return { gate: openClaim(store, req, claim.token) };
    if (Date.now() + wait > deadline) {
      throw new AxError(
        'idempotency_in_progress',
        `another call with ${req.keyLabel} ${JSON.stringify(req.scope.key)} is still running`,
        {
          retryAfterSeconds: 1,
          fix: `Retry the same call with the same ${req.keyLabel} in a moment: you will get the first call's outcome.`,
          context: { idempotency_key: req.scope.key },
        },
      );
    }
    if (req.signal.aborted)
      throw req.signal.reason instanceof AxError
        ? req.signal.reason
        : new AxError('interrupted', 'interrupted while waiting for another call with the same idempotency key');
    await new Promise((r) => setTimeout(r, wait));
  }
}

const KINDS: readonly string[] = ['data', 'stream', 'opaque', 'error'];

const isJsonText = (t: unknown): boolean => {
  if (typeof t !== 'string') return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
};

/**
 * What is wrong with a recorded outcome, or undefined when it can be replayed as it is: a success
 * (`data`, `stream`, `opaque`) ends with exit code 0 and holds JSON text (or text); a failure holds
 * an error object whose kind and exit code are the record's (non-zero); and its kind is one the
 * command writes (`kinds`, when given: opaque text never replays as a JSON command's output). A
 * store returns what it was given; this guards against what it was not (a damaged file, another
 * program's entry, a forged one).
 */
export function recordFault(rec: unknown, kinds?: readonly ReplayRecord['kind'][]): string | undefined {
  if (rec === null || typeof rec !== 'object') return 'the record is not an object';
  const r = rec as Record<string, unknown>;
  if (kinds && typeof r.kind === 'string' && KINDS.includes(r.kind) && !kinds.includes(r.kind as never))
    return `its kind ${r.kind} is not what this command writes (${kinds.join(', ')})`;
  if (!Number.isInteger(r.exitCode) || (r.exitCode as number) < 0 || (r.exitCode as number) > 255)
    return 'its exit code is not an integer from 0 to 255';
  switch (r.kind) {
    case 'data':
      if (r.exitCode !== 0) return 'a success with a non-zero exit code';
      return r.data === undefined || isJsonText(r.data) ? undefined : 'its data is not JSON text';
    case 'stream':
      if (r.exitCode !== 0) return 'a success with a non-zero exit code';
      return Array.isArray(r.items) && r.items.every(isJsonText) ? undefined : 'its items are not JSON text';
    case 'opaque':
      if (r.exitCode !== 0) return 'a success with a non-zero exit code';
      return r.text === undefined || typeof r.text === 'string' ? undefined : 'its text is not a string';
    case 'error': {
      const e = r.error as Record<string, unknown> | undefined;
      if (r.exitCode === 0) return 'a failure with exit code 0';
      if (!e || typeof e !== 'object' || typeof e.kind !== 'string' || !/^[a-z][a-z0-9_]*$/.test(e.kind))
        return 'its error has no valid kind';
      if (typeof e.message !== 'string') return 'its error has no message';
      return e.exit_code === r.exitCode ? undefined : "its error's exit code is not the record's";
    }
    default:
      return 'its kind is none of data, stream, opaque, error';
  }
}

/** A recorded outcome that cannot be replayed: nothing runs (the key's promise cannot be kept). */
function badRecord(req: GateRequest, store: 'file' | 'custom', fault: string): AxError {
  return new AxError(
    'idempotency_store_unavailable',
    `${req.keyLabel} ${JSON.stringify(req.scope.key)} has a recorded outcome that cannot be replayed: ${fault}`,
    {
      fix:
        store === 'file'
          ? `Call with a new ${req.keyLabel}; the damaged record expires ` +
            `with its time to live (or remove the state directory's entry).`
          : `Call with a new ${req.keyLabel}, and check what the idempotency store returns.`,
      context: { reason: 'invalid_record', idempotency_key: req.scope.key, fault },
    },
  );
}

function conflict(req: GateRequest): AxError {
  return new AxError(
    'idempotency_conflict',
    `${req.keyLabel} ${JSON.stringify(req.scope.key)} was already used with different arguments`,
    {
      fix:
        `Use a new ${req.keyLabel} for a new call, or repeat the ` +
        `first call's arguments exactly to get its outcome again.`,
      context: { idempotency_key: req.scope.key, command: req.scope.command },
    },
  );
}

function openClaim(store: IdempotencyStore, req: GateRequest, token: string): ReplayGate {
  // keep the claim alive while the handler runs; a holder that dies lets it expire after the lease
  const timer = setInterval(
    () => void store.renew(req.scope, token, CLAIM_LEASE_MS).catch(() => {}),
    CLAIM_LEASE_MS / 3,
  );
  timer.unref();
  let done = false;
  return {
    async complete(record) {
      if (done) return true;
      done = true;
      clearInterval(timer);
      try {
        await store.complete(
          req.scope,
          token,
          req.fingerprint,
          { ...record, recordedAt: Date.now() },
          req.settings.ttlMs,
        );
        return true;
      } catch {
        return false;
      }
    },
    async release() {
      if (done) return;
      done = true;
      clearInterval(timer);
      await store.release(req.scope, token).catch(() => {});
    },
  };
}
