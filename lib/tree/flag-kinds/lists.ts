/**
 * The list kinds: stringSlice, stringArray, intSlice, uintSlice, boolSlice, floatSlice and durationSlice, as
 * pflag's *_slice.go and string_array.go read them. Each occurrence appends (the first replaces the
 * default); every slice splits an occurrence on commas (pflag's CSV reading), stringArray never does.
 * Over JSON a list is an array whose items are passed as they are: commas are not split there.
 */
import {
  csvField,
  durationArg,
  goDuration,
  parseDuration,
  parseGoAtoi,
  parseGoBool,
  parseGoFloat,
  splitCsv,
} from '../flag-text.ts';
import {
  BOOLEAN,
  checkChoice,
  copyOf,
  DURATION,
  goText,
  goUint,
  INTEGER,
  intOf,
  NON_NEGATIVE,
  NUMBER,
  ONE_VALUE,
  refuse,
  word,
  type FlagKind,
  type JsonFail,
} from './kind.ts';
import { DURATION_NOTE } from './scalars.ts';

const LIST_NOTE = ' (an array; each item is passed as is, commas are not split)';

/** What every list kind shares: it appends, starts empty, is an array in the schema. */
const LIST = {
  ...ONE_VALUE,
  repeat: 'append',
  csv: true,
  zero: () => [],
  schemaNotes: () => LIST_NOTE,
} as const;

/** The value after one occurrence's items: they replace the default on the first occurrence, then append. */
function appended<T>(prev: unknown, first: boolean, items: T[]): T[] {
  return first ? items : [...(prev as T[]), ...items];
}

/** A JSON array whose every item passes `ok`, copied; else what `fail` makes of `expected`. */
function arrayOf<T>(value: unknown, ok: (v: unknown) => v is T, fail: JsonFail, expected: string): T[] {
  if (!Array.isArray(value) || !value.every(ok)) throw fail(expected);
  return [...value];
}

/**
 * A list as words: one `--name=<item>` per item, each quoted for the CSV reading where it needs it
 * (`csv`), and an empty list as `--name=` (an empty occurrence holds no item).
 */
function listArgv(name: string, items: string[], csv = true): string[] {
  if (csv && items.length === 0) return [word(name, '')];
  return items.map((item) => word(name, csv ? csvField(item) : item));
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isInteger = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const isFinite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';

/** stringSlice and stringArray: strings, from the choices when declared. */
const STRINGS = {
  ...LIST,
  choices: true,
  fromJson: (spec, value, fail) => {
    const items = arrayOf(value, isString, fail, 'an array of strings');
    if (spec.choices)
      for (const v of items) if (!spec.choices.includes(v)) throw fail(`items from ${spec.choices.join('|')}`);
    return items;
  },
  valueSchema: (spec) => ({
    type: 'array',
    items: spec.choices ? { type: 'string', enum: [...spec.choices] } : { type: 'string' },
  }),
  completeFiles: true,
} as const satisfies Partial<FlagKind<string[]>>;

/** pflag's stringSlice: CSV items, from `choices` when declared. */
export const stringSliceKind: FlagKind<string[]> = {
  ...STRINGS,
  fromText: (name, spec, prev, raw, first) =>
    appended(
      prev,
      first,
      splitCsv(raw ?? '').map((item) => {
        checkChoice(name, spec, item, raw ?? '');
        return item;
      }),
    ),
  toArgv: (name, v) => listArgv(name, v),
  helpName: 'strings',
  clispecType: 'string[]',
};

/** pflag's stringArray: one item per occurrence, never split. */
export const stringArrayKind: FlagKind<string[]> = {
  ...STRINGS,
  csv: false,
  fromText: (name, spec, prev, raw, first) => {
    checkChoice(name, spec, raw ?? '');
    return appended(prev, first, [raw ?? '']);
  },
  toArgv: (name, v) => listArgv(name, v, false),
  helpName: 'stringArray',
  clispecType: 'string[]',
};

/** pflag's intSlice: CSV items read with Go's Atoi. */
export const intSliceKind: FlagKind<number[]> = {
  ...LIST,
  // pflag's intSlice reads items with Atoi: decimal only
  fromText: (name, spec, prev, raw, first) =>
    appended(
      prev,
      first,
      splitCsv(raw ?? '').map((item) => intOf(name, spec, raw ?? '', item.trim(), parseGoAtoi, INTEGER)),
    ),
  fromJson: (_spec, value, fail) => arrayOf(value, isInteger, fail, 'an array of integers'),
  toArgv: (name, v) => listArgv(name, v.map(String)),
  valueSchema: () => ({ type: 'array', items: { type: 'integer' } }),
  helpName: 'ints',
  clispecType: 'integer[]',
};

/** pflag's uintSlice: CSV items read with Go's ParseUint, help name `uints`. */
export const uintSliceKind: FlagKind<number[]> = {
  ...LIST,
  // pflag's uintSlice reads items with ParseUint(s, 0, 0): Go's forms (0x10, 0o17, 0b11, 1_000), no sign
  fromText: (name, spec, prev, raw, first) =>
    appended(
      prev,
      first,
      splitCsv(raw ?? '').map((item) => intOf(name, spec, raw ?? '', item.trim(), goUint, NON_NEGATIVE)),
    ),
  fromJson: (_spec, value, fail) =>
    arrayOf(value, (v): v is number => isInteger(v) && v >= 0, fail, 'an array of non-negative integers'),
  toArgv: (name, v) => listArgv(name, v.map(String)),
  valueSchema: () => ({ type: 'array', items: { type: 'integer', minimum: 0 } }),
  helpName: 'uints',
  clispecType: 'integer[]',
};

/** pflag's boolSlice: CSV items read with Go's ParseBool. */
export const boolSliceKind: FlagKind<boolean[]> = {
  ...LIST,
  // pflag's boolSlice drops quotes of any kind before reading the CSV
  fromText: (name, spec, prev, raw, first) =>
    appended(
      prev,
      first,
      splitCsv((raw ?? '').replace(/["'`]/g, '')).map((item) => {
        const b = parseGoBool(item.trim());
        if (b === null) refuse(name, spec, raw ?? '', BOOLEAN);
        return b;
      }),
    ),
  fromJson: (_spec, value, fail) => arrayOf(value, isBoolean, fail, 'an array of booleans'),
  toArgv: (name, v) => listArgv(name, v.map(String)),
  valueSchema: () => ({ type: 'array', items: { type: 'boolean' } }),
  helpName: 'bools',
  clispecType: 'boolean[]',
};

/** pflag's float64Slice: CSV items read with Go's ParseFloat. */
export const floatSliceKind: FlagKind<number[]> = {
  ...LIST,
  fromText: (name, spec, prev, raw, first) =>
    appended(
      prev,
      first,
      splitCsv(raw ?? '').map((item) => {
        const n = parseGoFloat(item.trim());
        if (n === null) refuse(name, spec, raw ?? '', NUMBER);
        return n;
      }),
    ),
  fromJson: (_spec, value, fail) => arrayOf(value, isFinite, fail, 'an array of numbers'),
  toArgv: (name, v) => listArgv(name, v.map(String)),
  valueSchema: () => ({ type: 'array', items: { type: 'number' } }),
  // pflag's Type() of a float64 slice, which UnquoteUsage leaves as it is
  helpName: 'float64Slice',
  clispecType: 'number[]',
};

/** pflag's durationSlice: CSV items of Go's duration text, held as milliseconds. */
export const durationSliceKind: FlagKind<number[]> = {
  ...LIST,
  fromText: (name, spec, prev, raw, first) =>
    appended(
      prev,
      first,
      splitCsv(raw ?? '').map((item) => {
        const ms = parseDuration(item);
        if (Number.isNaN(ms)) refuse(name, spec, raw ?? '', DURATION);
        return ms;
      }),
    ),
  // each item Go's text, read as milliseconds
  fromJson: (_spec, value, fail) => {
    const ms = Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? parseDuration(v) : NaN)) : [NaN];
    if (ms.some(Number.isNaN)) throw fail(`an array of duration strings such as 300ms, 1m30s or 2h`);
    return ms;
  },
  toArgv: (name, v) => listArgv(name, v.map(durationArg)),
  valueSchema: () => ({ type: 'array', items: { type: 'string' } }),
  schemaDefault: (d) => (Array.isArray(d) ? d.map((x) => (typeof x === 'number' ? `${x}ms` : x)) : copyOf(d)),
  schemaNotes: () => ` (each item ${DURATION_NOTE})${LIST_NOTE}`,
  helpName: 'durationSlice',
  helpDefault: (d) => goText(d, (x) => (typeof x === 'number' ? goDuration(x) : String(x))),
  clispecType: 'duration[]',
};
