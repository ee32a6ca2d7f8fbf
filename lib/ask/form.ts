/**
 * The fields of a form `ctx.elicit` asks for (MCP's flat elicitation schema): checking the form,
 * checking a value against its field, reading what a person typed on a terminal and the line that
 * asks for it. Source: MCP 2025-11-25 client features (elicitation, requested schema).
 */
import { AxError } from '../contract/errors.ts';
import type { ElicitField, ElicitSchema } from '../tree/interaction.ts';

/** @throws TypeError when the form is not a flat object of MCP's primitive fields (a programmer error). */
export function checkSchema(schema: ElicitSchema): void {
  if (!schema || schema.type !== 'object' || typeof schema.properties !== 'object' || schema.properties === null) {
    throw new TypeError('ctx.elicit: schema must be {type: "object", properties: {...}}');
  }
  const names = Object.keys(schema.properties);
  if (names.length === 0) throw new TypeError('ctx.elicit: schema.properties must name at least one field');
  for (const [n, f] of Object.entries(schema.properties)) {
    if (!f || !['string', 'number', 'integer', 'boolean', 'array'].includes((f as ElicitField).type)) {
      throw new TypeError(
        `ctx.elicit: field ${JSON.stringify(n)} must have type string, number, integer, boolean or array`,
      );
    }
  }
  for (const r of schema.required ?? [])
    if (!names.includes(r)) throw new TypeError(`ctx.elicit: required field ${JSON.stringify(r)} is not in properties`);
}

/** One answered field's value. */
export type Value = string | number | boolean | string[];

/** The values a field offers (a string's enum or oneOf, a list's items'), if it limits them. */
function choicesOf(f: ElicitField): string[] | undefined {
  if (f.type === 'string') return f.enum ?? f.oneOf?.map((o) => o.const);
  if (f.type === 'array') return 'enum' in f.items ? f.items.enum : f.items.anyOf.map((o) => o.const);
  return undefined;
}

/** Checks one value against its field; returns a reason when it does not fit. */
export function misfit(f: ElicitField, v: unknown): string | undefined {
  const choices = choicesOf(f);
  switch (f.type) {
    case 'string':
      if (typeof v !== 'string') return 'must be a string';
      if (choices && !choices.includes(v)) return `must be one of ${choices.join(', ')}`;
      if (f.minLength !== undefined && v.length < f.minLength) return `must be at least ${f.minLength} characters`;
      if (f.maxLength !== undefined && v.length > f.maxLength) return `must be at most ${f.maxLength} characters`;
      return undefined;
    case 'number':
    case 'integer':
      if (typeof v !== 'number' || !Number.isFinite(v) || (f.type === 'integer' && !Number.isInteger(v)))
        return `must be ${f.type === 'integer' ? 'an integer' : 'a number'}`;
      if (f.minimum !== undefined && v < f.minimum) return `must be at least ${f.minimum}`;
      if (f.maximum !== undefined && v > f.maximum) return `must be at most ${f.maximum}`;
      return undefined;
    case 'boolean':
      return typeof v === 'boolean' ? undefined : 'must be true or false';
    case 'array':
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) return 'must be a list of strings';
      if (choices && v.some((x) => !choices.includes(x as string))) return `must be chosen from ${choices.join(', ')}`;
      return undefined;
  }
}

/** Parses what a person typed for a field; empty means the default. @throws AxError validation_error. */
export function parseTyped(name: string, f: ElicitField, raw: string): Value | undefined {
  const t = raw.trim();
  if (t === '') return f.default;
  let v: unknown = t;
  if (f.type === 'number' || f.type === 'integer') v = Number(t);
  else if (f.type === 'boolean') v = /^(y|yes|true)$/i.test(t) ? true : /^(n|no|false)$/i.test(t) ? false : t;
  else if (f.type === 'array')
    v = t
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const why = misfit(f, v);
  if (why)
    throw new AxError('validation_error', `invalid answer for ${name}: ${why}`, {
      fix: 'Run the command again and give a valid answer.',
      context: { reason: 'invalid_answer', field: name },
    });
  return v as Value;
}

/** The line a terminal shows for a field: its title, description, choices and default. */
export function prompt(name: string, f: ElicitField): string {
  const head = f.title ?? name;
  const choices = choicesOf(f);
  const hint = choices
    ? ` (${choices.join('|')}${f.type === 'array' ? ', comma-separated' : ''})`
    : f.type === 'boolean'
      ? ' (y/n)'
      : '';
  const def = f.default !== undefined ? ` [${Array.isArray(f.default) ? f.default.join(',') : String(f.default)}]` : '';
  return `${head}${f.description ? ` — ${f.description}` : ''}${hint}${def}: `;
}
