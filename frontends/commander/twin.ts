/**
 * The native `Command` twin of a commander program: one ax-ts command per commander command, its
 * options as flags and its arguments as positionals, each handler a {@link callCommander} of the
 * program itself. What maps and what cannot: docs/frontends.md#what-maps.
 */
import type { Argument as CommanderArgument, Command as CommanderCommand } from 'commander';
import { AxError, Command, type ArgSpec, type FlagSpec, type RunContext } from '../../lib/index.ts';
import { answerCall, positionalWords, type TwinSettings } from '../shared/call.ts';
import { callInChild } from '../shared/child-call.ts';
import { applyDeclarations, declaredConfig, markSecrets } from '../shared/declare.ts';
import { camel, checkNames } from '../shared/names.ts';
import { callCommander, internals, optionWords, type MappedOption } from './call.ts';
import { declarationsOf } from './declare.ts';

/** Whether an option is commander's version option or its help option (ax-ts answers both itself). */
function ownedByAx(cmd: CommanderCommand, o: CommanderOption): boolean {
  return o.long === '--help' || (o.attributeName() === internals(cmd)._versionOptionName && cmd.parent === null);
}
type CommanderOption = CommanderCommand['options'][number];

/**
 * Marks an option taken by its own command only, not by the commands below it (commander's options
 * are taken below their command; a yargs `$0`'s own options, read by `ax-ts wrap`, are not).
 */
export const LOCAL_OPTION: unique symbol = Symbol.for('ax-ts.local-option');

/** One option as an ax-ts flag: its name and declaration. */
function flagOf(o: CommanderOption): { mapped: MappedOption; spec: FlagSpec } {
  const name = (o.long ?? o.short)!.replace(/^-+/, '');
  const usage = o.description + (o.envVar ? ` (env: ${o.envVar})` : '');
  // a program's own -h (`-h, --hours`) is its option's, as in commander: ax-ts's help then has no shorthand
  const letter = o.long && o.short && o.short.length === 2 ? o.short.slice(1) : undefined;
  const base = { usage, hidden: o.hidden || undefined, ...(letter ? { short: letter } : {}) };
  if (!o.required && !o.optional) {
    return { mapped: { name, option: o }, spec: { type: 'bool', ...base } };
  }
  const alone = o.optional ? String(o.presetArg ?? 'true') : undefined;
  const text = typeof o.defaultValue === 'string' ? o.defaultValue : undefined;
  const spec: FlagSpec = {
    type: o.variadic ? 'stringArray' : 'string',
    ...base,
    ...(o.argChoices ? { choices: o.argChoices } : {}),
    ...(alone !== undefined ? { noOptDefVal: alone } : {}),
    ...(text !== undefined && !o.variadic ? { default: text } : {}),
    ...(o.mandatory && o.defaultValue === undefined && !o.envVar ? { required: true } : {}),
  };
  return { mapped: { name, option: o, alone }, spec };
}

/** One commander argument as an ax-ts positional. */
function argOf(a: CommanderArgument): ArgSpec {
  return {
    name: a.name(),
    ...(a.description ? { description: a.description } : {}),
    required: a.required,
    variadic: a.variadic || undefined,
    ...(a.argChoices ? { choices: a.argChoices } : {}),
  };
}

/** Builds the native twin of a commander program. @throws AxError `validation_error` on a name collision. */
export function twinTree(program: CommanderCommand, settings: TwinSettings): Command {
  return twinOf(program, [program], program, { ...settings, actionless: !hasAction(program) });
}

/** Whether the command or any below it (hidden ones too) has an action. */
function hasAction(cmd: CommanderCommand): boolean {
  return !!internals(cmd)._actionHandler || cmd.commands.some(hasAction);
}

/**
 * How a twin is built: where printed output goes, how calls run, and whether the program has no
 * action at all (its work follows parse(): each command without subcommands runs the program's code).
 */
interface Build extends TwinSettings {
  actionless: boolean;
}

function twinOf(cmd: CommanderCommand, path: CommanderCommand[], program: CommanderCommand, settings: Build): Command {
  const isRoot = path.length === 1;
  const label = path.map((c) => c.name()).join(' ');
  const decl = declarationsOf(cmd);
  const own = cmd.options.filter((o) => !ownedByAx(cmd, o)).map(flagOf);
  const mapped = markSecrets(
    label,
    own.map((f) => ({ ...f, name: f.mapped.name })),
    decl,
  );
  const args = cmd.registeredArguments.map(argOf);
  const local = (m: (typeof mapped)[number]) =>
    (m.mapped.option as { [LOCAL_OPTION]?: boolean })[LOCAL_OPTION] === true;
  const words = path.slice(1).map((c) => c.name());
  // a command withheld from agents has no properties to confuse (docs/frontends.md#what-does-not-map)
  if (!decl.withheld)
    checkNames(
      label,
      [
        ...mapped.map((m) => ({ name: m.mapped.name, what: 'the option' })),
        ...args.map((a) => ({ name: a.name, what: 'the argument' })),
      ],
      // options a command's subcommands inherit take their names to each of them
      mapped.some((m) => !local(m)) ? reachOf(cmd, words) : [words.join(' ')],
    );
  const flags = Object.fromEntries(mapped.filter((m) => !local(m)).map((m) => [m.mapped.name, m.spec]));
  const ownFlags = Object.fromEntries(mapped.filter(local).map((m) => [m.mapped.name, m.spec]));
  const description = cmd.description();
  const summary = cmd.summary() || description.split('\n')[0] || undefined;
  const action = internals(cmd)._actionHandler;
  const twin = new Command({
    use: cmd.name(),
    short: summary,
    ...(description && description !== summary ? { long: description } : {}),
    ...(cmd.aliases().length ? { aliases: [...cmd.aliases()] } : {}),
    ...(internals(cmd)._hidden ? { hidden: true } : {}),
    // a command's options are accepted below it, as commander takes them before a subcommand's name
    ...(cmd.commands.length
      ? { persistentFlags: flags, ...(Object.keys(ownFlags).length ? { flags: ownFlags } : {}) }
      : { flags: { ...flags, ...ownFlags } }),
    args,
    // an action cannot rehearse: no --dry-run, so no tool promises a preview it would refuse
    dryRun: false,
    ...(isRoot && internals(cmd)._version ? { version: internals(cmd)._version } : {}),
    // a wrapped bin reports no value, nor does a program whose work follows parse(): data is null
    ...declaredConfig(decl, !!settings.program || settings.actionless),
    ...(action || (settings.actionless && !cmd.commands.length)
      ? { run: (ctx: RunContext) => runTwin(ctx, program, path, args, settings, mappedOf(path)) }
      : {}),
  });
  applyDeclarations(twin, decl);
  for (const child of cmd.commands) twin.addCommand(twinOf(child, [...path, child], program, settings));
  return twin;
}

/**
 * The declaration keys of a command and, when it has subcommands (its options are then theirs too:
 * persistent), of every command below it.
 */
function reachOf(cmd: CommanderCommand, words: string[]): string[] {
  return [words.join(' '), ...cmd.commands.flatMap((c) => reachOf(c, [...words, c.name()]))];
}

/** The mapped options of every command on a path, per command. */
function mappedOf(path: CommanderCommand[]): MappedOption[][] {
  return path.map((c) => c.options.filter((o) => !ownedByAx(c, o)).map((o) => flagOf(o).mapped));
}

/** The argv commander parses for a call: each command's name and its given options, then the positionals. */
export function commanderArgv(
  ctx: Pick<RunContext, 'flags' | 'args' | 'changed'>,
  path: CommanderCommand[],
  args: readonly ArgSpec[],
  options: MappedOption[][],
): string[] {
  const words: string[] = [];
  path.forEach((c, i) => {
    if (i > 0) words.push(c.name());
    // a name a nearer command has too is given once, after the nearer command's name: commander then
    // reads it as it reads those words on the command line
    const nearer = new Set(options.slice(i + 1).flatMap((ms) => ms.map((m) => m.name)));
    for (const m of options[i]!) {
      if (!ctx.changed(m.name) || nearer.has(m.name)) continue;
      words.push(...optionWords(m, ctx.flags[camel(m.name)]));
    }
  });
  const positionals = positionalWords(ctx, args);
  refuseCommandWord(path.at(-1)!, positionals[0]);
  // positionals after `--`: none of them can be read as an option or help
  return positionals.length ? [...words, '--', ...positionals] : words;
}

/**
 * commander reads a command's first operand as a subcommand's name (after `--` too) when the command
 * has subcommands: a value naming one (or `help`) would run another command. @throws AxError
 * `validation_error` (reason `positional_names_a_command`) then.
 */
function refuseCommandWord(leaf: CommanderCommand, first: string | undefined): void {
  if (first === undefined || !leaf.commands.length) return;
  const names = new Set(['help', ...leaf.commands.flatMap((c) => [c.name(), ...c.aliases()])]);
  if (!names.has(first)) return;
  throw new AxError(
    'validation_error',
    `the first positional of ${JSON.stringify(leaf.name())} cannot ` +
      `be ${JSON.stringify(first)}: the program reads it as its command of that name`,
    {
      context: { reason: 'positional_names_a_command', value: first },
      fix: 'Send another value, or call the tool of that command.',
    },
  );
}

function runTwin(
  ctx: RunContext,
  program: CommanderCommand,
  path: CommanderCommand[],
  args: readonly ArgSpec[],
  settings: TwinSettings,
  options: MappedOption[][],
): Promise<unknown> {
  const words = commanderArgv(ctx, path, args, options);
  // each call runs in a process of its own (json mode on a command line too), unless the program
  // opted into in-process calls; a command without an action runs the program's own code, only there
  if (settings.calls !== 'in-process' || !internals(path.at(-1)!)._actionHandler)
    return callInChild(ctx, settings, words);
  return answerCall(ctx, settings, (json, signal) => callCommander(program, path.at(-1)!, words, json, signal));
}
