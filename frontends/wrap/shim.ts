/**
 * A tree read from a wrapped program (read.ts) in the shape of a commander program: what the
 * commander front end's twin (../commander/twin.ts) reads of commander's objects, so `ax-ts wrap`
 * maps a commander or yargs program's commands, options and arguments as `withAx` does
 * (docs/frontends.md#what-maps). Nothing here parses: each call runs the program itself.
 */
import type { Command as CommanderCommand } from 'commander';
import type { WrapArg, WrapCommand, WrapOption } from './read.ts';
import { LOCAL_OPTION } from '../commander/twin.ts';

/** The commander-shaped option of one read option. */
function optionOf(o: WrapOption) {
  // a yargs count (-vvv) is given as the flag once per step: as a list of nothing it cannot be sent; a bool
  const bool = o.kind === 'bool' || o.kind === 'count';
  const long = o.long;
  return {
    flags: [o.short, long].filter(Boolean).join(', '),
    long,
    short: o.short,
    description: o.description,
    envVar: o.env,
    hidden: !!o.hidden,
    required: o.kind === 'value' || o.kind === 'list',
    optional: o.kind === 'optional',
    variadic: o.kind === 'list',
    mandatory: !!o.required,
    negate: !!o.negate,
    presetArg: o.preset,
    defaultValue: bool ? undefined : o.default,
    argChoices: o.choices,
    attributeName: () => (long ?? o.short ?? '').replace(/^-+/, ''),
    [LOCAL_OPTION]: !!o.local,
  };
}

/**
 * An argument's name as ax-ts takes it: the first of `a|b` alternatives (commander usage text, yargs
 * aliases), other characters as `_`.
 */
function argName(name: string): string {
  const first = name.split('|')[0]!.replace(/[^A-Za-z0-9_-]/g, '_');
  return /^[A-Za-z]/.test(first) ? first : `arg_${first}`;
}

function argumentOf(a: WrapArg) {
  return {
    name: () => argName(a.name),
    description: a.description ?? '',
    required: a.required,
    variadic: a.variadic,
    argChoices: a.choices,
  };
}

/** The marker action of a command that has one: a call never runs it (the program itself runs). */
function noAction(): void {}

/**
 * A commander-shaped program of a read tree, named `name`. A yargs default command (`$0`) is the
 * program itself (its options and positionals the root's), whether it is the program's only command
 * or stands beside others: what runs without a command word, as yargs runs it.
 */
export function shimOf(root: WrapCommand, name: string): CommanderCommand {
  const dflt = root.commands.find((c) => c.name === '$0');
  const top: WrapCommand = dflt
    ? {
        ...root,
        description: root.description || dflt.description,
        // yargs gives the default command's options to it alone, not to the commands beside it
        options: [...root.options, ...dflt.options.map((o) => ({ ...o, local: true }))],
        args: dflt.args,
        commands: [...dflt.commands, ...root.commands.filter((c) => c !== dflt)],
        hasAction: true,
      }
    : root;
  return build({ ...top, name, args: top.args.length || top.commands.length ? top.args : operands(top) }, null);
}

/**
 * A program without commands or declared positionals whose work follows its parse still takes words
 * (`concurrently "cmd"`, `depcheck <dir>` read yargs' `argv._`; `cleancss a.css` reads commander's
 * `program.args`): one optional variadic positional gives them.
 */
function operands(c: WrapCommand): WrapArg[] {
  if (c.kind !== 'yargs' && c.hasAction) return [];
  return [
    {
      name: 'operands',
      description: "the program's operands (what yargs gives it as argv._)",
      required: false,
      variadic: true,
    },
  ];
}

function build(c: WrapCommand, parent: CommanderCommand | null): CommanderCommand {
  const cmd = {
    parent,
    commands: [] as CommanderCommand[],
    options: c.options.map(optionOf),
    registeredArguments: c.args.map(argumentOf),
    name: () => c.name,
    aliases: () => c.aliases,
    description: () => c.description,
    summary: () => c.summary ?? '',
    _hidden: !!c.hidden,
    _actionHandler: c.hasAction ? noAction : null,
    _version: c.version,
    _versionOptionName: c.versionOption,
    _defaultCommandName: c.commands.find((s) => s.isDefault)?.name,
  } as unknown as CommanderCommand;
  // a yargs `$0` next to other commands is what runs without a command word: not a command to name
  const commands = cmd.commands as CommanderCommand[];
  for (const s of c.commands) if (s.name !== '$0') commands.push(build(s, cmd));
  return cmd;
}

/** The name of the default command of a program (commander's `isDefault`), if it has one. */
export function defaultCommand(program: CommanderCommand): string | undefined {
  return (program as unknown as { _defaultCommandName?: string })._defaultCommandName;
}
