/**
 * ax-ts: make any command-line program agent-ready from one declaration.
 * Public entry point: the command tree, the Args validators, execution and the contract helpers.
 */
export { Command } from './command.ts';
export type { CommandConfig, Effects, OutputDecl, RunFn, RenderFn } from './command.ts';
export type { FlagSpec, FlagType, FlagValueOf, Completer } from './flags.ts';
export { parseDuration } from './flags.ts';
export type { ArgSpec, ArgsValidator, ArgsTarget } from './args.ts';
export { ArbitraryArgs, NoArgs, ExactArgs, MinimumNArgs, MaximumNArgs, RangeArgs, OnlyValidArgs, MatchAll, DeclaredArgs } from './args.ts';
export type { RunContext, OutputStream, Mode, FlagValues, ArgValues, FlagDecls } from './context.ts';
export { AxError, defineError, errorCatalogue, ExitCode, BUILTIN_ERRORS } from './errors.ts';
export type { AxErrorOptions, ErrorKindSpec } from './errors.ts';
export { execute } from './execute.ts';
export { main, EXIT_STDOUT_CLOSED, EXIT_TERMINATED } from './main.ts';
export type { MainOptions } from './main.ts';
export type { ExecuteOptions } from './execute.ts';
export { detectMode, MODE_DETECTION, newIdempotencyKey, newTraceId, ERROR_SCHEMA_VERSION } from './contract.ts';
export { resolveVersion, isPlaceholderVersion, PLACEHOLDER_VERSIONS } from './version.ts';
export { helpText } from './help.ts';
export { declarePrompt, declareResource, DECLARATION_LIMITS } from './declarations.ts';
export type { PromptDecl, PromptArgument, ResourceDecl } from './declarations.ts';
export { mcp, exclude, toolName } from './mcp-marks.ts';
export { EXCLUDE_ANNOTATION, TOOL_NAME_ANNOTATION, TOOL_NAME_RE, RESERVED as RESERVED_COMMANDS, mcpDocument, toolRefs, toolDef } from './walk.ts';
export type { ToolDef, ToolRef } from './walk.ts';
export { axDocument, AX_SCHEMA_VERSION } from './schema.ts';
export { schemaDocument, SCHEMA_SHAPES } from './schema-command.ts';
export { inputSchema, outputSchema, toolDescription, MAX_DESCRIPTION } from './input-schema.ts';
export type { JsonSchema } from './input-schema.ts';
export { renderDefault, renderTable, visible } from './render.ts';
export { schemaDiff, formatDiff, diffSummary, schemaShape } from './schema-diff.ts';
export type { Change, SchemaDiff, Severity } from './schema-diff.ts';
export { completionCommands, complete, ShellCompDirective } from './completion.ts';
export { completionScript, SHELLS } from './completion-scripts.ts';
export { skillMarkdown, agentsMarkdown, skillName, SKILL_LIMITS } from './skill.ts';
