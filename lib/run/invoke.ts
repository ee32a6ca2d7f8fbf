/**
 * Running a command in-process from structured values (MCP `tools/call`, `--args-json`), exactly as
 * a `--format json` caller would: its own stdout/stderr buffers, an empty stdin, its own signal, and
 * the values handed over without rebuilding argv. Source: docs/mcp-server.md#toolscall.
 */
import { Readable } from 'node:stream';
import type { Command } from '../tree/command.ts';
import type { AxError } from '../contract/errors.ts';
import type { ErrorEnvelope, Pagination } from '../contract/envelope.ts';
import { runInvocation, reportFailure, type RunOutcome } from './run.ts';
import { runEnv, type RunEnv } from './run-env.ts';
import { bindValues } from '../parse/validate.ts';
import type { FlagSpec } from '../tree/flags.ts';
import { endSpan } from '../observe/trace.ts';
import type { NotificationLevel } from '../observe/logger.ts';
import type { ResourceContent } from '../tree/declarations.ts';
import type { Interaction } from '../tree/interaction.ts';
import type { IdempotencyStore } from '../store/idempotency.ts';
import type { CallSignal } from './call-signal.ts';
import type { ToolVia } from '../schema/next-steps.ts';

/** Options of {@link invokeCommand}. */
export interface InvokeOptions {
  /**
   * Cancels the call (`interrupted`): the MCP bridge's, following the client's cancellation and
   * aborted at shutdown, made into an AbortSignal only if the run reads one. Default: never aborts.
   */
  signal?: CallSignal;
  /** Receives `ctx.progress` reports. */
  onProgress?: (done: number, total?: number, message?: string) => void;
  /**
   * Receives `ctx.log` / `ctx.warn` lines and every `ctx.logger` line (data: the line's object); the
   * MCP bridge forwards them as `notifications/message`.
   */
  onLog?: (level: NotificationLevel, data: unknown) => void;
  /**
   * The caller's W3C `traceparent` (MCP `_meta.traceparent`); invalid or absent: `TRACEPARENT` of
   * `env`, else a new trace.
   */
  traceparent?: string;
  /** The caller's `tracestate` (MCP `_meta.tracestate`), used with {@link traceparent}. */
  tracestate?: string;
  /**
   * Where the run's trace settings are read (`TRACEPARENT`, the OTLP endpoints, `AX_OTEL_DEBUG`):
   * the MCP server's, read once (lib/observe/trace.ts `traceSettings`). Default {@link env}.
   */
  traceEnv?: Record<string, string | undefined>;
  /** The MCP tool name, recorded on the exported span. */
  tool?: string;
  /**
   * Where the run's span goes as a line under `AX_OTEL_DEBUG` (the server's own stderr: never the
   * call's output). Default nowhere.
   */
  onSpan?: (line: string) => void;
  /**
   * The command whose subtree the MCP server serves (where `mcp-server` is mounted): tool names in
   * a stop's next steps are relative to it, and a step outside it stays a command line
   * (docs/mcp-server.md#mounting). Default the root.
   */
  toolBase?: Command;
  /**
   * How a stop's next steps call a tool, when not by its own name: a progressive-discovery server
   * names its call tool with the inner tool's name and arguments. Default the tool itself.
   */
  toolVia?: ToolVia;
  /**
   * The client channel for `ctx.confirm`, `ctx.elicit` and `ctx.sample` (the MCP bridge sets the
   * functions whose capability the client declared). Default none: they act as on a pipe.
   */
  interaction?: Interaction;
  /** Environment seen by the handler. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Program version for the error line. */
  version?: string;
  /**
   * Flag values set for every call (the persistent flags given to `mcp-server` on its command line,
   * keyed by long name, with the declaration they belong to). Each applies where the call did not
   * give that flag and the command has that very flag (not one of its own of the same name);
   * `dry-run: true` applies always — a call cannot turn it off.
   */
  presets?: ReadonlyMap<string, { spec: FlagSpec; value: unknown; builtin?: boolean }>;
  /** Where replayed retries are recorded (see ExecuteOptions.idempotencyStore). */
  idempotencyStore?: IdempotencyStore;
  /** How long a recorded outcome replays, ms. Default 24 h. */
  idempotencyTtlMs?: number;
  /** How long a retry waits for a call holding its key, ms. Default 5000. */
  idempotencyWaitMs?: number;
}

/** What an in-process call produced. */
export interface InvokeResult {
  exitCode: number;
  /** Exactly what `--format json` would print on stdout (envelope line(s)). */
  stdout: string;
  /** What the command wrote on stderr (logs, warnings, the error line on failure). */
  stderr: string;
  /** The payload of a successful non-stream call. */
  payload?: unknown;
  /** The items of a stream. */
  items?: unknown[];
  /** A paged command's `meta.pagination` (the payload is the page). */
  pagination?: Pagination;
  /** The failure, when exitCode ≠ 0: its `kind`, `context`, `next` and exit code, typed. */
  error?: AxError;
  /**
   * The error line's object (`{error, meta}`), when the call failed: the very object whose JSON is
   * the last line of `stderr`, returned as built (never parsed back out of the text).
   */
  errorEnvelope?: ErrorEnvelope;
  /** Declared resources the handler attached (`ctx.attach`). */
  attachments?: ResourceContent[];
}

/** An in-process run's stdout or stderr: text kept in order (bytes reach the caller as the payload, not as text). */
class TextBuffer {
  readonly isTTY = false as const;
  readonly #chunks: string[] = [];
  write(s: string | Uint8Array): boolean {
    if (typeof s === 'string') this.#chunks.push(s);
    return true;
  }
  text(): string {
    return this.#chunks.join('');
  }
}

/**
 * Runs `cmd` with `values` keyed by inputSchema property (`null` = not given). Never throws: every
 * failure (bad values, handler errors, cancellation) comes back in the result.
 */
export async function invokeCommand(
  root: Command,
  cmd: Command,
  values: Record<string, unknown>,
  options: InvokeOptions = {},
): Promise<InvokeResult> {
  const out = new TextBuffer();
  const err = new TextBuffer();
  const env: RunEnv = runEnv(
    root,
    {
      stdout: out,
      stderr: err,
      stdinIsTTY: false,
      env: options.env,
      version: options.version,
      onProgress: options.onProgress,
      idempotencyStore: options.idempotencyStore,
      idempotencyTtlMs: options.idempotencyTtlMs,
      idempotencyWaitMs: options.idempotencyWaitMs,
    },
    'json',
    options,
    options.signal,
  );
  let stdin: Readable | undefined;
  env.stdin = () => (stdin ??= Readable.from([])); // an empty stream, made only if the handler reads it
  env.onLog = options.onLog;
  env.interaction = options.interaction;
  env.noTerminal = true; // nobody at a terminal answers an in-process call (docs/contract.md "Agents and prompts")
  env.toolBase = options.toolBase;
  env.spanShown = true; // the span's line, if any, goes to onSpan when the run ends, not into its stderr
  env.toolVia = options.toolVia;
  env.collectItems = true;
  let outcome: RunOutcome;
  try {
    const inv = bindValues(cmd, values);
    for (const [name, preset] of options.presets ?? []) {
      const own = inv.resolved.all.get(name);
      // the very flag: the same declaration, or the same injected flag (whichever copy of lib built its record)
      if (!own || (own.spec !== preset.spec && !(own.builtin && preset.builtin))) continue;
      if (!inv.values.has(name) || (name === 'dry-run' && preset.value === true)) inv.values.set(name, preset.value);
    }
    outcome = await runInvocation(inv, env);
  } catch (e) {
    outcome = reportFailure(e, env);
  }
  return result(outcome, root, cmd, env, out, err, options);
}

/** What an in-process call produced, from its outcome and what it wrote (the span exported in the background). */
function result(
  outcome: RunOutcome,
  root: Command,
  cmd: Command,
  env: RunEnv,
  out: TextBuffer,
  err: TextBuffer,
  options: InvokeOptions,
): InvokeResult {
  // the span is exported in the background (bounded): a call's answer never waits for a collector
  void endSpan(
    env.trace,
    options.traceEnv ?? env.env,
    () => ({
      name: cmd.commandPath(),
      program: root.name,
      version: env.version(),
      exitCode: outcome.exitCode,
      errorKind: outcome.error?.kind,
      description: outcome.error?.message,
      tool: options.tool,
    }),
    undefined,
    options.onSpan,
  );
  const stderr = err.text();
  const r: InvokeResult = {
    exitCode: outcome.exitCode,
    stdout: out.text(),
    stderr,
    payload: outcome.payload,
    items: outcome.items,
    error: outcome.error,
    attachments: outcome.attachments,
  };
  if (outcome.pagination) r.pagination = outcome.pagination;
  if (outcome.envelope) r.errorEnvelope = outcome.envelope;
  return r;
}
