/**
 * Running one parsed invocation: checks, the handler with its context, and the output contract
 * (envelope, NDJSON stream, human rendering, error line). Shared by the CLI (`execute`) and the
 * MCP bridge, which both hand it an {@link Invocation}. Source: SPEC §2.
 *
 * Layer `lib/run/` (the highest): running a tree — `execute`, `main`, the in-process invoke used by
 * the MCP bridge, the run context handed to handlers, version resolution and human rendering. It
 * owns every byte written, and may import every layer below; only `lib/index.ts` and `mcp/` import
 * it.
 */
import type { Readable } from 'node:stream';
import type { Command } from '../tree/command.ts';
import { errorLine, humanError, successLine, type SuccessMeta } from '../contract/envelope.ts';
import { newIdempotencyKey } from '../contract/ids.ts';
import { childEnv, startTrace, traceparentOf, type RunTrace } from './trace.ts';
import { createLogger, logLevelOf, type NotificationLevel } from './logger.ts';
import { explainTarget, explainText, resolveSources, type FlagProvenance } from './provenance.ts';
import type { Logger } from '../tree/logging.ts';
import type { Mode } from '../contract/mode.ts';
import type { OutputStream } from '../contract/envelope.ts';
import type { RunContext } from '../tree/command.ts';
import { AxError, toAxError, type AxErrorOptions } from '../contract/errors.ts';
import { camelCase } from '../tree/flags.ts';
import { flagsOf, injectedInForce, replays } from '../tree/flagset.ts';
import { helpText, useLine } from '../help/help.ts';
import { findCommand, type Invocation } from '../parse/parse.ts';
import { renderDefault } from './render.ts';
import { isStream, renderItem, toAsync, write, writeReplayed } from './output.ts';
import { exitCodeSet, interruptedFix, isReplayed, replayedError, unrecorded } from './failures.ts';
import type { ExecuteOptions } from './options.ts';
import { isPlaceholderVersion, resolveVersion } from './version.ts';
import { DEFAULT_IDEMPOTENCY_TTL_MS, DEFAULT_IDEMPOTENCY_WAIT_MS } from './idempotency.ts';
import type { ReplayGate, ReplaySettings } from './replay.ts';
import { argValues, flagLabel, flagValues, validateInvocation } from '../parse/validate.ts';
import { readDeclared, type ResourceContent } from '../tree/declarations.ts';
import type { Interaction } from '../tree/interaction.ts';
import { declarations } from '../schema/walk.ts';
import { confirm, elicit, sample, type AskScope } from './ask.ts';
import { hooksOf } from './hooks.ts';

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
  signal: AbortSignal;
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
 */
export function runEnv(root: Command, options: ExecuteOptions, mode: Mode, given?: { traceparent?: string; tracestate?: string }): RunEnv {
  const stdout = options.stdout ?? process.stdout;
  const env = options.env ?? process.env;
  const trace = startTrace(env, given);
  let version: string | undefined;
  return {
    root,
    mode,
    stdout,
    stderr: options.stderr ?? process.stderr,
    stdin: () => options.stdin ?? process.stdin,
    stdinIsTTY: () => options.stdinIsTTY ?? (options.stdin ? false : process.stdin.isTTY === true),
    env,
    signal: options.signal ?? new AbortController().signal,
    trace,
    traceId: trace.traceId,
    spanId: trace.spanId,
    newKey: newIdempotencyKey,
    version: () => (version ??= resolveVersion([options.version, root.version].find((v) => !isPlaceholderVersion(v)))),
    onProgress: options.onProgress,
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

/** What a run produced, for callers that need more than the exit code (the MCP bridge). */
export interface RunOutcome {
  exitCode: number;
  /** The payload (success, non-stream). */
  payload?: unknown;
  /** Items written (stream). */
  items?: unknown[];
  /** Whether the command produced a stream. */
  stream?: boolean;
  /** The failure, when exitCode ≠ 0. */
  error?: AxError;
  /** Whether help text was printed instead of running. */
  help?: boolean;
  /** Declared resources the handler attached (`ctx.attach`), in order, read for their URIs. */
  attachments?: ResourceContent[];
}

/** How long a handler may take to settle after its signal aborts before the run is reported interrupted (ms). */
export const ABORT_GRACE_MS = 1000;

/**
 * How long a command declared `finishOnSigterm` (a server) may take to shut down after SIGTERM or
 * SIGINT, in ms: long enough for it to abort its own calls, give them {@link ABORT_GRACE_MS} and
 * answer them `interrupted`, and close. The MCP servers finish within it (mcp/lifecycle.ts).
 */
export const SHUTDOWN_BUDGET_MS = 3000;

/**
 * Resolves to `p` unless `signal` aborts. After an abort, `p` gets up to {@link ABORT_GRACE_MS}
 * ({@link SHUTDOWN_BUDGET_MS} for a `finishOnSigterm` command) to settle (so a handler can stop
 * cleanly: close files, shut a server down, or finish a write it has started). A result that
 * arrives within the grace stands, for SIGINT as for SIGTERM: the work is done, and reporting it
 * `interrupted` would make a blind retry repeat it. A rejection after the abort, or no answer
 * within the grace, ends the run `interrupted` (a late result is dropped). An abort whose reason is
 * another AxError (`main()`'s stray-error and never-settles aborts) fails the run with that error
 * even if a result arrives.
 */
function raceAbort<T>(p: Promise<T>, signal: AbortSignal, finishOnSigterm = false): Promise<T> {
  p.catch(() => {}); // a rejection after the abort must not become an unhandled rejection
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      timer = setTimeout(() => reject(interrupted(signal)), finishOnSigterm ? SHUTDOWN_BUDGET_MS : ABORT_GRACE_MS);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      signal.removeEventListener('abort', onAbort);
      if (timer) clearTimeout(timer);
    };
    p.then(
      (v) => {
        done();
        // an abort for a stray error or a promise that can never settle fails the run whatever it returns
        if (signal.aborted && signal.reason instanceof AxError && signal.reason.kind !== 'interrupted') reject(signal.reason);
        else resolve(v);
      },
      (e) => {
        done();
        reject(signal.aborted && !(e instanceof AxError && e.kind === 'interrupted') ? interrupted(signal) : e);
      },
    );
  });
}

/**
 * A handler's result, raced against the signal only when it is a promise: a synchronous result needs
 * no promise, no timer and no abort listener (issue 14: fewer objects per MCP call), only the same
 * check {@link raceAbort} makes when its promise settles.
 */
function settle<T>(run: () => T | Promise<T>, signal: AbortSignal, finishOnSigterm: boolean): T | Promise<T> {
  let result: T | Promise<T>;
  try {
    result = run();
  } catch (e) {
    throw signal.aborted && !(e instanceof AxError && e.kind === 'interrupted') ? interrupted(signal) : e;
  }
  if (result !== null && typeof result === 'object' && typeof (result as { then?: unknown }).then === 'function') return raceAbort(Promise.resolve(result), signal, finishOnSigterm);
  const finishing = finishOnSigterm && signal.reason instanceof AxError && signal.reason.context?.signal === 'SIGTERM';
  if (signal.aborted && !finishing) throw interrupted(signal);
  return result as T;
}

function interrupted(signal: AbortSignal): AxError {
  const r = signal.reason;
  if (r instanceof AxError) return r;
  const why = r instanceof Error ? r.message : typeof r === 'string' ? r : 'cancelled';
  return new AxError('interrupted', `interrupted (${why}) before the command finished`, {
    fix: 'Run the command again; if it changed state, check that state first.',
  });
}

/**
 * Writes a failure per the contract (json: one error line on stderr; human: readable text) and
 * returns its exit code (never 0).
 */
export function reportError(thrown: unknown, env: RunEnv): number {
  const err = toAxError(thrown);
  // a debugging stack goes first: the error line must stay the last line of stderr
  if (err.kind === 'internal_error' && env.env.AX_DEBUG && err.cause instanceof Error && err.cause.stack) {
    env.stderr.write(`${err.cause.stack}\n`);
  }
  if (env.mode === 'json') {
    env.stderr.write(errorLine(err, { trace_id: env.traceId, tool: env.root.name, version: env.version(), ...(isReplayed(err) ? { replayed: true as const } : {}) }));
  } else {
    let usage: string | undefined;
    if (err.usage) {
      const { command, rest } = findCommand(env.root, err.usage.split(/\s+/).slice(1));
      if (rest.length === 0) usage = useLine(command);
    }
    env.stderr.write(humanError(err, usage, err.kind === 'internal_error' ? env.traceId : undefined));
  }
  return err.exitCode;
}

/**
 * Runs a parsed invocation to completion and writes its output. Usage errors, handler failures and
 * interruptions are reported here too; the returned outcome carries the exit code.
 */
/**
 * Checks every given `json` flag that declares a schema against it (ajv loads only then).
 * @throws AxError `validation_error` naming the flag as this invocation spells it.
 */
async function checkJsonFlags(inv: Invocation): Promise<void> {
  const withSchema = [...inv.values.keys()].map((n) => flagsOf(inv.command).get(n)).filter((f) => f?.spec.type === 'json' && f.spec.schema);
  if (!withSchema.length) return;
  const { checkJsonFlag } = await import('../parse/arguments.ts');
  for (const f of withSchema) checkJsonFlag(flagLabel(inv, f!.name), f!.spec, inv.values.get(f!.name));
}

export async function runInvocation(inv: Invocation, env: RunEnv): Promise<RunOutcome> {
  const cmd = inv.command;
  try {
    // the help flag: the injected one, or an author's own bool `help` flag (Cobra: it is the help flag)
    if (inv.values.get('help') === true && flagsOf(cmd).get('help')?.spec.type === 'bool') {
      await write(env.stdout, helpText(cmd));
      return { exitCode: 0, help: true };
    }
    if (cmd === env.root && inv.values.get('version') === true && injectedInForce(cmd, 'version')) {
      const v = env.version();
      // human mode: the root's versionTemplate (Cobra's SetVersionTemplate), else Cobra's default text
      const human = () => (cmd.versionTemplate ? cmd.versionTemplate({ name: cmd.name, version: v, command: cmd }) : `${cmd.name} version ${v}\n`);
      await write(env.stdout, env.mode === 'json' ? successLine({ name: cmd.name, version: v }, baseMeta(env, env.newKey())) : human());
      return { exitCode: 0, payload: { name: cmd.name, version: v } };
    }
    const warnings = [...inv.warnings];
    if (cmd.deprecated) warnings.unshift(`Command ${JSON.stringify(cmd.name)} is deprecated, ${cmd.deprecated}`);
    for (const w of warnings) env.stderr.write(`${w}\n`);
    const provenance = await resolveSources(inv, env.env);
    if (provenance && inv.values.has('explain') && injectedInForce(cmd, 'explain')) return await explain(inv, env, provenance);
    // Args validator, required flags and flag groups, then (in runHandler) the pre-run hooks, run and
    // the post-run hooks. Cobra checks required flags and groups after the pre-run hooks; ax-ts checks
    // them first on every path, as MCP and --args-json calls are checked against the inputSchema
    // before anything runs, so no hook ever runs for a call refused as malformed
    // (docs/cobra-differences.md).
    validateInvocation(inv);
    await checkJsonFlags(inv);
    if (!cmd.runnable()) {
      await write(env.stdout, helpText(cmd));
      return { exitCode: 0, help: true };
    }
    return await runHandler(inv, env, warnings, provenance);
  } catch (e) {
    const error = toAxError(e);
    return { exitCode: reportError(error, env), error };
  }
}

function baseMeta(env: RunEnv, key: string): SuccessMeta {
  return { trace_id: env.traceId, span_id: env.spanId, idempotency_key: key };
}

/** `--explain <flag>`: the provenance of one flag (human text, or an envelope with all of them in meta.provenance). */
async function explain(inv: Invocation, env: RunEnv, provenance: Record<string, FlagProvenance>): Promise<RunOutcome> {
  const target = explainTarget(inv, String(inv.values.get('explain')));
  const label = flagLabel(inv, target.name);
  const p = provenance[label]!;
  const data = { flag: label, ...p };
  if (env.mode === 'json') await write(env.stdout, successLine(data, { ...baseMeta(env, env.newKey()), provenance }));
  else await write(env.stdout, explainText(label, p));
  return { exitCode: 0, payload: data };
}

async function runHandler(inv: Invocation, env: RunEnv, warnings: string[], provenance?: Record<string, FlagProvenance>): Promise<RunOutcome> {
  const cmd = inv.command;
  const flags = flagValues(inv);
  const dryRun = injectedInForce(cmd, 'dry-run') && flags.dryRun === true;
  const rawKey = injectedInForce(cmd, 'idempotency-key') && typeof flags.idempotencyKey === 'string' ? flags.idempotencyKey : '';
  const givenKey = rawKey.trim() === '' ? '' : rawKey; // opaque: kept as given; blank means none
  const key = givenKey || env.newKey();
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
  const ask: AskScope = { ctx, interaction: env.interaction, label, race: (p) => raceAbort(p, env.signal) };
  const meta = (): SuccessMeta => {
    const m = baseMeta(env, key);
    if (attachments.length) m.attached = attachments.map((a) => a.uri);
    if (dryRun) m.dry_run = true;
    if (warnings.length) m.warnings = [...warnings];
    if (would.length) m.would = [...would];
    if (provenance) m.provenance = provenance;
    return m;
  };
  contexts.set(ctx, env.replay);
  const replaying = givenKey !== '' && !dryRun && replays(cmd);
  let gate: ReplayGate | undefined;
  let running: Promise<unknown> | undefined;
  try {
    if (replaying) {
      const { openGate, fingerprint } = await import('./replay.ts');
      const builtin = [...flagsOf(cmd).values()].filter((f) => f.builtin).map((f) => camelCase(f.name));
      const bound = Object.fromEntries(Object.entries(flags).filter(([k]) => !builtin.includes(k)));
      const opened = await openGate({
        scope: { program: env.root.name, command: cmd.commandPath(), key: givenKey },
        fingerprint: await fingerprint({ flags: bound, args: ctx.args }),
        settings: env.replay,
        env: env.env,
        signal: env.signal,
        keyLabel: label('idempotency-key'),
      });
      if ('replay' in opened) {
        const rec = opened.replay;
        if (rec.kind === 'error') throw replayedError(rec);
        return { exitCode: 0, ...(await writeReplayed(rec, cmd, ctx, { mode: env.mode, stdout, stderr }, meta())) };
      }
      gate = opened.gate;
    }
    if (env.signal.aborted) throw interrupted(env.signal);
    const hooks = hooksOf(cmd);
    const call = (fn: (c: RunContext) => unknown) => settle(() => fn(ctx), env.signal, cmd.finishOnSigterm);
    const postHooks = async () => {
      for (const h of hooks.post) await call(h);
    };
    for (const h of hooks.pre) await call(h);
    const exitCodeBefore = process.exitCode;
    // `running` is the handler's own promise: after an interrupt, a late success is still recorded
    const result = await call((c) => {
      const r = cmd.run!(c);
      running = Promise.resolve(r);
      return r;
    });
    const failed = exitCodeSet(exitCodeBefore, result);
    if (failed) throw failed;
    // post hooks run before a document is written, so one that fails leaves no success envelope behind;
    // a stream's run after its last item
    const streaming = isStream(result) || cmd.output?.kind === 'stream';
    if (!streaming) await postHooks();
    if (cmd.output?.kind === 'opaque') {
      if (result instanceof Uint8Array) {
        if (env.stdout.isTTY === true) {
          throw new AxError('validation_error', `refusing to write ${result.byteLength} bytes of ${cmd.output.mediaType ?? 'binary data'} to a terminal`, {
            fix: 'Redirect stdout to a file or a pipe (> out.bin).',
            context: { reason: 'binary_to_terminal', media_type: cmd.output.mediaType ?? null },
          });
        }
        // bytes are not recorded for replay: a retry with the key runs again (and says so)
        if (gate) {
          await gate.release();
          gate = undefined;
          ctx.warn(unrecorded(label));
        }
        await write(stdout, result);
      } else {
        const text = result === undefined || result === null ? '' : typeof result === 'string' ? result : `${JSON.stringify(result)}\n`;
        if (gate && !(await gate.complete({ exitCode: 0, kind: 'opaque', text }))) ctx.warn(unrecorded(label));
        await write(stdout, text);
      }
      return { exitCode: 0, payload: result, attachments };
    }
    if (isStream(result) || cmd.output?.kind === 'stream') {
      const items: unknown[] | undefined = env.collectItems ? [] : undefined; // only the MCP bridge needs them all
      const texts: string[] | undefined = gate ? [] : undefined; // what a replay writes again
      const iterable = (result ?? []) as AsyncIterable<unknown>;
      const it = (Symbol.asyncIterator in iterable ? iterable : toAsync(iterable as Iterable<unknown>))[Symbol.asyncIterator]();
      try {
        for (let n = 1; ; n++) {
          const step = await raceAbort(it.next(), env.signal);
          if (step.done) break;
          items?.push(step.value);
          texts?.push(JSON.stringify(step.value === undefined ? null : step.value));
          await write(stdout, env.mode === 'json' ? successLine(step.value, meta()) : renderItem(cmd, step.value, ctx));
          // A generator that never awaits I/O would starve the event loop: signals and a closed stdout
          // (EPIPE) could never be noticed. Let the loop turn now and then.
          if (n % 64 === 0) await new Promise((r) => setImmediate(r));
          if (env.signal.aborted) throw interrupted(env.signal);
        }
      } finally {
        void it.return?.().catch(() => {}); // let the generator run its finally blocks
      }
      const late = exitCodeSet(exitCodeBefore, items);
      if (late) throw late;
      await postHooks();
      if (gate && !(await gate.complete({ exitCode: 0, kind: 'stream', items: texts }))) ctx.warn(unrecorded(label));
      return { exitCode: 0, items: items ?? [], stream: true, attachments };
    }
    // recorded before it is written: once a caller can see the result, a retry replays it
    if (gate && !(await gate.complete({ exitCode: 0, kind: 'data', data: JSON.stringify(result === undefined ? null : result) }))) ctx.warn(unrecorded(label));
    if (env.mode === 'json') await write(stdout, successLine(result, meta()));
    else {
      const text = cmd.render ? cmd.render(result, ctx) : renderDefault(result);
      if (typeof text === 'string') await write(stdout, text.endsWith('\n') || text === '' ? text : `${text}\n`);
      if (dryRun) stderr.write(`Dry run: nothing was changed.${would.length ? ` Would: ${would.join('; ')}.` : ''}\n`);
    }
    return { exitCode: 0, payload: result, attachments };
  } catch (e) {
    let err = toAxError(e);
    if (err.kind === 'interrupted') err = interruptedFix(err, cmd, replaying, label);
    if (gate) {
      if (err.kind === 'interrupted' && running) {
        // the handler may still finish its work: record a late success so a retry replays it
        const g = gate;
        running.then(
          (v) => void (isStream(v) || (cmd.output?.kind ?? 'data') !== 'data' ? g.release() : g.complete({ exitCode: 0, kind: 'data', data: JSON.stringify(v === undefined ? null : v) })),
          () => void g.release(),
        );
      } else if (err.retryable || err.kind === 'interrupted') await gate.release();
      else await gate.complete({ exitCode: err.exitCode, kind: 'error', error: err.toJSON() });
    }
    throw err;
  } finally {
    closed = true;
  }
}

/** The run's `ctx.logger` (built on first use; pino loads then). */
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
