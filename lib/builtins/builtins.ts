/**
 * Commands ax-ts adds to every tree (unless the author has a child of the same name): `help`,
 * `__schema`, clispec's `schema`, `completion` and the hidden `__complete` (`doctor` is lib/run's).
 * They are reserved (docs/mcp-server.md): never MCP tools.
 *
 * Layer `lib/builtins/`: what `execute` injects into every tree (help, `__schema`, `schema`,
 * completion). It imports the layers below it; `lib/run/` imports it (and `ax-ts/mcp`'s mount, for
 * {@link rootTakesPositionals}).
 */
import { Command } from '../tree/command.ts';
import { AxError } from '../contract/errors.ts';
import { findCommand, loadPath, unknownCommandError } from '../parse/parse.ts';
import { helpText } from '../help/help.ts';
import { BUILTIN_ANNOTATION, rootTakesPositionals } from '../tree/marks.ts';
import { flagsOf, injectedInForce } from '../tree/flagset.ts';
import { clispecCommand, schemaCommand } from '../schema/commands.ts';
import { completeCommand, completionCommand } from '../completion/commands.ts';

const INSTALLED = Symbol.for('ax-ts.builtins');

/** `help [command]`: prints the help of the named command (Cobra's help command). */
function helpCommand(root: Command): Command {
  return new Command({
    use: 'help [command...]',
    short: 'Help about any command',
    long:
      `Help provides help for any command in the application.\n` +
      `Simply type ${root.name} help [path to command] for full details.`,
    annotations: { [BUILTIN_ANNOTATION]: 'true' },
    output: { kind: 'opaque', mediaType: 'text/plain' },
    effects: 'read_only',
    run: (ctx) => helpFor(root, (ctx.args.command as string[]) ?? []),
  });
}

/**
 * The help text of the command `words` name below `root` (loading lazy subtrees on the way): what
 * `help [command…]` prints, and `grp help [command…]` at any depth (`help` is reserved wherever it is).
 * @throws AxError `validation_error` (`unknown_command`, "Unknown help topic") for words that name no command.
 */
export async function helpFor(root: Command, words: readonly string[]): Promise<string> {
  await loadPath(root, words);
  const { command, rest } = findCommand(root, words);
  if (rest.length) {
    // Cobra prints `Unknown help topic [\`a\` \`b\`]` for the words it was given; ax-ts makes it a usage error
    const e = unknownCommandError(command, rest[0]!);
    throw new AxError(e.kind, `Unknown help topic [${words.map((w) => `\`${w}\``).join(' ')}]`, {
      fix: e.fix,
      suggestions: e.suggestions,
      usage: e.usage,
      context: { ...e.context, topic: [...words] },
    });
  }
  return helpText(command);
}

/** The names the built-ins take (reserved names, docs/mcp-server.md). */
const BUILTIN_NAMES = new Set(['help', '__schema', 'schema', 'completion', '__complete', '__completeNoDesc', 'doctor']);

/**
 * Whether a run of `argv` may reach a built-in: the built-ins are children of the root, so a run
 * whose words select a command under one of the author's other root children can never reach one,
 * and need not build them (2–4 ms of start-up, docs/performance.md). The root itself (its help, an unknown
 * word that wants suggestions) and anything under a reserved name (an author's own `completion`
 * that completes the whole tree, `help …`) may; but not the root's bare version answer (its
 * injected `--version` or shorthand, alone or with `--format=…`), which reads no command.
 */
export function builtinsReachable(root: Command, argv: readonly string[]): boolean {
  let top = findCommand(root, argv).command;
  if (top === root) return !versionOnly(root, argv);
  while (top.parent !== root) top = top.parent!;
  return BUILTIN_NAMES.has(top.name);
}

/** Whether `argv` asks the root only for its version: the injected flag, and at most `--format=…`. */
function versionOnly(root: Command, argv: readonly string[]): boolean {
  const version = flagsOf(root).get('version');
  if (version?.builtin !== true) return false;
  const short = version.spec.short === undefined ? undefined : `-${version.spec.short}`;
  let asked = false;
  for (const w of argv) {
    if (w === '--version' || w === short) asked = true;
    else if (!(w.startsWith('--format=') && injectedInForce(root, 'format'))) return false;
  }
  return asked;
}

/**
 * Cobra's checkCommandGroups, run by every execution as Cobra's ExecuteC does: every `groupId`
 * below `cmd` (the loaded part of the tree) must name a group of its parent.
 * @throws TypeError naming the command and the id (an author error, Cobra panics).
 */
export function checkGroups(cmd: Command): void {
  for (const c of cmd.commands()) {
    if (c.groupId && !cmd.containsGroup(c.groupId))
      throw new TypeError(`group id '${c.groupId}' is not defined for subcommand '${c.commandPath()}'`);
    if (c.hasSubCommands()) checkGroups(c);
  }
}

/** Adds the built-in commands to a root once; idempotent. */
export function installBuiltins(root: Command): void {
  const r = root as Command & { [INSTALLED]?: true };
  if (r[INSTALLED]) return;
  r[INSTALLED] = true;
  const hasChildren = root.hasSubCommands();
  if (hasChildren && !root.findChild('help')) root.addCommand(helpCommand(root));
  if (!root.findChild('__schema')) root.addCommand(schemaCommand(root));
  // Cobra's model: `completion <shell>` prints a script that asks the hidden `__complete` on every TAB
  if (hasChildren && !root.findChild('completion')) root.addCommand(completionCommand(root));
  if (!root.findChild('__complete')) root.addCommand(completeCommand(root));
  if (!root.findChild('__completeNoDesc')) root.addCommand(completeCommand(root, false));
  // clispec's `schema`, unless the author has one or the root takes positionals (declared ones, or any
  // its own Args validator accepts): a word there is an argument, and a built-in never changes that
  if (!root.findChild('schema') && !rootTakesPositionals(root)) root.addCommand(clispecCommand(root));
}
