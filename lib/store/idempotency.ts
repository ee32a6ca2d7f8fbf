/**
 * The idempotency store interface behind replayed retries
 * (docs/contract.md#idempotency-keys-and-replayed-retries, beyond ax-go): what a
 * store must do so that a retried call with the same `--idempotency-key` and the same arguments
 * gets the first outcome again instead of running twice. ax-ts ships a file store
 * ({@link fileIdempotencyStore}, the default); an author may pass any other implementation (a shared
 * Redis, a database) as the `idempotencyStore` option of `execute`, `main` and `mountMcpServer`.
 *
 * The protocol one run follows (lib/store/replay.ts):
 * 1. `claim(scope, fingerprint)`. Exactly one of any number of concurrent claimers of a key without a
 *    live entry gets `claimed` (with a token); the others see `running` (with the claimer's
 *    fingerprint) until it finishes, then `recorded`.
 * 2. While the handler runs, the runner calls `renew` every `leaseMs / 3`, so a live claim never
 *    expires; a claim whose holder died (SIGKILL, a crash) expires after `leaseMs` and can be claimed again.
 * 3. At the end: `complete` (a success or a non-retryable failure: the outcome is kept `ttlMs`) or
 *    `release` (a retryable failure or an interrupt: the key is free again, nothing is recorded).
 *
 * A store compares nothing: it keeps the fingerprint and hands it back; the runner decides replay
 * versus `idempotency_conflict`. Every value a store keeps is plain JSON data.
 */

/** Where a key lives: keys are scoped by program, command path and the caller's key. */
export interface ReplayScope {
  /** The program: the root command's name (`tasks`). */
  program: string;
  /** The command path as typed (`tasks add`). */
  command: string;
  /** The caller's key exactly as given (opaque: not trimmed, not normalised). */
  key: string;
}

/**
 * A finished run's outcome, as recorded and as replayed. A replay writes `data` (or each item, or
 * the opaque text, or the error object) back byte for byte, with a fresh `meta` marked `replayed: true`.
 */
export interface ReplayRecord {
  /** The exit code the first run ended with (0 for a success). */
  exitCode: number;
  /** What the first run produced: one payload, a stream of items, opaque text, or a failure. */
  kind: 'data' | 'stream' | 'opaque' | 'error';
  /** `data`: the JSON text of the payload exactly as written (`null` when there was none). */
  data?: string;
  /** `data` of a paged command: the page's `meta.pagination`, so that a replay is the same page. */
  pagination?: Record<string, unknown>;
  /** `stream`: the JSON text of each item, in order. */
  items?: string[];
  /** `opaque`: the text written to stdout. */
  text?: string;
  /** `error`: the `error` object of the error line (`{kind, message, exit_code, …}`). */
  error?: Record<string, unknown>;
  /** When the first run finished, milliseconds since the epoch. */
  recordedAt: number;
}

/** The answer of {@link IdempotencyStore.claim}. */
export type ClaimResult =
  /** The key was free (never used, expired, or its holder's lease ran out): this run owns it now. */
  | { state: 'claimed'; token: string }
  /** Another run holds the key and has not finished; `fingerprint` is that run's. */
  | { state: 'running'; fingerprint: string }
  /** A run with this key finished within the TTL; `fingerprint` is that run's. */
  | { state: 'recorded'; fingerprint: string; record: ReplayRecord };

/** Timing of a claim. */
export interface ClaimOptions {
  /** How long a claim stays live without a `renew`, ms (default used by ax-ts: 30 000). */
  leaseMs: number;
}

/**
 * A place to keep idempotency keys, shared by every path a command runs by (CLI, `--args-json`,
 * in-process `execute`, MCP). Methods may reject with any error: the run then fails with
 * `idempotency_store_unavailable` (exit 1) before the handler runs (claim) or after it (complete),
 * never silently without the promise. Implementations must be safe for concurrent use by many
 * processes: `claim` is the one atomic step (a file created exclusively, a Redis `SET NX`).
 */
export interface IdempotencyStore {
  /**
   * Claims `scope` for a run, or reports who has it. Atomic: of concurrent claims of a key with no
   * live entry exactly one gets `claimed`. An expired record (older than its TTL) or an expired
   * lease counts as no entry.
   */
  claim(scope: ReplayScope, fingerprint: string, options: ClaimOptions): Promise<ClaimResult>;
  /** Extends a live claim by `leaseMs` from now. @returns false when the claim was lost (expired and taken). */
  renew(scope: ReplayScope, token: string, leaseMs: number): Promise<boolean>;
  /**
   * Records the outcome of the claimed run and keeps it `ttlMs` (default used by ax-ts: 24 h).
   * A token that no longer holds the claim still records when the key is free or expired, but never
   * overwrites another run's claim or record.
   */
  complete(scope: ReplayScope, token: string, fingerprint: string, record: ReplayRecord, ttlMs: number): Promise<void>;
  /** Frees a claim without recording anything (a retryable failure, an interrupt). A lost token is a no-op. */
  release(scope: ReplayScope, token: string): Promise<void>;
  /**
   * Optional: keeps a small JSON text under `id` for `ttlMs`, replacing what was there. The MCP
   * server keeps the state of its tasks here, so a task started through one replica can be polled,
   * answered and cancelled through another (docs/mcp-server.md#tasks). A store without it serves
   * tasks from the process's memory only.
   */
  putDocument?(id: string, json: string, ttlMs: number): Promise<void>;
  /** Optional, with {@link putDocument}: the text kept under `id`, or undefined when none or expired. */
  getDocument?(id: string): Promise<string | undefined>;
}

/** How long an outcome is kept when no TTL is configured: 24 hours, in ms. */
export const DEFAULT_IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a claim lives without a renew, ms. */
export const CLAIM_LEASE_MS = 30_000;
/** How long a retry waits for a run that holds its key before `idempotency_in_progress`, ms. */
export const DEFAULT_IDEMPOTENCY_WAIT_MS = 5_000;

/**
 * The environment variable that points every run without an `idempotencyStore` option at a shared
 * Redis (`redis://host:6379/0`, `rediss://…`; see redisIdempotencyStore): how stateless replicas are
 * pointed at one store without code. Unset or blank: the file store.
 */
export const IDEMPOTENCY_STORE_ENV = 'AX_IDEMPOTENCY_STORE';

/**
 * A stable string naming a scope (`["tasks","tasks add","k1"]`), for stores that key by one string;
 * hash it if the backend limits key length.
 */
export function scopeId(scope: ReplayScope): string {
  return JSON.stringify([scope.program, scope.command, scope.key]);
}
