/**
 * The native `Command` twin of a yargs program: one ax-ts command per yargs command, its options as
 * flags and its positionals as arguments, each handler a {@link callYargs} of the program itself.
 * What maps and what cannot: docs/frontends.md#what-maps-yargs.
 */
import { AxError, Command, type RunContext } from '../../lib/index.ts';
import { answerCall, type TwinSettings } from '../shared/call.ts';
import { callInChild } from '../shared/child-call.ts';
import { applyDeclarations, declaredConfig, markSecrets, type AxDeclarations } from '../shared/declare.ts';
import { checkNames } from '../shared/names.ts';
import { callYargs, yargsArgv } from './call.ts';
import { declarationsOfHandler, type WithAxOptions } from './declare.ts';
import type { YargsHandler, YargsProgram } from './internals.ts';
import { levelAt, type YargsLevel } from './introspect.ts';
import { argumentsAt, optionsAt } from './options.ts';

/** How deep commands may nest before the program is taken for one that nests without end. */
const MAX_DEPTH = 16;

/** The name yargs gives the default command's record when it has no other. */
const DEFAULT_NAME = '$0';

/** How the twin is built: the program, the declarations by path, where printed output goes. */
interface Build {
  factory: (args: string[]) => YargsProgram;
  commands: Readonly<Record<string, AxDeclarations>>;
  settings: TwinSettings;
  /** The declaration paths met while building (to refuse one the program does not have). */
  met: Set<string>;
}

/**
 * Builds the native twin of a yargs program. @throws AxError `validation_error` on a name collision
 * (reason `name_collision`) or a declaration for a command the program does not have (`unknown_command`).
 */
export async function twinTree(
  factory: (args: string[]) => YargsProgram,
  options: WithAxOptions,
  settings: TwinSettings,
): Promise<Command> {
  const build: Build = { factory, commands: options.commands ?? {}, settings, met: new Set() };
  const root = await levelAt(factory, []);
  // a program with no command and no default command does its work after parse(): its root runs
  // the program's own code (in a process of its own)
  const actionless = !root.defaultCommand && !Object.keys(root.commands).length;
  const runner = root.defaultCommand ? await levelAt(factory, [], true) : actionless ? root : undefined;
  const twin = await twinOf(build, [], root, root.defaultCommand, runner, { version: root.version });
  const unknown = Object.keys(build.commands).find((p) => !build.met.has(p));
  if (unknown !== undefined) {
    throw new AxError('validation_error', `withAx: the program has no command ${JSON.stringify(unknown)}`, {
      context: { reason: 'unknown_command', command: unknown },
      fix: "Name a command by the words after the program's name (`link add`), or `$0` for the program itself.",
    });
  }
  return twin;
}

/**
 * The twin of the command at `path`: `level` is what yargs knows there (its subcommands),
 * `handler` its record and `runner` what yargs knows when it runs (the same level but for the
 * root, whose run is its default command's); `naming`: the root's version, a subcommand's aliases.
 */
async function twinOf(
  build: Build,
  path: readonly string[],
  level: YargsLevel,
  handler: YargsHandler | undefined,
  runner: YargsLevel | undefined,
  naming: { version?: string; aliases?: string[] },
): Promise<Command> {
  if (path.length > MAX_DEPTH) {
    // a builder that registers its own command again nests without end: no schema can list it
    throw new AxError(
      'validation_error',
      `${level.name} ${path.join(' ')}: commands nest deeper than ${MAX_DEPTH} levels`,
      {
        context: { reason: 'command_depth', command: path.join(' ') },
        fix: 'Stop the builder from registering its own command again (yargs enters it without end).',
      },
    );
  }
  const children = Object.entries(level.commands).filter(([name]) => name !== DEFAULT_NAME);
  // a command that demands a subcommand has no run of its own: yargs refuses it alone
  const runs = runner !== undefined && !(children.length && (runner.options.demandedCommands._?.min ?? 0) > 0);
  const label = [level.name, ...path].join(' ');
  const args = runs ? argumentsAt(runner, handler) : [];
  const commandWords = new Set(children.flatMap(([name]) => [name, ...(level.aliases[name] ?? [])]));
  const key = path.length ? path.join(' ') : DEFAULT_NAME;
  if (key in build.commands) build.met.add(key);
  const decl = { ...declarationsOfHandler(handler?.handler), ...build.commands[key] };
  const options = markSecrets(
    label,
    (runs ? optionsAt(runner, handler) : []).map((m) => ({ ...m, name: m.key })),
    decl,
  );
  // a command withheld from agents has no properties to confuse (docs/frontends.md#what-does-not-map)
  if (!decl.withheld)
    checkNames(label, [
      ...options.map((m) => ({ name: m.key, what: 'the option' })),
      ...args.map((a) => ({ name: a.name, what: 'the argument' })),
    ]);
  const description = typeof handler?.description === 'string' && path.length ? handler.description : '';
  const summary = description.split('\n')[0] || undefined;
  const { version, aliases = [] } = naming;
  const twin = new Command({
    use: path.at(-1) ?? level.name,
    short: summary,
    ...(description && description !== summary ? { long: description } : {}),
    ...(aliases.length ? { aliases } : {}),
    ...(handler?.description === false && path.length ? { hidden: true } : {}),
    flags: Object.fromEntries(options.map((m) => [m.key, m.spec])),
    args,
    // a handler cannot rehearse: no --dry-run, so no tool promises a preview it would refuse
    dryRun: false,
    ...(version ? { version } : {}),
    // a wrapped bin reports no value, nor does a program without handlers (its code runs after parse()): data is null
    ...declaredConfig(decl, !!build.settings.program || (runs && !handler)),
    ...(runs
      ? {
          run: (ctx: RunContext) => {
            const words = yargsArgv(ctx, path, args, options, commandWords);
            const { settings } = build;
            // a process of its own per call (json mode too) unless in-process calls were asked for; a
            // program without handlers runs its own code, which only a process of its own can run
            if (settings.calls !== 'in-process' || !handler) return callInChild(ctx, settings, words);
            return answerCall(ctx, settings, (json, signal) => callYargs(build.factory, words, json, signal));
          },
        }
      : {}),
  });
  applyDeclarations(twin, decl);
  for (const [name, child] of children) {
    const inner = await levelAt(build.factory, [...path, name]);
    twin.addCommand(await twinOf(build, [...path, name], inner, child, inner, { aliases: level.aliases[name] }));
  }
  return twin;
}
