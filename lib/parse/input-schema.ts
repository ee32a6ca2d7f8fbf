/**
 * The inputs of one command as JSON Schema: the inputSchema that `--args-json` and MCP `tools/call`
 * arguments are validated against, one property per positional and flag. A portable JSON Schema
 * subset (B11) that the OpenAI strict, Anthropic strict and Gemini converters keep usable (none of
 * them rejects it or closes an object an agent must fill): root `type: object` with `properties`
 * always present, `additionalProperties: false`, string-only enums, typed `items` on every array,
 * no `$schema`, no `format`, no top-level combinators, no `type` arrays. An optional property is
 * `{"anyOf": [<its schema>, {"type": "null"}], "description", "default"?}` — `null` means "not
 * given" (B08), which is how strict converters spell optional. Descriptions use the MCP vocabulary
 * (property names, not `--flags`) and list the choices of an enum. Source: SPEC §5–6; cases B04,
 * B06, B07, B08, B09, B11, B13; issue 12 (items 7, 8).
 */
import type { Command } from '../tree/command.ts';
import type { FlagSpec } from '../tree/flags.ts';
import { mapEntries, mapEntriesSchema } from '../tree/flag-values.ts';
import { mcpVocabulary, toolProperties } from '../tree/properties.ts';

/** A JSON Schema object (2020-12). */
export type JsonSchema = Record<string, unknown>;

/** Most characters a tool description may have (Claude Code cuts longer ones silently). */
export const MAX_DESCRIPTION = 2048;

function durationText(ms: number): string {
  return `${ms}ms`;
}

/**
 * The JSON Schema of one flag's value, without annotations (description, default). A `json` flag is
 * its declared `schema`, or without one a string holding JSON text of an object.
 */
export function flagValueSchema(spec: FlagSpec): JsonSchema {
  switch (spec.type) {
    case 'bool':
      return { type: 'boolean' };
    case 'int':
    case 'count':
      return { type: 'integer' };
    case 'uint':
      return { type: 'integer', minimum: 0 };
    case 'float':
      return { type: 'number' };
    case 'stringSlice':
    case 'stringArray':
      return { type: 'array', items: spec.choices ? { type: 'string', enum: [...spec.choices] } : { type: 'string' } };
    case 'intSlice':
      return { type: 'array', items: { type: 'integer' } };
    case 'floatSlice':
      return { type: 'array', items: { type: 'number' } };
    case 'boolSlice':
      return { type: 'array', items: { type: 'boolean' } };
    case 'durationSlice':
      return { type: 'array', items: { type: 'string' } };
    case 'stringToString':
    case 'stringToInt':
      return mapEntriesSchema(spec.type) as JsonSchema;
    case 'json': {
      if (!spec.schema) return { type: 'string' };
      const { $schema: _drop, ...declared } = structuredClone(spec.schema);
      return declared;
    }
    default:
      return spec.choices ? { type: 'string', enum: [...spec.choices] } : { type: 'string' };
  }
}

/**
 * One property: the value schema with its description (and default), made nullable when optional.
 * A required property is the value schema itself; an optional one wraps it as
 * `anyOf: [value, {type: null}]` with the annotations beside it.
 */
export function propertySchema(value: JsonSchema, description: string, required: boolean, def?: unknown): JsonSchema {
  if (required) {
    const s: JsonSchema = { ...value, description };
    if (def !== undefined) s.default = def;
    return s;
  }
  const s: JsonSchema = { anyOf: [value, { type: 'null' }], description };
  if (def !== undefined) s.default = def;
  return s;
}

/** The typed default of a flag as the schema shows it (durations as `<ms>ms`). */
function flagDefault(spec: FlagSpec): unknown {
  if (spec.default === undefined) return undefined;
  // a json flag without a schema is JSON text over MCP, so is its default
  if (spec.type === 'json' && !spec.schema) return JSON.stringify(spec.default);
  if (spec.type === 'duration' && typeof spec.default === 'number') return durationText(spec.default);
  if (
    (spec.type === 'stringToString' || spec.type === 'stringToInt') &&
    typeof spec.default === 'object' &&
    spec.default !== null
  )
    return mapEntries(spec.default as Record<string, unknown>);
  if (spec.type === 'durationSlice' && Array.isArray(spec.default))
    return spec.default.map((d) => (typeof d === 'number' ? durationText(d) : d));
  // a copy, so that no document shares (and no reader can change) the declaration's own value
  return typeof spec.default === 'object' && spec.default !== null ? structuredClone(spec.default) : spec.default;
}

/** A property description: the text cut so that, with its notes, it stays within {@link MAX_DESCRIPTION}. */
function withNotes(text: string, notes: string): string {
  return cut(text, Math.max(MAX_DESCRIPTION - notes.length, 64)) + notes;
}

/** `(one of: a, b, c)`: several clients drop `enum` when converting, so the choices are written out too. */
function choicesNote(choices: readonly string[] | undefined, items: boolean): string {
  if (!choices?.length) return '';
  return ` (${items ? 'each item one of' : 'one of'}: ${choices.join(', ')})`;
}

function flagDescription(cmd: Command, name: string, spec: FlagSpec, traversedFrom?: string): string {
  let notes = '';
  // Cobra's TraverseChildren: an ancestor's local flag this command reads
  if (traversedFrom !== undefined) notes += ` (a flag of ${JSON.stringify(traversedFrom)}, read by this command too)`;
  if (spec.type === 'duration') notes += ' (a duration such as 300ms, 1m30s or 2h)';
  if (spec.type === 'durationSlice') notes += ' (each item a duration such as 300ms, 1m30s or 2h)';
  if (spec.type === 'stringToString' || spec.type === 'stringToInt')
    notes += ' (key/value pairs, one {"key", "value"} item each; a later item with the same key wins)';
  if (spec.type === 'json' && !spec.schema)
    notes += ' (a JSON object written as JSON text, e.g. "{\\"key\\": \\"value\\"}")';
  if (['stringSlice', 'stringArray', 'intSlice', 'floatSlice', 'boolSlice', 'durationSlice'].includes(spec.type))
    notes += ' (an array; each item is passed as is, commas are not split)';
  notes += choicesNote(spec.choices, spec.type === 'stringSlice' || spec.type === 'stringArray');
  if (spec.deprecated) notes += ` (deprecated: ${cut(mcpVocabulary(cmd, spec.deprecated), 256)})`;
  if (spec.required && (spec.env !== undefined || spec.config !== undefined))
    notes += ' (required unless the server environment or config file supplies it)';
  return withNotes(mcpVocabulary(cmd, spec.usage?.trim() || name.replace(/-/g, ' ')), notes);
}

/**
 * The inputSchema of a command: every positional and every visible flag except the injected
 * `--format` (the bridge forces json), `--help`, `--version`, `--args-json` and flags declared
 * `mcp: false`.
 */
export function inputSchema(cmd: Command): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const p of toolProperties(cmd)) {
    if (p.arg) {
      const a = p.arg;
      const isRequired = a.required !== false;
      const desc = mcpVocabulary(cmd, a.description?.trim() || `the ${a.name.replace(/-/g, ' ')} argument`);
      const item: JsonSchema =
        a.type === 'int'
          ? { type: 'integer' }
          : a.type === 'float'
            ? { type: 'number' }
            : a.choices
              ? { type: 'string', enum: [...a.choices] }
              : { type: 'string' };
      const value: JsonSchema = a.variadic
        ? { type: 'array', items: item, ...(isRequired ? { minItems: 1 } : {}) }
        : item;
      const notes =
        (a.variadic ? ' (positional, variadic)' : ` (positional ${p.argIndex! + 1})`) +
        choicesNote(a.choices, a.variadic === true);
      properties[p.property] = propertySchema(value, withNotes(desc, notes), isRequired);
      if (isRequired) required.push(p.property);
    } else {
      const f = p.flag!;
      // a required flag with an env or config source may be supplied by the server side: checked when run
      const isRequired = f.spec.required === true && f.spec.env === undefined && f.spec.config === undefined;
      properties[p.property] = propertySchema(
        flagValueSchema(f.spec),
        flagDescription(cmd, f.name, f.spec, f.traversedFrom),
        isRequired,
        flagDefault(f.spec),
      );
      if (isRequired) required.push(p.property);
    }
  }
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length) schema.required = required;
  schema.additionalProperties = false;
  return schema;
}

/** Cuts text to `max` characters without splitting a surrogate pair, marking the cut. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = '… (truncated; full help: __schema)';
  let end = max - marker.length;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end) + marker;
}
