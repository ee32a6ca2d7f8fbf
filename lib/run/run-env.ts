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
import { startTrace, type RunTrace } from '../observe/trace.ts';
import type { NotificationLevel } from '../observe/logger.ts';
import type { ExecuteOptions } from './options.ts';
import { isPlaceholderVersion, resolveVersion } from '../platform/version.ts';
import { DEFAULT_IDEMPOTENCY_TTL_MS, DEFAULT_IDEMPOTENCY_WAIT_MS } from '../store/idempotency.ts';
import { CallSignal } from './call-signal.ts';
import type { ReplaySettings } from '../store/replay.ts';
import type { ToolVia } from '../schema/next-steps.ts';

/** The longest delay one timer holds (2^31-1 ms); Node fires a longer one after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

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
  /**
   * Gives the run a deadline (`--timeout`): after `ms` its signal aborts with `reason` (an AxError
   * `timeout`). @returns a function that cancels the deadline (call it when the run ends).
   */
  deadline(ms: number, reason: unknown): () => void;
  /** The run's trace (the caller's, continued, or a new one) and its own span. */
  trace: RunTrace;
  /** The span's name once the words select a command (its path), else the program's. */
  spanName?: string;
  /** Whether `AX_OTEL_DEBUG`'s line for this run's span was written already (before its error line). */
  spanShown?: boolean;
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
  /** No terminal can be asked, whatever `FORCE_TTY` says (an in-process `invokeCommand`: MCP). */
  noTerminal?: boolean;
  /**
   * MCP: the command whose subtree the server serves (where `mcp-server` is mounted); a stop's next
   * steps name tools relative to it (docs/mcp-server.md#mounting). Default the root.
   */
  toolBase?: Command;
  /** MCP: how a stop's next steps call a tool, when not by its own name (progressive discovery). */
  toolVia?: ToolVia;
  /** Where and how long replayed retries are recorded. */
  replay: ReplaySettings;
  /**
   * The values of the run's secret flags, longest first (lib/run/secrets.ts): every error the run
   * reports is redacted of them (docs/security.md#secret-flags).
   */
  secrets?: string[];
}

/**
 * What a run's trace starts from: an MCP call's `_meta` trace context, and where the trace settings
 * are read when not from the run's environment (an MCP server's, read once: lib/observe/trace.ts
 * `traceSettings`).
 */
export interface TraceGiven {
  traceparent?: string;
  tracestate?: string;
  traceEnv?: Record<string, string | undefined>;
}

/**
 * Builds the per-run environment shared by the CLI path and the MCP/JSON paths. The trace comes
 * from `given` (an MCP call's `_meta`), else `TRACEPARENT`/`TRACESTATE` in the environment (or in
 * `given.traceEnv`), else is new.
 * The signal is `call`'s (an MCP call's, made on first read), else `options.signal`, else one
 * that never aborts (made on first read too).
 */
export function runEnv(
  root: Command,
  options: ExecuteOptions,
  mode: Mode,
  given?: TraceGiven,
  call?: CallSignal,
): RunEnv {
  return new Env(root, options, mode, given, call);
}

/**
 * The one shape of {@link RunEnv} (docs/performance.md: one is built for every run and every MCP call): its
 * functions are methods on one prototype instead of closures made per run. Assigning a member (the
 * in-process caller's `stdin`) makes it the object's own, as with a plain object.
 */
class Env implements RunEnv {
  readonly root: Command;
  readonly mode: Mode;
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly env: Record<string, string | undefined>;
  readonly trace: RunTrace;
  readonly traceId: string;
  readonly spanId: string;
  readonly onProgress: ((done: number, total?: number, message?: string) => void) | undefined;
  collectItems: boolean | undefined = undefined;
  onLog: ((level: NotificationLevel, data: unknown) => void) | undefined = undefined;
  interaction: Interaction | undefined = undefined;
  noTerminal: boolean | undefined = undefined;
  toolBase: Command | undefined = undefined;
  toolVia: ToolVia | undefined = undefined;
  secrets: string[] | undefined = undefined;
  readonly replay: ReplaySettings;
  readonly #options: ExecuteOptions;
  /** The signal given in the options, when no lazy one is used. */
  readonly #fixed: AbortSignal | undefined;
  /** A call's signal (made on first read), or a lazy one that never aborts when none was given. */
  readonly #lazy: CallSignal | undefined;
  #version: string | undefined = undefined;
  /** The run's signal once a deadline is set: the given one's aborts, and the deadline's. */
  #timed: AbortController | undefined = undefined;

  constructor(
    root: Command,
    options: ExecuteOptions,
    mode: Mode,
    given: TraceGiven | undefined,
    call: CallSignal | undefined,
  ) {
    const env = options.env ?? process.env;
    const trace = startTrace(given?.traceEnv ?? env, given);
    this.root = root;
    this.mode = mode;
    this.stdout = options.stdout ?? process.stdout;
    this.stderr = options.stderr ?? process.stderr;
    this.env = env;
    this.trace = trace;
    this.traceId = trace.traceId;
    this.spanId = trace.spanId;
    this.onProgress = options.onProgress;
    this.replay = replaySettings(options);
    this.#options = options;
    this.#fixed = options.signal;
    this.#lazy = call ?? (options.signal ? undefined : new CallSignal());
  }

  stdin(): Readable {
    return this.#options.stdin ?? process.stdin;
  }

  stdinIsTTY(): boolean {
    const o = this.#options;
    return o.stdinIsTTY ?? (o.stdin ? false : process.stdin.isTTY === true);
  }

  get signal(): AbortSignal {
    if (this.#timed) return this.#timed.signal;
    return this.#lazy ? this.#lazy.signal : this.#fixed!;
  }

  aborted(): boolean {
    if (this.#timed) return this.#timed.signal.aborted;
    return this.#lazy ? this.#lazy.aborted : this.#fixed!.aborted;
  }

  deadline(ms: number, reason: unknown): () => void {
    const outer = this.#lazy ? this.#lazy.signal : this.#fixed!;
    const ac = (this.#timed = new AbortController());
    const follow = () => ac.abort(outer.reason);
    if (outer.aborted) follow();
    else outer.addEventListener('abort', follow, { once: true });
    // a timer holds at most 2^31-1 ms (about 24.8 days; a longer one fires at once): re-armed until due
    const due = Date.now() + ms;
    let timer: ReturnType<typeof setTimeout>;
    const arm = () => {
      const left = due - Date.now();
      timer = left > MAX_TIMER_MS ? setTimeout(arm, MAX_TIMER_MS) : setTimeout(() => ac.abort(reason), left);
    };
    arm();
    return () => {
      clearTimeout(timer);
      outer.removeEventListener('abort', follow);
    };
  }

  newKey(): string {
    return newIdempotencyKey();
  }

  version(): string {
    return (this.#version ??= resolveVersion(
      [this.#options.version, this.root.version].find((v) => !isPlaceholderVersion(v)),
    ));
  }
}

/** The replay settings of a run's options (store, TTL and wait, with their defaults). */
export function replaySettings(
  options: Pick<ExecuteOptions, 'idempotencyStore' | 'idempotencyTtlMs' | 'idempotencyWaitMs'>,
): ReplaySettings {
  return {
    store: options.idempotencyStore,
    ttlMs: options.idempotencyTtlMs ?? DEFAULT_IDEMPOTENCY_TTL_MS,
    waitMs: options.idempotencyWaitMs ?? DEFAULT_IDEMPOTENCY_WAIT_MS,
  };
}
