/**
 * Reading flag text the way pflag does: Go's `strconv.ParseInt(s, 0, …)` / `ParseUint` / `ParseBool`
 * forms, pflag's CSV reading of slices and its `key=value` maps, and pflag's human-readable error
 * messages (`invalid argument "x" for "-i, --int" flag: must be an integer`).
 * Source: spf13/pflag (int.go, uint.go, bool_slice.go, string_to_string.go, string_to_int.go,
 * errors.go); Go strconv (ParseInt base 0, underscoreOK).
 */
import { validationError, type AxError } from '../contract/errors.ts';

/**
 * Parses an integer like Go's `strconv.ParseInt(s, 0, 64)`: optional sign, then decimal, `0x`/`0X`
 * hex, `0o`/`0O` octal, `0b`/`0B` binary, or a leading `0` for octal (`0755`); underscores only
 * between digits (`1_000`, `0x_ff`). No surrounding spaces. Beyond Go: the result must be a safe
 * JavaScript integer (±2^53−1).
 * @param unsigned refuse a sign (Go's ParseUint).
 * @returns the number, `null` when the text is not an integer, `NaN` when it is one but out of range.
 */
export function parseGoInt(text: string, unsigned = false): number | null {
  let s = text;
  let neg = false;
  if (!unsigned && (s[0] === '+' || s[0] === '-')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  let digits: string;
  if (/^0[xX](_?[0-9a-fA-F])+$/.test(s)) digits = `0x${s.slice(2)}`;
  else if (/^0[oO](_?[0-7])+$/.test(s)) digits = `0o${s.slice(2)}`;
  else if (/^0[bB](_?[01])+$/.test(s)) digits = `0b${s.slice(2)}`;
  else if (/^0(_?[0-7])*$/.test(s)) digits = `0o${s.slice(1) || '0'}`;
  else if (/^[1-9](_?[0-9])*$/.test(s)) digits = s;
  else return null;
  const big = BigInt(digits.replace(/_/g, ''));
  const n = Number(neg ? -big : big);
  return Number.isSafeInteger(n) ? n : NaN;
}

/**
 * Go's `strconv.Atoi` (pflag's intSlice items, stringToInt values): optional sign and decimal
 * digits only. Same results as {@link parseGoInt}.
 */
export function parseGoAtoi(text: string): number | null {
  if (!/^[+-]?\d+$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : NaN;
}

/** Go's `strconv.ParseBool`: `1 t T TRUE true True` / `0 f F FALSE false False`; else null. */
export function parseGoBool(text: string): boolean | null {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  return null;
}

/** Go's `strconv.ParseFloat(s, 64)` for the decimal forms: finite numbers, optional exponent, `_` between digits. */
export function parseGoFloat(text: string): number | null {
  if (!/^[+-]?((\d(_?\d)*)(\.(\d(_?\d)*)?)?|\.\d(_?\d)*)([eE][+-]?\d+)?$/.test(text)) return null;
  const n = Number(text.replace(/_/g, ''));
  return Number.isFinite(n) ? n : null;
}

/** How pflag names a flag in a value error: `-i, --int` with a shorthand, else `--int`. */
export function pflagName(name: string, short?: string): string {
  return short ? `-${short}, --${name}` : `--${name}`;
}

/**
 * pflag's InvalidValueError as an AxError (reason `invalid_flag_value`, exit 2): the message is
 * pflag's `invalid argument "<raw>" for "<-s, --name>" flag: <why>`; `expected` goes to the context.
 */
export function invalidFlagValue(
  name: string,
  short: string | undefined,
  raw: string,
  why: string,
  expected: string,
  fix?: string,
): AxError {
  return validationError(
    `invalid argument ${JSON.stringify(raw)} for ${JSON.stringify(pflagName(name, short))} flag: ${why}`,
    'invalid_flag_value',
    {
      context: { flag: `--${name}`, value: raw, expected },
      fix: fix ?? `Pass ${expected} to --${name}.`,
    },
  );
}

/**
 * Reads one `stringToString`/`stringToInt` occurrence like pflag: text with exactly one `=` is one
 * pair (surrounding double quotes trimmed, commas kept in the value); with several, the text is read
 * as CSV, each field one `key=value` pair.
 * @returns the pairs in order, or the offending field when one has no `=`.
 */
export function readPairs(
  text: string,
  splitCsv: (t: string) => string[],
): { pairs: [string, string][] } | { bad: string } {
  const count = text.split('=').length - 1;
  if (count === 0) return { bad: text };
  const fields = count === 1 ? [text.replace(/^"+|"+$/g, '')] : splitCsv(text);
  const pairs: [string, string][] = [];
  for (const f of fields) {
    const at = f.indexOf('=');
    if (at < 0) return { bad: f };
    pairs.push([f.slice(0, at), f.slice(at + 1)]);
  }
  return { pairs };
}

const DURATION_UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * Parses a Go duration string (`300ms`, `1.5h`, `2h45m`, `-1m`) into milliseconds. Like Go, a bare
 * number needs a unit (only `0` may stand alone): `--timeout 5` is refused rather than read as 5 ms.
 * Source: Go's time.ParseDuration.
 * @returns milliseconds, or NaN when the text is not a duration.
 */
export function parseDuration(text: string): number {
  const s = text.trim();
  if (/^[+-]?0+(\.0+)?$/.test(s)) return 0;
  const m = /^([+-])?((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+$/.exec(s);
  if (!m) return NaN;
  let total = 0;
  for (const part of s.replace(/^[+-]/, '').matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)) {
    total += Number(part[1]) * DURATION_UNITS[part[2]!]!;
  }
  return m[1] === '-' ? -total : total;
}

/** Splits one slice occurrence like pflag's CSV reader: commas separate, double quotes protect. */
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

/**
 * One field as {@link splitCsv} reads it back: quoted (inner quotes doubled) when it is empty or
 * holds a comma or a double quote, else as is.
 */
export function csvField(text: string): string {
  return text === '' || /[,"]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Go's time.Duration.String for a number of milliseconds (`1m30s`, `300ms`, `2h0m0s`), as pflag prints defaults. */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  let d = Math.abs(ms);
  const num = (x: number) => String(Number(x.toFixed(9)));
  if (d < 1) return d >= 1e-3 ? `${sign}${num(d * 1e3)}µs` : `${sign}${num(d * 1e6)}ns`;
  if (d < 1000) return `${sign}${num(d)}ms`;
  const h = Math.floor(d / 3_600_000);
  d -= h * 3_600_000;
  const m = Math.floor(d / 60_000);
  d -= m * 60_000;
  return `${sign}${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${num(d / 1000)}s`;
}

/**
 * A duration as command-line text that {@link parseDuration} reads back to exactly `ms`: Go's text
 * (`1m30s`, `2h0m0s`) when it does, else the milliseconds with their unit (`61001ms`; a decimal
 * second such as `1.001s` comes back a hair off in floating point).
 */
export function durationArg(ms: number): string {
  const go = goDuration(ms);
  return parseDuration(go) === ms ? go : `${ms}ms`;
}
