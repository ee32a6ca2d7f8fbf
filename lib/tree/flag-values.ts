/**
 * Flag values, as pflag reads them: one occurrence's text applied to the value so far (slices
 * accumulate, maps merge, counts count, choices checked), and a value given as data (`--args-json`,
 * MCP arguments, config files) checked against its declaration; map flags as `{key, value}` entries.
 * Source: spf13/pflag (flag.go, *_slice.go, string_to_*.go); SPEC §1.
 */
import { MAX_INPUT_DEPTH, nestsDeeperThan } from '../contract/depth.ts';
import { validationError } from '../contract/errors.ts';
import {
  invalidFlagValue,
  parseDuration,
  parseGoAtoi,
  parseGoBool,
  parseGoFloat,
  parseGoInt,
  readPairs,
} from './flag-text.ts';
import { defaultValue, type FlagSpec, type FlagType } from './flags.ts';

/** Splits one stringSlice occurrence like pflag's CSV reader: commas separate, double quotes protect. */
export function splitCsv(text: string): string[] {
  if (text === '') return [];
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"' && cur === '') quoted = true;
    else if (ch === ',') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

const WHY: Partial<Record<FlagType, [why: string, expected: string]>> = {
  bool: ['must be true or false', 'a boolean (true or false)'],
  int: ['must be an integer', 'an integer'],
  count: ['must be an integer', 'an integer'],
  intSlice: ['must be an integer', 'an integer'],
  stringToInt: ['must be an integer', 'an integer'],
  uint: ['must be a non-negative integer', 'a non-negative integer'],
  float: ['must be a number', 'a number'],
  floatSlice: ['must be a number', 'a number'],
  boolSlice: ['must be true or false', 'a boolean (true or false)'],
  duration: ['must be a duration like "30s" or "5m"', 'a duration such as 300ms, 1m30s or 2h'],
  durationSlice: ['must be a duration like "30s" or "5m"', 'a duration such as 300ms, 1m30s or 2h'],
  json: ['must be a JSON object', 'a JSON object'],
};

function badValue(name: string, spec: FlagSpec, raw: string, _item = raw, range = false): never {
  const [why, expected] = WHY[spec.type] ?? ['invalid value', 'a value'];
  // a whole-number text beyond ±2^53 is refused with its own reason (JavaScript numbers are exact only that far)
  if (range) throw invalidFlagValue(name, spec.short, raw, `${why} within ±2^53`, `${expected} within ±2^53`);
  throw invalidFlagValue(name, spec.short, raw, why, expected);
}

/** An integer item: Go's ParseInt(s, 0, 64) forms (ParseUint for uint), or Atoi's decimal ones when `atoi`. */
function intOf(name: string, spec: FlagSpec, raw: string, item = raw, atoi = false): number {
  const n = atoi ? parseGoAtoi(item) : parseGoInt(item, spec.type === 'uint');
  if (n === null || Number.isNaN(n)) badValue(name, spec, raw, item, n !== null);
  return n;
}

function checkChoice(name: string, spec: FlagSpec, value: string, raw = value): void {
  if (spec.choices && !spec.choices.includes(value)) {
    throw invalidFlagValue(
      name,
      spec.short,
      raw,
      `must be one of ${spec.choices.join('|')}`,
      `one of ${spec.choices.join('|')}`,
      `Pass one of: ${spec.choices.join(', ')}.`,
    );
  }
}

function itemOf(name: string, spec: FlagSpec, raw: string, item: string): unknown {
  switch (spec.type) {
    case 'intSlice':
      return intOf(name, spec, raw, item.trim(), true);
    case 'boolSlice': {
      const b = parseGoBool(item.trim());
      if (b === null) badValue(name, spec, raw, item);
      return b;
    }
    case 'floatSlice': {
      const n = parseGoFloat(item.trim());
      if (n === null) badValue(name, spec, raw, item);
      return n;
    }
    case 'durationSlice': {
      const ms = parseDuration(item);
      if (Number.isNaN(ms)) badValue(name, spec, raw, item);
      return ms;
    }
    default:
      checkChoice(name, spec, item, raw);
      return item;
  }
}

/**
 * Applies one textual occurrence of a flag (from argv) to its previous value, pflag-style: scalars
 * replace, slices append and maps merge (the first occurrence replaces the default), count
 * increments. Integers read Go's `strconv.ParseInt(s, 0, 64)` forms (`0x23`, `0o17`, `0b11`,
 * `1_000`, `0755` octal).
 *
 * @param raw the text after `=` or the next token; `undefined` for a bare bool/count occurrence (or a
 *   bare flag with a `noOptDefVal`, which then applies).
 * @param first whether this is the first occurrence in this invocation.
 * @throws AxError `validation_error` (reason `invalid_flag_value`) when the text does not parse; its
 *   message is pflag's `invalid argument "<raw>" for "<-s, --name>" flag: <why>`.
 */
export function applyFlagText(
  name: string,
  spec: FlagSpec,
  prev: unknown,
  raw: string | undefined,
  first: boolean,
): unknown {
  if (raw === undefined && spec.noOptDefVal !== undefined) raw = spec.noOptDefVal;
  switch (spec.type) {
    case 'bool': {
      if (raw === undefined) return true;
      const b = parseGoBool(raw.trim()) ?? parseGoBool(raw.trim().toLowerCase());
      if (b === null) badValue(name, spec, raw);
      return b;
    }
    case 'count':
      // pflag's countValue starts at the default and each bare occurrence adds one.
      if (raw === undefined) return (first ? ((defaultValue(spec) as number | undefined) ?? 0) : (prev as number)) + 1;
      return intOf(name, spec, raw);
    case 'int':
    case 'uint':
      return intOf(name, spec, raw ?? '');
    case 'float': {
      const n = parseGoFloat((raw ?? '').trim());
      if (n === null) badValue(name, spec, raw ?? '');
      return n;
    }
    case 'duration': {
      const ms = parseDuration(raw ?? '');
      if (Number.isNaN(ms)) badValue(name, spec, raw ?? '');
      return ms;
    }
    case 'stringSlice':
    case 'stringArray':
    case 'intSlice':
    case 'boolSlice':
    case 'floatSlice':
    case 'durationSlice': {
      const text = raw ?? '';
      const items =
        spec.type === 'stringArray' ? [text] : splitCsv(spec.type === 'boolSlice' ? text.replace(/["'`]/g, '') : text);
      const typed = items.map((item) => itemOf(name, spec, text, item));
      return first ? typed : [...(prev as unknown[]), ...typed];
    }
    case 'stringToString':
    case 'stringToInt': {
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
      const out: Record<string, unknown> = first ? {} : { ...(prev as Record<string, unknown>) };
      for (const [k, v] of read.pairs)
        setKey(out, k, spec.type === 'stringToInt' ? intOf(name, spec, text, v.trim(), true) : v);
      return out;
    }
    case 'json': {
      let v: unknown;
      try {
        v = JSON.parse(raw ?? '');
      } catch {
        if (spec.schema)
          throw invalidFlagValue(
            name,
            spec.short,
            raw ?? '',
            'invalid JSON',
            "JSON matching the flag's schema (see __schema)",
          );
        badValue(name, spec, raw ?? '');
      }
      // with a declared schema any JSON value may do (the schema is checked before the handler runs)
      if (!spec.schema && (v === null || typeof v !== 'object' || Array.isArray(v))) badValue(name, spec, raw ?? '');
      if (nestsDeeperThan(v))
        throw invalidFlagValue(
          name,
          spec.short,
          `${(raw ?? '').slice(0, 40)}…`,
          `nested more than ${MAX_INPUT_DEPTH} levels deep`,
          `a JSON object nested at most ${MAX_INPUT_DEPTH} levels deep`,
        );
      return v;
    }
    default: {
      const v = raw ?? '';
      checkChoice(name, spec, v);
      return v;
    }
  }
}

/** Sets a map key as an own data property, whatever the key (`__proto__` included). */
function setKey(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * The portable spelling of a `stringToString` / `stringToInt` map in MCP arguments, `--args-json`
 * and the inputSchema: an array of `{"key", "value"}` items, since an open object
 * (`additionalProperties: {…}`) is closed to `{}` by strict converters (OpenAI, Anthropic) and
 * rejected by Gemini's legacy schema (test/schema/portability.test.ts). The handler still gets an
 * object (`ctx.flags.label` is `{ a: '1' }`), whichever path the value came by.
 */
export function mapEntriesSchema(type: 'stringToString' | 'stringToInt'): Record<string, unknown> {
  return {
    type: 'array',
    items: {
      type: 'object',
      properties: { key: { type: 'string' }, value: { type: type === 'stringToInt' ? 'integer' : 'string' } },
      required: ['key', 'value'],
      additionalProperties: false,
    },
  };
}

/** A map value (or default) in its portable spelling: `{a: '1'}` → `[{key: 'a', value: '1'}]`. */
export function mapEntries(map: Record<string, unknown>): { key: string; value: unknown }[] {
  return Object.entries(map).map(([key, value]) => ({ key, value }));
}

/**
 * Checks a structured value (from MCP arguments or `--args-json`) against a flag's type without any
 * text parsing, so a value that looks like a flag stays a value and arrays keep their items.
 * @throws AxError `validation_error` naming `label` (the MCP property) when the value has the wrong type.
 */
export function checkFlagValue(label: string, spec: FlagSpec, value: unknown): unknown {
  const fail = (expected: string) =>
    validationError(`invalid value ${JSON.stringify(value)} for ${label}: expected ${expected}`, 'invalid_flag_value', {
      context: { property: label, expected },
      fix: `Pass ${expected} as ${label}.`,
    });
  switch (spec.type) {
    case 'bool':
      if (typeof value !== 'boolean') throw fail('a boolean');
      return value;
    case 'int':
    case 'count':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw fail('an integer');
      return value;
    case 'uint':
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw fail('a non-negative integer');
      return value;
    case 'float':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw fail('a number');
      return value;
    case 'duration': {
      const ms = typeof value === 'string' ? parseDuration(value) : NaN;
      if (Number.isNaN(ms)) throw fail('a duration string such as 300ms, 1m30s or 2h');
      return ms;
    }
    case 'stringSlice':
    case 'stringArray':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw fail('an array of strings');
      if (spec.choices)
        for (const v of value) if (!spec.choices.includes(v)) throw fail(`items from ${spec.choices.join('|')}`);
      return [...value];
    case 'intSlice':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'number' || !Number.isSafeInteger(v)))
        throw fail('an array of integers');
      return [...value];
    case 'floatSlice':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'number' || !Number.isFinite(v)))
        throw fail('an array of numbers');
      return [...value];
    case 'boolSlice':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'boolean')) throw fail('an array of booleans');
      return [...value];
    case 'durationSlice': {
      const ms = Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? parseDuration(v) : NaN)) : [NaN];
      if (ms.some(Number.isNaN)) throw fail('an array of duration strings such as 300ms, 1m30s or 2h');
      return ms;
    }
    case 'stringToString':
    case 'stringToInt': {
      // the portable spelling of a map (see mapEntriesSchema): [{key, value}, …]; a later item with
      // the same key wins, as a later pair does on the command line
      const ok = (v: unknown) =>
        spec.type === 'stringToInt' ? typeof v === 'number' && Number.isSafeInteger(v) : typeof v === 'string';
      const entry = (e: unknown): e is { key: string; value: unknown } =>
        e !== null &&
        typeof e === 'object' &&
        !Array.isArray(e) &&
        typeof (e as { key?: unknown }).key === 'string' &&
        ok((e as { value?: unknown }).value) &&
        Object.keys(e).every((k) => k === 'key' || k === 'value');
      if (!Array.isArray(value) || !value.every(entry))
        throw fail(
          `an array of {"key": <string>, "value": <${spec.type === 'stringToInt' ? 'integer' : 'string'}>} items`,
        );
      const out: Record<string, unknown> = {};
      for (const e of value) setKey(out, e.key, e.value);
      return out;
    }
    case 'json': {
      // with a declared schema the value is the JSON itself (already checked against that schema)
      if (spec.schema) return structuredClone(value);
      // without one the property is a string of JSON text (the portable spelling), parsed here
      const expected = 'a string of JSON text holding an object, e.g. "{\\"key\\": 1}"';
      if (typeof value !== 'string') throw fail(expected);
      let v: unknown;
      try {
        v = JSON.parse(value);
      } catch {
        throw fail(expected);
      }
      if (v === null || typeof v !== 'object' || Array.isArray(v)) throw fail(expected);
      return v;
    }
    default:
      if (typeof value !== 'string') throw fail('a string');
      if (spec.choices && !spec.choices.includes(value)) throw fail(`one of ${spec.choices.join('|')}`);
      return value;
  }
}
