/**
 * The refusals of argv parsing: an unknown command and an unknown flag, each a `validation_error`
 * with Cobra-style suggestions (cobra command.go, SuggestionsFor) and a fix that runs as written.
 */
import type { Command } from '../tree/command.ts';
import { validationError, type AxError } from '../contract/errors.ts';
import { flagsOf, injectedInForce, traversedFlags } from '../tree/flagset.ts';
import { suggestionsFor } from '../tree/suggest.ts';
import { argValue } from '../tree/args.ts';

/** The visible command names under `cmd`, for suggestions (names only, like Cobra's SuggestionsFor). */
function childNames(cmd: Command): string[] {
  return cmd
    .commands()
    .filter((c) => !c.hidden && !c.deprecated)
    .map((c) => c.name);
}

/** A `validation_error` for an unknown subcommand of `cmd`, with Cobra-style suggestions. */
export function unknownCommandError(cmd: Command, word: string, afterDashDash = false): AxError {
  const path = cmd.commandPath();
  if (afterDashDash) {
    return validationError(
      `${JSON.stringify(path)} takes no arguments, and words after "--" ` +
        `are arguments, not commands (received ${JSON.stringify(word)})`,
      'unknown_command',
      {
        context: { command: path, received: word, after_dash_dash: true },
        fix: `Put the command words before "--": '${path} ${word} …'. Run '${path} --help' to list commands.`,
        usage: path,
      },
    );
  }
  const suggestions = word.replace(/^-+/, '') === '' ? [] : suggestionsFor(word, childNames(cmd));
  return validationError(`unknown command ${JSON.stringify(word)} for ${JSON.stringify(path)}`, 'unknown_command', {
    suggestions: suggestions.map((s) => `${path} ${s}`),
    context: { command: path, received: word },
    fix: suggestions.length
      ? `Did you mean '${path} ${suggestions[0]}'? Run '${path} ` +
        `--help' to list commands (agents: '${schemaPath(cmd)}').`
      : `Run '${path} --help' to list commands (agents: '${schemaPath(cmd)}').`,
    usage: path,
  });
}

/** `<program> __schema [<command words>]`: where an agent reads the commands below `cmd` as JSON. */
function schemaPath(cmd: Command): string {
  const words = cmd.pathNames();
  return [words[0], '__schema', ...words.slice(1)].join(' ');
}

/** The long name of the traversed ancestor flag with shorthand `letter`, if any. */
function flagsOfAncestorsByShort(cmd: Command, letter: string): string | undefined {
  for (const f of traversedFlags(cmd).values()) if (f.spec.short === letter) return f.name;
  return undefined;
}

/**
 * Flags other CLIs use for the output mode (`kubectl -o json`'s `--output`, `gh --json`), and the
 * `--format` words that mean the same here: an unknown `--output json` is a did-you-mean of
 * `--format json` (docs/contract.md#mode-detection).
 */
function modeSpelling(cmd: Command, typed: string, value: string | undefined): string | undefined {
  if ((typed !== '--output' && typed !== '--json') || !injectedInForce(cmd, 'format')) return undefined;
  const v = typed === '--json' ? 'json' : value?.trim().toLowerCase();
  return `--format ${v === 'text' || v === 'human' ? 'text' : 'json'}`;
}

/** A `validation_error` for a flag `cmd` does not take, with did-you-means and, for a traversed flag, where it goes. */
export function unknownFlagError(
  cmd: Command,
  shown: string,
  typed: string,
  what = 'unknown flag',
  value?: string,
): AxError {
  const names = [...flagsOf(cmd).values()].filter((f) => !f.spec.hidden).map((f) => `--${f.name}`);
  const mode = modeSpelling(cmd, typed, value);
  const suggestions = mode
    ? [mode]
    : suggestionsFor(typed.startsWith('--') ? typed : `--${typed.replace(/^-+/, '')}`, names);
  const path = cmd.commandPath();
  // under TraverseChildren, an ancestor's local flag given after a later command's word
  const long = typed.startsWith('--') ? typed.slice(2) : flagsOfAncestorsByShort(cmd, typed.slice(1));
  const misplaced = long === undefined ? undefined : traversedFlags(cmd).get(long);
  const at = misplaced?.traversedFrom;
  const nextWord = at === undefined ? '' : cmd.pathNames()[at.split(' ').length];
  return validationError(`${what}: ${shown}`, 'unknown_flag', {
    suggestions,
    context: { command: path, flag: typed, ...(at !== undefined ? { declared_on: at } : {}) },
    fix:
      at !== undefined
        ? `--${misplaced!.name} is a flag of ${JSON.stringify(at)}: give it ` +
          `before ${JSON.stringify(nextWord)}, as in '${at} --${misplaced!.name} … ${nextWord} …'.`
        : suggestions.length
          ? `Did you mean ${suggestions[0]}? Run '${path} --help' to see its flags.`
          : `Run '${path} --help' to see its flags.`,
    usage: path,
  });
}

/** One word for the fix's command line (itself in single quotes): as is when plain, else in double quotes. */
function fixWord(w: string): string {
  return /^[A-Za-z0-9_./:=,@%+-]+$/.test(w) ? w : `"${w.replace(/(["\\$`])/g, '\\$1')}"`;
}

/**
 * A word such as `-5` where the command takes a number positional: pflag (and so ax-ts) reads it
 * as shorthand flags, and `--`, which ends the flags, is the way to give it as an argument
 * (docs/contract.md#arguments). @returns the unknown-flag error with a fix naming the command line
 * that works, verbatim; undefined when no positional of the command reads the word as a number.
 */
export function negativeNumberError(cmd: Command, argv: readonly string[], tok: string): AxError | undefined {
  const numeric = (w: string) => cmd.args.some((d) => typeof argValue(d, w) === 'number');
  if (!numeric(tok)) return undefined;
  const at = argv.lastIndexOf(tok);
  const before = argv.slice(0, at);
  const after = argv.slice(at + 1);
  // flags after it stay before `--` (after it every word is an argument)
  const flagsAfter = after.some((w) => w.startsWith('-') && w !== '-' && !numeric(w));
  const words = flagsAfter ? [...before, ...after, '--', tok] : [...before, '--', tok, ...after];
  const line = [cmd.root().name, ...words].map(fixWord).join(' ');
  const path = cmd.commandPath();
  return validationError(`unknown shorthand flag: '${tok[1]}' in ${tok}`, 'unknown_flag', {
    context: { command: path, flag: tok.slice(0, 2) },
    fix: `${tok} reads as a flag: give a negative number after --, which ends the flags: '${line}'.`,
    usage: path,
  });
}
