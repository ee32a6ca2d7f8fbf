/**
 * A yargs program run as one call of a server, in its own process (docs/frontends.md#how-a-call-runs):
 * the program built for the words the server gave and parsed as a person's run parses it, with the
 * real stdout and stderr, nothing patched; what the handler returns (or throws), or yargs' refusal
 * of the words, written as the call's one report (../shared/child-report.ts). Light: it loads
 * nothing of ax-ts's runtime.
 */
import type { CallReporter } from '../shared/child-report.ts';
import { internalsOf, watchHandlers, type YargsProgram } from './internals.ts';

/**
 * Builds the program for `words` and runs its own `parse()` (`sync`) or `parseAsync()` as the
 * child's one call: every handler is watched (its return value, awaited, is the report); a refusal
 * of the words (yargs' validation, a `.check()`, a coerce that throws) is reported as a
 * `validation_error` and ends the process with exit 1 as yargs would (the message is the report's); a
 * handler's own failure is reported and thrown as it is. @returns what the program's own call returns.
 */
export function childParse(
  factory: (args: string[]) => YargsProgram,
  words: readonly string[],
  reporter: CallReporter,
  sync: boolean,
): unknown {
  const program = factory([...words]);
  const y = internalsOf(program);
  watchHandlers(
    y,
    () => (reporter.started = true),
    (r) => reporter.watch(r),
  );
  // registered last, so yargs asks it first
  y.fail((msg, err) => {
    // an ax-ts error (a middleware's credentials check) keeps its kind wherever it is thrown
    if ((reporter.started || err?.name === 'AxError') && err) {
      reporter.error(err);
      throw reporter.quiet(err);
    }
    const said = msg || err?.message || 'the program refused the arguments';
    reporter.error(new Error(said), 'invalid_argument');
    process.exit(1);
  });
  // a throw out of the parse (a handler's or a middleware's, thrown at once): reported — before any
  // handler ran, as a refusal — then handed on to the program's code (reporter.quiet)
  const failed = (e: unknown) => {
    const ax = (e as { name?: unknown } | null)?.name === 'AxError';
    reporter.error(e, reporter.started || ax ? undefined : 'invalid_argument');
    return reporter.quiet(e);
  };
  try {
    const r = sync ? program.parse() : program.parseAsync();
    if (r instanceof Promise)
      return r.catch((e: unknown) => {
        throw failed(e);
      });
    return r;
  } catch (e) {
    throw failed(e);
  }
}
