/**
 * The MCP projection of one command: description, inputSchema, outputSchema and annotations.
 * A portable JSON Schema subset (B11): root `type: object` with `properties` always present,
 * `additionalProperties: false`, string-only enums, typed `items` on every array, no `$schema`,
 * no `format`, no top-level combinators. Source: SPEC §5–6; cases B04, B06, B07, B09, B11, B13.
 */
import type { Command } from './command.ts';
import type { FlagSpec } from './flags.ts';
import { toolProperties } from './properties.ts';

/** A JSON Schema object (2020-12). */
export type JsonSchema = Record<string, unknown>;

/** MCP tool annotations derived from `effects`. */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  idempotentHint?: boolean;
  destructiveHint?: boolean;
}

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
    case 'json':
      s.type = 'object';
      break;
    default:
      s.type = 'string';
      if (spec.choices) s.enum = [...spec.choices];
  }
  s.description = description;
  if (spec.default !== undefined) {
    s.default = spec.type === 'duration' && typeof spec.default === 'number' ? durationText(spec.default) : structuredClone(spec.default);
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
  if (spec.type === 'stringSlice') notes += ' (each item is passed as is; commas are not split)';
  if (spec.deprecated) notes += ` (deprecated: ${cut(spec.deprecated, 256)})`;
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
      if (f.spec.required) required.push(p.property);
    }
  }
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length) schema.required = required;
  schema.additionalProperties = false;
  return schema;
}

/** How a payload maps to `structuredContent`: as is (object), wrapped as `{result}`, or a stream's `{items}`. */
export type OutputWrapping = 'object' | 'result' | 'items';

/** The outputSchema of a command (root always `type: object`) and how its payload is wrapped; undefined when none is declared. */
export function outputSchema(cmd: Command): { schema: JsonSchema; wrapping: OutputWrapping } | undefined {
  const declared = cmd.output?.schema;
  if (!declared || cmd.output?.kind === 'opaque') return undefined;
  const { $schema: _drop, ...inner } = declared as JsonSchema;
  if (inner.type === 'object' && cmd.output?.kind !== 'stream') return { schema: inner, wrapping: 'object' };
  // Wrapping nests the payload schema one level down; its `$defs` move up to the new root so that
  // `#/$defs/…` references still resolve (unless the payload has its own `$id`, which anchors them).
  const { $defs, ...payload } = inner;
  const hoist = $defs !== undefined && payload.$id === undefined;
  const nested = hoist ? payload : inner;
  const wrap = (properties: JsonSchema, required: string[]): JsonSchema => ({ type: 'object', properties, required, ...(hoist ? { $defs } : {}) });
  if (cmd.output?.kind === 'stream') return { schema: wrap({ items: { type: 'array', items: nested } }, ['items']), wrapping: 'items' };
  return { schema: wrap({ result: nested }, ['result']), wrapping: 'result' };
}

/** MCP annotations from `effects`; undefined when effects are not declared (clients assume destructive). */
export function toolAnnotations(cmd: Command): ToolAnnotations | undefined {
  switch (cmd.effects) {
    case 'read_only':
      return { readOnlyHint: true, idempotentHint: true, destructiveHint: false };
    case 'idempotent':
      return { readOnlyHint: false, idempotentHint: true, destructiveHint: cmd.destructive ?? false };
    case 'non_idempotent':
      return { readOnlyHint: false, idempotentHint: false, destructiveHint: cmd.destructive ?? true };
    default:
      return undefined;
  }
}

/** Cuts text to `max` characters without splitting a surrogate pair, marking the cut. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = '… (truncated; full help: __schema)';
  let end = max - marker.length;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end) + marker;
}

/** Most characters of the summary that opens a tool description, so the usage after it always fits (B11). */
const MAX_SUMMARY = 400;

/** A summary bounded to {@link MAX_SUMMARY}: its first sentence when that fits, else a cut marked with `…`. */
function shortSummary(text: string): string {
  if (text.length <= MAX_SUMMARY) return text;
  const sentence = /^(.+?[.!?])\s/.exec(text)?.[1];
  if (sentence && sentence.length <= MAX_SUMMARY) return sentence.replace(/\.$/, '');
  let end = MAX_SUMMARY - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/**
 * A tool description of at most {@link MAX_DESCRIPTION} characters whose first sentence is the
 * summary plus the usage (positionals and required flags), then flag-group rules, then the long help.
 */
export function toolDescription(cmd: Command): string {
  const summary = shortSummary((cmd.short || cmd.long.trim().split('\n')[0] || cmd.name).trim().replace(/\.$/, ''));
  const words = [cmd.commandPath(), ...cmd.args.map((a) => (a.required === false ? `[${a.name}${a.variadic ? '...' : ''}]` : `<${a.name}${a.variadic ? '...' : ''}>`))];
  for (const p of toolProperties(cmd)) if (p.flag?.spec.required) words.push(`--${p.flag.name} <${p.flag.spec.type}>`);
  let text = `${summary}. Usage: ${words.join(' ')}.`;
  const rules = [
    ...cmd.mutuallyExclusive.map((g) => `At most one of ${g.map((n) => n.replace(/-/g, '_')).join(', ')} may be given.`),
    ...cmd.requiredTogether.map((g) => `${g.map((n) => n.replace(/-/g, '_')).join(', ')} must be given together.`),
    ...cmd.oneRequired.map((g) => `At least one of ${g.map((n) => n.replace(/-/g, '_')).join(', ')} is required.`),
  ];
  if (rules.length) text += ` ${rules.join(' ')}`;
  if (cmd.deprecated) text += ` Deprecated: ${cmd.deprecated}.`;
  const long = cmd.long.trim();
  if (long && long !== cmd.short.trim()) text += `\n\n${long}`;
  return cut(text, MAX_DESCRIPTION);
}
