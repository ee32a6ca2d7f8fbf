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
import { applyFlagText, takesValue, type Flag } from '../tree/flags.ts';
import { flagByShort, flagsOf } from '../tree/flagset.ts';
import { suggestionsFor } from './suggest.ts';
import { isUnloaded, loadCommand } from '../tree/lazy.ts';
import { BUILTIN_ANNOTATION } from '../tree/marks.ts';

/** One run's parse state: the command found, the flag values given and the positionals. */
export interface Invocation {
  /** The command to run. */
  command: Command;
  /** Flag values given in this run, by long name (defaults are not here). */
  values: Map<string, unknown>;
  /** Positional arguments in order. */
  positionals: string[];
  /** Deprecation warnings met while parsing (stderr and `meta.warnings`). */
  warnings: string[];
  /** How values arrived: `argv` (messages name `--flags`) or `values` (MCP/JSON: messages name properties). */
  source: 'argv' | 'values';
  /** Index in `positionals` of the first word given after `--`, if `--` was given. */
  dashAt?: number;
  /** Values of flags not given but found in their environment variable or config key (`FlagSpec.env`/`config`). */
  sourced?: Map<string, unknown>;
}

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

/**
 * Finds the command named by the leading non-flag words of argv (names or aliases), skipping flags
 * and their values, stopping at `--` or at the first word that is not a child (Cobra's Find).
 * @returns the command and argv without the command words.
 */
export function findCommand(root: Command, argv: readonly string[]): { command: Command; rest: string[] } {
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
 * Loads the lazy commands (issue 14) that the leading words of argv select, one level at a time,
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

/** The visible command names under `cmd`, for suggestions (names only, like Cobra's SuggestionsFor). */
function childNames(cmd: Command): string[] {
  return cmd.commands().filter((c) => !c.hidden && !c.deprecated).map((c) => c.name);
}

/** A `validation_error` for an unknown subcommand of `cmd`, with Cobra-style suggestions. */
export function unknownCommandError(cmd: Command, word: string, afterDashDash = false): AxError {
  const path = cmd.commandPath();
  if (afterDashDash) {
    return validationError(`${JSON.stringify(path)} takes no arguments, and words after "--" are arguments, not commands (received ${JSON.stringify(word)})`, 'unknown_command', {
      context: { command: path, received: word, after_dash_dash: true },
      fix: `Put the command words before "--": '${path} ${word} …'. Run '${path} --help' to list commands.`,
      usage: path,
    });
  }
  const suggestions = word.replace(/^-+/, '') === '' ? [] : suggestionsFor(word, childNames(cmd));
  return validationError(`unknown command ${JSON.stringify(word)} for ${JSON.stringify(path)}`, 'unknown_command', {
    suggestions: suggestions.map((s) => `${path} ${s}`),
    context: { command: path, received: word },
    fix: suggestions.length ? `Did you mean '${path} ${suggestions[0]}'? Run '${path} --help' to list commands.` : `Run '${path} --help' to list commands.`,
    usage: path,
  });
}

function unknownFlagError(cmd: Command, shown: string, typed: string, what = 'unknown flag'): AxError {
  const names = [...flagsOf(cmd).values()].filter((f) => !f.spec.hidden).map((f) => `--${f.name}`);
  const suggestions = suggestionsFor(typed.startsWith('--') ? typed : `--${typed.replace(/^-+/, '')}`, names);
  const path = cmd.commandPath();
  return validationError(`${what}: ${shown}`, 'unknown_flag', {
    suggestions,
    context: { command: path, flag: typed },
    fix: suggestions.length ? `Did you mean ${suggestions[0]}? Run '${path} --help' to see its flags.` : `Run '${path} --help' to see its flags.`,
    usage: path,
  });
}

/**
 * Parses argv against a tree.
 * @throws AxError `validation_error` with `context.reason` one of `unknown_command`, `unknown_flag`,
 *   `missing_flag_value`, `invalid_flag_value`.
 */
export function parseArgv(root: Command, argv: readonly string[]): Invocation {
  const { command, rest } = findCommand(root, argv);
  const inv: Invocation = { command, values: new Map(), positionals: [], warnings: [], source: 'argv' };
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
  if (hasOwnSubcommands(command) && !command.argsValidatorSet() && inv.positionals.length > 0 && (!command.runnable() || command.args.length === 0)) {
    throw unknownCommandError(command, inv.positionals[0]!, inv.dashAt === 0);
  }
  if (flagError) throw flagError;
  return inv;
}

/** Whether a command has visible children of the author's (not counting what ax-ts injects). */
export function hasOwnSubcommands(cmd: Command): boolean {
  return cmd.commands().some((c) => !c.hidden && c.annotations[BUILTIN_ANNOTATION] !== 'true');
}

function setFlag(inv: Invocation, f: Flag, raw: string | undefined): void {
  const first = !inv.values.has(f.name);
  inv.values.set(f.name, applyFlagText(f.name, f.spec, inv.values.get(f.name), raw, first));
  if (first && f.spec.deprecated) inv.warnings.push(`Flag --${f.name} has been deprecated, ${f.spec.deprecated}`);
}

function parseFlags(inv: Invocation, tokens: readonly string[]): void {
  const cmd = inv.command;
  const flags = flagsOf(cmd);
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
    if (tok.startsWith('--')) {
      const eq = tok.indexOf('=');
      const name = eq >= 0 ? tok.slice(2, eq) : tok.slice(2);
      const inline = eq >= 0 ? tok.slice(eq + 1) : undefined;
      let f = flags.get(name);
      if (!f && name.startsWith('no-')) {
        const pos = flags.get(name.slice(3));
        if (pos?.spec.negatable) {
          if (inline !== undefined) {
            throw validationError(`flag --${name} does not take a value`, 'invalid_flag_value', { context: { flag: `--${name}` }, fix: `Pass --${name} alone, or --${pos.name}=false.` });
          }
          setFlag(inv, pos, 'false');
          continue;
        }
      }
      if (!f) throw unknownFlagError(cmd, `--${name}`, `--${name}`); // pflag: `unknown flag: --name`
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
      setFlag(inv, f, raw);
      continue;
    }
    const body = tok.slice(1);
    for (let j = 0; j < body.length; j++) {
      const letter = body[j]!;
      const f = flagByShort(cmd, letter);
      // pflag names the shorthands left from the unknown one on: `unknown shorthand flag: 'u' in -ukn`
      if (!f) throw unknownFlagError(cmd, `'${letter}' in -${body.slice(j)}`, `-${letter}`, 'unknown shorthand flag');
      if (body[j + 1] === '=') {
        setFlag(inv, f, body.slice(j + 2));
        break;
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
        setFlag(inv, f, raw);
        break;
      }
      setFlag(inv, f, undefined);
    }
  }
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
