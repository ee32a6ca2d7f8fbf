/**
 * A commander program run as one call of a server, in its own process (docs/frontends.md#how-a-call-runs):
 * commander's own parse of the words the server gave, with the real stdout and stderr, nothing
 * patched; what the action returns (or throws), or commander's refusal of the words, written as
 * the call's one report (../shared/child-report.ts). Light: it loads nothing of ax-ts's runtime.
 */
import type { Command as CommanderCommand } from 'commander';
import type { CallReporter } from '../shared/child-report.ts';
import { guardParsers, PARSER_ERRORS } from './parsers.ts';

/** The commander fields the child reads or wraps (commander keeps them private; stable in 14 and 15). */
interface Fields {
  _actionHandler?: ((args: unknown[]) => unknown) | null;
  _exitCallback?: ((err: Error) => void) | null;
}

function commandsOf(c: CommanderCommand): CommanderCommand[] {
  return [c, ...c.commands.flatMap(commandsOf)];
}

/**
 * Whether a throw out of the parse before any action refuses the words: commander's own errors and
 * a custom parser's. A hook's throw (`preAction`: a credentials check) is the program's own outcome,
 * read as an action's is (an AxError keeps its kind), as in-process.
 */
function refusal(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return (
    (typeof code === 'string' && code.startsWith('commander.')) ||
    (typeof e === 'object' && e !== null && PARSER_ERRORS.has(e))
  );
}

/** commander's error codes are camelCase (`commander.unknownOption`); a refusal's reason is snake_case. */
function reasonOf(code: unknown): string {
  if (typeof code !== 'string' || !code.startsWith('commander.')) return 'invalid_argument';
  return code.replace(/^commander\./, '').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * Runs `program`'s own parse of `words` (from: 'user') as the child's one call: every action is
 * watched (its return value, awaited, is the report), every exit commander makes is noted first (a
 * refusal before an action ran is a `validation_error`, one after is the action's own outcome), and
 * then happens as it would on a terminal; a throw out of the parse before any action (a custom
 * parser's) is reported as a refusal. A reported throw goes on to the program's own code, and ends
 * the process with exit 1 if nothing handles it (without a crash trace: the report carries it).
 * `sync`: the program called `parse()` (code after it runs
 * at once, as it would); else `parseAsync()`. @returns what the program's own call returns.
 */
export function childParse(
  program: CommanderCommand,
  words: readonly string[],
  reporter: CallReporter,
  sync: boolean,
): CommanderCommand | Promise<CommanderCommand> {
  guardParsers(commandsOf(program));
  for (const c of commandsOf(program)) {
    const f = c as unknown as Fields;
    const exit = f._exitCallback;
    f._exitCallback = (err: Error) => {
      const code = (err as { code?: unknown }).code;
      const exitCode = (err as { exitCode?: unknown }).exitCode;
      if (exitCode !== 0 && code !== 'commander.executeSubCommandAsync')
        reporter.error(err, reporter.started ? undefined : reasonOf(code));
      // then as the program has it: its own callback, else commander exits the process
      if (exit) exit.call(c, err);
    };
    const action = f._actionHandler;
    if (!action) continue;
    f._actionHandler = (args: unknown[]) => {
      reporter.started = true;
      let returned: unknown;
      try {
        returned = action.call(c, args);
      } catch (e) {
        reporter.error(e);
        throw reporter.quiet(e);
      }
      reporter.watch(returned);
      return returned;
    };
  }
  const proto = Object.getPrototypeOf(program) as CommanderCommand;
  // a throw out of the parse: the action's own error, or before any action (a custom parser's) a
  // refusal of the words; reported, then handed on to the program's code (reporter.quiet)
  const failed = (e: unknown) => {
    reporter.error(e, reporter.started || !refusal(e) ? undefined : reasonOf((e as { code?: unknown } | null)?.code));
    return reporter.quiet(e);
  };
  if (sync) {
    try {
      return proto.parse.call(program, [...words], { from: 'user' });
    } catch (e) {
      throw failed(e);
    }
  }
  return proto.parseAsync.call(program, [...words], { from: 'user' }).catch((e: unknown) => {
    throw failed(e);
  });
}
