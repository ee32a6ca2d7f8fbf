/**
 * What a flag type means, as one object per type (a {@link FlagKind}): how its command-line text
 * is read, how a JSON value of it is checked, its JSON Schema, its help text, its clispec type, how
 * a value is written back as arguments, and what shell completion offers. The kinds are collected
 * in index.ts, one per {@link FlagType}; this module holds the interface and what kinds share.
 * Where a new type goes: docs/architecture.md#a-new-flag-type. Source: spf13/pflag.
 */
import type { AxError } from '../../contract/errors.ts';
import type { FlagSpec } from '../flag-spec.ts';
import { invalidFlagValue, parseGoInt } from '../flag-text.ts';

/** A JSON Schema node (2020-12). */
export type SchemaNode = Record<string, unknown>;

/** Makes the error for a JSON value of the wrong shape; `expected` says what was expected ("an array of integers"). */
export type JsonFail = (expected: string) => AxError;

/**
 * Everything ax-ts does with a flag that depends on its type. `V` is the value a handler gets
 * (FlagValueOf). Members are required: a type is taught everything or it does not compile.
 */
export interface FlagKind<V = unknown> {
  // --- the declaration
  /**
   * pflag's boolFlag: alone it means true, `--name=false` sets false; only such a flag may be
   * `negatable`, and an author's flag named `help` is the help flag only when it is one (Cobra).
   */
  readonly boolFlag: boolean;
  /**
   * Whether the flag consumes a value when given alone (`--name value`): false for bool and count,
   * which may not declare a `noOptDefVal` either.
   */
  readonly takesValue: boolean;
  /**
   * How occurrences combine: `replace` (the last wins), `append` (a list), `merge` (a `key=value`
   * map), `count` (each adds one). All but `replace` may repeat.
   */
  readonly repeat: 'replace' | 'append' | 'merge' | 'count';
  /** Whether one occurrence is split on commas (pflag's CSV reading): every slice but stringArray. */
  readonly csv: boolean;
  /** Whether a declaration may give `choices` (the string kinds). */
  readonly choices: boolean;
  /** Whether a declaration may give a JSON Schema of the value (`schema`: json only). */
  readonly declaresSchema: boolean;

  // --- values
  /**
   * The value of a flag neither given nor defaulted: pflag's zero value (false, 0, [], {}), or
   * undefined ("not given").
   */
  zero(): V | undefined;
  /** The value a declared default gives the handler (a fresh copy of an object; a duration's Go text as ms). */
  fromDefault(d: unknown): V;
  /**
   * Reads one occurrence's text into the value so far, as pflag's `Value.Set` (`prev` is the value
   * after the earlier occurrences, unused when `first`).
   * @param raw the text after `=` or the next word; undefined for a bare occurrence without a `noOptDefVal`.
   * @throws AxError `validation_error` (reason `invalid_flag_value`) in pflag's words.
   */
  fromText(name: string, spec: FlagSpec, prev: unknown, raw: string | undefined, first: boolean): V;
  /**
   * Checks a value sent as JSON (MCP arguments, `--args-json`, a config file) against the type,
   * parsing no text but durations and json's JSON text. @throws what `fail` makes.
   */
  fromJson(spec: FlagSpec, value: unknown, fail: JsonFail): unknown;
  /**
   * A config file's spelling of a value, as {@link fromJson} takes it (a map's JSON object becomes
   * `{key, value}` items).
   */
  fromConfig(value: unknown): unknown;
  /**
   * The command-line words that give a flag `--name` this value again, read back by
   * {@link fromText} (`--name=1m30s`, one `--name=x` per list item).
   */
  toArgv(name: string, value: V): string[];

  // --- the inputSchema (MCP tools, `--args-json`)
  /** The JSON Schema of the value (type, items, enum for choices, additionalProperties). */
  valueSchema(spec: FlagSpec): SchemaNode;
  /** A declared default as the schema shows it (durations as `<ms>ms`, maps as `{key, value}` items). */
  schemaDefault(d: unknown, spec: FlagSpec): unknown;
  /** Notes the property description ends with (` (a duration such as …)`), or ''. */
  schemaNotes(spec: FlagSpec): string;

  // --- help and the clispec document
  /** The value's name in a help line, pflag's UnquoteUsage (`strings`, `int`, `duration`; '' for bool). */
  readonly helpName: string;
  /** Whether help quotes a NoOptDefVal (`[="auto"]`, pflag does for string flags) or not (`[=9]`). */
  readonly quotesNoOptDefVal: boolean;
  /**
   * A non-zero default as help's ` (default …)` prints it, Go's way (`"x"`, `1m30s`, `[a,b]`,
   * `[k=v]`); '' to print none.
   */
  helpDefault(d: unknown): string;
  /** The clispec (v0.3) `type` of the flag. */
  readonly clispecType: string;

  // --- shell completion
  /** The values completion offers when the flag declares none (`true`/`false` for bool). */
  readonly completeValues: readonly string[] | undefined;
  /** Whether completion falls back to file names (string kinds) rather than nothing (numbers). */
  readonly completeFiles: boolean;
}

/**
 * What a kind a positional argument may have (an `ArgType`) adds: how a word of the command line
 * is read as the argument's value. Everything else — the JSON check (`fromJson`), the inputSchema
 * (`valueSchema`), the clispec type — is the kind's, as for a flag. Positionals read words more
 * strictly than pflag reads a flag's text (an `int` is decimal digits only): ax-go has untyped
 * positionals, so these rules are ax-ts's own (docs/contract.md#positional-arguments-and---).
 */
export interface PositionalKind<V> {
  /** The value a word gives the handler (`ctx.args`), or null when the word is not one of this kind. */
  fromWord(word: string): V | null;
  /**
   * Whether a refused word, or a refused JSON number, is a whole number beyond ±2^53 (JavaScript
   * holds integers exactly only that far): the error then says `within ±2^53`, as a flag's does.
   */
  pastRange(value: string | number): boolean;
  /** One value as an error names what was expected: `an integer`, `a number`, `a string`. */
  readonly expected: string;
  /** Several, as a list's error names them: `integers`, `numbers`, `strings`. */
  readonly expectedItems: string;
  /** What help prints after the argument's description: `(integer)`, or nothing for a string. */
  readonly helpNote: string;
}

/** A kind a positional argument may have: a flag kind and how it reads a command-line word. */
export interface ArgKind<V = unknown> extends FlagKind<V> {
  /** How a command-line word is read as a positional of this kind. */
  readonly positional: PositionalKind<V>;
}

/** Why a text or item was refused and what was expected, in pflag's words: `[why, expected]`. */
export type Invalid = readonly [why: string, expected: string];

/** pflag's reason for an integer that does not parse (int, count, intSlice, stringToInt values). */
export const INTEGER: Invalid = ['must be an integer', 'an integer'];
/** pflag's reason for an unsigned integer that does not parse (uint, uintSlice). */
export const NON_NEGATIVE: Invalid = ['must be a non-negative integer', 'a non-negative integer'];
/** pflag's reason for a float that does not parse (float, floatSlice). */
export const NUMBER: Invalid = ['must be a number', 'a number'];
/** pflag's reason for a bool that does not parse (bool, boolSlice). */
export const BOOLEAN: Invalid = ['must be true or false', 'a boolean (true or false)'];
/** The reason for a duration that does not parse (duration, durationSlice). */
export const DURATION: Invalid = ['must be a duration like "30s" or "5m"', 'a duration such as 300ms, 1m30s or 2h'];

/**
 * Refuses a flag's text (pflag's InvalidValueError); `range` for a whole number beyond ±2^53
 * (JavaScript numbers are exact only that far), which gets its own reason.
 */
export function refuse(name: string, spec: FlagSpec, raw: string, [why, expected]: Invalid, range = false): never {
  if (range) throw invalidFlagValue(name, spec.short, raw, `${why} within ±2^53`, `${expected} within ±2^53`);
  throw invalidFlagValue(name, spec.short, raw, why, expected);
}

/** An integer item of an occurrence (`raw`), read by `parse` (Go's ParseInt/ParseUint/Atoi forms). */
export function intOf(
  name: string,
  spec: FlagSpec,
  raw: string,
  item: string,
  parse: (text: string) => number | null,
  invalid: Invalid,
): number {
  const n = parse(item);
  if (n === null || Number.isNaN(n)) refuse(name, spec, raw, invalid, n !== null);
  return n;
}

/** Go's `strconv.ParseInt(s, 0, 64)`. */
export const goInt = (text: string) => parseGoInt(text);
/** Go's `strconv.ParseUint(s, 0, 64)`. */
export const goUint = (text: string) => parseGoInt(text, true);

/** Refuses a value outside the declared choices. */
export function checkChoice(name: string, spec: FlagSpec, value: string, raw = value): void {
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

/** A copy of an object value (so no handler or document shares, or can change, a declaration's own), else the value. */
export function copyOf<V>(d: unknown): V {
  return (typeof d === 'object' && d !== null ? structuredClone(d) : d) as V;
}

/**
 * A value as Go's `%v` prints a default in help: `[a,b]` for a list (each item by `item`), JSON for
 * an object, else its text.
 */
export function goText(d: unknown, item: (x: unknown) => string = String): string {
  if (Array.isArray(d)) return `[${d.map(item).join(',')}]`;
  return typeof d === 'object' ? JSON.stringify(d) : String(d);
}

/** The `--name=<text>` word. */
export const word = (name: string, text: string) => `--${name}=${text}`;

/** What every kind of one value shares; each kind spreads it and adds its own. */
export const ONE_VALUE = {
  boolFlag: false,
  takesValue: true,
  repeat: 'replace',
  csv: false,
  choices: false,
  declaresSchema: false,
  zero: () => undefined,
  fromDefault: copyOf,
  fromConfig: (v: unknown) => v,
  schemaDefault: copyOf,
  schemaNotes: () => '',
  quotesNoOptDefVal: false,
  helpDefault: (d: unknown) => goText(d),
  completeValues: undefined,
  completeFiles: false,
} as const;
