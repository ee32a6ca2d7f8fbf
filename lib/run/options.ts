/**
 * The options a run takes from its caller ({@link ExecuteOptions}): streams, environment, version,
 * signal and callbacks. Shared by execute, main and the in-process invoke.
 */
import type { Readable } from 'node:stream';
import type { OutputStream } from '../contract/envelope.ts';
import type { IdempotencyStore } from '../store/idempotency.ts';
import type { Mode } from '../contract/mode.ts';
import type { Command } from '../tree/command.ts';

/** Options of {@link execute}. Everything defaults to the real process. */
export interface ExecuteOptions {
  /** Arguments after the program name. Default `process.argv.slice(2)`. */
  args?: readonly string[];
  /** Where the payload goes. Default `process.stdout`. Its `isTTY` feeds mode detection. */
  stdout?: OutputStream;
  /** Where diagnostics and the error line go. Default `process.stderr`. */
  stderr?: OutputStream;
  /** Input stream. Default `process.stdin` (opened only if a handler reads it). */
  stdin?: Readable;
  /**
   * Whether stdin is a terminal (prompts are allowed only then). Default: `process.stdin.isTTY`
   * when stdin is the real one (read only when a prompt needs it), else false.
   */
  stdinIsTTY?: boolean;
  /** Environment (`AGENT_MODE`, the handler's `ctx.env`). Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Program version; placeholders are skipped (see resolveVersion). */
  version?: string;
  /** Aborting it interrupts the run: exit 130, kind `interrupted`. */
  signal?: AbortSignal;
  /**
   * Where replayed retries are recorded (docs/contract.md#idempotency-keys-and-replayed-retries).
   * Default: a file store under
   * `$XDG_STATE_HOME/<program>/idempotency/` (else `~/.local/state/<program>/idempotency/`), created
   * on the first call that gives a key to a command that replays. Pass a shared one (e.g. Redis) to
   * replay across machines.
   */
  idempotencyStore?: IdempotencyStore;
  /** How long a recorded outcome replays, ms. Default 24 hours (`DEFAULT_IDEMPOTENCY_TTL_MS`). */
  idempotencyTtlMs?: number;
  /**
   * How long a retry waits for a call that still holds its key before it answers the retryable
   * `idempotency_in_progress`, ms. Default 5000.
   */
  idempotencyWaitMs?: number;
  /**
   * The W3C `traceparent` this run's span continues (docs/observability.md#traces), as an MCP
   * call's `_meta.traceparent` does. Default: `TRACEPARENT` in `env`, else a new trace.
   */
  traceparent?: string;
  /** The W3C `tracestate` that goes with {@link ExecuteOptions.traceparent}. */
  tracestate?: string;
  /** Receives `ctx.progress` reports. */
  onProgress?: (done: number, total?: number, message?: string) => void;
  /**
   * Receives, once the mode is known, a function that reports an error per the contract (error line
   * or human text on this run's stderr) and returns its exit code, and the run's mode and the
   * command its words select. `main()` uses it for failures it must report itself (a second
   * signal, a broken stdout), and to keep stdout for JSON lines in json mode.
   */
  onReporter?: (report: (error: unknown) => number, run: { mode: Mode; command: Command }) => void;
}
