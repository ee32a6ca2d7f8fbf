/**
 * How a handler's result meets the run's signal: the grace a handler gets to settle after an abort,
 * the shutdown budget of a server command, and the `interrupted` error. Used by the runner
 * (run.ts) and by the MCP servers' shutdown (mcp/lifecycle.ts).
 */
import { AxError } from '../contract/errors.ts';

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
export function raceAbort<T>(p: Promise<T>, signal: AbortSignal, finishOnSigterm = false): Promise<T> {
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
        if (signal.aborted && signal.reason instanceof AxError && signal.reason.kind !== 'interrupted')
          reject(signal.reason);
        else resolve(v);
      },
      (e) => {
        done();
        reject(signal.aborted && !(e instanceof AxError && e.kind === 'interrupted') ? interrupted(signal) : e);
      },
    );
  });
}

/** Where a run's signal comes from: read `signal` only when one is needed (it may be made then; see call-signal.ts). */
export interface AbortSource {
  readonly signal: AbortSignal;
  aborted(): boolean;
}

/**
 * A handler's result (`run(arg)`: the handler or a hook, called with the run's context), raced
 * against the signal only when it is a promise: a synchronous result needs no promise, no timer and
 * no abort listener — nor, for an MCP call, a signal at all (docs/performance.md: fewer objects per MCP call) —
 * only the same check {@link raceAbort} makes when its promise settles. A promise comes back as
 * raceAbort's (a native Promise), anything else as it is.
 */
export function settle<A, T>(
  run: (arg: A) => T | Promise<T>,
  arg: A,
  source: AbortSource,
  finishOnSigterm: boolean,
): T | Promise<T> {
  let result: T | Promise<T>;
  try {
    result = run(arg);
  } catch (e) {
    throw source.aborted() && !(e instanceof AxError && e.kind === 'interrupted') ? interrupted(source.signal) : e;
  }
  if (result !== null && typeof result === 'object' && typeof (result as { then?: unknown }).then === 'function')
    return raceAbort(Promise.resolve(result), source.signal, finishOnSigterm);
  if (!source.aborted()) return result as T;
  const signal = source.signal;
  const finishing = finishOnSigterm && signal.reason instanceof AxError && signal.reason.context?.signal === 'SIGTERM';
  if (!finishing) throw interrupted(signal);
  return result as T;
}

/** The `interrupted` error of an aborted run (the abort's reason when it is already an AxError). */
export function interrupted(signal: AbortSignal): AxError {
  const r = signal.reason;
  if (r instanceof AxError) return r;
  const why = r instanceof Error ? r.message : typeof r === 'string' ? r : 'cancelled';
  return new AxError('interrupted', `interrupted (${why}) before the command finished`, {
    fix: 'Run the command again; if it changed state, check that state first.',
  });
}
