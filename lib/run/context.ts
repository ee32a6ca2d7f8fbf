/**
 * The context a handler (and its hooks) receives — flags, args, IO, trace ids, dry-run and
 * idempotency state, ctx.log/warn/progress, guard/perform, confirm/elicit/sample, attach — and the
 * per-run state the runner reads back from it (what a dry run would do, attached resources).
 * Built once per run by {@link createRunContext}; closed when the run ends, after which its
 * streams, progress and log calls do nothing.
 */
import type { Readable } from 'node:stream';
import type { Command, RunContext } from '../tree/command.ts';
import type { Logger } from '../tree/logging.ts';
import type { OutputStream } from '../contract/envelope.ts';
import { AxError, type AxErrorOptions } from '../contract/errors.ts';
import { argValues, flagLabel } from '../parse/validate.ts';
import type { Invocation } from '../parse/parse.ts';
import { readDeclared, type ResourceContent } from '../tree/declarations.ts';
import { declarations } from '../schema/walk.ts';
import { childEnv, traceparentOf } from './trace.ts';
import { createLogger, logLevelOf } from './logger.ts';
import { confirm, elicit, sample, type AskScope } from './ask.ts';
import { raceAbort } from './settle.ts';
import type { ReplaySettings } from './replay.ts';
import type { RunEnv } from './run-env.ts';

/** A run's context and the state the runner reads back (see {@link createRunContext}). */
export interface HandlerScope {
  ctx: RunContext;
  /** The run's stdout and stderr, silent once the run is closed. */
  stdout: OutputStream;
  stderr: OutputStream;
  /** A flag's name as this invocation spells it (`--name` on the CLI, `name` over MCP). */
  label: (name: string) => string;
  /** What `ctx.guard`/`ctx.perform` skipped in a dry run, in order. */
  would: string[];
  /** Resources `ctx.attach` attached, in order. */
  attachments: ResourceContent[];
  /** Ends the run: later writes, progress and log calls through the context do nothing. */
  close(): void;
}

/**
 * Builds the context of one handler run. `state` is what the runner decided before: the dry run,
 * the idempotency key (`givenKey` empty when the caller gave none) and the bound flag values.
 */
export function createRunContext(inv: Invocation, env: RunEnv, warnings: string[], state: { dryRun: boolean; key: string; givenKey: string; flags: Record<string, unknown> }): HandlerScope {
  const { dryRun, key, givenKey, flags } = state;
  const cmd = inv.command;
  const would: string[] = [];
  let closed = false;
  const guardStream = (s: OutputStream): OutputStream => ({ isTTY: s.isTTY, write: (c: string | Uint8Array) => (closed ? true : s.write(c)) });
  const attachments: ResourceContent[] = [];
  const stdout = guardStream(env.stdout);
  const stderr = guardStream(env.stderr);
  const label = (n: string) => flagLabel(inv, n);
  const lazy: LazyParts = { env, logger: undefined, makeLogger: () => runLogger(cmd, env, stderr, () => closed) };
  // the four lazily read members live on a shared prototype (see LAZY_CONTEXT)
  const own: Omit<RunContext, keyof typeof LAZY_CONTEXT> & { __proto__: typeof LAZY_CONTEXT; [LAZY]: LazyParts } = {
    __proto__: LAZY_CONTEXT,
    [LAZY]: lazy,
    flags: flags as RunContext['flags'],
    args: argValues(inv) as RunContext['args'],
    argv: [...inv.positionals],
    argsLenAtDash: inv.dashAt ?? -1,
    changed: (n) => inv.values.has(n),
    command: cmd,
    stdout,
    stderr,
    env: env.env,
    signal: env.signal,
    mode: env.mode,
    dryRun,
    idempotencyKey: key,
    idempotencyKeyGiven: givenKey !== '',
    traceId: env.traceId,
    spanId: env.spanId,
    traceparent: traceparentOf(env.trace),
    childEnv: (extra) => childEnv(env.trace, env.env, extra),
    progress: (done, total, message) => {
      if (!closed) env.onProgress?.(done, total, message);
    },
    log: (m) => {
      stderr.write(`${m}\n`);
      if (!closed) env.onLog?.('info', m);
    },
    warn: (m) => {
      warnings.push(m);
      stderr.write(`${m}\n`);
      if (!closed) env.onLog?.('warning', m);
    },
    guard: (description) => {
      if (dryRun) would.push(description);
      return !dryRun;
    },
    perform: async (description, effect, rehearsal) => {
      if (dryRun) {
        would.push(description);
        // ax-go's Perform: a function rehearsal runs in the dry run, and its error is the run's error
        return (typeof rehearsal === 'function' ? (rehearsal as () => unknown)() : rehearsal) as never;
      }
      return effect();
    },
    confirm: (question, bypassFlag) => confirm(ask, question, bypassFlag),
    elicit: (schema, message) => elicit(ask, schema, message) as never,
    sample: (request) => sample(ask, request),
    attach: (uri) => {
      const found = typeof uri === 'string' ? readDeclared(declarations(env.root).resources.map((r) => r.decl), uri) : undefined;
      if (!found) throw new TypeError(`ctx.attach: no declared resource has the URI ${JSON.stringify(uri)} (declare it with declareResource)`);
      if (!closed) attachments.push(found);
    },
    fail: (kind: string, message: string, options?: AxErrorOptions) => new AxError(kind, message, options),
    flagLabel: label,
  };
  const ctx = own as unknown as RunContext;
  contexts.set(ctx, env.replay);
  const ask: AskScope = { ctx, interaction: env.interaction, label, race: (p) => raceAbort(p, env.signal) };
  return { ctx, stdout, stderr, label, would, attachments, close: () => void (closed = true) };
}

const LAZY = Symbol('ax-ts.run-context.lazy');
/** What the lazily read members of one run's context need. */
interface LazyParts {
  env: RunEnv;
  logger: Logger | undefined;
  makeLogger: () => Logger;
}
/**
 * The prototype of every run context: `stdin`, `stdinIsTTY`, `version` and `logger` are getters here,
 * not in each context's literal. An object literal with accessors is built on V8's slow path (about
 * 2.5 µs per context, measured: most of a no-op MCP call's own time); with them on a shared prototype
 * the literal is a plain one. Reading, destructuring and `in` behave the same; only an own-keys copy
 * (`{...ctx}`) leaves these four out.
 */
const LAZY_CONTEXT = {
  get stdin(): Readable {
    return (this as unknown as { [LAZY]: LazyParts })[LAZY].env.stdin();
  },
  get stdinIsTTY(): boolean {
    return (this as unknown as { [LAZY]: LazyParts })[LAZY].env.stdinIsTTY();
  },
  get version(): string {
    return (this as unknown as { [LAZY]: LazyParts })[LAZY].env.version();
  },
  get logger(): Logger {
    const l = (this as unknown as { [LAZY]: LazyParts })[LAZY];
    return (l.logger ??= l.makeLogger());
  },
};

/** The run's `ctx.logger` (built on first use; pino loads then). */
function runLogger(cmd: Command, env: RunEnv, stderr: OutputStream, isClosed: () => boolean): Logger {
  const decl = env.root.logging;
  const base = { program: env.root.name, version: env.version(), command: cmd.commandPath(), trace_id: env.traceId, span_id: env.spanId, ...decl?.labels };
  const onLog = env.onLog;
  return createLogger({
    stderr,
    mode: env.mode,
    level: logLevelOf(decl?.level, env.env),
    base,
    onLog: onLog && ((level, data) => (isClosed() ? undefined : onLog(level, data))),
  });
}

const contexts = new WeakMap<RunContext, ReplaySettings>();

/**
 * @internal The replay settings of the run a context belongs to: `mcp-server` hands its run's store
 * (the `idempotencyStore` option of execute/main) to the calls it serves.
 */
export function replaySettingsOf(ctx: RunContext): ReplaySettings | undefined {
  return contexts.get(ctx);
}
