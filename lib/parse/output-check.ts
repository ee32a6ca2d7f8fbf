/**
 * A handler's result checked against its command's `output.schema` before anything is written, on
 * every path (docs/contract.md "Output schema"): a payload that does not fit is the author's
 * `internal_error` naming the field, never a success that an MCP client then refuses (the official
 * SDK client validates `structuredContent` against the tool's `outputSchema`).
 *
 * Most output schemas use a few keywords (type, properties, required, items, enum, anyOf…): those
 * are checked here, without loading Ajv (about 30 ms of a start that otherwise takes as much). A
 * schema using any other keyword (`$ref`, `format`, `patternProperties`, `if`…) is checked with
 * Ajv (JSON Schema 2020-12, with ajv-formats), loaded then. Both give the same verdict on the
 * keywords checked here (test/run/output-check.test.ts holds them to it).
 */
import { AxError } from '../contract/errors.ts';
import type { Command } from '../tree/command.ts';

type Schema = Record<string, unknown>;

/** One misfit: where (a JSON Pointer into the payload), which keyword, and why. */
export interface Misfit {
  path: string;
  keyword: string;
  message: string;
}

/** Keywords with no say in validation. */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$comment',
  '$defs',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

/** Keywords checked here; anything else sends the schema to Ajv. */
const CHECKED = new Set([
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'minProperties',
  'maxProperties',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
]);

const supportedCache = new WeakMap<object, boolean>();

/** Whether every keyword of a schema (and of its subschemas) is one checked here. */
export function checkedHere(schema: unknown): boolean {
  if (typeof schema === 'boolean') return true;
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return false;
  const known = supportedCache.get(schema);
  if (known !== undefined) return known;
  supportedCache.set(schema, true); // a cycle is no reason to refuse
  const s = schema as Schema;
  let ok = true;
  for (const [k, v] of Object.entries(s)) {
    if (ANNOTATIONS.has(k)) continue;
    if (!CHECKED.has(k)) ok = false;
    else if (k === 'properties') ok = isObject(v) && Object.values(v).every(checkedHere);
    else if (k === 'items' || k === 'additionalProperties' || k === 'not') ok = checkedHere(v);
    else if (k === 'prefixItems' || k === 'anyOf' || k === 'oneOf' || k === 'allOf')
      ok = Array.isArray(v) && v.every(checkedHere);
    else if (k === 'pattern') ok = typeof v === 'string' && compiles(v);
    if (!ok) break;
  }
  supportedCache.set(schema, ok);
  return ok;
}

function isObject(v: unknown): v is Schema {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const patterns = new Map<string, RegExp | null>();
function regex(p: string): RegExp | null {
  let r = patterns.get(p);
  if (r === undefined) {
    try {
      r = new RegExp(p, 'u'); // as Ajv compiles `pattern`
    } catch {
      r = null;
    }
    patterns.set(p, r);
  }
  return r;
}
function compiles(p: string): boolean {
  return regex(p) !== null;
}

/** A value as JSON sees it: what `toJSON` gives (a Date's string). */
function json(v: unknown): unknown {
  return v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function'
    ? (v as { toJSON: () => unknown }).toJSON()
    : v;
}

/** The JSON type of a value (`integer` counts as `number` too, by the caller). */
function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  const t = typeof v;
  if (t === 'number') return Number.isFinite(v) ? 'number' : 'not-json';
  return t === 'string' || t === 'boolean' || t === 'object' ? t : 'not-json';
}

function equal(a: unknown, b: unknown): boolean {
  a = json(a);
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => equal(x, (b as unknown[])[i]));
  const ka = Object.keys(a).filter((k) => (a as Schema)[k] !== undefined);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && equal((a as Schema)[k], (b as Schema)[k]));
}

/** One JSON Pointer step (RFC 6901: `~` and `/` escaped). */
const step = (key: string | number) => `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** `m` one level down, at `key` (the path is built only for a misfit, never for what fits). */
const under = (key: string | number, m: Misfit | undefined): Misfit | undefined =>
  m && { ...m, path: step(key) + m.path };

/**
 * The first misfit of `value` against a schema of the checked keywords, or undefined when it fits;
 * its `path` is relative to `value` ('' for `value` itself).
 */
export function misfit(schema: unknown, value: unknown): Misfit | undefined {
  if (schema === true) return undefined;
  if (schema === false) return { path: '', keyword: 'false schema', message: 'is not allowed here' };
  const s = schema as Schema;
  const v = json(value);
  const t = typeOf(v);
  const fail = (keyword: string, message: string): Misfit => ({ path: '', keyword, message });
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    const fits = types.some((x) => x === t || (x === 'integer' && t === 'number' && Number.isInteger(v)));
    if (!fits) return fail('type', `must be ${types.join(' or ')}`);
  }
  if (s.const !== undefined && !equal(v, s.const)) return fail('const', `must be ${JSON.stringify(s.const)}`);
  if (Array.isArray(s.enum) && !s.enum.some((e) => equal(v, e)))
    return fail('enum', `must be one of ${s.enum.map((e) => JSON.stringify(e)).join(', ')}`);
  if (t === 'number') {
    const n = v as number;
    if (typeof s.minimum === 'number' && n < s.minimum) return fail('minimum', `must be >= ${s.minimum}`);
    if (typeof s.maximum === 'number' && n > s.maximum) return fail('maximum', `must be <= ${s.maximum}`);
    if (typeof s.exclusiveMinimum === 'number' && n <= s.exclusiveMinimum)
      return fail('exclusiveMinimum', `must be > ${s.exclusiveMinimum}`);
    if (typeof s.exclusiveMaximum === 'number' && n >= s.exclusiveMaximum)
      return fail('exclusiveMaximum', `must be < ${s.exclusiveMaximum}`);
    if (typeof s.multipleOf === 'number' && !Number.isInteger(n / s.multipleOf))
      return fail('multipleOf', `must be a multiple of ${s.multipleOf}`);
  }
  if (t === 'string') {
    const str = v as string;
    if (typeof s.minLength === 'number' || typeof s.maxLength === 'number') {
      const len = [...str].length; // code points, as Ajv counts them
      if (typeof s.minLength === 'number' && len < s.minLength)
        return fail('minLength', `must have at least ${s.minLength} characters`);
      if (typeof s.maxLength === 'number' && len > s.maxLength)
        return fail('maxLength', `must have at most ${s.maxLength} characters`);
    }
    if (typeof s.pattern === 'string' && !regex(s.pattern)!.test(str))
      return fail('pattern', `must match ${s.pattern}`);
  }
  if (t === 'array') {
    const arr = v as unknown[];
    if (typeof s.minItems === 'number' && arr.length < s.minItems)
      return fail('minItems', `must have at least ${s.minItems} items`);
    if (typeof s.maxItems === 'number' && arr.length > s.maxItems)
      return fail('maxItems', `must have at most ${s.maxItems} items`);
    const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
    for (let i = 0; i < arr.length; i++) {
      const item = arr[i] === undefined ? null : arr[i]; // JSON writes an undefined item as null
      const sub = i < prefix.length ? prefix[i] : s.items;
      if (sub === undefined) continue;
      const m = under(i, misfit(sub, item));
      if (m) return m;
    }
    if (s.uniqueItems === true)
      for (let i = 0; i < arr.length; i++)
        for (let j = 0; j < i; j++)
          if (equal(arr[i], json(arr[j]))) return fail('uniqueItems', `must not have duplicate items (${j} and ${i})`);
  }
  if (t === 'object') {
    const obj = v as Schema;
    const keys = Object.keys(obj).filter((k) => obj[k] !== undefined && typeof obj[k] !== 'function');
    if (typeof s.minProperties === 'number' && keys.length < s.minProperties)
      return fail('minProperties', `must have at least ${s.minProperties} properties`);
    if (typeof s.maxProperties === 'number' && keys.length > s.maxProperties)
      return fail('maxProperties', `must have at most ${s.maxProperties} properties`);
    if (Array.isArray(s.required))
      for (const r of s.required as string[])
        if (!keys.includes(r)) return fail('required', `must have the property ${JSON.stringify(r)}`);
    const props = isObject(s.properties) ? s.properties : {};
    for (const k of keys) {
      if (Object.hasOwn(props, k)) {
        const m = under(k, misfit(props[k], obj[k]));
        if (m) return m;
      } else if (s.additionalProperties !== undefined) {
        if (s.additionalProperties === false)
          return {
            path: step(k),
            keyword: 'additionalProperties',
            message: 'is not a property the schema declares',
          };
        const m = under(k, misfit(s.additionalProperties, obj[k]));
        if (m) return m;
      }
    }
  }
  if (Array.isArray(s.allOf))
    for (const sub of s.allOf) {
      const m = misfit(sub, v);
      if (m) return m;
    }
  if (Array.isArray(s.anyOf) && !s.anyOf.some((sub) => !misfit(sub, v)))
    return fail('anyOf', 'must match one of the schemas of anyOf');
  if (Array.isArray(s.oneOf) && s.oneOf.filter((sub) => !misfit(sub, v)).length !== 1)
    return fail('oneOf', 'must match exactly one of the schemas of oneOf');
  if (s.not !== undefined && !misfit(s.not, v)) return fail('not', 'must not match the schema of not');
  return undefined;
}

/** The author's error of a payload that does not fit: `internal_error` naming the field and the keyword. */
function mismatch(cmd: Command, m: Misfit, item: number | undefined): AxError {
  const field = m.path === '' ? 'the payload' : `the field ${m.path.slice(1).replace(/\//g, '.')}`;
  const what = item === undefined ? 'its result' : `stream item ${item}`;
  return new AxError(
    'internal_error',
    `${JSON.stringify(cmd.commandPath())} returned a result that ` +
      `does not match its output.schema: ${field} ${m.message}`,
    {
      fix:
        `This is a bug in the program: ${what} breaks the output.schema it declares (keyword ${m.keyword} ` +
        `at ${m.path || '/'}); fix the handler or the schema, and report it with the trace_id.`,
      context: {
        reason: 'output_schema_mismatch',
        path: m.path || '/',
        keyword: m.keyword,
        ...(item !== undefined ? { item } : {}),
      },
    },
  );
}

/**
 * Checks one payload (or, with `item`, one stream item, counted from 0) against the command's
 * `output.schema`. @returns undefined (no promise) when it is checked here, else a promise of Ajv's
 * check. @throws AxError `internal_error` (reason `output_schema_mismatch`) naming the field.
 */
export function checkOutput(cmd: Command, value: unknown, item?: number): Promise<void> | undefined {
  const schema = cmd.output?.schema;
  if (!schema || cmd.output?.kind === 'opaque') return undefined;
  const payload = value === undefined ? null : value;
  if (checkedHere(schema)) {
    const m = misfit(schema, payload);
    if (m) throw mismatch(cmd, m, item);
    return undefined;
  }
  return import('./arguments.ts').then(({ schemaMisfit }) => {
    const m = schemaMisfit(schema, JSON.parse(JSON.stringify(payload)) as unknown);
    if (m) throw mismatch(cmd, m, item);
  });
}
