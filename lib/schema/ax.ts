/**
 * The `__schema --as=ax` document: the whole tree as data, with the contract around it.
 * Reads declarations only (no handler, no config, no network), deterministic to the byte.
 * Field by field: docs/schema.md; published JSON Schema: ax-document-schema.ts. Source: ax-go schema/schema.go.
 */
import type { Command } from '../tree/command.ts';
import { ERROR_SCHEMA_VERSION } from '../contract/envelope.ts';
import { ERROR_LINE_SCHEMA, keyOutline, SUCCESS_LINE_SCHEMA } from '../contract/line-schemas.ts';
import { MODE_DETECTION } from '../contract/mode.ts';
import { errorCatalogue, ExitCode } from '../contract/errors.ts';
import type { Flag } from '../tree/flags.ts';
import { propertyName } from '../tree/flags.ts';
import { visibleFlags } from '../tree/flagset.ts';
import { outputWrapping } from './tool.ts';
import {
  declarations,
  defaultToolName,
  isReserved,
  toolRefs,
  toolStatus,
  promptListEntry,
  resourceListEntry,
} from './walk.ts';
import { BUILTIN_ANNOTATION } from '../tree/marks.ts';
import { nonDeterministicFields } from './nondeterministic.ts';

/** Version of the ax document's shape. */
export const AX_SCHEMA_VERSION = '1.0.0';

type Json = Record<string, unknown>;

function flagEntry(f: Flag, inherited: boolean): Json {
  const e: Json = { name: f.name, cli: `--${f.name}` };
  // a flag kept out of MCP (`mcp: false`) has no property: no tool or --args-json accepts it
  if (f.spec.mcp !== false) e.property = propertyName(f.name);
  e.type = f.spec.type;
  if (f.spec.short) e.shorthand = f.spec.short;
  if (f.spec.default !== undefined) e.default = f.spec.default;
  e.usage = f.spec.usage ?? '';
  e.required = f.spec.required === true;
  if (f.spec.choices) e.choices = [...f.spec.choices];
  if (f.spec.examples) e.examples = [...f.spec.examples];
  e.persistent = f.persistent;
  if (f.spec.negatable) e.negatable = true;
  if (f.spec.deprecated) e.deprecated = f.spec.deprecated;
  if (f.spec.shorthandDeprecated !== undefined) e.shorthand_deprecated = f.spec.shorthandDeprecated;
  if (f.spec.mcp === false) e.mcp = false;
  if (f.spec.schema) e.schema = f.spec.schema;
  if (f.spec.env !== undefined) e.env = f.spec.env;
  if (f.spec.config !== undefined) e.config_key = f.spec.config;
  if (f.builtin) e.builtin = true;
  if (f.traversedFrom !== undefined) e.traversed_from = f.traversedFrom;
  if (inherited) e.inherited = true;
  return e;
}

/**
 * Flag entries of one document, memoized: every command repeats its inherited flags (the injected
 * ones, the root's persistent ones), which are the same Flag data each time (docs/performance.md). The entries
 * are shared within the document only (each axDocument call has its own memo). Keyed by the spec,
 * then the name, then the three marks as an index (no key string built per flag).
 */
type FlagMemo = WeakMap<Flag['spec'], Map<string, (Json | undefined)[]>>;

function memoFlagEntry(memo: FlagMemo, f: Flag, inherited: boolean): Json {
  let bySpec = memo.get(f.spec);
  if (!bySpec) memo.set(f.spec, (bySpec = new Map()));
  // a traversed flag (an ancestor's local one, TraverseChildren) also depends on where it comes from
  const name = f.traversedFrom === undefined ? f.name : `${f.name}\0${f.traversedFrom}`;
  let byMarks = bySpec.get(name);
  if (!byMarks) bySpec.set(name, (byMarks = []));
  const i = (f.persistent ? 1 : 0) | (f.builtin ? 2 : 0) | (inherited ? 4 : 0);
  return (byMarks[i] ??= flagEntry(f, inherited));
}

/** What one walk of the ax document shares between commands. */
interface AxWalk {
  toolNames: Map<Command, string>;
  memo: FlagMemo;
}

function commandEntry(cmd: Command, walk: AxWalk, path: string): Json {
  const e: Json = { name: cmd.name, path, use: cmd.use, short: cmd.short, long: cmd.long, example: cmd.example };
  if (cmd.aliases.length) e.aliases = [...cmd.aliases];
  if (cmd.deprecated) e.deprecated = cmd.deprecated;
  const runnable = cmd.runnable();
  e.runnable = runnable;
  const status = toolStatus(cmd);
  e.mcp =
    status === 'tool' ? { tool: walk.toolNames.get(cmd) ?? defaultToolName(cmd) } : { tool: null, reason: status };
  if (cmd.effects) e.effects = cmd.effects;
  if (cmd.capabilities) e.capabilities = [...cmd.capabilities];
  if (cmd.output) {
    const o: Json = { kind: cmd.output.kind ?? 'data' };
    if (cmd.output.cardinality) o.cardinality = cmd.output.cardinality;
    if (cmd.output.schema) o.schema = cmd.output.schema;
    const wrapping = outputWrapping(cmd);
    if (wrapping && wrapping !== 'object')
      o.mcp_structured_content =
        wrapping === 'result' ? 'wrapped as {"result": <payload>}' : 'stream items wrapped as {"items": [...]}';
    if (cmd.output.pagination) o.pagination = cmd.output.pagination;
    if (cmd.output.fieldsFlag) o.fields_flag = cmd.output.fieldsFlag;
    if (cmd.output.mediaType) o.media_type = cmd.output.mediaType;
    e.output = o;
  }
  if (runnable) e.non_deterministic_fields = nonDeterministicFields(cmd);
  if (cmd.confirmationFlag) e.confirmation_flag = cmd.confirmationFlag;
  const { local, inherited, traversed } = visibleFlags(cmd);
  const flags: Json[] = [];
  for (const f of local) flags.push(memoFlagEntry(walk.memo, f, false));
  for (const f of inherited) flags.push(memoFlagEntry(walk.memo, f, true));
  for (const f of traversed) flags.push(memoFlagEntry(walk.memo, f, true));
  e.flags = flags;
  e.args = cmd.args.map((a, i) => {
    const x: Json = {
      name: a.name,
      property: propertyName(a.name),
      position: i + 1,
      type: a.type ?? 'string',
      description: a.description ?? '',
      required: a.required !== false,
      variadic: a.variadic === true,
    };
    if (a.choices) x.choices = [...a.choices];
    if (a.examples) x.examples = [...a.examples];
    return x;
  });
  const groups: Json = {};
  if (cmd.mutuallyExclusive.length) groups.mutually_exclusive = cmd.mutuallyExclusive;
  if (cmd.requiredTogether.length) groups.required_together = cmd.requiredTogether;
  if (cmd.oneRequired.length) groups.one_required = cmd.oneRequired;
  if (cmd.mutuallyExclusive.length || cmd.requiredTogether.length || cmd.oneRequired.length) e.flag_groups = groups;
  const ann = authorAnnotations(cmd.annotations);
  if (ann) e.annotations = ann;
  // under a hidden root the children's declarations are dropped with them, as the server drops them
  const declared = !(cmd.parent && status === 'hidden');
  if (declared && cmd.prompts.length)
    e.prompts = cmd.prompts.map((p) => ({ ...promptListEntry(p), template: p.template }));
  if (declared && cmd.resources.length) e.resources = cmd.resources.map(resourceListEntry);
  const commands: Json[] = [];
  for (const c of cmd.commands())
    if (!c.hidden && !(isReserved(c) && c.annotations[BUILTIN_ANNOTATION] === 'true'))
      commands.push(commandEntry(c, walk, `${path} ${c.name}`));
  e.commands = commands;
  return e;
}

/** The author's annotations sorted by key (ax-ts's own builtin mark left out), or undefined when none. */
function authorAnnotations(annotations: Record<string, string>): Json | undefined {
  let keys: string[] | undefined;
  for (const k in annotations) if (Object.hasOwn(annotations, k) && k !== BUILTIN_ANNOTATION) (keys ??= []).push(k);
  if (!keys) return undefined;
  keys.sort((a, b) => (a < b ? -1 : 1));
  const out: Json = {};
  for (const k of keys) out[k] = annotations[k];
  return out;
}

/** The keywords the ax document's summaries of a schema keep: what a value must be, without annotations or closing. */
const SUMMARY_KEYWORDS = new Set(['type', 'required', 'properties', 'items', 'pattern', 'minimum', 'maximum', 'const']);

/**
 * A summary of a JSON Schema: only {@link SUMMARY_KEYWORDS}, and without the keywords or properties
 * at the JSON Pointers in `omit`. It accepts every value the schema accepts.
 */
function schemaSummary(schema: Readonly<Json>, omit: readonly string[], at = ''): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (!SUMMARY_KEYWORDS.has(k) || omit.includes(`${at}/${k}`)) continue;
    if (k === 'properties')
      out[k] = Object.fromEntries(
        Object.entries(v as Json)
          .filter(([p]) => !omit.includes(`${at}/properties/${p}`))
          .map(([p, s]) => [p, schemaSummary(s as Json, omit, `${at}/properties/${p}`)]),
      );
    else if (k === 'items') out[k] = schemaSummary(v as Json, omit, `${at}/items`);
    else out[k] = Array.isArray(v) ? [...(v as unknown[])] : v;
  }
  return out;
}

/**
 * The JSON Schema of the error line the ax document publishes as `error_envelope.schema`: a summary
 * of the full one (ERROR_LINE_SCHEMA, published by `ax-ts/schema`) as the ax document's schema
 * version 1.0.0 first gave it — without the trace id's pattern and without `meta.replayed`.
 */
const ERROR_LINE_SUMMARY = schemaSummary(ERROR_LINE_SCHEMA, [
  '/properties/meta/properties/trace_id/pattern',
  '/properties/meta/properties/replayed',
]);

/**
 * What the ax document says of the success line (`success_envelope.format`), its meta keys rendered
 * from {@link SUCCESS_LINE_SCHEMA}.
 */
const SUCCESS_FORMAT = `json mode: one line {"data":<payload>,"meta":{${keyOutline(SUCCESS_LINE_SCHEMA.properties.meta, ['trace_id', 'span_id', 'idempotency_key', 'dry_run', 'warnings', 'would', 'provenance', 'replayed'])}}}; a stream (output.kind "stream") writes one such line per item (NDJSON)`;

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
  const toolNames = new Map(toolRefs(root).map((r) => [r.command, r.name]));
  declarations(root);
  return {
    schema_version: AX_SCHEMA_VERSION,
    tool: root.name,
    version,
    path: target.commandPath(),
    command: commandEntry(target, { toolNames, memo: new WeakMap() }, target.commandPath()),
  };
}

/**
 * The ax document of a tree.
 * @throws AxError `validation_error` (exit 2) on a tool-name collision, an invalid tool name or a
 *   duplicate prompt/resource declaration (the same checks the MCP server makes at start).
 */
export function axDocument(root: Command, version: string): Json {
  const toolNames = new Map(toolRefs(root).map((r) => [r.command, r.name]));
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
      schema: ERROR_LINE_SUMMARY,
      exit_codes: exitCodeTable(),
      // ax-go's known_codes: every error kind a run of this program can end with (the catalogue's)
      known_codes: errorCatalogue().map((e) => e.kind),
    },
    errors: errorCatalogue().map((e) => ({
      kind: e.kind,
      exit_code: e.exitCode,
      retryable: e.retryable === true,
      description: e.description,
    })),
    discovery: discoveryPointers(root.name),
    command: commandEntry(root, { toolNames, memo: new WeakMap() }, root.commandPath()),
  };
}
