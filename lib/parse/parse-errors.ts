/**
 * The refusals of argv parsing: an unknown command and an unknown flag, each a `validation_error`
 * with Cobra-style suggestions (cobra command.go, SuggestionsFor) and a fix that runs as written.
 */
import type { Command } from '../tree/command.ts';
import { validationError, type AxError } from '../contract/errors.ts';
import { flagsOf, injectedInForce, traversedFlags } from '../tree/flagset.ts';
import { suggestionsFor } from '../tree/suggest.ts';

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
