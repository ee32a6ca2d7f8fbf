/**
 * `main(root)`: `execute` wired to the real process. Signals, a reader that closes stdout early, stray
 * errors and handlers that never settle all end in the documented exit code — never a Node stack,
 * never a hang, never a silent 0. Source: docs/contract.md#signals-sigint-exit-130-sigterm-exit-143.
 */
import type { Command } from '../tree/command.ts';
import { AxError, describeThrown, ExitCode } from '../contract/errors.ts';
import { execute } from './execute.ts';
import { type ExecuteOptions } from './options.ts';
import { realOutput } from './fd-output.ts';
import { divertStdout, useEnvProxy } from '../platform/process-patches.ts';
import { RUN_TRACEPARENT_ENV } from '../observe/trace.ts';

/** Options of {@link main}. */
export interface MainOptions extends ExecuteOptions {
  /**
   * How long a handle left running by a handler may keep the process alive after the run, ms; and,
   * after a signal, how long output the reader takes nothing of is waited for. Default 2000.
   */
  graceMs?: number;
}

/**
 * Runs the tree as the real process and sets `process.exitCode`:
 * - SIGINT aborts `ctx.signal` and ends in `interrupted` (exit 130); SIGTERM likewise with exit 143;
 *   a second signal (of either kind) exits at once, still writing the error line; a signal that
 *   arrives once the command has finished (its outcome written) changes nothing: the process
 *   flushes and ends with the run's own exit code. After a signal, output queued in Node's stream
 *   is waited for as long as the OS takes more of it within each `graceMs`; once it takes nothing
 *   for `graceMs`, or a second signal comes, the process exits with that signal's code (130/143).
 *   On a Unix socket the OS takes more only once the reader has emptied most of the socket's
 *   buffer (about 150 KB on Linux): a reader slower than that per `graceMs` counts as stopped.
 *   (The outcome written on the descriptor is one write(2), which no handler can interrupt: a signal
 *   that arrives while it waits for the reader is handled once the reader has taken it);
 * - a reader that closes stdout (EPIPE) ends the process quietly with exit 141 — unless the run had
 *   already failed on its own and written its error line, which then keeps its exit code; any other stdout
 *   write error is reported as `internal_error` on stderr (exit 1); stderr write errors are ignored;
 *   this holds for a handler's own writes to `process.stdout` too;
 * - unless `stdout`/`stderr` are given, the run's outcome (the envelope of a document result, the
 *   error line…), written once no handler code runs, goes on the descriptor of a pipe, socket or
 *   file while no one has made `process.stdout`/`process.stderr` (fd-output.ts); everything else,
 *   and everything once the stream is made, goes through Node's stream, so output keeps the order
 *   it was written in whoever writes it, and no write holds up signals while a handler runs;
 * - a stray rejection or exception from a handler's leftovers fails the run with `internal_error`
 *   (or, once the run has finished, is noted on stderr without changing the exit code);
 * - a handler whose promise can never settle fails with `internal_error` instead of exiting 0;
 * - afterwards the event loop drains so piped output is never cut short; a handle left running by a
 *   handler cannot keep the process alive more than `graceMs` after stdout and stderr have flushed
 *   (after SIGINT/SIGTERM, not at all: the process exits once they have flushed).
 * @returns the exit code (also set on `process.exitCode`).
 */
export async function main(root: Command, options: MainOptions = {}): Promise<number> {
  const ac = new AbortController();
  let report: ((e: unknown) => number) | undefined;
  let finished = false;
  /** The exit code of a run that finished with a failure (its error line written). */
  let failedWith: number | undefined;
  const exitNow = (error: AxError, fallback: number) => {
    // at once: the error line is queued on Node's stream, never a write that waits for a reader
    out.streamOnly();
    err.streamOnly();
    const code = report ? report(error) : fallback;
    process.exit(code);
  };
  let signals = 0;
  let firstSignal: keyof typeof SIGNAL_CODES | undefined;
  const onSignal = (name: keyof typeof SIGNAL_CODES) => () => {
    signals += 1;
    firstSignal ??= name;
    const exitCode = SIGNAL_CODES[name];
    const error = new AxError('interrupted', `interrupted (${name}) before the command finished`, {
      exitCode,
      context: { signal: name },
      fix: 'Run the command again; if it changed state, check that state first.',
    });
    // The run is over and its outcome written: nothing was interrupted, so say nothing more and end
    // with the run's own exit code (a signal now must not turn a committed write into `interrupted`),
    // once the output has flushed. Output the reader takes nothing of for the grace, or a second
    // signal, ends the process with that signal's code: what was written did not all arrive.
    if (finished) {
      if (signals > 1) process.exit(exitCode);
      endAfterSignal?.(exitCode);
    } else if (signals > 1)
      exitNow(error, exitCode); // a second signal, of either kind, exits at once
    else ac.abort(error);
  };
  const onStray = (event: 'unhandledRejection' | 'uncaughtException') => (thrown: unknown) => {
    // Someone else (e.g. the MCP server, which must survive its handlers) has taken charge of strays.
    if (process.listenerCount(event) > 1) return;
    const message = describeThrown(thrown);
    if (finished) {
      err.stream.write(`${root.name}: a stray error after the command finished was ignored: ${message}\n`);
      return;
    }
    ac.abort(
      new AxError('internal_error', `a stray error escaped the command: ${message}`, {
        cause: thrown,
        fix: 'This is a bug in the program (an unawaited promise or a throwing timer); report it with the trace_id.',
      }),
    );
  };
  const onStdoutError = (e: NodeJS.ErrnoException) => {
    // the reader has gone: nothing more to say to it. A run that already failed on its own (its
    // error line written before the closed pipe was noticed) ends with its own code, not 141.
    if (e.code === 'EPIPE') process.exit(failedWith ?? ExitCode.stdoutClosed);
    exitNow(
      new AxError('internal_error', `cannot write to stdout: ${e.message}`, {
        fix: 'Check where stdout goes (a full disk, a closed file).',
      }),
      ExitCode.internal,
    );
  };
  const onStderrError = () => {}; // nowhere left to report it; the exit code still tells
  // the real ones are watched (their errors, their flush at exit) even when the run is given others
  const out = realOutput('stdout', onStdoutError);
  const err = realOutput('stderr', onStderrError);
  // json mode: stdout holds only the run's JSON lines; what a handler or its libraries print there
  // (console.log, process.stdout.write) goes to stderr (docs/contract.md#success-envelope). Not for
  // an opaque command (its stdout is its bytes, and mcp-server's is the protocol's own pipe), nor a
  // run given its own stdout.
  let jsonLines = false;
  if (!options.stdout) divertStdout(() => jsonLines);
  // a handler's fetch() and http.request() follow HTTPS_PROXY/HTTP_PROXY/NO_PROXY, as curl's requests
  // do (docs/contract.md#proxies); a program given its own env is told nothing by the process's
  useEnvProxy(options.env ?? process.env);
  // A handler whose promise can never settle leaves nothing in the event loop: Node would exit 0 with
  // no output. Turn that into an internal error instead (an error can never exit 0).
  const onBeforeExit = () =>
    ac.abort(
      new AxError(
        'internal_error',
        'the command never finished: its handler returned a promise that can never settle',
        {
          fix: 'This is a bug in the program (a promise that nothing resolves); report it with the trace_id.',
        },
      ),
    );
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(name, onSignal(name));
  const onRejection = onStray('unhandledRejection');
  const onException = onStray('uncaughtException');
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  process.on('beforeExit', onBeforeExit);
  options.signal?.addEventListener('abort', () => ac.abort(options.signal!.reason), { once: true });
  let code: number;
  let endAfterSignal: ((signalCode: number) => void) | undefined;
  try {
    code = await execute(root, {
      ...parentTrace(options),
      ...options,
      stdout: options.stdout ?? out.stream,
      stderr: options.stderr ?? err.stream,
      signal: ac.signal,
      onReporter: (r, run) => {
        report = r;
        jsonLines = run.mode === 'json' && run.command.output?.kind !== 'opaque';
      },
    });
  } finally {
    finished = true;
    process.off('beforeExit', onBeforeExit);
  }
  process.exitCode = code;
  if (code !== 0) failedWith = code;
  const grace = options.graceMs ?? 2000;
  const flushThenExit = () => out.flush(() => err.flush(() => process.exit(code)));
  // After a signal the run is over for good: a handle left by a handler that ignored the abort (a
  // server's hung call) must not hold the exit past the shutdown budget. Flush, then exit at once.
  // Output the OS keeps taking is waited for; output it takes nothing of for `grace` is given up,
  // with the signal's code (not all of it arrived). A Unix socket takes more only once its reader
  // has emptied most of its buffer, so there "nothing" can be a reader slower than that per grace.
  endAfterSignal = (signalCode) => {
    flushThenExit();
    const step = Math.min(250, grace);
    let last = [...out.backlog(), ...err.backlog()];
    let still = 0;
    setInterval(() => {
      const now = [...out.backlog(), ...err.backlog()];
      // progress: some of what the streams hold went to the OS (new writes only ever add to it)
      still = now.some((n, i) => n < last[i]!) ? 0 : still + step;
      last = now;
      if (still >= grace) process.exit(signalCode);
    }, step).unref();
  };
  if (firstSignal !== undefined) endAfterSignal(SIGNAL_CODES[firstSignal]);
  else setTimeout(flushThenExit, grace).unref();
  return code;
}

/**
 * The exit code of a run a signal ended: 128 + the signal's number, as a shell reports it. SIGHUP (a
 * person closed the terminal) ends the run as SIGINT and SIGTERM do, its children with it.
 */
const SIGNAL_CODES = {
  SIGINT: ExitCode.interrupted,
  SIGTERM: ExitCode.terminated,
  SIGHUP: ExitCode.hangup,
} as const;

/**
 * The trace the run that started this process handed it for this process's own run
 * ({@link RUN_TRACEPARENT_ENV}), taken out of the environment so that nothing this run starts, and
 * no tool call it serves, continues it by accident.
 */
function parentTrace(options: MainOptions): { traceparent?: string } {
  const env = options.env ?? process.env;
  const given = env[RUN_TRACEPARENT_ENV];
  if (given === undefined) return {};
  delete env[RUN_TRACEPARENT_ENV];
  if (env !== process.env) delete process.env[RUN_TRACEPARENT_ENV];
  return { traceparent: given };
}
