/**
 * One call of a front-ended program on behalf of an agent, the parts every front end shares: how an
 * error reads (a refusal before the handler runs is a `validation_error`, an error carrying
 * `exitCode` is `command_failed`) in both modes, and the opt-in in-process mode itself — calls run
 * one at a time in the serving process with the program's printed output captured, a json-mode
 * call's data what the handler returned (docs/frontends.md#how-a-call-runs). The default mode, a
 * process per call, is child-call.ts.
 */
import { AxError, type ArgSpec, type RunContext } from '../../lib/index.ts';
import { routeWrite, type Write } from '../../lib/platform/process-patches.ts';
import { camel } from './names.ts';

/** What a finished call gives: the handler's return value (awaited) and what it printed. */
export interface CallOutcome {
  /** The handler's return value, `undefined` when it returned nothing (or no handler ran). */
  returned: unknown;
  /** Everything written to stdout during the call (the handler's `console.log`, the library's output). */
  printed: string;
  /** Everything written to stderr during the call. */
  printedErr: string;
}

/** What one run of the program inside {@link captured} reports back. */
export interface Ran {
  /** The handler's return value (awaited by {@link captured}). */
  returned: unknown;
}

/** What a run inside {@link captured} is given: the way to say the program's handler has started. */
export interface Running {
  /** The handler has started: a throw from here on is the handler's own, not a refusal. */
  started(): void;
}

let queue: Promise<unknown> = Promise.resolve();

/** Where a failed call's printed output rides to {@link answerCall}. */
const PRINTED = Symbol('ax-ts.front-end.printed');

/**
 * Runs `run` alone (calls are queued: a library may keep a parse's values on its objects, and the
 * process's streams are routed into the call for its length: the printed-output capture of
 * lib/platform/process-patches.ts), with stdout and stderr captured when `capture` is set. A throw is
 * given to `refuse` with what was printed to stderr and whether the
 * handler had started, and what `refuse` returns is thrown. `signal`: the call's own (its
 * `--timeout` or the client's cancellation); a call whose signal aborted while it waited in the
 * queue never starts — it rejects with the signal's reason, the answer its caller was already given
 * (docs/frontends.md#how-a-call-runs). @returns the outcome.
 */
export function captured(
  capture: boolean,
  run: (running: Running) => Promise<Ran>,
  refuse: (e: unknown, printedErr: string, started: boolean) => unknown,
  signal?: AbortSignal,
): Promise<CallOutcome> {
  const call = queue.then(() => {
    if (signal?.aborted) throw signal.reason;
    return capturedAlone(capture, run, refuse, signal);
  });
  queue = call.catch(() => undefined);
  return call;
}

async function capturedAlone(
  capture: boolean,
  run: (running: Running) => Promise<Ran>,
  refuse: (e: unknown, printedErr: string, started: boolean) => unknown,
  signal: AbortSignal | undefined,
): Promise<CallOutcome> {
  let printed = '';
  let printedErr = '';
  let started = false;
  let release = () => {};
  if (capture) {
    // once the call is answered (its signal aborted: interrupted, timeout), the runner writes the
    // error line while the action may still run: every write then goes to the real stderr
    const late = process.stderr.write.bind(process.stderr) as (...a: unknown[]) => boolean;
    const into = (add: (s: string) => void) => () =>
      ((chunk: unknown, encoding?: unknown, cb?: unknown) => {
        if (signal?.aborted) return late(chunk, encoding, cb);
        add(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
        const done = [encoding, cb].find((a) => typeof a === 'function') as (() => void) | undefined;
        if (done) queueMicrotask(done);
        return true;
      }) as Write;
    const releaseOut = routeWrite(
      'stdout',
      'front-end-call',
      into((s) => (printed += s)),
    );
    const releaseErr = routeWrite(
      'stderr',
      'front-end-call',
      into((s) => (printedErr += s)),
    );
    release = () => (releaseOut(), releaseErr());
  }
  try {
    const { returned } = await run({ started: () => (started = true) });
    return { returned: await returned, printed, printedErr };
  } catch (e) {
    const refused = refuse(e, printedErr, started);
    // a failure keeps what the program printed before it: the caller flushes it (answerCall)
    const failed = started ? failedCall(refused) : refused;
    if (started && typeof failed === 'object' && failed !== null)
      Object.defineProperty(failed, PRINTED, { value: { printed, printedErr }, configurable: true });
    throw failed;
  } finally {
    release();
  }
}

/**
 * A handler's own throw, read as a program's outcome (docs/frontends.md#how-a-call-runs): an error
 * that carries a numeric `exitCode` (1–255: how many CLIs say "issues found") is `command_failed`
 * with that exit code — a normal outcome to read, not a bug to retry; an `AxError` is kept; any
 * other throw is the handler's (`internal_error`, as for a native command).
 */
export function failedCall(e: unknown): unknown {
  if (e instanceof AxError || e === null || typeof e !== 'object') return e;
  const exitCode = (e as { exitCode?: unknown }).exitCode;
  if (typeof exitCode !== 'number' || !Number.isInteger(exitCode) || exitCode < 1 || exitCode > 255) return e;
  const said = e instanceof Error ? e.message : '';
  return new AxError(
    'command_failed',
    said ? `the command failed: ${said}` : `the command failed with exit code ${exitCode}`,
    {
      exitCode,
      context: { exit_code_set: exitCode },
      cause: e,
    },
  );
}

/**
 * The positional words of a call, in order: each argument's value as text (a variadic one's each),
 * up to the first not given; an optional argument an agent left out (it arrives as empty text) is
 * dropped, as the library would otherwise see it given.
 */
export function positionalWords(ctx: Pick<RunContext, 'args'>, args: readonly ArgSpec[]): string[] {
  const positionals: string[] = [];
  for (const a of args) {
    const v = ctx.args[camel(a.name)];
    if (v === undefined) break;
    positionals.push(...(Array.isArray(v) ? v.map(String) : [String(v)]));
  }
  while (positionals.length && positionals.at(-1) === '' && args[positionals.length - 1]?.required === false)
    positionals.pop();
  return positionals;
}

/**
 * The library's refusal of a call (bad words, a parser or coerce that throws before the handler
 * runs) as ax-ts's `validation_error` (exit 2): the library's message (else what it printed on
 * stderr), `context.reason` as given.
 */
export function refusedCall(e: unknown, printedErr: string, reason: string): AxError {
  const strip = (s: string) => s.replace(/^error: /, '').trim();
  const said = e instanceof Error ? e.message : String(e);
  const message = strip(said) || strip(printedErr);
  return new AxError('validation_error', message || 'the program refused the arguments', {
    context: { reason },
    fix: "Check the arguments against the command's inputSchema (__schema) and send them again.",
    cause: e,
  });
}

/** How the twin's handlers hand over what the program printed. */
export interface TwinSettings {
  /**
   * The process serves MCP: printed output goes to the call's printed output (a text item of the
   * result), else to its stderr.
   */
  serving: boolean;
  /**
   * How an agent's call runs (docs/frontends.md#how-a-call-runs): `'child'` (the default), each call
   * in its own process; `'in-process'`, in the process itself, one at a time.
   */
  calls?: CallsMode;
  /**
   * The program each call runs, when it is not this process's own entry: `ax-ts wrap` serving an
   * installed bin (docs/frontends.md#ax-ts-wrap).
   */
  program?: ChildProgram;
}

/** A program a call runs in its own process: its file, and how its words are given. */
export interface ChildProgram {
  /** The JavaScript file Node runs. */
  entry: string;
  /** The words as the program is given them (yargs: positionals before `--` where that is safe). */
  words?: (words: readonly string[]) => string[];
}

/** How a front end runs an agent's call: in its own process (`'child'`) or in the process itself (`'in-process'`). */
export type CallsMode = 'child' | 'in-process';

/**
 * The handler of a twin command (which declares no dry run, `dryRun: false`: the program has no
 * preview to offer). Runs the call (`json`: capture what it prints; `signal`: the run's, for
 * {@link captured}) and answers as the contract says: in json mode the handler's return value as
 * `data` (`null` when it returned nothing), its printed output as the result's printed-output item
 * (serving MCP) or on stderr (a json-mode command line); in a person's run nothing (the program
 * printed what it prints).
 */
export async function answerCall(
  ctx: RunContext,
  settings: TwinSettings,
  call: (json: boolean, signal: AbortSignal) => Promise<CallOutcome>,
): Promise<unknown> {
  const json = ctx.mode === 'json';
  // serving MCP, the print is the call's printed output: written to process.stdout inside the call,
  // the server gives it as one more text item of the result, after the envelope, bounded
  // (docs/mcp-server.md#printed-output); on a json-mode command line stdout is the envelope alone
  const flush = (o: Pick<CallOutcome, 'printed' | 'printedErr'>) => {
    if (o.printedErr) ctx.stderr.write(o.printedErr);
    if (o.printed) (settings.serving ? process.stdout : ctx.stderr).write(o.printed);
  };
  let outcome: CallOutcome;
  try {
    outcome = await call(json, ctx.signal);
  } catch (e) {
    const kept = (e as { [PRINTED]?: Pick<CallOutcome, 'printed' | 'printedErr'> } | null)?.[PRINTED];
    if (json && kept) flush(kept);
    throw e;
  }
  if (!json) return undefined;
  flush(outcome);
  return outcome.returned === undefined ? null : outcome.returned;
}
