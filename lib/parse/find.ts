/**
 * `Command.find(args)`, Cobra's `Find` (and `Traverse` on a root with `traverseChildren`): the
 * command a command line reaches from this command, and the words left for it (its flags and
 * positionals), without parsing them. Programs use it for default-subcommand logic and plugins
 * (docs/api.md#commandfind). The method is declared here, beside the walk it runs
 * (./parse.ts `findCommand`), because the tree (lib/tree) cannot reach up to the parser; it is part
 * of `Command` wherever `ax-ts` is imported.
 */
import { AxError } from '../contract/errors.ts';
import { Command } from '../tree/command.ts';
import { findCommand } from './parse.ts';

/** What {@link Command.find} returns. */
export interface FoundCommand {
  /** The deepest command the words name (this command when the first word names no child). */
  command: Command;
  /** The words left once the command words are taken out: flags, their values, positionals, `--`. */
  rest: string[];
}

declare module '../tree/command.ts' {
  interface Command {
    /**
     * Cobra's `Find`: walks `args` (the words after this command's name) down the tree, skipping
     * flags this command and its children know with their values, and returns the deepest command
     * the words name with the words left. Called on a root with `traverseChildren`, Cobra's
     * `Traverse`: flags of each level before its child's name. A lazy subtree not loaded yet is its
     * stub (load it first: `loadTree`). It walks the tree as built: the commands `main` adds when it
     * runs (`help`, `completion`, `__schema`, `__complete`, `doctor`) are not children yet, so a word
     * of theirs stays in `rest` at the root. Nothing runs and nothing is parsed.
     * @throws AxError `validation_error` (reason `invalid_argument`) when `args` is not a list of strings.
     */
    find(args: readonly string[]): FoundCommand;
  }
}

Command.prototype.find = function find(this: Command, args: readonly string[]): FoundCommand {
  // every index, holes of a sparse array too (`some` skips them)
  if (!Array.isArray(args) || Array.from(args).some((w) => typeof w !== 'string'))
    throw new AxError('validation_error', `${this.commandPath()}.find: args must be a list of strings`, {
      context: { reason: 'invalid_argument', argument: 'args' },
      fix: 'Pass the words after the command name, e.g. root.find(process.argv.slice(2)).',
    });
  return findCommand(this, args);
};
