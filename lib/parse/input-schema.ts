/**
 * The inputs of one command as JSON Schema: the inputSchema that `--args-json` and MCP `tools/call`
 * arguments are validated against, one property per positional and flag (each flag's value schema,
 * default and notes are its kind's: lib/tree/flag-kinds/). A portable JSON Schema subset that the
 * OpenAI strict, Anthropic strict and Gemini converters keep usable (none of them rejects it or
 * closes an object an agent must fill): root `type: object` with `properties` always present,
 * `additionalProperties: false`, string-only enums, typed `items` on every array, no `$schema`, no
 * `format`, no top-level combinators, no `type` arrays. An optional property is
 * `{"anyOf": [<its schema>, {"type": "null"}], "description", "default"?}` — `null` means "not
 * given", which is how strict converters spell optional. Descriptions use the MCP vocabulary
 * (property names, not `--flags`) and list the choices of an enum. See docs/mcp-server.md#inputschema
 * and docs/schema.md#portability-of-the-inputschema.
 */
import type { Command } from '../tree/command.ts';
import type { FlagSpec } from '../tree/flags.ts';
import { argKindOf, kindOf } from '../tree/flag-kinds/index.ts';
import { mcpVocabulary, toolProperties } from '../tree/properties.ts';

/** A JSON Schema object (2020-12). */
export type JsonSchema = Record<string, unknown>;

/** Most characters a tool description may have (Claude Code cuts longer ones silently). */
export const MAX_DESCRIPTION = 2048;

/**
 * The JSON Schema of one flag's value, without annotations (description, default): its kind's. A
 * `json` flag is its declared `schema`, or without one a string holding JSON text of an object.
 */
export function flagValueSchema(spec: FlagSpec): JsonSchema {
  return kindOf(spec).valueSchema(spec);
}

/**
 * One property: the value schema with its description (and default and examples), made nullable
 * when optional. A required property is the value schema itself; an optional one wraps it as
 * `anyOf: [value, {type: null}]` with the annotations beside it.
 */
export function propertySchema(
  value: JsonSchema,
  description: string,
  required: boolean,
  def?: unknown,
  examples?: readonly unknown[],
): JsonSchema {
  const s: JsonSchema = required ? { ...value, description } : { anyOf: [value, { type: 'null' }], description };
  if (def !== undefined) s.default = def;
  if (examples) s.examples = [...examples];
  return s;
}

/** The typed default of a flag as the schema shows it (durations as `<ms>ms`, maps as `{key, value}` items). */
function flagDefault(spec: FlagSpec): unknown {
  return spec.default === undefined ? undefined : kindOf(spec).schemaDefault(spec.default, spec);
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
  const kind = kindOf(spec);
  notes += kind.schemaNotes(spec);
  notes += choicesNote(spec.choices, kind.repeat === 'append');
  if (spec.secret) notes += ' (secret: never echoed back)';
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
      const item: JsonSchema = argKindOf(a).valueSchema({ type: a.type ?? 'string', choices: a.choices });
      const value: JsonSchema = a.variadic
        ? { type: 'array', items: item, ...(isRequired ? { minItems: 1 } : {}) }
        : item;
      const notes =
        (a.variadic ? ' (positional, variadic)' : ` (positional ${p.argIndex! + 1})`) +
        choicesNote(a.choices, a.variadic === true);
      properties[p.property] = propertySchema(value, withNotes(desc, notes), isRequired, undefined, a.examples);
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
        f.spec.examples,
      );
      // JSON Schema 2020-12's writeOnly and OpenAPI's password format: a client may mask the value
      if (f.spec.secret) Object.assign(properties[p.property]!, { format: 'password', writeOnly: true });
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
