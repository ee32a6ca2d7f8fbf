/**
 * The inputs of one command as JSON Schema: the inputSchema that `--args-json` and MCP `tools/call`
 * arguments are validated against, one property per positional and flag. A portable JSON Schema subset (B11): root `type: object` with `properties` always present,
 * `additionalProperties: false`, string-only enums, typed `items` on every array, no `$schema`,
 * no `format`, no top-level combinators. Source: SPEC §5–6; cases B04, B06, B07, B09, B11, B13.
 */
import type { Command } from '../tree/command.ts';
import type { FlagSpec } from '../tree/flags.ts';
import { toolProperties } from '../tree/properties.ts';

/** A JSON Schema object (2020-12). */
export type JsonSchema = Record<string, unknown>;

/** Most characters a tool description may have (Claude Code cuts longer ones silently). */
export const MAX_DESCRIPTION = 2048;

function durationText(ms: number): string {
  return `${ms}ms`;
}

/** The JSON Schema of one flag's value. */
export function flagSchema(spec: FlagSpec, description: string): JsonSchema {
  const s: JsonSchema = {};
  switch (spec.type) {
    case 'bool':
      s.type = 'boolean';
      break;
    case 'int':
    case 'count':
      s.type = 'integer';
      break;
    case 'uint':
      s.type = 'integer';
      s.minimum = 0;
      break;
    case 'float':
      s.type = 'number';
      break;
    case 'stringSlice':
    case 'stringArray':
      s.type = 'array';
      s.items = spec.choices ? { type: 'string', enum: [...spec.choices] } : { type: 'string' };
      break;
    case 'intSlice':
      s.type = 'array';
      s.items = { type: 'integer' };
      break;
    case 'floatSlice':
      s.type = 'array';
      s.items = { type: 'number' };
      break;
    case 'boolSlice':
      s.type = 'array';
      s.items = { type: 'boolean' };
      break;
    case 'durationSlice':
      s.type = 'array';
      s.items = { type: 'string' };
      break;
    case 'stringToString':
      s.type = 'object';
      s.additionalProperties = { type: 'string' };
      break;
    case 'stringToInt':
      s.type = 'object';
      s.additionalProperties = { type: 'integer' };
      break;
    case 'json':
      s.type = 'object';
      break;
    default:
      s.type = 'string';
      if (spec.choices) s.enum = [...spec.choices];
  }
  s.description = description;
  if (spec.default !== undefined) {
    s.default =
      spec.type === 'duration' && typeof spec.default === 'number'
        ? durationText(spec.default)
        : spec.type === 'durationSlice' && Array.isArray(spec.default)
          ? spec.default.map((d) => (typeof d === 'number' ? durationText(d) : d))
          : structuredClone(spec.default);
  }
  return s;
}

/** A property description: the text cut so that, with its notes, it stays within {@link MAX_DESCRIPTION}. */
function withNotes(text: string, notes: string): string {
  return cut(text, Math.max(MAX_DESCRIPTION - notes.length, 64)) + notes;
}

function flagDescription(name: string, spec: FlagSpec): string {
  let notes = '';
  if (spec.type === 'duration') notes += ' (a duration such as 300ms, 1m30s or 2h)';
  if (spec.type === 'durationSlice') notes += ' (each item a duration such as 300ms, 1m30s or 2h)';
  if (spec.type === 'stringToString' || spec.type === 'stringToInt') notes += ' (an object of key/value pairs)';
  if (spec.type === 'stringSlice') notes += ' (each item is passed as is; commas are not split)';
  if (spec.deprecated) notes += ` (deprecated: ${cut(spec.deprecated, 256)})`;
  if (spec.required && (spec.env !== undefined || spec.config !== undefined)) notes += ' (required unless the server environment or config file supplies it)';
  return withNotes(spec.usage?.trim() || name.replace(/-/g, ' '), notes);
}

/**
 * The inputSchema of a command: every positional and every visible flag except the injected
 * `--format` (the bridge forces json), `--help`, `--version` and `--args-json`.
 */
export function inputSchema(cmd: Command): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const p of toolProperties(cmd)) {
    if (p.arg) {
      const a = p.arg;
      const desc = a.description?.trim() || `the ${a.name.replace(/-/g, ' ')} argument`;
      const item: JsonSchema = a.type === 'int' ? { type: 'integer' } : a.type === 'float' ? { type: 'number' } : a.choices ? { type: 'string', enum: [...a.choices] } : { type: 'string' };
      properties[p.property] = a.variadic
        ? { type: 'array', items: item, ...(a.required !== false ? { minItems: 1 } : {}), description: withNotes(desc, ' (positional, variadic)') }
        : { ...item, description: withNotes(desc, ` (positional ${p.argIndex! + 1})`) };
      if (a.required !== false) required.push(p.property);
    } else {
      const f = p.flag!;
      properties[p.property] = flagSchema(f.spec, flagDescription(f.name, f.spec));
      // a required flag with an env or config source may be supplied by the server side: checked when run
      if (f.spec.required && f.spec.env === undefined && f.spec.config === undefined) required.push(p.property);
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
