/**
 * The native `Command` twin of a commander program: one ax-ts command per commander command, its
 * options as flags and its arguments as positionals, each handler a {@link callCommander} of the
 * program itself. What maps and what cannot: docs/frontends.md#what-maps.
 */
import type { Argument as CommanderArgument, Command as CommanderCommand } from 'commander';
import {
  AxError,
  Command,
  declarePrompt,
  declareResource,
  mcp,
  type ArgSpec,
  type FlagSpec,
  type RunContext,
} from '../../lib/index.ts';
import { callCommander, internals, optionWords, type MappedOption } from './call.ts';
import { declarationsOf } from './declare.ts';

/** How the twin's handlers hand over what the program printed. */
export interface TwinSettings {
  /** The process serves MCP: printed output goes to the call's stdout (the tool result's text), else to its stderr. */
  serving: boolean;
}

/**
 * The flags ax-ts adds to every tree (`--help` and the injected persistent flags, docs/contract.md):
 * an option spelled like one of them after snake-casing, but not the same, is refused.
 */
const INJECTED = ['help', 'format', 'dry-run', 'idempotency-key', 'args-json', 'yes', 'strict', 'explain', 'timeout'];

/** The MCP property name of a flag or argument name (`dry-run` → `dry_run`), as ax-ts spells it. */
function property(name: string): string {
  return name.replace(/-/g, '_');
}

/** The key ax-ts's handlers read a flag or argument under (`dry-run` → `dryRun`). */
function camel(name: string): string {
  return name.replace(/[-_]+([a-zA-Z0-9])/g, (_, ch: string) => ch.toUpperCase());
}

/** Whether an option is commander's version option or its help option (ax-ts answers both itself). */
function ownedByAx(cmd: CommanderCommand, o: CommanderOption): boolean {
  return o.long === '--help' || (o.attributeName() === internals(cmd)._versionOptionName && cmd.parent === null);
}
type CommanderOption = CommanderCommand['options'][number];

/** One option as an ax-ts flag: its name and declaration. */
function flagOf(o: CommanderOption): { mapped: MappedOption; spec: FlagSpec } {
  const name = (o.long ?? o.short)!.replace(/^-+/, '');
  const usage = o.description + (o.envVar ? ` (env: ${o.envVar})` : '');
  const letter = o.long && o.short && o.short.length === 2 && o.short !== '-h' ? o.short.slice(1) : undefined;
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

/**
 * Refuses names that would mean two things to an agent: two options (or an option and an argument)
 * of one command whose property names are equal, or an option spelled like an injected flag after
 * snake-casing but not the same. @throws AxError `validation_error` naming both.
 */
function checkNames(path: string, names: { name: string; what: string }[]): void {
  const seen = new Map<string, { name: string; what: string }>();
  for (const n of [...INJECTED.map((name) => ({ name, what: 'the flag ax-ts injects' })), ...names]) {
    const p = property(n.name).toLowerCase();
    const before = seen.get(p);
    if (before && !(before.what.startsWith('the flag ax-ts') && before.name === n.name)) {
      throw new AxError(
        'validation_error',
        `${path}: ${n.what} ${JSON.stringify(n.name)} collides with ${before.what} ${JSON.stringify(before.name)} (both are the property ${JSON.stringify(property(n.name))})`,
        {
          context: { reason: 'name_collision', command: path, first: before.name, second: n.name },
          fix: 'Rename one of them in the program so each has its own property name.',
        },
      );
    }
    seen.set(p, n);
  }
}

/** Builds the native twin of a commander program. @throws AxError `validation_error` on a name collision. */
export function twinTree(program: CommanderCommand, settings: TwinSettings): Command {
  return twinOf(program, [program], program, settings);
}

function twinOf(
  cmd: CommanderCommand,
  path: CommanderCommand[],
  program: CommanderCommand,
  settings: TwinSettings,
): Command {
  const isRoot = path.length === 1;
  const mapped = cmd.options.filter((o) => !ownedByAx(cmd, o)).map((o) => flagOf(o));
  const args = cmd.registeredArguments.map(argOf);
  const label = path.map((c) => c.name()).join(' ');
  checkNames(label, [
    ...mapped.map((m) => ({ name: m.mapped.name, what: 'the option' })),
    ...args.map((a) => ({ name: a.name, what: 'the argument' })),
  ]);
  const flags = Object.fromEntries(mapped.map((m) => [m.mapped.name, m.spec]));
  const decl = declarationsOf(cmd);
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
    ...(cmd.commands.length ? { persistentFlags: flags } : { flags }),
    args,
    ...(isRoot && internals(cmd)._version ? { version: internals(cmd)._version } : {}),
    ...(decl.effects ? { effects: decl.effects } : {}),
    ...(decl.capabilities ? { capabilities: decl.capabilities } : {}),
    ...(decl.destructive !== undefined ? { destructive: decl.destructive } : {}),
    ...(decl.output ? { output: { kind: 'data' as const, ...decl.output } } : {}),
    ...(action ? { run: (ctx: RunContext) => runTwin(ctx, program, path, args, settings, mappedOf(path)) } : {}),
  });
  if (decl.withheld) mcp.exclude(twin);
  for (const p of decl.prompts ?? []) declarePrompt(twin, p);
  for (const r of decl.resources ?? []) declareResource(twin, r);
  for (const child of cmd.commands) twin.addCommand(twinOf(child, [...path, child], program, settings));
  return twin;
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
  let variadicGiven = false;
  path.forEach((c, i) => {
    if (i > 0) words.push(c.name());
    // a name a nearer command has too is given once, after the nearer command's name: commander then
    // reads it as it reads those words on the command line
    const nearer = new Set(options.slice(i + 1).flatMap((ms) => ms.map((m) => m.name)));
    for (const m of options[i]!) {
      if (!ctx.changed(m.name) || nearer.has(m.name)) continue;
      words.push(...optionWords(m, ctx.flags[camel(m.name)]));
      variadicGiven ||= m.option.variadic;
    }
  });
  const positionals: string[] = [];
  for (const a of args) {
    const v = ctx.args[camel(a.name)];
    if (v === undefined) break;
    positionals.push(...(Array.isArray(v) ? v.map(String) : [String(v)]));
  }
  // an optional argument an agent left out arrives as empty text: commander would see it given
  while (positionals.length && positionals.at(-1) === '' && args[positionals.length - 1]?.required === false)
    positionals.pop();
  if (positionals.length && (variadicGiven || positionals.some((p) => p.startsWith('-')))) words.push('--');
  return [...words, ...positionals];
}

async function runTwin(
  ctx: RunContext,
  program: CommanderCommand,
  path: CommanderCommand[],
  args: readonly ArgSpec[],
  settings: TwinSettings,
  options: MappedOption[][],
): Promise<unknown> {
  if (ctx.dryRun) {
    // a commander action has no dry run to offer: refuse rather than change what the caller meant to preview
    throw new AxError(
      'validation_error',
      `${ctx.command.commandPath()} cannot preview a change: --dry-run is not supported by this program`,
      {
        context: { reason: 'dry_run_unsupported', command: ctx.command.commandPath() },
        fix: "Run it without --dry-run, or ask the program's author to declare a dry run.",
      },
    );
  }
  const argv = commanderArgv(ctx, path, args, options);
  const json = ctx.mode === 'json';
  const outcome = await callCommander(program, path.at(-1)!, argv, json);
  if (!json) return undefined; // a person's run: the program printed what it prints
  if (outcome.printedErr) ctx.stderr.write(outcome.printedErr);
  if (outcome.printed) (settings.serving ? ctx.stdout : ctx.stderr).write(outcome.printed);
  return outcome.returned === undefined ? null : outcome.returned;
}
