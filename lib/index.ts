/**
 * ax-ts: make any command-line program agent-ready from one declaration.
 * Public entry point: the command tree, the Args validators, execution and the contract helpers.
 */
export { Command, RESERVED_COMMANDS } from './command.ts';
export type { CommandConfig, Effects, OutputDecl, RunFn, RenderFn } from './command.ts';
export type { FlagSpec, FlagType, FlagValueOf, Completer } from './flags.ts';
export { parseDuration } from './flags.ts';
export type { ArgSpec, ArgsValidator, ArgsTarget } from './args.ts';
export { ArbitraryArgs, NoArgs, ExactArgs, MinimumNArgs, MaximumNArgs, RangeArgs, OnlyValidArgs, MatchAll, DeclaredArgs } from './args.ts';
export type { RunContext, OutputStream, Mode, FlagValues, ArgValues, FlagDecls } from './context.ts';
export { AxError, defineError, errorCatalogue, ExitCode, BUILTIN_ERRORS } from './errors.ts';
export type { AxErrorOptions, ErrorKindSpec } from './errors.ts';
export { execute, main } from './execute.ts';
export type { ExecuteOptions } from './execute.ts';
export { detectMode, MODE_DETECTION, newIdempotencyKey, newTraceId, ERROR_SCHEMA_VERSION } from './contract.ts';
export { resolveVersion, isPlaceholderVersion, PLACEHOLDER_VERSIONS } from './version.ts';
export { helpText } from './help.ts';
