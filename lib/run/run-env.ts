/**
 * The per-run environment (IO, environment variables, signal, trace and ids, replay settings) that
 * the CLI path and the MCP/JSON paths build the same way and hand to the runner (run.ts).
 */
import type { Readable } from 'node:stream';
import type { Command } from '../tree/command.ts';
import type { Mode } from '../contract/mode.ts';
import type { OutputStream } from '../contract/envelope.ts';
import type { Interaction } from '../tree/interaction.ts';
import { newIdempotencyKey } from '../contract/ids.ts';
import { startTrace, type RunTrace } from './trace.ts';
import type { NotificationLevel } from './logger.ts';
import type { ExecuteOptions } from './options.ts';
import { isPlaceholderVersion, resolveVersion } from './version.ts';
import { DEFAULT_IDEMPOTENCY_TTL_MS, DEFAULT_IDEMPOTENCY_WAIT_MS } from './idempotency.ts';
import { CallSignal } from './call-signal.ts';
import type { ReplaySettings } from './replay.ts';

/** Everything one run needs from outside: IO, environment, signal, ids. */
export interface RunEnv {
  root: Command;
  mode: Mode;
  stdout: OutputStream;
  stderr: OutputStream;
  /** Opens stdin lazily (so a run that never reads it never touches fd 0). */
  stdin: () => Readable;
  /** Whether stdin is a terminal; a function so the real stdin is only opened when a prompt asks. */
  stdinIsTTY: () => boolean;
  env: Record<string, string | undefined>;
  /**
   * The run's signal. Reading it may make it (an MCP call's, see call-signal.ts): code that only
   * needs to know whether the run is aborted asks {@link aborted}.
   */
  readonly signal: AbortSignal;
  /** Whether the run is aborted (without making its signal). */
  aborted(): boolean;
  /** The run's trace (the caller's, continued, or a new one) and its own span. */
  trace: RunTrace;
  traceId: string;
  spanId: string;
  newKey: () => string;
  version: () => string;
  onProgress?: (done: number, total?: number, message?: string) => void;
  /** Keep every stream item in the outcome (the MCP bridge builds structuredContent from them). */
  collectItems?: boolean;
  /**
   * Receives `ctx.log` (`info`), `ctx.warn` (`warning`) and every `ctx.logger` line (its level
   * mapped to an MCP level; data = the line's object) — MCP `notifications/message`.
   */
  onLog?: (level: NotificationLevel, data: unknown) => void;
  /** The client channel `ctx.confirm`, `ctx.elicit` and `ctx.sample` may ask through (MCP). */
  interaction?: Interaction;
  /** Where and how long replayed retries are recorded. */
  replay: ReplaySettings;
}

/**
 * Builds the per-run environment shared by the CLI path and the MCP/JSON paths. The trace comes
 * from `given` (an MCP call's `_meta`), else `TRACEPARENT`/`TRACESTATE` in the environment, else is new.
 * The signal is `call`'s (an MCP call's, made on first read), else `options.signal`, else one
 * that never aborts (made on first read too).
 */
export function runEnv(root: Command, options: ExecuteOptions, mode: Mode, given?: { traceparent?: string; tracestate?: string }, call?: CallSignal): RunEnv {
  const stdout = options.stdout ?? process.stdout;
  const env = options.env ?? process.env;
  const trace = startTrace(env, given);
  let version: string | undefined;
  const fixed = options.signal;
  const lazy = call ?? (fixed ? undefined : new CallSignal());
  return {
    root,
    mode,
    stdout,
    stderr: options.stderr ?? process.stderr,
    stdin: () => options.stdin ?? process.stdin,
    stdinIsTTY: () => options.stdinIsTTY ?? (options.stdin ? false : process.stdin.isTTY === true),
    env,
    get signal() {
      return lazy ? lazy.signal : fixed!;
    },
    aborted: lazy ? () => lazy.aborted : () => fixed!.aborted,
    trace,
    traceId: trace.traceId,
    spanId: trace.spanId,
    newKey: newIdempotencyKey,
    version: () => (version ??= resolveVersion([options.version, root.version].find((v) => !isPlaceholderVersion(v)))),
    onProgress: options.onProgress,
    // set by the in-process callers (invoke.ts) after this: declared here so every RunEnv has one shape
    collectItems: undefined,
    onLog: undefined,
    interaction: undefined,
    replay: replaySettings(options),
  };
}

/** The replay settings of a run's options (store, TTL and wait, with their defaults). */
export function replaySettings(options: Pick<ExecuteOptions, 'idempotencyStore' | 'idempotencyTtlMs' | 'idempotencyWaitMs'>): ReplaySettings {
  return {
    store: options.idempotencyStore,
    ttlMs: options.idempotencyTtlMs ?? DEFAULT_IDEMPOTENCY_TTL_MS,
    waitMs: options.idempotencyWaitMs ?? DEFAULT_IDEMPOTENCY_WAIT_MS,
  };
}
