/**
 * An invocation that asks for ax-ts (`mcp-server`, `__schema`, json mode) is ax-ts's from the parse
 * call on: the program's own code after its `parse()`/`parseAsync()` — a person's run's work, done
 * with no words parsed — never runs in it (docs/frontends.md#how-a-call-runs). Light on purpose: a
 * front end's entry imports it.
 */

/** The mark of the error that stops a program's code after a synchronous `parse()`. */
const STOP = Symbol.for('ax-ts.front-end.stop');

/**
 * Ends the process with the exit code of the ax-ts run once it has finished (its output written):
 * a `parseAsync()` the program awaits never returns to the program's own code.
 */
export function exitWhenDone(run: Promise<number>): Promise<never> {
  return run.then(
    (code) => process.exit(code),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}

/**
 * Stops the program's own code after a synchronous `parse()` (which cannot wait for the ax-ts run):
 * throws a marked error that unwinds the program's module, which the process's one listener for
 * it takes as the end of that code and nothing else (the ax-ts run goes on). Any other uncaught
 * error reaching that listener first ends the process as Node would (its stack, exit 1).
 * A program that catches errors around its `parse()` sees this one: its message says what it is.
 */
export function stopProgramHere(): never {
  process.once('uncaughtException', (e: unknown) => {
    if ((e as { [STOP]?: boolean } | null)?.[STOP]) return;
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  });
  throw Object.assign(
    new Error(
      'ax-ts serves this invocation: the code after parse() does not run in it (docs/frontends.md#how-a-call-runs)',
    ),
    { [STOP]: true },
  );
}
