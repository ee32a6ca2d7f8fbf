/**
 * One call of a yargs program on behalf of an agent: the argv yargs itself parses, rebuilt from the
 * values ax-ts parsed, given to a fresh build of the program — so its own parsing, coerce,
 * middleware, validation and handler run as on the command line — with its printed output captured
 * and the handler's return value kept (docs/frontends.md#how-a-call-runs).
 */
import { AxError, type ArgSpec, type RunContext } from '../../lib/index.ts';
import { captured, positionalWords, refusedCall, type CallOutcome } from '../shared/call.ts';
import { camel } from '../shared/names.ts';
import { internalsOf, watchHandlers, type YargsProgram } from './internals.ts';
import { optionWords, type MappedOption } from './options.ts';

/**
 * The argv yargs parses for a call: the command's words, its positionals, then the given options,
 * each value attached to its option (`--key=value`). `commands`: the names of the command's
 * subcommands (with aliases). @throws AxError `validation_error` for a positional value starting
 * with `-` (reason `positional_starts_with_dash`), which yargs cannot take as a positional, or
 * naming a subcommand (`positional_names_a_command`), which yargs would run instead.
 */
export function yargsArgv(
  ctx: Pick<RunContext, 'flags' | 'args' | 'changed'>,
  path: readonly string[],
  args: readonly ArgSpec[],
  options: readonly MappedOption[],
  commands: ReadonlySet<string> = new Set(),
): string[] {
  const words = options.flatMap((m) => (ctx.changed(m.key) ? optionWords(m, ctx.flags[camel(m.key)]) : []));
  const positionals = positionalWords(ctx, args);
  if (positionals[0] !== undefined && commands.has(positionals[0])) {
    // yargs reads a command's first word as its subcommand's name: the value would run another command
    throw new AxError(
      'validation_error',
      `the first positional cannot be ${JSON.stringify(positionals[0])}: ` +
        `the program reads it as its command of that name`,
      {
        context: { reason: 'positional_names_a_command', value: positionals[0] },
        fix: 'Send another value, or call the tool of that command.',
      },
    );
  }
  const dashed = positionals.find((p) => p.startsWith('-'));
  if (dashed !== undefined) {
    // yargs reads such a word as an option, and binds no positional after `--`: it cannot arrive
    throw new AxError(
      'validation_error',
      `a positional cannot start with "-" in this program (got ${JSON.stringify(dashed)})`,
      {
        context: { reason: 'positional_starts_with_dash', value: dashed },
        fix: 'Send the value without the leading "-", or pass it through an option.',
      },
    );
  }
  // positionals first: an array option would take the words after it as its values
  return [...path, ...positionals, ...words];
}

/**
 * Builds the program for `argv` and runs `parseAsync(argv)` once, alone, with stdout and stderr
 * captured when `capture` is set (never started when `signal` aborted while it waited); yargs exits no
 * process and prints no help on a refusal.
 * @throws AxError `validation_error` (exit 2) when yargs refuses the words (its validation, a
 *   `.check()`, a coerce that throws) or anything fails before the handler runs; the handler's own
 *   error as thrown.
 */
export function callYargs(
  factory: (args: string[]) => YargsProgram,
  argv: string[],
  capture: boolean,
  signal?: AbortSignal,
): Promise<CallOutcome> {
  return captured(
    capture,
    async (running) => {
      const y = internalsOf(factory([...argv]));
      let started = false;
      let returned: unknown;
      watchHandlers(
        y,
        () => {
          started = true;
          running.started();
        },
        (r) => (returned = r),
      );
      y.exitProcess(false);
      // registered last, so yargs asks it first: a refusal is thrown before the program's own fail
      // handlers print or exit; a failure after the handler started is the handler's own, thrown here
      // as it is, so that no fail handler of the program runs for an agent's call either (one that
      // prints and exits would end a server)
      y.fail((msg, err) => {
        if (started && err) throw err;
        throw new Error(msg || err?.message || 'the program refused the arguments', { cause: err ?? undefined });
      });
      await y.parseAsync(argv);
      return { returned };
    },
    (e, printedErr, started) => (e instanceof AxError || started ? e : refusedCall(e, printedErr, 'invalid_argument')),
    signal,
  );
}
