/**
 * An invocation that asks for ax-ts (`mcp-server`, `__schema`, json mode) is ax-ts's from the parse
 * call on: the program's own code after its `parse()`/`parseAsync()` — a person's run's work, done
 * with no words parsed — never runs in it (docs/frontends.md#how-a-call-runs). Light on purpose: a
 * front end's entry imports it.
 */

/** The mark of the error that stops a program's code after a synchronous `parse()`. */
const STOP = Symbol.for('ax-ts.front-end.stop');

/** Whether `e` is the error {@link stopProgramHere} throws. */
function isStop(e: unknown): boolean {
  return (e as { [STOP]?: boolean } | null)?.[STOP] === true;
}

/** The error that unwinds the program's code after a synchronous `parse()`. */
function stopError(): Error {
  return Object.assign(
    new Error(
      'ax-ts serves this invocation: the code after parse() does not run in it (docs/frontends.md#how-a-call-runs)',
    ),
    { [STOP]: true },
  );
}

/**
 * Ends the process with the exit code of the ax-ts run once it has finished (its output written):
 * a `parseAsync()` the program awaits never returns to the program's own code. `release` (from
 * {@link holdProgram}) is called first, so a failure's message is written and the exit is the real one.
 */
export function exitWhenDone(run: Promise<number>, release: () => void = () => {}): Promise<never> {
  return run.then(
    (code) => (release(), process.exit(code)),
    (e: unknown) => {
      release();
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}

/**
 * Holds the program's own code while ax-ts's runtime loads, after a synchronous `parse()` threw
 * (docs/frontends.md#what-does-not-map): what that code does on catching the throw — commander's
 * documented `try { program.parse() } catch { process.exit(1) }` — cannot end the process: its
 * `process.exit` unwinds it again with the same marked error. (What it writes is not held: the
 * streams are patched only in lib/platform/process-patches.ts, which a person's run must not load.)
 * @returns the release: called once the runtime is loaded, before ax-ts writes anything; it puts
 * back `process.exit` (once; later calls do nothing).
 */
function holdProgram(): () => void {
  const exit = process.exit;
  process.exit = (() => {
    throw stopError();
  }) as typeof process.exit;
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    process.exit = exit;
  };
}

/**
 * Takes the marked error wherever the program's code lets it out (a throw, a rejection); any other
 * ends the process as Node would.
 */
function listenForStop(): void {
  const other = (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  };
  process.on('uncaughtException', (e: unknown) => (isStop(e) ? undefined : other(e)));
  process.on('unhandledRejection', (e: unknown) => (isStop(e) ? undefined : other(e)));
}

/**
 * Stops the program's own code after a synchronous `parse()` (which cannot wait for the ax-ts run)
 * and starts that run: the program is held ({@link holdProgram}) until `start` has loaded ax-ts's
 * runtime and calls the release it is given, then the run's exit code ends the process. Throws a
 * marked error that unwinds the program's module; the process's listener takes it (and the same
 * error out of a catch that calls `process.exit`, or out of a promise) as the end of that code and
 * nothing else. Any other uncaught error ends the process as Node would (its stack, exit 1).
 */
export function stopProgramHere(start: (release: () => void) => Promise<number>): never {
  const release = holdProgram();
  listenForStop();
  void exitWhenDone(
    Promise.resolve().then(() => start(release)),
    release,
  );
  throw stopError();
}
