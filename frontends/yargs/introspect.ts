/**
 * What a yargs program declares at one command: yargs builds a command's options only when the
 * command is entered (its builder runs then), so each command is read from a fresh build of the
 * program entered with yargs' help-only parse — builders run, no middleware, validation or handler
 * (docs/frontends.md#how-the-program-is-read).
 */
import { captured } from '../shared/call.ts';
import {
  internalsOf,
  programName,
  type YargsHandler,
  type YargsInstance,
  type YargsOptions,
  type YargsProgram,
} from './internals.ts';

/** The yargs prefix of a description looked up in its locale tables when help is shown. */
const DEFERRED = '__yargsString__:';

/** One command of a yargs program, as yargs knows it once the command is entered. */
export interface YargsLevel {
  /** The program's name (`$0`, `scriptName`). */
  name: string;
  /** Every option known there (the command's own, its ancestors' global ones, the root's). */
  options: YargsOptions;
  /** Each option's description. */
  descriptions: Record<string, string | undefined>;
  /** The subcommands registered there, by name (none when yargs did not enter the command). */
  commands: Record<string, YargsHandler>;
  /** Each subcommand's aliases. */
  aliases: Record<string, string[]>;
  /** The default command (`$0`, `*`) registered there, if any. */
  defaultCommand?: YargsHandler;
  /** The options a `coerce` function converts. */
  coerced: ReadonlySet<string>;
  /** `--no-x` sets a boolean false (yargs-parser's `boolean-negation`, on unless configured off). */
  negation: boolean;
  /** The program's version (`.version()`), when it has one. */
  version?: string;
}

/**
 * Reads the command at `path` (the words after the program's name; `[]`: the program itself).
 * `withDefault`: the program itself with its default command's options. Nothing the program prints
 * while it is read reaches the process's streams.
 */
export async function levelAt(
  factory: (args: string[]) => YargsProgram,
  path: readonly string[],
  withDefault = false,
): Promise<YargsLevel> {
  let level: YargsLevel | undefined;
  await captured(
    true,
    async () => {
      const y = internalsOf(factory([...path]));
      y.exitProcess(false);
      const inner = y.getInternalMethods();
      // yargs' help-only parse of the program itself ends by applying its global middleware (its
      // checks too): held back, so reading a program runs none of it
      const middleware = inner.getCommandInstance().globalMiddleware;
      const held = middleware.globalMiddleware;
      if (!path.length) middleware.globalMiddleware = [];
      try {
        await inner.runYargsParserAndExecuteCommands([...path], undefined, undefined, 0, true);
      } finally {
        if (!path.length) middleware.globalMiddleware = held;
      }
      if (withDefault) await inner.getCommandInstance().runDefaultBuilderOn(y);
      // yargs enters a command only as a command: not its completion command, nor a word it takes otherwise
      const entered = inner.getContext().commands.join(' ') === path.join(' ');
      level = read(y, entered);
      return { returned: undefined };
    },
    (e) => e,
  );
  return level!;
}

function read(y: YargsInstance, entered: boolean): YargsLevel {
  const inner = y.getInternalMethods();
  const ci = inner.getCommandInstance();
  const aliases: Record<string, string[]> = {};
  for (const [alias, name] of Object.entries(ci.aliasMap)) (aliases[name] ??= []).push(alias);
  const descriptions = Object.fromEntries(
    Object.entries(inner.getUsageInstance().getDescriptions()).map(([k, d]) => [k, d?.replace(DEFERRED, '')]),
  );
  let version: unknown;
  inner.getUsageInstance().showVersion((v) => (version = v));
  return {
    name: programName(y.$0),
    options: y.getOptions(),
    descriptions,
    commands: entered ? { ...ci.handlers } : {},
    aliases,
    ...(ci.defaultCommand ? { defaultCommand: ci.defaultCommand } : {}),
    coerced: new Set(ci.globalMiddleware.getMiddleware().flatMap((m) => (m.option ? [m.option] : []))),
    negation: inner.getParserConfiguration()['boolean-negation'] !== false,
    ...(typeof version === 'string' && version ? { version } : {}),
  };
}
