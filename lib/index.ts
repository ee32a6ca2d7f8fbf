/**
 * `ax-ts`: make any command-line program agent-ready from one declaration. What a CLI author needs:
 * the command tree and its declarations, Cobra's Args validators, the errors of the contract, and
 * running a tree (`main`, `execute`). The other entries (docs/api.md): `ax-ts/mcp` (serving a tree
 * over MCP), `ax-ts/golden` (golden tests), `ax-ts/schema` (the `__schema` projections, schema diff
 * and the published JSON Schemas), `ax-ts/store` (idempotency stores), `ax-ts/config` (JSONC config
 * files). Every name here is pinned by test/api/public-api.test.ts.
 */
// the command tree
export { Command } from './tree/command.ts';
// Command.find (Cobra's Find) is declared beside the walk it runs, in the parser's folder
import './parse/find.ts';
export type { FoundCommand } from './parse/find.ts';
export type {
  Capability,
  CommandConfig,
  CommandGroup,
  Effects,
  OutputDecl,
  RenderFn,
  RunContext,
  RunFn,
} from './tree/command.ts';
export type { ActionRequired } from './tree/interaction.ts';
export type { ItemResults } from './tree/run-context.ts';
export type { Completer, FlagSpec, FlagType } from './tree/flags.ts';
export type { ArgSpec, ArgsValidator } from './tree/args.ts';
export {
  ArbitraryArgs,
  DeclaredArgs,
  ExactArgs,
  ExactValidArgs,
  MatchAll,
  MaximumNArgs,
  MinimumNArgs,
  NoArgs,
  NoDuplicateArgs,
  OnlyValidArgs,
  RangeArgs,
} from './tree/args.ts';
export { declarePrompt, declareResource } from './tree/declare.ts';
export type { PromptDecl, ResourceDecl } from './tree/declarations.ts';
export { mcp } from './tree/marks.ts';
export type { Logger, LoggingDecl, LogLevel } from './tree/logging.ts';
export { ShellCompDirective, fixedCompletions } from './completion/directives.ts';

// the contract
export { AxError, defineError, errorCatalogue, ExitCode } from './contract/errors.ts';
export { newEntityId } from './contract/ids.ts';
export type { AxErrorOptions, ErrorKindSpec, NextStep } from './contract/errors.ts';
export type { Mode } from './contract/mode.ts';
export type { OutputStream } from './contract/envelope.ts';

// running a tree
export { execute } from './run/execute.ts';
export type { ExecuteOptions } from './run/options.ts';
export { main } from './run/main.ts';
export type { MainOptions } from './run/main.ts';
export { isPlaceholderVersion, resolveVersion } from './platform/version.ts';
export { defaultHelpText, helpText, usageText } from './help/help.ts';
export { renderDefault } from './run/render.ts';
export { visible } from './contract/envelope.ts';
