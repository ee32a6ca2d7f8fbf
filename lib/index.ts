/**
 * ax-ts: make any command-line program agent-ready from one declaration.
 * Public entry point: the command tree, the Args validators, execution and the contract helpers.
 */
export { Command } from './tree/command.ts';
export type { CommandConfig, Effects, OutputDecl, RunFn, RenderFn } from './tree/command.ts';
export type { FlagSpec, FlagType, FlagValueOf, Completer } from './tree/flags.ts';
export { parseDuration } from './tree/flags.ts';
export type { ArgSpec, ArgsValidator, ArgsTarget } from './tree/args.ts';
export { ArbitraryArgs, NoArgs, ExactArgs, MinimumNArgs, MaximumNArgs, RangeArgs, OnlyValidArgs, MatchAll, DeclaredArgs } from './tree/args.ts';
export type { RunContext } from './tree/command.ts';
export type { OutputStream } from './contract/envelope.ts';
export type { Mode } from './contract/mode.ts';
export type { FlagValues, ArgValues, FlagDecls } from './tree/values.ts';
export { AxError, defineError, errorCatalogue, ExitCode, BUILTIN_ERRORS } from './contract/errors.ts';
export type { AxErrorOptions, ErrorKindSpec } from './contract/errors.ts';
export { execute } from './run/execute.ts';
export { main, EXIT_STDOUT_CLOSED, EXIT_TERMINATED } from './run/main.ts';
export type { MainOptions } from './run/main.ts';
export type { ExecuteOptions } from './run/options.ts';
export { detectMode, MODE_DETECTION } from './contract/mode.ts';
export { newIdempotencyKey, newTraceId } from './contract/ids.ts';
export { ERROR_SCHEMA_VERSION } from './contract/envelope.ts';
export { resolveVersion, isPlaceholderVersion, PLACEHOLDER_VERSIONS } from './run/version.ts';
export { helpText } from './help/help.ts';
export { declarePrompt, declareResource } from './tree/declare.ts';
export { DECLARATION_LIMITS } from './tree/declarations.ts';
export type { PromptDecl, PromptArgument, ResourceDecl } from './tree/declarations.ts';
export { mcp, exclude, toolName } from './tree/marks.ts';
export { EXCLUDE_ANNOTATION, AXGO_EXCLUDE_ANNOTATION, TOOL_NAME_ANNOTATION, type ExcludeOptions } from './tree/marks.ts';
export { TOOL_NAME_RE, RESERVED as RESERVED_COMMANDS, mcpDocument, toolRefs, toolDef } from './schema/walk.ts';
export type { ToolDef, ToolRef } from './schema/walk.ts';
export { axDocument, AX_SCHEMA_VERSION } from './schema/ax.ts';
export { schemaDocument, SCHEMA_SHAPES } from './schema/commands.ts';
export { inputSchema, MAX_DESCRIPTION } from './parse/input-schema.ts';
export { outputSchema, toolDescription } from './schema/tool.ts';
export type { JsonSchema } from './parse/input-schema.ts';
export { renderDefault, renderTable, visible } from './run/render.ts';
export { schemaDiff, formatDiff, diffSummary, schemaShape } from './schema/diff/diff.ts';
export type { Change, SchemaDiff, Severity } from './schema/diff/diff.ts';
export { complete, ShellCompDirective } from './completion/completion.ts';
export { completionCommands } from './completion/commands.ts';
export { completionScript, SHELLS } from './completion/scripts.ts';
export { skillMarkdown, agentsMarkdown, skillName, SKILL_LIMITS } from './schema/skill.ts';
