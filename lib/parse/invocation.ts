/**
 * {@link Invocation}: one run's parse state, made by parse.ts from argv and by validate.ts's
 * `bindValues` from MCP or `--args-json` values, and read by everything that runs it (lib/run/).
 * It carries the command's resolved flag set (lib/tree/resolved.ts), resolved once when it is made.
 */
import type { Command } from '../tree/command.ts';
import type { Warning } from '../contract/envelope.ts';
import type { ResolvedFlags } from '../tree/resolved.ts';

/** One run's parse state: the command found, the flag values given and the positionals. */
export interface Invocation {
  /** The command to run. */
  command: Command;
  /**
   * The command's resolved flag set (lib/tree/resolved.ts), resolved once when the invocation is made:
   * the run path reads it here instead of resolving it again.
   */
  readonly resolved: ResolvedFlags;
  /** Flag values given in this run, by long name (defaults are not here). */
  values: Map<string, unknown>;
  /** Positional arguments in order. */
  positionals: string[];
  /** Deprecation warnings met while parsing (stderr and `meta.warnings`). */
  warnings: Warning[];
  /** How values arrived: `argv` (messages name `--flags`) or `values` (MCP/JSON: messages name properties). */
  source: 'argv' | 'values';
  /** Index in `positionals` of the first word given after `--`, if `--` was given. */
  dashAt?: number;
  /** Values of flags not given but found in their environment variable or config key (`FlagSpec.env`/`config`). */
  sourced?: Map<string, unknown>;
  /** The command line after the program name, as given (`argv` source): what a stop's next steps repeat. */
  argv?: readonly string[];
  /** The `--args-json` object of the call, when it came that way (its next steps repeat it, amended). */
  argsJson?: Record<string, unknown>;
  /** The tool arguments of a `values` call, as given (MCP): what a stop's next steps repeat, amended. */
  arguments?: Record<string, unknown>;
  /**
   * `help` was given where a subcommand was expected (`tool grp help [sub…]`): the words after it,
   * whose help (below `command`) the run prints. `help` is reserved at any depth, as ax-go reserves it.
   */
  helpTopic?: string[];
}
