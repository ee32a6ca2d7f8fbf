/**
 * The context a handler (and its hooks) receives — flags, args, IO, trace ids, dry-run and
 * idempotency state, ctx.log/warn/progress, guard/perform, confirm/elicit/sample, attach — and the
 * per-run state the runner reads back from it (what a dry run would do, attached resources).
 * Built once per run by {@link createRunContext} over the run's state (run-state.ts); closed when
 * the run ends, after which its streams, progress and log calls do nothing.
 *
 * Shape (docs/performance.md: a context is built for every run and every MCP call): the context's own
 * properties are its data (flags, args, ids, streams…); its functions (`ctx.log`, `ctx.guard`…) and
 * the values worth computing only when read (`ctx.stdin`, `ctx.version`, `ctx.logger`,
 * `ctx.traceparent`) are getters on one shared prototype that build the member on first read and
 * keep it for the run. A handler sees no difference — `const { log, flags } = ctx` works, a member
 * read twice is the same function, and assigning one replaces it — except that an own-keys copy
 * (`{...ctx}`) holds only the data.
 */
import { eachItem } from './items.ts';
import { RunChildren } from './children.ts';
import type { Command, RunContext } from '../tree/command.ts';
import type { Logger } from '../tree/logging.ts';
import type { OutputStream, Warning } from '../contract/envelope.ts';
import { AxError, KIND_RE, type AxErrorOptions } from '../contract/errors.ts';
import { argValues } from '../parse/validate.ts';
import type { Invocation } from '../parse/parse.ts';
import { readDeclared } from '../tree/declarations.ts';
import { declarations } from '../schema/walk.ts';
import { childEnv, traceparentOf } from '../observe/trace.ts';
import { createLogger, logLevelOf } from '../observe/logger.ts';
import type { AskScope } from '../ask/ask.ts';
import type { AskOptions, ElicitSchema } from '../tree/interaction.ts';
import { raceAbort } from './settle.ts';
import { detectAgent, isInteractive, NO_TERMINAL, notInteractiveBecause } from '../platform/agent.ts';
import { RunProgress } from '../observe/progress.ts';
import { actionRequiredError, retryStep } from '../schema/next-steps.ts';
import { pageRequestOf } from './paging.ts';
import { strictFailure } from './failures.ts';
import type { ReplaySettings } from '../store/replay.ts';
import type { RunEnv } from './run-env.ts';
import { RunState, STATE, type HandlerScope, type RunDecisions, type WithState } from './run-state.ts';

/**
 * Builds the context of one handler run. `state` is what the runner decided before: the dry run,
 * the idempotency key (`givenKey` empty when the caller gave none) and the bound flag values.
 */
export function createRunContext(inv: Invocation, env: RunEnv, warnings: Warning[], state: RunDecisions): HandlerScope {
  const s = new RunState(inv, env, warnings, state.dryRun, state.strict);
  s.ctx = new (RunContextData as unknown as new (s: RunState, state: RunDecisions) => RunContext)(s, state);
  return s;
}

/**
 * `ctx.signal`: an own, enumerable key like the data (a `{...ctx}` copy keeps it), but an accessor,
 * because an MCP call's signal is made on the first read (call-signal.ts). Assigning it makes a
 * plain value, as before. One descriptor (and one pair of functions) for every context.
 */
const SIGNAL: PropertyDescriptor = {
  configurable: true,
  enumerable: true,
  get(this: WithState) {
    return this[STATE].env.signal;
  },
  set(this: object, value: AbortSignal) {
    Object.defineProperty(this, 'signal', { value, writable: true, enumerable: true, configurable: true });
  },
};

/**
 * `ctx.dryRun` in a dry run: an own, enumerable key like the data, but an accessor that notes the
 * read, so the runner knows the handler checked it (lib/run/run-meta.ts). Assigning it makes a
 * plain value. Outside a dry run `ctx.dryRun` is a plain `false`.
 */
const DRY_RUN: PropertyDescriptor = {
  configurable: true,
  enumerable: true,
  get(this: WithState) {
    this[STATE].dryRunChecked = true;
    return true;
  },
  set(this: object, value: boolean) {
    Object.defineProperty(this, 'dryRun', { value, writable: true, enumerable: true, configurable: true });
  },
};

/**
 * The context's own data, in the order its keys have always had (a constructor on
 * {@link CONTEXT_PROTOTYPE}, so every context has one shape).
 */
function RunContextData(this: Record<PropertyKey, unknown>, s: RunState, state: RunDecisions): void {
  const inv = s.inv;
  const env = s.env;
  this[STATE] = s;
  this.flags = state.flags;
  this.args = argValues(inv);
  this.argv = [...inv.positionals];
  this.argsLenAtDash = inv.dashAt ?? -1;
  this.command = inv.command;
  this.stdout = s.stdout;
  this.stderr = s.stderr;
  this.env = env.env;
  Object.defineProperty(this, 'signal', SIGNAL);
  this.mode = env.mode;
  if (state.dryRun) Object.defineProperty(this, 'dryRun', DRY_RUN);
  else this.dryRun = false;
  this.idempotencyKey = state.key;
  this.idempotencyKeyGiven = state.givenKey !== '';
  this.traceId = env.traceId;
  this.spanId = env.spanId;
}

/** The members a context holds as its own data properties. */
type DataKey =
  | 'flags'
  | 'args'
  | 'argv'
  | 'argsLenAtDash'
  | 'command'
  | 'stdout'
  | 'stderr'
  | 'env'
  | 'signal'
  | 'mode'
  | 'dryRun'
  | 'idempotencyKey'
  | 'idempotencyKeyGiven'
  | 'traceId'
  | 'spanId';

/** How each lazily built member is made from the run's state (a function member, or a value read once). */
const MEMBERS: { [K in Exclude<keyof RunContext, DataKey>]: (s: RunState, ctx: RunContext) => RunContext[K] } = {
  stdin: (s) => s.env.stdin(),
  stdinIsTTY: (s) => s.env.stdinIsTTY(),
  agent: (s) => detectAgent(s.env.env),
  page: (s) => pageRequestOf(s.inv),
  interactive: (s) =>
    s.env.noTerminal !== true &&
    isInteractive({ env: s.env.env, stdinIsTTY: s.env.stdinIsTTY(), stdoutIsTTY: s.env.stdout.isTTY === true }),
  version: (s) => s.env.version(),
  logger: (s) => runLogger(s.inv.command, s.env, s.stderr, () => s.closed),
  traceparent: (s) => traceparentOf(s.env.trace),
  changed: (s) => (n) => s.inv.values.has(n),
  childEnv: (s) => (extra) => childEnv(s.env.trace, s.env.env, extra),
  spawn: (s) => (command, args, options) =>
    (s.children ??= new RunChildren(s.env.signal)).spawn(command, args, {
      ...options,
      env: options?.env ?? childEnv(s.env.trace, s.env.env),
    }),
  progress: (s) => (done, total, message) => {
    if (!s.closed)
      (s.progress ??= new RunProgress(s.stderr, s.env.mode === 'human', s.env.env, s.env.onProgress)).report(
        done,
        total,
        message,
      );
  },
  log: (s) => (m) => {
    s.line(m);
    if (!s.closed) s.env.onLog?.('info', m);
  },
  warn: (s) => (m, options) => {
    const code = options?.code ?? 'warning';
    if (!KIND_RE.test(code))
      throw new TypeError(`ctx.warn: code ${JSON.stringify(code)} must match ^[a-z][a-z0-9_]*$ (e.g. stale_cache)`);
    s.warnings.push({ code, message: String(m) });
    s.line(String(m));
    if (!s.closed) s.env.onLog?.('warning', m);
    // --strict: the warning is the run's failure, where it is raised (what follows it does not run)
    if (s.strict && !s.closed) throw strictFailure(s.warnings, true, s.label);
  },
  setChanged: (s) => (changed) => {
    if (typeof changed !== 'boolean') throw new TypeError('ctx.setChanged: changed must be true or false');
    if (!s.closed) s.changed = changed;
  },
  // it throws, so a call whose result is left unused still stops the run (never "deploys anyway")
  actionRequired: (s) => (stop) => {
    throw actionRequiredError(s.inv, s.env.root, stop, s.env.toolBase, s.env.toolVia, s.dryRun);
  },
  step: (s) =>
    ((name: string, work?: () => unknown) => {
      if (typeof name !== 'string' || name.trim() === '')
        throw new TypeError('ctx.step: name must be a non-empty string (e.g. "upload")');
      const done = <T>(v: T) => (s.closed || s.steps.push(name), v);
      if (work === undefined) return void done(undefined);
      if (typeof work !== 'function') throw new TypeError('ctx.step: work must be a function');
      // a dry run changes nothing: the step's work is what would be done (ctx.perform gives a rehearsal)
      if (s.dryRun) {
        s.dryRunChecked = true;
        s.would.push(name);
        return Promise.resolve(undefined);
      }
      return Promise.resolve().then(work).then(done);
    }) as RunContext['step'],
  eachItem: (s) => (items, work) => eachItem(items, work, s.env.signal, (results) => (s.itemResults = results)),
  guard: (s) => (description) => {
    s.dryRunChecked = true;
    if (s.dryRun) s.would.push(description);
    return !s.dryRun;
  },
  perform: (s) =>
    (async (description: string, effect: () => unknown, rehearsal?: unknown) => {
      s.dryRunChecked = true;
      if (s.dryRun) {
        s.would.push(description);
        // ax-go's Perform: a function rehearsal runs in the dry run, and its error is the run's error
        return typeof rehearsal === 'function' ? (rehearsal as () => unknown)() : rehearsal;
      }
      return effect();
    }) as RunContext['perform'],
  confirm: (s, ctx) => async (question, bypassFlag, options) =>
    (await asking()).confirm(askOf(s, ctx), question, bypassFlag, options),
  elicit: (s, ctx) =>
    (async (schema: ElicitSchema, message: string, options?: AskOptions) =>
      (await asking()).elicit(askOf(s, ctx), schema, message, options)) as RunContext['elicit'],
  sample: (s, ctx) => async (request, options) => (await asking()).sample(askOf(s, ctx), request, options),
  roots: (s, ctx) => async (options) => (await asking()).roots(askOf(s, ctx), options),
  attach: (s) => (uri) => {
    const found =
      typeof uri === 'string'
        ? readDeclared(
            declarations(s.env.root).resources.map((r) => r.decl),
            uri,
          )
        : undefined;
    if (!found)
      throw new TypeError(
        `ctx.attach: no declared resource has the URI ${JSON.stringify(uri)} (declare it with declareResource)`,
      );
    if (!s.closed) s.attachments.push(found);
  },
  fail: () => (kind: string, message: string, options?: AxErrorOptions) => new AxError(kind, message, options),
  flagLabel: (s) => s.label,
};

/** The asking module (ask/ask.ts), loaded by the first question: most runs ask none. */
const asking = () => import('../ask/ask.ts');

/** The channel confirm/elicit/sample ask through (built on the first question). */
function askOf(s: RunState, ctx: RunContext): AskScope {
  return (s.ask ??= {
    ctx,
    flags: s.inv.resolved.all,
    interaction: s.env.interaction,
    label: s.label,
    race: (p) => raceAbort(p, s.env.signal),
    notInteractive: () =>
      s.inv.source === 'values' && !s.inv.argsJson ? NO_TERMINAL : notInteractiveBecause(s.env.env),
    retry: (add, fill, description) =>
      retryStep(s.inv, s.env.root.name, add, fill, description, s.env.toolBase, s.env.toolVia),
  });
}

/**
 * The prototype of every run context: one getter per lazily built member (building it on first read
 * and keeping it in the run's state) and a setter that makes an assigned value the context's own.
 */
const CONTEXT_PROTOTYPE: object = Object.create(
  Object.prototype,
  Object.fromEntries(
    Object.entries(MEMBERS).map(([name, make]) => [
      name,
      {
        configurable: true,
        enumerable: false,
        get(this: WithState) {
          const s = this[STATE];
          const built = (s.built ??= {});
          return name in built
            ? built[name]
            : (built[name] = (make as (s: RunState, ctx: unknown) => unknown)(s, this));
        },
        set(this: object, value: unknown) {
          Object.defineProperty(this, name, { value, writable: true, enumerable: true, configurable: true });
        },
      } satisfies PropertyDescriptor,
    ]),
  ),
);
RunContextData.prototype = CONTEXT_PROTOTYPE;

/** The run's `ctx.logger` (built on first use; pino loads then). */
function runLogger(cmd: Command, env: RunEnv, stderr: OutputStream, isClosed: () => boolean): Logger {
  const decl = env.root.logging;
  const base = {
    program: env.root.name,
    version: env.version(),
    command: cmd.commandPath(),
    trace_id: env.traceId,
    span_id: env.spanId,
    ...decl?.labels,
  };
  const onLog = env.onLog;
  return createLogger({
    stderr,
    mode: env.mode,
    level: logLevelOf(decl?.level, env.env),
    base,
    onLog: onLog && ((level, data) => (isClosed() ? undefined : onLog(level, data))),
  });
}

/**
 * @internal The replay settings of the run a context belongs to: `mcp-server` hands its run's store
 * (the `idempotencyStore` option of execute/main) to the calls it serves.
 */
export function replaySettingsOf(ctx: RunContext): ReplaySettings | undefined {
  return (ctx as unknown as Partial<WithState>)[STATE]?.env.replay;
}
