/**
 * Command-line parsing with Cobra/pflag semantics: find the command from the leading words, then
 * parse interspersed flags (`--name value`, `--name=value`, `-n value`, `-nvalue`, `-abc`, `--`).
 * The result is an {@link Invocation}: state of one run, never stored on the tree.
 * Source: cobra command.go (Find, stripFlags, legacyArgs), pflag flag.go (parseArgs).
 *
 * Layer `lib/parse/`: argv (or `--args-json` / MCP arguments) → an invocation — flag parsing,
 * binding and validation of values, the inputSchema those values are checked against, suggestions.
 * It knows nothing of output; it imports `lib/tree/` and `lib/contract/`.
 */
import type { Command } from '../tree/command.ts';
import { validationError, type AxError } from '../contract/errors.ts';
import { isHelpFlag, takesValue, type Flag } from '../tree/flags.ts';
import { applyFlagText } from '../tree/flag-values.ts';
import { flagByShort, flagsOf, refusesDryRun, resolvedFlags, traversedFlags } from '../tree/flagset.ts';
import type { Invocation } from './invocation.ts';
import { dryRunUnsupported } from '../tree/dry-run.ts';
import { negativeNumberError, unknownCommandError, unknownFlagError } from './parse-errors.ts';
import { isUnloaded, loadCommand } from '../tree/lazy.ts';
import { BUILTIN_ANNOTATION } from '../tree/marks.ts';

export type { Invocation } from './invocation.ts';
export { unknownCommandError } from './parse-errors.ts';

/** Whether a token looks like a flag (`-x`, `--x`), not `-` alone. */
function isFlagToken(tok: string): boolean {
  return tok.length > 1 && tok[0] === '-';
}

/** Index of the token after the flag at `i` that is consumed as its value, or i when none is. */
function skipFlag(cmd: Command, argv: readonly string[], i: number): number {
  const tok = argv[i]!;
  if (tok.startsWith('--')) {
    if (tok.includes('=')) return i;
    const f = flagsOf(cmd).get(tok.slice(2));
    return f && takesValue(f.spec) ? i + 1 : i;
  }
  const body = tok.slice(1);
  for (let j = 0; j < body.length; j++) {
    if (body[j + 1] === '=') return i;
    const f = flagByShort(cmd, body[j]!);
    if (f && takesValue(f.spec)) return j === body.length - 1 ? i + 1 : i;
  }
  return i;
}

/** One step of Cobra's Traverse: the flag words between a command's word and the next command's. */
interface TraversedLevel {
  command: Command;
  tokens: string[];
}

/**
 * Cobra's Traverse (TraverseChildren on the root): walks the words from the start; the flags (and
 * their values) before each command word belong to the command before it; the walk stops at `--` or
 * at the first word that is not a child. @returns the command, the flag words of each ancestor on the
 * way, and the words after the last command word.
 */
function traverse(
  root: Command,
  argv: readonly string[],
): { command: Command; levels: TraversedLevel[]; rest: string[] } {
  let cmd = root;
  let start = 0;
  const levels: TraversedLevel[] = [];
  for (let i = 0; i < argv.length; i++) {
    const tok = argv[i]!;
    if (tok === '--') break;
    if (isFlagToken(tok)) {
      i = skipFlag(cmd, argv, i);
      continue;
    }
    const next = cmd.findChild(tok);
    if (!next) break;
    levels.push({ command: cmd, tokens: argv.slice(start, i) });
    cmd = next;
    start = i + 1;
  }
  return { command: cmd, levels, rest: argv.slice(start) };
}

/**
 * Finds the command named by the leading non-flag words of argv (names or aliases), skipping flags
 * and their values, stopping at `--` or at the first word that is not a child (Cobra's Find). With
 * `traverseChildren` on the root, Cobra's Traverse: each flag word is read by the command before it,
 * so a parent's local flags (and their values) are skipped as the parent reads them.
 * @returns the command and argv without the command words.
 */
export function findCommand(root: Command, argv: readonly string[]): { command: Command; rest: string[] } {
  if (root.traverseChildren) {
    const t = traverse(root, argv);
    return { command: t.command, rest: [...t.levels.flatMap((l) => l.tokens), ...t.rest] };
  }
  let cmd = root;
  const rest = [...argv];
  for (;;) {
    let next: Command | undefined;
    let at = -1;
    for (let i = 0; i < rest.length; i++) {
      const tok = rest[i]!;
      if (tok === '--') break;
      if (isFlagToken(tok)) {
        i = skipFlag(cmd, rest, i);
        continue;
      }
      next = cmd.findChild(tok);
      at = i;
      break;
    }
    if (!next) return { command: cmd, rest };
    rest.splice(at, 1);
    cmd = next;
  }
}

/**
 * Loads the lazy commands (docs/performance.md) that the leading words of argv select, one level at a time,
 * so that {@link findCommand} and parsing then see the real subtree.
 * @throws AxError `internal_error` when a lazy command fails to load or disagrees with its stub.
 */
export async function loadPath(root: Command, argv: readonly string[]): Promise<void> {
  for (;;) {
    const { command } = findCommand(root, argv);
    if (!isUnloaded(command)) return;
    await loadCommand(command);
  }
}

/**
 * Parses argv against a tree.
 * @throws AxError `validation_error` with `context.reason` one of `unknown_command`, `unknown_flag`,
 *   `missing_flag_value`, `invalid_flag_value`.
 */
export function parseArgv(root: Command, argv: readonly string[]): Invocation {
  const t = root.traverseChildren ? traverse(root, argv) : { ...findCommand(root, argv), levels: [] };
  const { command, rest } = t;
  const inv: Invocation = {
    command,
    resolved: resolvedFlags(command),
    values: new Map(),
    positionals: [],
    warnings: [],
    source: 'argv',
    argv,
  };
  // Cobra's Traverse: each ancestor parses the flags before the next command word (an error there is
  // reported at once, about that ancestor, as Cobra's Traverse returns it)
  for (const level of t.levels) parseFlags(inv, level.tokens, level.command);
  let flagError: AxError | undefined;
  try {
    // Cobra's DisableFlagParsing: every word after the command is a positional, `--` and `--help` too
    if (command.disableFlagParsing) inv.positionals.push(...rest);
    else parseFlags(inv, rest);
  } catch (e) {
    flagError = e as AxError;
  }
  // Cobra's legacyArgs, applied (as Cobra does) only when the author gave no Args validator: a word
  // that is not a subcommand of a command with subcommands that does not take positionals (or cannot
  // run) is an unknown command, reported before any flag error. Only the author's visible
  // subcommands count: the commands ax-ts injects (`schema`, `help`, `__schema`…) never change how a
  // tree parses, so a root without children of its own keeps its own argument errors.
  if (
    hasOwnSubcommands(command) &&
    !command.argsValidatorSet() &&
    inv.positionals.length > 0 &&
    (!command.runnable() || command.args.length === 0)
  ) {
    // `help` is reserved at any depth: `grp help [sub…]` is the help of `grp [sub…]`, not an unknown command
    if (inv.positionals[0] === 'help' && inv.dashAt !== 0 && inv.source === 'argv') {
      inv.helpTopic = inv.positionals.slice(1);
      return inv;
    }
    throw unknownCommandError(command, inv.positionals[0]!, inv.dashAt === 0);
  }
  if (flagError) throw flagError;
  return inv;
}

/** Whether a command has visible children of the author's (not counting what ax-ts injects). */
export function hasOwnSubcommands(cmd: Command): boolean {
  // an injected command's children (completion's shells) are its own; the user's commands' are theirs
  const injected = cmd.annotations[BUILTIN_ANNOTATION] === 'true';
  return cmd.commands().some((c) => !c.hidden && (injected || c.annotations[BUILTIN_ANNOTATION] !== 'true'));
}

/**
 * The flag of the running command that a flag word read by the ancestor `level` sets (Cobra's
 * Traverse): the same declaration in the command's set (a persistent or injected flag), or an
 * ancestor's local flag it reads ({@link traversedFlags}).
 * @throws AxError `validation_error` (reason `unknown_flag`) when the running command cannot read it:
 *   a flag of its own of that name shadows it, or it is the root's `--version`.
 */
function traversedTarget(inv: Invocation, level: Command, f: Flag): Flag {
  const own = inv.resolved.all.get(f.name);
  if (own && (own.spec === f.spec || (own.builtin && f.builtin))) return own;
  const traversed = traversedFlags(inv.command).get(f.name);
  if (!own && traversed?.spec === f.spec) return traversed;
  const path = inv.command.commandPath();
  throw validationError(
    `flag --${f.name} of ${JSON.stringify(level.commandPath())} is not read ` +
      `by ${JSON.stringify(path)}${own ? `, whose own --${f.name} shadows it` : ''}`,
    'unknown_flag',
    {
      context: { command: path, flag: `--${f.name}`, declared_on: level.commandPath() },
      fix: own
        ? `Give --${f.name} after '${path}' to set ${JSON.stringify(path)}'s own flag.`
        : `Leave --${f.name} out: run '${path} --help' to see the flags it reads.`,
      usage: path,
    },
  );
}

function setFlag(inv: Invocation, f: Flag, raw: string | undefined): void {
  const first = !inv.values.has(f.name);
  inv.values.set(f.name, applyFlagText(f.name, f.spec, inv.values.get(f.name), raw, first));
  if (first && f.spec.deprecated)
    inv.warnings.push({
      code: 'deprecated_flag',
      message: `Flag --${f.name} has been deprecated, ${f.spec.deprecated}`,
    });
}

/**
 * Parses flag words into `inv.values`: the running command's, or (`level`, under TraverseChildren)
 * the words an ancestor reads before the next command word, each stored as the running command's
 * flag it sets ({@link traversedTarget}).
 */
function parseFlags(inv: Invocation, tokens: readonly string[], level?: Command): void {
  const cmd = level ?? inv.command;
  const flags = level ? flagsOf(level) : inv.resolved.all;
  const set = level
    ? (f: Flag, raw: string | undefined) => setFlag(inv, traversedTarget(inv, level, f), raw)
    : (f: Flag, raw: string | undefined) => setFlag(inv, f, raw);
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]!;
    if (tok === '--') {
      inv.dashAt = inv.positionals.length;
      inv.positionals.push(...tokens.slice(i + 1));
      return;
    }
    if (!isFlagToken(tok)) {
      inv.positionals.push(tok);
      continue;
    }
    i = tok.startsWith('--') ? parseLong(cmd, flags, set, tokens, i) : parseShorts(inv, cmd, flags, set, tokens, i);
    if (i < 0) return;
  }
}

/** Sets one flag of the parse to the text given (undefined: the flag alone). */
type SetFlag = (f: Flag, raw: string | undefined) => void;

/**
 * pflag's parseLongArg: `--name`, `--name=value`, `--name value`, `--no-name`.
 * @returns the index of the last token it read.
 */
function parseLong(
  cmd: Command,
  flags: ReadonlyMap<string, Flag>,
  set: SetFlag,
  tokens: readonly string[],
  i: number,
): number {
  const tok = tokens[i]!;
  const eq = tok.indexOf('=');
  const name = eq >= 0 ? tok.slice(2, eq) : tok.slice(2);
  const inline = eq >= 0 ? tok.slice(eq + 1) : undefined;
  const f = flags.get(name);
  if (!f && name.startsWith('no-')) {
    const pos = flags.get(name.slice(3));
    if (pos?.spec.negatable) {
      if (inline !== undefined) {
        throw validationError(`flag --${name} does not take a value`, 'invalid_flag_value', {
          context: { flag: `--${name}` },
          fix: `Pass --${name} alone, or --${pos.name}=false.`,
        });
      }
      set(pos, 'false');
      return i;
    }
  }
  // pflag: `unknown flag: --name`; the word after it is its value when it is another tool's mode flag
  if (!f)
    throw name === 'dry-run' && refusesDryRun(cmd)
      ? dryRunUnsupported({ path: cmd.commandPath() }, 'argv')
      : unknownFlagError(cmd, `--${name}`, `--${name}`, undefined, inline ?? tokens[i + 1]);
  let raw = inline;
  if (raw === undefined && takesValue(f.spec)) {
    if (i + 1 >= tokens.length) {
      throw validationError(`flag needs an argument: --${name}`, 'missing_flag_value', {
        context: { flag: `--${name}` },
        fix: `Give a value: --${name} <value> or --${name}=<value>.`,
        usage: cmd.commandPath(),
      });
    }
    raw = tokens[++i]!;
  }
  set(f, raw);
  return i;
}

/**
 * pflag's parseShortArg: `-abc`, `-nvalue`, `-n=value`, `-n value`.
 * @returns the index of the last token it read; -1 when an undeclared `-h` ends the parse.
 */
function parseShorts(
  inv: Invocation,
  cmd: Command,
  flags: ReadonlyMap<string, Flag>,
  set: SetFlag,
  tokens: readonly string[],
  i: number,
): number {
  const tok = tokens[i]!;
  const body = tok.slice(1);
  for (let j = 0; j < body.length; j++) {
    const letter = body[j]!;
    const f = flagByShort(cmd, letter);
    // pflag: an undeclared -h is a request for help (ErrHelp), as when an author's own `help` flag
    // has no shorthand; the words after it are not read
    const help = flags.get('help');
    if (!f && letter === 'h' && isHelpFlag(help)) {
      set(help!, undefined);
      return -1;
    }
    // pflag names the shorthands left from the unknown one on: `unknown shorthand flag: 'u' in -ukn`
    if (!f) {
      const err = unknownFlagError(cmd, `'${letter}' in -${body.slice(j)}`, `-${letter}`, 'unknown shorthand flag');
      throw j === 0 && inv.argv ? (negativeNumberError(inv.command, inv.argv, tok) ?? err) : err;
    }
    // pflag: `Flag shorthand -n has been deprecated, <message>`, once per run
    const note =
      f.spec.shorthandDeprecated === undefined
        ? undefined
        : `Flag shorthand -${letter} has been deprecated, ${f.spec.shorthandDeprecated}`;
    if (note !== undefined && !inv.warnings.some((w) => w.message === note))
      inv.warnings.push({ code: 'deprecated_shorthand', message: note });
    if (body[j + 1] === '=') {
      set(f, body.slice(j + 2));
      return i;
    }
    if (takesValue(f.spec)) {
      let raw = body.slice(j + 1);
      if (raw === '') {
        if (i + 1 >= tokens.length) {
          throw validationError(`flag needs an argument: '${letter}' in -${body.slice(j)}`, 'missing_flag_value', {
            context: { flag: `--${f.name}` },
            fix: `Give a value: -${letter} <value>.`,
            usage: cmd.commandPath(),
          });
        }
        raw = tokens[++i]!;
      }
      set(f, raw);
      return i;
    }
    set(f, undefined);
  }
  return i;
}

/**
 * Pre-scans argv for the value of the injected `--format` flag (the last one wins), without failing
 * on anything else, so that errors found while parsing are already reported in the right mode.
 */
export function scanFormat(command: Command, argv: readonly string[]): string | undefined {
  if (command.disableFlagParsing) return undefined; // its words are all positionals
  let found: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const tok = argv[i]!;
    if (tok === '--') break;
    if (tok === '--format' && i + 1 < argv.length) found = argv[++i];
    else if (tok.startsWith('--format=')) found = tok.slice('--format='.length);
    else if (isFlagToken(tok)) i = skipFlag(command, argv, i);
  }
  return found;
}
