/**
 * The light part of shell completion, loaded by every program at start: the names of the built-in
 * completion commands, the shells, Cobra's ShellCompDirective bits and {@link fixedCompletions}.
 * The engine (completion.ts) and the scripts (scripts.ts) load when a completion command runs.
 * Source: spf13/cobra completions.go.
 */
import type { Completer } from '../tree/flags.ts';

/** Cobra's ShellCompDirective bits: what the shell should do with the candidates. */
export const ShellCompDirective = {
  /** Let the shell do its default (file completion when there are no candidates). */
  Default: 0,
  /** Something went wrong; complete nothing. */
  Error: 1,
  /** Do not add a space after the completion. */
  NoSpace: 2,
  /** Do not fall back to file completion when there are no candidates. */
  NoFileComp: 4,
  /** The candidates are file extensions: complete files with those extensions. */
  FilterFileExt: 8,
  /** Complete directories only (a single candidate names the directory to look in). */
  FilterDirs: 16,
  /** Keep the candidates in the order given (do not sort). */
  KeepOrder: 32,
} as const;

/** Name of the hidden completion command (reserved at the root). */
export const COMPLETE_COMMAND = '__complete';
/** Name of its twin that prints values without descriptions (Cobra's ShellCompNoDescRequestCmd). */
export const COMPLETE_NO_DESC_COMMAND = '__completeNoDesc';
/** Name of the command that prints the scripts (reserved at the root). */
export const COMPLETION_COMMAND = 'completion';

/** Shells that `completion` generates a script for. */
export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;
/** One of {@link SHELLS}. */
export type Shell = (typeof SHELLS)[number];

/**
 * Cobra's FixedCompletions: a completer that answers `choices` (each may carry `\tdescription`)
 * and `directive`, whatever the partial — as Cobra's, it does not filter them (the shell does).
 * Usage: `validArgsFunction: fixedCompletions(['apple', 'banana'], ShellCompDirective.NoFileComp)`.
 */
export function fixedCompletions(
  choices: readonly string[],
  directive: number = ShellCompDirective.Default,
): Completer {
  const completions = [...choices];
  return () => ({ completions: [...completions], directive });
}
