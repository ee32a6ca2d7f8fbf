/**
 * The map kinds, stringToString and stringToInt, as pflag's string_to_string.go and
 * string_to_int.go read them: `key=value` pairs, comma-separated, repeatable, a later key winning.
 * Over JSON a map is spelled as `{key, value}` items (docs/schema.md#portability-of-the-inputschema);
 * the handler gets an object either way.
 */
import { csvField, invalidFlagValue, parseGoAtoi, readPairs, splitCsv } from '../flag-text.ts';
import { copyOf, goText, INTEGER, intOf, ONE_VALUE, type FlagKind, type SchemaNode } from './kind.ts';

/**
 * The portable spelling of a map in MCP arguments, `--args-json` and the inputSchema: an array of
 * `{"key", "value"}` items, since an open object (`additionalProperties: {…}`) is closed to `{}` by
 * strict converters (OpenAI, Anthropic) and rejected by Gemini's legacy schema.
 */
function entriesSchema(value: 'string' | 'integer'): SchemaNode {
  return {
    type: 'array',
    items: {
      type: 'object',
      properties: { key: { type: 'string' }, value: { type: value } },
      required: ['key', 'value'],
      additionalProperties: false,
    },
  };
}

/** A map value (or default) in its portable spelling: `{a: '1'}` → `[{key: 'a', value: '1'}]`. */
function entries(map: Record<string, unknown>): { key: string; value: unknown }[] {
  return Object.entries(map).map(([key, value]) => ({ key, value }));
}

/** Sets a map key as an own data property, whatever the key (`__proto__` included). */
function setKey(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

const isMapObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * One `--name=…` word per pair, read back as that pair: `k=v` as it is when it has one `=` and no
 * quote at either end (pflag then takes it whole, commas and all); else the pair as a CSV field,
 * behind an empty pair of the same key when only that makes pflag read the text as CSV (a later
 * pair wins). A key holding `=` has no spelling on the command line at all.
 */
function pairWord(name: string, key: string, value: string): string {
  const pair = `${key}=${value}`;
  if (pair.split('=').length > 2) return `--${name}=${csvField(pair)}`;
  if (!pair.startsWith('"') && !pair.endsWith('"')) return `--${name}=${pair}`;
  return `--${name}=${csvField(`${key}=`)},${csvField(pair)}`;
}

function mapKind<V extends string | number>(valueType: 'string' | 'integer'): FlagKind<Record<string, V>> {
  const ints = valueType === 'integer';
  const expected = `an array of {"key": <string>, "value": <${valueType}>} items`;
  const okValue = (v: unknown) => (ints ? typeof v === 'number' && Number.isSafeInteger(v) : typeof v === 'string');
  return {
    ...ONE_VALUE,
    repeat: 'merge',
    zero: () => ({}),
    fromText: (name, spec, prev, raw, first) => {
      const text = raw ?? '';
      const read = readPairs(text, splitCsv);
      if ('bad' in read)
        throw invalidFlagValue(
          name,
          spec.short,
          text,
          `${read.bad} must be formatted as key=value`,
          'key=value pairs',
          `Pass --${name} key=value (several: k1=v1,k2=v2 or the flag again).`,
        );
      const out: Record<string, V> = first ? {} : { ...(prev as Record<string, V>) };
      for (const [k, v] of read.pairs)
        setKey(out, k, ints ? intOf(name, spec, text, v.trim(), parseGoAtoi, INTEGER) : v);
      return out;
    },
    // [{key, value}, …]; a later item with the same key wins, as a later pair does on the command line
    fromJson: (_spec, value, fail) => {
      const entry = (e: unknown): e is { key: string; value: unknown } =>
        isMapObject(e) &&
        typeof e.key === 'string' &&
        okValue(e.value) &&
        Object.keys(e).every((k) => k === 'key' || k === 'value');
      if (!Array.isArray(value) || !value.every(entry)) throw fail(expected);
      const out: Record<string, unknown> = {};
      for (const e of value) setKey(out, e.key, e.value);
      return out;
    },
    // a config file writes a map as a JSON object ({"a": "1"}), the natural spelling of a file
    fromConfig: (v) => (isMapObject(v) ? entries(v) : v),
    toArgv: (name, v) => Object.entries(v).map(([k, x]) => pairWord(name, k, String(x))),
    valueSchema: () => entriesSchema(valueType),
    schemaDefault: (d) => (typeof d === 'object' && d !== null ? entries(d as Record<string, unknown>) : copyOf(d)),
    schemaNotes: () => ' (key/value pairs, one {"key", "value"} item each; a later item with the same key wins)',
    helpName: ints ? 'stringToInt' : 'stringToString',
    // pflag prints the pairs sorted by key, `[a=1,b=2]`; an empty map is its zero value: no default shown
    helpDefault: (d) => {
      if (!isMapObject(d)) return goText(d);
      const keys = Object.keys(d).sort();
      return keys.length ? `[${keys.map((k) => `${k}=${String(d[k])}`).join(',')}]` : '';
    },
    clispecType: 'object',
  };
}

/** pflag's stringToString: `key=value` pairs with string values. */
export const stringToStringKind = mapKind<string>('string');
/** pflag's stringToInt: `key=value` pairs with Atoi integer values. */
export const stringToIntKind = mapKind<number>('integer');
