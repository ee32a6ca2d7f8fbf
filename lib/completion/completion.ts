/**
 * Shell completion, Cobra's model: the hidden `__complete` command answers "what can come next?" for
 * a partial command line, and the `completion bash|zsh|fish|powershell` command prints a script that
 * asks it on every TAB. The engine works from the tree alone (commands, aliases, flags, choices, declared
 * arguments, validArgs) plus the `completer` callbacks of flags and arguments.
 *
 * Protocol (Cobra's `__complete`): `<program> __complete [--] <words...> <partial>` prints one
 * candidate a line, `value` or `value\tdescription`, then a last line `:<directive>` (bit set, see
 * {@link ShellCompDirective}). The generated scripts always send `--` right after `__complete`, so words
 * that look like flags are never parsed as flags of `__complete` itself. For `--flag=<partial>` the
 * candidates are bare values; the scripts put the `--flag=` prefix back. On any failure the output is
 * just `:1` (no stack), with one `[Error] …` line on stderr.
 *
 * Source: spf13/cobra completions.go (getCompletions, checkIfFlagCompletion, getFlagNameCompletions).
 *
 * Layer `lib/completion/`: the completion engine, the `completion`/`__complete` commands and the
 * shell scripts. It reads the tree; it imports the layers below it (tree, parse, help, schema,
 * contract).
 */
import { Command } from '../tree/command.ts';
import { DeclaredArgs, type ArgSpec } from '../tree/args.ts';
import { isList, isMap, type Flag } from '../tree/flags.ts';
import { flagByShort, flagsOf } from '../tree/flagset.ts';
import { BUILTIN_ANNOTATION } from '../tree/marks.ts';
import { groupsInForce } from '../parse/validate.ts';
import { locate, longFlag, type Position } from './locate.ts';

import { ShellCompDirective } from './directives.ts';
import {
  byPrefix,
  callCompleter,
  flagValues,
  NO_FILE,
  oneLine,
  type Candidate,
  type CompletionResult,
} from './values.ts';

export type { Candidate, CompletionResult } from './values.ts';

const { Error: ERROR } = ShellCompDirective;

/** A command offered as a subcommand: not hidden, not deprecated (Cobra's IsAvailableCommand). */
function available(c: Command): boolean {
  return !c.hidden && !c.deprecated;
}

/** A flag offered by name: not hidden, not deprecated (Cobra's nonCompletableFlag). */
function completableFlag(f: Flag): boolean {
  return !f.spec.hidden && !f.spec.deprecated;
}

/**
 * Cobra's getFlagNameCompletions: `--name` (and `--no-name` for a negatable bool), then `-x`, those
 * starting with the partial.
 */
function nameCandidates(f: Flag, partial: string): Candidate[] {
  const out: Candidate[] = [];
  const description = oneLine(f.spec.usage);
  if (`--${f.name}`.startsWith(partial)) out.push({ value: `--${f.name}`, description });
  if (f.spec.negatable && partial.length > 2 && `--no-${f.name}`.startsWith(partial))
    out.push({ value: `--no-${f.name}`, description });
  if (f.spec.short && `-${f.spec.short}`.startsWith(partial)) out.push({ value: `-${f.spec.short}`, description });
  return out;
}

const byName = (a: Flag, b: Flag) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Cobra's enforceFlagGroupsForCompletion (see {@link Position.groupRequired}), over the groups in
 * force for the command.
 */
function applyFlagGroups(pos: Position): void {
  if (pos.command.disableFlagParsing) return;
  for (const g of groupsInForce(pos.command, 'requiredTogether'))
    if (g.some((n) => pos.given.has(n))) for (const n of g) pos.groupRequired.add(n);
  for (const g of groupsInForce(pos.command, 'oneRequired'))
    if (!g.some((n) => pos.given.has(n))) for (const n of g) pos.groupRequired.add(n);
  // the given flag itself stays: a slice or array may be given again
  for (const g of groupsInForce(pos.command, 'mutuallyExclusive'))
    for (const set of g.filter((n) => pos.given.has(n))) for (const n of g) if (n !== set) pos.groupHidden.add(n);
}

/** A flag offered by name here: completable, and not hidden by a mutually exclusive group. */
function offered(pos: Position, f: Flag): boolean {
  return completableFlag(f) && !pos.groupHidden.has(f.name);
}

/**
 * Cobra's completeRequireFlags: the required flags (declared, or by a flag group for now) not given
 * yet, sorted by name.
 */
function requiredFlags(pos: Position, partial: string): Candidate[] {
  return [...flagsOf(pos.command).values()]
    .filter((f) => (f.spec.required || pos.groupRequired.has(f.name)) && offered(pos, f) && !pos.given.has(f.name))
    .sort(byName)
    .flatMap((f) => nameCandidates(f, partial));
}

/**
 * Flag names for a partial starting with `-`, as Cobra's getCompletions: the required flags not
 * given yet when some match; else every flag — inherited ones first, then the command's own, each
 * sorted — leaving out those already given unless they take several values (slices, arrays, maps).
 */
function flagNames(pos: Position, partial: string): CompletionResult {
  const required = requiredFlags(pos, partial);
  if (required.length) return { candidates: required, directive: NO_FILE };
  const all = [...flagsOf(pos.command).values()].filter((f) => offered(pos, f));
  const inherited = all.filter((f) => f.inherited).sort(byName);
  const own = all.filter((f) => !f.inherited).sort(byName);
  const out = [...inherited, ...own]
    .filter((f) => !pos.given.has(f.name) || isList(f.spec) || isMap(f.spec))
    .flatMap((f) => nameCandidates(f, partial));
  return { candidates: out, directive: NO_FILE };
}

/** The declaration that takes the positional at `index`, if any (the last one when it is variadic). */
function argAt(cmd: Command, index: number): ArgSpec | undefined {
  const decls = cmd.args;
  if (index < decls.length) return decls[index];
  const last = decls[decls.length - 1];
  return last?.variadic ? last : undefined;
}

/** Whether a flag word (`--help`, `-h`, `--no-x`) names one of the flags ax-ts injects on `cmd`. */
function isBuiltinFlag(cmd: Command, word: string): boolean {
  const f = word.startsWith('--') ? longFlag(cmd, word.slice(2)) : flagByShort(cmd, word.slice(1));
  return f?.builtin === true;
}

/** Whether `cmd` is the injected `help [command...]`. */
function isHelpCommand(cmd: Command): boolean {
  return (
    cmd.name === 'help' &&
    cmd.parent !== undefined &&
    cmd.parent.parent === undefined &&
    cmd.annotations[BUILTIN_ANNOTATION] === 'true'
  );
}

/** Names of the available subcommands of `cmd` that start with `partial` (Cobra offers names, not aliases). */
function subcommands(cmd: Command, partial: string): Candidate[] {
  return cmd
    .commands()
    .filter(available)
    .filter((c) => c.name.startsWith(partial))
    .map((c) => ({ value: c.name, description: oneLine(c.short) }));
}

/** Words (subcommands, required flags, positional values) for a partial that is not a flag. */
async function nouns(pos: Position, partial: string): Promise<CompletionResult> {
  const cmd = pos.command;
  const candidates: Candidate[] = [];
  let directive: number = ShellCompDirective.Default;
  const index = pos.positionals.length;
  if (isHelpCommand(cmd)) {
    let target = cmd.root();
    for (const w of pos.positionals) {
      const next = target.findChild(w);
      if (!next) return { candidates: [], directive: NO_FILE };
      target = next;
    }
    return { candidates: subcommands(target, partial), directive: NO_FILE };
  }
  // Cobra: no subcommand names once a local, non-persistent flag of the command was given (unless
  // TraverseChildren, where a parent's local flags are given before its child's word)
  const localGiven = !cmd.root().traverseChildren && [...pos.given].some((n) => Object.hasOwn(cmd.localFlags, n));
  if (!pos.afterDashDash && index === 0 && !localGiven && cmd.commands().some(available)) {
    candidates.push(...subcommands(cmd, partial));
    directive = NO_FILE;
  }
  // Cobra offers flags marked required even without a leading '-' (only reachable with an empty partial).
  if (!pos.afterDashDash) candidates.push(...requiredFlags(pos, partial));
  const decl = argAt(cmd, index);
  if (decl?.choices) {
    candidates.push(
      ...decl.choices.map((value) => ({ value, description: oneLine(decl.description) })).filter(byPrefix(partial)),
    );
    return { candidates, directive: NO_FILE };
  }
  if (decl?.completer) {
    const r = await callCompleter(decl.completer, partial, cmd, pos.positionals, pos);
    return { candidates: [...candidates, ...r.candidates], directive: r.directive };
  }
  // Cobra: validArgs complete the first positional only (an entry's text after a tab is its
  // description); with validArgs declared, completion stops there whatever the position, with
  // NoFileComp when something was offered and the default directive (files) when nothing was
  if (cmd.validArgs?.length) {
    if (index === 0 && !pos.afterDashDash) {
      const valid = cmd.validArgs.map((v) => {
        const tab = v.indexOf('\t');
        return tab < 0 ? { value: v } : { value: v.slice(0, tab), description: oneLine(v.slice(tab + 1)) };
      });
      candidates.push(...valid.filter(byPrefix(partial)));
    }
    return { candidates, directive: candidates.length ? NO_FILE : directive };
  }
  // Cobra's ValidArgsFunction: its candidates after the subcommand names, and its directive
  if (cmd.validArgsFunction) {
    const r = await callCompleter(cmd.validArgsFunction, partial, cmd, pos.positionals, pos);
    return { candidates: [...candidates, ...r.candidates], directive: r.directive };
  }
  // A free-form positional: files are a fair guess (Cobra's default). With the default validator and
  // nothing left to declare, nothing more can come, so no files either.
  if (!decl && (cmd.validateArgs === DeclaredArgs || !cmd.runnable())) directive = NO_FILE;
  return { candidates, directive };
}

/**
 * Candidates for the value named `name` on `cmd`, from the same declarations that feed shell
 * completion: its positional of that name (choices, completer, else the command's validArgs), else
 * its flag of that long name (choices, completer, `true`/`false` for a bool). `name` may be spelled
 * in kebab, snake or camel case (`max-width`, `max_width`, `maxWidth`). This is what MCP
 * `completion/complete` answers for a prompt argument or a resource-template variable declared on
 * `cmd`. @returns the candidates starting with `partial`, or [] when `cmd` has no such value.
 * @throws whatever a completer throws.
 */
export async function completeValue(cmd: Command, name: string, partial: string): Promise<Candidate[]> {
  const kebab = name.replace(/_/g, '-').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const decl = cmd.args.find((a) => a.name === name || a.name === kebab);
  if (decl) {
    if (decl.choices)
      return decl.choices.map((value) => ({ value, description: oneLine(decl.description) })).filter(byPrefix(partial));
    if (decl.completer) return valuesOnly(await callCompleter(decl.completer, partial, cmd, []));
    if (cmd.validArgs?.length) return cmd.validArgs.map((value) => ({ value })).filter(byPrefix(partial));
    return cmd.validArgsFunction ? valuesOnly(await callCompleter(cmd.validArgsFunction, partial, cmd, [])) : [];
  }
  const flags = flagsOf(cmd);
  const f = flags.get(name) ?? flags.get(kebab);
  if (!f || !completableFlag(f)) return [];
  return valuesOnly(await flagValues(f, partial, cmd, []));
}

/**
 * The candidates that are values: none when the directive asks the shell for files or directories
 * (the candidates are then extensions or a directory).
 */
function valuesOnly(r: CompletionResult): Candidate[] {
  return r.directive & (ShellCompDirective.FilterFileExt | ShellCompDirective.FilterDirs) ? [] : r.candidates;
}

/**
 * Completes a partial command line against a tree.
 * @param args the words after the program name, the last being the partial word (possibly `''`);
 *   none at all means an empty partial after the program name.
 * @throws whatever a completer throws (the `__complete` command turns it into `:1`).
 */
export async function complete(root: Command, args: readonly string[]): Promise<CompletionResult> {
  const words = args.slice(0, -1);
  const partial = args.length ? args[args.length - 1]! : '';
  const pos = locate(root, words);
  pos.word = partial;
  if (pos.stray) return { candidates: [], directive: ShellCompDirective.Default };
  // Cobra's helpOrVersionFlagPresent: after the --help or --version ax-ts injects, the command runs
  // no further, so nothing more is completed (an author's own help/version flag does not count)
  if (
    !pos.command.disableFlagParsing &&
    ['help', 'version'].some((n) => pos.given.has(n) && flagsOf(pos.command).get(n)?.builtin)
  )
    return { candidates: [], directive: NO_FILE };
  applyFlagGroups(pos);
  if (pos.pending) return flagValues(pos.pending, partial, pos.command, pos.positionals, pos);
  if (!pos.afterDashDash && partial.startsWith('-')) {
    const eq = partial.indexOf('=');
    if (eq < 0) {
      const names = flagNames(pos, partial);
      // Cobra: with DisableFlagParsing the command may know flags Cobra does not, so its
      // validArgsFunction is asked too, after the flags Cobra knows; the flags ax-ts injects
      // (--help, --format…) are words like any other there, so they are not offered
      if (!pos.command.disableFlagParsing) return names;
      const known = names.candidates.filter((c) => !isBuiltinFlag(pos.command, c.value));
      if (!pos.command.validArgsFunction) return { candidates: known, directive: names.directive };
      const r = await callCompleter(pos.command.validArgsFunction, partial, pos.command, pos.positionals, pos);
      return { candidates: [...known, ...r.candidates], directive: r.directive };
    }
    // --name=<value> or -x=<value> (the last letter of a shorthand group): complete the value.
    const f = partial.startsWith('--')
      ? longFlag(pos.command, partial.slice(2, eq))
      : eq >= 2
        ? flagByShort(pos.command, partial[eq - 1]!)
        : undefined;
    if (!f || (partial.startsWith('--') && f.name !== partial.slice(2, eq)))
      return { candidates: [], directive: NO_FILE };
    return flagValues(f, partial.slice(eq + 1), pos.command, pos.positionals, pos);
  }
  return nouns(pos, partial);
}

/**
 * The `__complete` output: candidates one a line (`value\tdescription`), then `:<directive>`.
 * @param descriptions false for `__completeNoDesc` (values only, Cobra's ShellCompNoDescRequestCmd).
 */
export function formatCompletion(r: CompletionResult, descriptions = true): string {
  const seen = new Set<string>();
  let out = '';
  for (const c of r.candidates) {
    if (seen.has(c.value) || /[\t\r\n]/.test(c.value)) continue;
    seen.add(c.value);
    out += c.description && descriptions ? `${c.value}\t${c.description}\n` : `${c.value}\n`;
  }
  return `${out}:${r.directive}\n`;
}

/**
 * Runs the engine for `__complete` words; never throws: a failure (of `prepare` too, which loads
 * what the words name) prints `:1`.
 */
export async function completeText(
  root: Command,
  args: readonly string[],
  stderr?: { write(s: string): unknown },
  descriptions = true,
  prepare?: () => Promise<void>,
): Promise<string> {
  try {
    await prepare?.();
    return formatCompletion(await complete(root, args), descriptions);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    stderr?.write(`[Error] ${oneLine(msg) ?? 'completion failed'}\n`);
    return `:${ERROR}\n`;
  }
}
