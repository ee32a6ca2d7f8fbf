/**
 * Flag values, as pflag reads them: one occurrence's text applied to the value so far (slices
 * accumulate, maps merge, counts count, choices checked), a value given as data (`--args-json`, MCP
 * arguments, config files) checked against its declaration, and a value written back as the
 * command-line words that give it again. Each flag type's own rules are its kind's (flag-kinds/).
 * Source: spf13/pflag (flag.go, *_slice.go, string_to_*.go).
 */
import { validationError } from '../contract/errors.ts';
import { kindOf } from './flag-kinds/index.ts';
import type { FlagSpec } from './flag-spec.ts';

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
  return kindOf(spec).fromText(name, spec, prev, raw, first);
}

/**
 * Checks a structured value (from MCP arguments or `--args-json`) against a flag's type without any
 * text parsing, so a value that looks like a flag stays a value and arrays keep their items. A map
 * is spelled as `{"key", "value"}` items (docs/schema.md#portability-of-the-inputschema); the result
 * is the object the handler gets.
 * @throws AxError `validation_error` naming `label` (the MCP property) when the value has the wrong type.
 */
export function checkFlagValue(label: string, spec: FlagSpec, value: unknown): unknown {
  const fail = (expected: string) =>
    validationError(`invalid value ${JSON.stringify(value)} for ${label}: expected ${expected}`, 'invalid_flag_value', {
      context: { property: label, expected },
      fix: `Pass ${expected} as ${label}.`,
    });
  return kindOf(spec).fromJson(spec, value, fail);
}

/**
 * Checks a value read from a config file: as {@link checkFlagValue}, except that a map may be the
 * file's natural JSON object (`{"a": "1"}`) as well as `{"key", "value"}` items.
 * @throws AxError `validation_error` naming `label` when the value has the wrong type.
 */
export function checkConfigValue(label: string, spec: FlagSpec, value: unknown): unknown {
  return checkFlagValue(label, spec, kindOf(spec).fromConfig(value));
}

/**
 * The command-line words that give flag `--name` the value `value` again (what the server that
 * `mcp-server --print-config` prints runs with): `--name=1m30s`, one `--name=<item>` per list item,
 * one `--name=k=v` per map pair, `--name` / `--name=false` for a bool, JSON text for json.
 */
export function flagArgv(name: string, spec: FlagSpec, value: unknown): string[] {
  return kindOf(spec).toArgv(name, value);
}
