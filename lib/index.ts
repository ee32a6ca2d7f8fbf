/**
 * ax-ts: make any command-line program agent-ready from one declaration.
 * Public entry point: the command tree, the Args validators, execution and the contract helpers.
 */
export { Command } from './tree/command.ts';
export type {
  CommandConfig,
  CommandLoader,
  Effects,
  OutputDecl,
  RunFn,
  RenderFn,
  RunHook,
  RunHooks,
  CommandGroup,
} from './tree/command.ts';
export { loadTree, loadCommand } from './tree/lazy.ts';
export type { FlagSpec, FlagType, FlagValueOf, Completer, CompletionContext, CompletionReply } from './tree/flags.ts';
export { FLAG_TYPES } from './tree/flags.ts';
export { parseDuration } from './tree/flag-text.ts';
export type { ArgSpec, ArgsValidator, ArgsTarget } from './tree/args.ts';
export {
  ArbitraryArgs,
  NoArgs,
  ExactArgs,
  MinimumNArgs,
  MaximumNArgs,
  RangeArgs,
  OnlyValidArgs,
  NoDuplicateArgs,
  ExactValidArgs,
  MatchAll,
  DeclaredArgs,
} from './tree/args.ts';
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
export {
  DEFAULT_IDEMPOTENCY_TTL_MS,
  DEFAULT_IDEMPOTENCY_WAIT_MS,
  CLAIM_LEASE_MS,
  IDEMPOTENCY_STORE_ENV,
  scopeId,
} from './replay/idempotency.ts';
export type { IdempotencyStore, ReplayScope, ReplayRecord, ClaimResult, ClaimOptions } from './replay/idempotency.ts';
export { fileIdempotencyStore, defaultIdempotencyDir } from './replay/file-store.ts';
export { redisIdempotencyStore, REDIS_KEY_PREFIX } from './replay/redis-store.ts';
export type { RedisIdempotencyStore, RedisIdempotencyStoreOptions } from './replay/redis-store.ts';
export { detectMode, MODE_DETECTION } from './contract/mode.ts';
export { newIdempotencyKey, newTraceId } from './contract/ids.ts';
export { ERROR_SCHEMA_VERSION } from './contract/envelope.ts';
export { resolveVersion, isPlaceholderVersion, PLACEHOLDER_VERSIONS } from './platform/version.ts';
export { helpText, defaultHelpText, usageText } from './help/help.ts';
export { declarePrompt, declareResource } from './tree/declare.ts';
export { DECLARATION_LIMITS } from './tree/declarations.ts';
export type { PromptDecl, PromptArgument, ResourceDecl } from './tree/declarations.ts';
export { mcp, exclude, toolName } from './tree/marks.ts';
export {
  EXCLUDE_ANNOTATION,
  AXGO_EXCLUDE_ANNOTATION,
  TOOL_NAME_ANNOTATION,
  type ExcludeOptions,
} from './tree/marks.ts';
export { TOOL_NAME_RE, RESERVED as RESERVED_COMMANDS, mcpDocument, toolRefs, toolDef } from './schema/walk.ts';
export type { ToolDef, ToolRef } from './schema/walk.ts';
export { axDocument, AX_SCHEMA_VERSION } from './schema/ax.ts';
export { schemaDocument, SCHEMA_SHAPES } from './schema/shapes.ts';
export { inputSchema, MAX_DESCRIPTION } from './parse/input-schema.ts';
export { outputSchema, toolDescription } from './schema/tool.ts';
export type { JsonSchema } from './parse/input-schema.ts';
export { renderDefault, renderTable, visible } from './run/render.ts';
export { schemaDiff, formatDiff, diffSummary, schemaShape } from './schema/diff/diff.ts';
export type { Change, SchemaDiff, Severity } from './schema/diff/diff.ts';
export { complete, fixedCompletions, ShellCompDirective } from './completion/completion.ts';
export { completionCommands } from './completion/commands.ts';
export { completionScript, SHELLS } from './completion/scripts.ts';
export { skillMarkdown, agentsMarkdown, skillName, SKILL_LIMITS } from './schema/skill.ts';
export { readConfig, patchConfig, DEFAULT_CONFIG_MAX_BYTES } from './config/config.ts';
export type { ConfigOptions } from './config/config.ts';
export { applyJsoncPatch } from './config/config-patch.ts';
export type { PatchOperation } from './config/config-patch.ts';
export type { Logger, LogFn, LogLevel, LoggingDecl } from './tree/logging.ts';
export { LOG_LEVELS } from './tree/logging.ts';
export { parseTraceparent, formatTraceparent } from './contract/trace-context.ts';
export type { TraceParent } from './contract/trace-context.ts';
export { nonDeterministicFields } from './schema/nondeterministic.ts';
export { findCommand } from './parse/parse.ts';
export { ENVELOPE_NON_DETERMINISTIC } from './schema/nondeterministic.ts';
