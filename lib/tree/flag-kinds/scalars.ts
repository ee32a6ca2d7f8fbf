/**
 * The kinds of one value: string, bool, int, uint, float, duration and count, as pflag's string.go,
 * bool.go, int.go, uint.go, float64.go, duration.go and count.go read them (Go's ParseInt/ParseUint
 * base 0, ParseBool, ParseFloat, time.ParseDuration; durations held as milliseconds).
 */
import { durationArg, goDuration, parseDuration, parseGoBool, parseGoFloat } from '../flag-text.ts';
import {
  BOOLEAN,
  checkChoice,
  copyOf,
  DURATION,
  goInt,
  goText,
  goUint,
  INTEGER,
  intOf,
  NON_NEGATIVE,
  NUMBER,
  ONE_VALUE,
  refuse,
  word,
  type ArgKind,
  type FlagKind,
} from './kind.ts';

const isInteger = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/** pflag's string: the text as given, from `choices` when declared; a positional's word as given. */
export const stringKind: ArgKind<string> = {
  ...ONE_VALUE,
  choices: true,
  fromText: (name, spec, _prev, raw) => {
    const v = raw ?? '';
    checkChoice(name, spec, v);
    return v;
  },
  fromJson: (spec, value, fail) => {
    if (typeof value !== 'string') throw fail('a string');
    if (spec.choices && !spec.choices.includes(value)) throw fail(`one of ${spec.choices.join('|')}`);
    return value;
  },
  toArgv: (name, v) => [word(name, v)],
  valueSchema: (spec) => (spec.choices ? { type: 'string', enum: [...spec.choices] } : { type: 'string' }),
  helpName: 'string',
  quotesNoOptDefVal: true,
  helpDefault: (d) => JSON.stringify(d),
  clispecType: 'string',
  completeFiles: true,
  positional: {
    fromWord: (w) => w,
    pastRange: () => false,
    expected: 'a string',
    expectedItems: 'strings',
    helpNote: '',
  },
};

/** pflag's bool: alone true, else Go's ParseBool (any case). */
export const boolKind: FlagKind<boolean> = {
  ...ONE_VALUE,
  boolFlag: true,
  takesValue: false,
  zero: () => false,
  fromText: (name, spec, _prev, raw) => {
    if (raw === undefined) return true;
    const b = parseGoBool(raw.trim()) ?? parseGoBool(raw.trim().toLowerCase());
    if (b === null) refuse(name, spec, raw, BOOLEAN);
    return b;
  },
  fromJson: (_spec, value, fail) => {
    if (typeof value !== 'boolean') throw fail('a boolean');
    return value;
  },
  toArgv: (name, v) => [v === false ? word(name, 'false') : `--${name}`],
  valueSchema: () => ({ type: 'boolean' }),
  helpName: '',
  clispecType: 'boolean',
  completeValues: ['true', 'false'],
};

/** A whole decimal number, signed or not (a positional `int`'s word, trimmed). */
const DECIMAL = /^[+-]?\d+$/;

/** pflag's int: Go's ParseInt(s, 0, 64) forms, safe JavaScript integers only. */
const intFlag: FlagKind<number> = {
  ...ONE_VALUE,
  fromText: (name, spec, _prev, raw) => intOf(name, spec, raw ?? '', raw ?? '', goInt, INTEGER),
  fromJson: (_spec, value, fail) => {
    if (!isInteger(value)) throw fail('an integer');
    return value;
  },
  toArgv: (name, v) => [word(name, String(v))],
  valueSchema: () => ({ type: 'integer' }),
  helpName: 'int',
  clispecType: 'integer',
};

/** An int flag; a positional `int` is a decimal word (no Go prefixes), a safe JavaScript integer. */
export const intKind: ArgKind<number> = {
  ...intFlag,
  positional: {
    fromWord: (w) => {
      const s = w.trim();
      return DECIMAL.test(s) && Number.isSafeInteger(Number(s)) ? Number(s) : null;
    },
    pastRange: (v) => (typeof v === 'number' ? Number.isInteger(v) : DECIMAL.test(v.trim())),
    expected: 'an integer',
    expectedItems: 'integers',
    helpNote: '(integer)',
  },
};

/** pflag's uint: Go's ParseUint(s, 0, 64) forms; over JSON a non-negative integer. */
export const uintKind: FlagKind<number> = {
  ...intFlag,
  fromText: (name, spec, _prev, raw) => intOf(name, spec, raw ?? '', raw ?? '', goUint, NON_NEGATIVE),
  fromJson: (_spec, value, fail) => {
    if (!isInteger(value) || value < 0) throw fail('a non-negative integer');
    return value;
  },
  valueSchema: () => ({ type: 'integer', minimum: 0 }),
  helpName: 'uint',
};

/**
 * pflag's float64: Go's ParseFloat decimal forms, finite. A positional `float` is any word
 * JavaScript's `Number` reads as a finite number.
 */
export const floatKind: ArgKind<number> = {
  ...ONE_VALUE,
  fromText: (name, spec, _prev, raw) => {
    const n = parseGoFloat((raw ?? '').trim());
    if (n === null) refuse(name, spec, raw ?? '', NUMBER);
    return n;
  },
  fromJson: (_spec, value, fail) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) throw fail('a number');
    return value;
  },
  toArgv: (name, v) => [word(name, String(v))],
  valueSchema: () => ({ type: 'number' }),
  helpName: 'float',
  clispecType: 'number',
  positional: {
    fromWord: (w) => {
      const s = w.trim();
      const n = Number(s);
      return s !== '' && Number.isFinite(n) ? n : null;
    },
    pastRange: () => false,
    expected: 'a number',
    expectedItems: 'numbers',
    helpNote: '(number)',
  },
};

/** The description note of a duration (and, per item, of a durationSlice). */
export const DURATION_NOTE = 'a duration such as 300ms, 1m30s or 2h';

/** pflag's duration: Go's time.ParseDuration text (a unit required), held as milliseconds. */
export const durationKind: FlagKind<number> = {
  ...ONE_VALUE,
  // a default may be Go's text ('1m30s')
  fromDefault: (d) => (typeof d === 'string' ? parseDuration(d) : copyOf(d)),
  fromText: (name, spec, _prev, raw) => {
    const ms = parseDuration(raw ?? '');
    if (Number.isNaN(ms)) refuse(name, spec, raw ?? '', DURATION);
    return ms;
  },
  fromJson: (_spec, value, fail) => {
    const ms = typeof value === 'string' ? parseDuration(value) : NaN;
    if (Number.isNaN(ms)) throw fail(`a duration string such as 300ms, 1m30s or 2h`);
    return ms;
  },
  toArgv: (name, v) => [word(name, durationArg(v))],
  valueSchema: () => ({ type: 'string' }),
  schemaDefault: (d) => (typeof d === 'number' ? `${d}ms` : copyOf(d)),
  schemaNotes: () => ` (${DURATION_NOTE})`,
  helpName: 'duration',
  helpDefault: (d) => (typeof d === 'number' ? goDuration(d) : goText(d)),
  clispecType: 'duration',
};

/** pflag's count: each bare occurrence adds one, `--name=3` sets it. */
export const countKind: FlagKind<number> = {
  ...intFlag,
  takesValue: false,
  repeat: 'count',
  zero: () => 0,
  // pflag's countValue starts at the default and each bare occurrence adds one; `--v=3` sets it
  fromText: (name, spec, prev, raw, first) => {
    if (raw === undefined) return (first ? ((spec.default as number | undefined) ?? 0) : (prev as number)) + 1;
    return intOf(name, spec, raw, raw, goInt, INTEGER);
  },
  helpName: 'count',
};
