/**
 * The `__schema --as=ax` document: the whole tree as data, with the contract around it.
 * Reads declarations only (no handler, no config, no network), deterministic to the byte.
 * Field by field: docs/schema.md; published JSON Schema: ax-document-schema.ts. Source: ax-go schema/schema.go.
 */
import type { Command } from '../tree/command.ts';
import { ERROR_SCHEMA_VERSION } from '../contract/envelope.ts';
import { ERROR_LINE_SCHEMA, keyOutline, SUCCESS_LINE_SCHEMA } from '../contract/line-schemas.ts';
import { MODE_DETECTION } from '../contract/mode.ts';
import { BUILTIN_ERRORS, errorCatalogue, ExitCode, type ErrorKindSpec } from '../contract/errors.ts';
import { replays } from '../tree/flagset.ts';
import { NO_MAX_LIMIT, pagingSettings } from '../tree/paging.ts';
import { FlagEntries } from './ax-flags.ts';
import { outputWrapping } from './tool.ts';
import { declarations, isReserved, toolRefs, toolStatus, promptListEntry, resourceListEntry } from './walk.ts';
import { BUILTIN_ANNOTATION, OWN_ANNOTATIONS } from '../tree/marks.ts';
import { ERROR_NON_DETERMINISTIC, nonDeterministicFields } from './nondeterministic.ts';
import { SharedSchemas } from './shared-schemas.ts';

/** Version of the ax document's shape. */
export const AX_SCHEMA_VERSION = '1.0.0';

type Json = Record<string, unknown>;

/** What one walk of the ax document shares between commands. */
interface AxWalk {
  flags: FlagEntries;
  /** Output schemas written so far (a repeated one is a `$ref` to its first copy). */
  schemas: SharedSchemas;
}

/**
 * The `mcp` of an entry, only where the tree does not say it: a command that is no tool for a
 * reason other than being a group.
 */
function mcpStatus(cmd: Command): Json | undefined {
  const status = toolStatus(cmd);
  return status === 'tool' || status === 'group' ? undefined : { tool: null, reason: status };
}

/** How `structuredContent` wraps a payload that is not an object, in words. */
const WRAPPED = {
  result: 'wrapped as {"result": <payload>}',
  items: 'stream items wrapped as {"items": [...]}',
  page: 'the page as {"items": [...], "pagination": <meta.pagination>}',
} as const;

/**
 * How paging works, said once at the document's root when a command pages (each paged command's
 * `output.paging` gives its own limits).
 */
export const PAGING_NOTE =
  'a command with output.paging takes --limit <n> (MCP limit; default output.paging.default_limit, ' +
  'at most max_limit) and --cursor <c> (MCP cursor); data is one page, meta.pagination ' +
  '{total?, returned, truncated, has_more, next_cursor} says where it is, and meta.next[0] is the call ' +
  'that fetches the next page (--cursor <next_cursor>)';

/** Whether a command of the tree pages its answer. */
function pages(cmd: Command): boolean {
  return !!cmd.output?.paging || cmd.commands().some(pages);
}

function outputEntry(cmd: Command, walk: AxWalk, pointer: string): Json | undefined {
  if (!cmd.output) return undefined;
  const o: Json = {};
  if (cmd.output.kind && cmd.output.kind !== 'data') o.kind = cmd.output.kind;
  if (cmd.output.cardinality) o.cardinality = cmd.output.cardinality;
  if (cmd.output.schema) o.schema = walk.schemas.share(cmd.output.schema, `${pointer}/output/schema`);
  const wrapping = outputWrapping(cmd);
  if (wrapping && wrapping !== 'object') o.mcp_structured_content = WRAPPED[wrapping];
  if (cmd.output.pagination) o.pagination = cmd.output.pagination;
  if (cmd.output.fieldsFlag) o.fields_flag = cmd.output.fieldsFlag;
  const paging = pagingSettings(cmd.output);
  if (paging)
    o.paging = {
      default_limit: paging.defaultLimit,
      ...(paging.maxLimit !== NO_MAX_LIMIT ? { max_limit: paging.maxLimit } : {}),
    };
  if (cmd.output.mediaType) o.media_type = cmd.output.mediaType;
  return Object.keys(o).length ? o : undefined;
}

function argEntries(cmd: Command): Json[] {
  return cmd.args.map((a) => {
    const x: Json = { name: a.name };
    if (a.type && a.type !== 'string') x.type = a.type;
    if (a.description) x.description = a.description;
    if (a.required === false) x.required = false;
    if (a.variadic === true) x.variadic = true;
    if (a.choices) x.choices = [...a.choices];
    if (a.examples) x.examples = [...a.examples];
    return x;
  });
}

/** The entry of `cmd`, written at JSON Pointer `pointer` of the document. */
function commandEntry(cmd: Command, walk: AxWalk, pointer: string): Json {
  const e: Json = { name: cmd.name, use: cmd.use };
  if (cmd.short) e.short = cmd.short;
  if (cmd.long) e.long = cmd.long;
  if (cmd.example) e.example = cmd.example;
  if (cmd.aliases.length) e.aliases = [...cmd.aliases];
  if (cmd.deprecated) e.deprecated = cmd.deprecated;
  if (!cmd.runnable()) e.runnable = false;
  const mcp = mcpStatus(cmd);
  if (mcp) e.mcp = mcp;
  if (cmd.effects) e.effects = cmd.effects;
  if (cmd.capabilities) e.capabilities = [...cmd.capabilities];
  const output = outputEntry(cmd, walk, pointer);
  if (output) e.output = output;
  e.non_deterministic_fields = nonDeterministicFields(cmd);
  if (!cmd.dryRun) e.dry_run = false;
  if (replays(cmd)) e.replays = true;
  if (cmd.confirmationFlag) e.confirmation_flag = cmd.confirmationFlag;
  const flags = walk.flags.of(cmd);
  if (flags.length) e.flags = flags;
  if (cmd.args.length) e.args = argEntries(cmd);
  const groups: Json = {};
  if (cmd.mutuallyExclusive.length) groups.mutually_exclusive = cmd.mutuallyExclusive;
  if (cmd.requiredTogether.length) groups.required_together = cmd.requiredTogether;
  if (cmd.oneRequired.length) groups.one_required = cmd.oneRequired;
  if (cmd.mutuallyExclusive.length || cmd.requiredTogether.length || cmd.oneRequired.length) e.flag_groups = groups;
  const ann = authorAnnotations(cmd.annotations);
  if (ann) e.annotations = ann;
  // under a hidden root the children's declarations are dropped with them, as the server drops them
  const declared = !(cmd.parent && toolStatus(cmd) === 'hidden');
  if (declared && cmd.prompts.length)
    e.prompts = cmd.prompts.map((p) => ({ ...promptListEntry(p), template: p.template }));
  if (declared && cmd.resources.length) e.resources = cmd.resources.map(resourceListEntry);
  const commands: Json[] = [];
  for (const c of cmd.commands())
    if (!c.hidden && !(isReserved(c) && c.annotations[BUILTIN_ANNOTATION] === 'true'))
      commands.push(commandEntry(c, walk, `${pointer}/commands/${commands.length}`));
  if (commands.length) e.commands = commands;
  return e;
}

/** The author's annotations sorted by key (ax-ts's own marks left out), or undefined when none. */
function authorAnnotations(annotations: Record<string, string>): Json | undefined {
  let keys: string[] | undefined;
  for (const k in annotations) if (Object.hasOwn(annotations, k) && !OWN_ANNOTATIONS.has(k)) (keys ??= []).push(k);
  if (!keys) return undefined;
  keys.sort((a, b) => (a < b ? -1 : 1));
  const out: Json = {};
  for (const k of keys) out[k] = annotations[k];
  return out;
}

/** An object schema's properties and which are required. */
interface ObjectSchema {
  readonly required?: readonly string[];
  readonly properties: Readonly<Record<string, unknown>>;
}

/**
 * ax-go's `required` and `optional` of the error envelope, as locators of ax-ts's error line
 * (`error.kind`, `meta.trace_id`): each key of its `error` and `meta` objects, rendered from
 * {@link ERROR_LINE_SCHEMA} so that the lists cannot drift from the line.
 */
function errorLineKeys(): { required: string[]; optional: string[] } {
  const required: string[] = [];
  const optional: string[] = [];
  for (const part of ['error', 'meta'] as const) {
    const o: ObjectSchema = ERROR_LINE_SCHEMA.properties[part];
    for (const k of Object.keys(o.properties)) (o.required?.includes(k) ? required : optional).push(`${part}.${k}`);
  }
  return { required, optional };
}

const ERROR_LINE_KEYS = errorLineKeys();

/**
 * What the ax document says of the success line (`success_envelope.format`), its meta keys rendered
 * from {@link SUCCESS_LINE_SCHEMA}.
 */
const SUCCESS_FORMAT =
  `json mode: one line ` +
  `{"data":<payload>,"meta":{${keyOutline(SUCCESS_LINE_SCHEMA.properties.meta, ['trace_id', 'span_id', 'idempotency_key', 'schema_version', 'ok', 'exit_code', 'duration_ms', 'dry_run', 'warnings', 'would', 'provenance', 'replayed'])}}}; a stream (output.kind "stream") writes one such line per item (NDJSON)`;

/**
 * Every code a run can end with, code → name: the fixed table ({@link ExitCode}: 0–4, 130, 141
 * `stdout_closed`, 143 `terminated`)
 * and each catalogue kind's code, an author's code named by its kinds (`"5": "not_found"`).
 */
function exitCodeTable(): Record<string, string> {
  const names = new Map<number, string>(
    Object.entries(ExitCode).map(([k, v]) => [v as number, k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]),
  );
  const byCode = new Map<number, string[]>();
  for (const e of errorCatalogue())
    if (!names.has(e.exitCode)) byCode.set(e.exitCode, [...(byCode.get(e.exitCode) ?? []), e.kind]);
  for (const [code, kinds] of byCode) names.set(code, kinds.join(', '));
  return Object.fromEntries([...names].sort((a, b) => a[0] - b[0]).map(([c, n]) => [String(c), n]));
}

/**
 * One kind of the error catalogue (`errors[]`): its `kind` and `exit_code`, `retryable` when true,
 * and the `description` of an author's kind (ax-ts's own kinds are the same in every program:
 * docs/contract.md#the-error-catalogue-and-defineerror describes each once).
 */
function catalogueEntry(e: ErrorKindSpec): Json {
  const out: Json = { kind: e.kind, exit_code: e.exitCode };
  if (e.retryable === true) out.retryable = true;
  if (!BUILTIN_KINDS.has(e.kind)) out.description = e.description;
  return out;
}

const BUILTIN_KINDS = new Set(BUILTIN_ERRORS.map((e) => e.kind));

/**
 * Where an agent finds more (`discovery` of the ax document and its summary): one command, one
 * field, the full document, where a flag's value came from, the AGENTS.md (docs/schema.md).
 */
export function discoveryPointers(program: string): Json {
  return {
    command: `${program} __schema <command…>`,
    field: `${program} __schema <command…> --field <a.b>`,
    full: `${program} __schema --full`,
    explain: `${program} <command…> --explain <flag>`,
    agents_md: `${program} __schema --as=agents`,
  };
}

/**
 * The ax document of one command and its subtree (`__schema <command…>`): the header, the
 * command's `path` and its entry, as the whole document has it.
 * @throws AxError as {@link axDocument} (the whole tree is checked).
 */
export function axSubtreeDocument(root: Command, target: Command, version: string): Json {
  toolRefs(root); // the same checks as the MCP server's start
  declarations(root);
  return {
    schema_version: AX_SCHEMA_VERSION,
    tool: root.name,
    version,
    path: target.commandPath(),
    command: commandEntry(target, { flags: new FlagEntries(target), schemas: new SharedSchemas() }, '/command'),
  };
}

/**
 * The ax document of a tree.
 * @throws AxError `validation_error` (exit 2) on a tool-name collision, an invalid tool name or a
 *   duplicate prompt/resource declaration (the same checks the MCP server makes at start).
 */
export function axDocument(root: Command, version: string): Json {
  toolRefs(root); // the same checks as the MCP server's start
  declarations(root);
  return {
    schema_version: AX_SCHEMA_VERSION,
    tool: root.name,
    version,
    mode_detection: MODE_DETECTION,
    success_envelope: {
      stream: 'stdout',
      format: SUCCESS_FORMAT,
    },
    error_envelope: {
      stream: 'stderr',
      format: 'json mode: exactly one JSON line, the last line of stderr; stdout carries nothing more',
      schema_version: ERROR_SCHEMA_VERSION,
      required: ERROR_LINE_KEYS.required,
      optional: ERROR_LINE_KEYS.optional,
      non_deterministic_fields: ERROR_NON_DETERMINISTIC,
      exit_codes: exitCodeTable(),
    },
    ...(pages(root) ? { paging: PAGING_NOTE } : {}),
    errors: errorCatalogue().map(catalogueEntry),
    command: commandEntry(root, { flags: new FlagEntries(root), schemas: new SharedSchemas() }, '/command'),
  };
}
