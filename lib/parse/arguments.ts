/**
 * Validation of tool arguments against the advertised inputSchema with Ajv (JSON Schema 2020-12).
 * One Ajv instance per process, one compiled validator per tool, compiled on the tool's first call
 * (never the whole tree up front). Failures become `validation_error`s naming the MCP property.
 * Shared by MCP `tools/call` and `--args-json`, so both accept and refuse exactly the same input.
 * Loaded lazily (it imports ajv): ordinary runs and `__schema` never load it. See docs/schema.md.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Command } from '../tree/command.ts';
import { validationError, type AxError } from '../contract/errors.ts';
import type { JsonSchema } from './input-schema.ts';
import type { FlagSpec } from '../tree/flags.ts';
import { unknownPropertyError } from './validate.ts';
import { MAX_INPUT_DEPTH, nestsDeeperThan } from '../contract/depth.ts';

let ajv: Ajv2020 | undefined;
const cache = new WeakMap<Command, ValidateFunction>();

/** ajv-formats' plugin (a CommonJS module: its function is the default export, or that export's `default`). */
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

function instance(): Ajv2020 {
  if (ajv) return ajv;
  // validateSchema: false skips compiling the meta-schema on first use (10–25 ms); our schemas are generated.
  // strict: false — inputSchemas embed authors' own schemas (json flags), whose extra keywords are
  // annotations in 2020-12, not errors. logger: false — Ajv would print notes such as `unknown
  // format "x" ignored in schema` on the run's real stderr, outside the contract's lines.
  ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false, logger: false });
  // JSON Schema's formats (date-time, date, time, duration, uri, email, hostname, ipv4, ipv6, uuid,
  // regex…), checked as ajv-formats' "full" mode does; a format it does not know is ignored
  addFormats(ajv);
  return ajv;
}

const schemaValidators = new WeakMap<object, ValidateFunction>();

/**
 * The first misfit of a value against a JSON Schema (2020-12, formats checked), for the output
 * check of schemas that use keywords lib/parse/output-check.ts does not check itself.
 * @returns `{path, keyword, message}` (path a JSON Pointer into the value), or undefined when it fits.
 */
export function schemaMisfit(
  schema: Record<string, unknown>,
  value: unknown,
): { path: string; keyword: string; message: string } | undefined {
  let v = schemaValidators.get(schema);
  if (!v) {
    const { $schema: _drop, ...rest } = schema;
    v = instance().compile(rest);
    schemaValidators.set(schema, v);
  }
  if (v(value)) return undefined;
  const e = v.errors![0]!;
  const path =
    e.keyword === 'additionalProperties'
      ? `${e.instancePath}/${String((e.params as { additionalProperty: string }).additionalProperty)}`
      : e.instancePath;
  return { path, keyword: e.keyword, message: e.message ?? 'does not match the schema' };
}

/** The compiled validator of a command's inputSchema (cached per command). */
export function validatorFor(cmd: Command, schema: JsonSchema): ValidateFunction {
  let v = cache.get(cmd);
  if (!v) {
    v = instance().compile(schema);
    cache.set(cmd, v);
  }
  return v;
}

/**
 * Drops `null` values (null = not given) and returns the cleaned copy; a `null` for a required
 * property is dropped too, so validation then names it as missing.
 */
export function dropNulls(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    if (v === null) continue; // a null required property is then reported as missing, by name
    out[k] = v;
  }
  return out;
}

function propertyOf(e: ErrorObject): string {
  const path = e.instancePath.replace(/^\//, '').split('/')[0] ?? '';
  return path.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Turns the first Ajv error into a `validation_error` naming the MCP property. */
export function toValidationError(cmd: Command, e: ErrorObject): AxError {
  // inside a property's value (a json flag's declared schema), these keywords are about that value
  const nested = e.instancePath !== '';
  if (e.keyword === 'additionalProperties' && !nested)
    return unknownPropertyError(cmd, String((e.params as { additionalProperty: string }).additionalProperty));
  if (e.keyword === 'required' && !nested) {
    const prop = String((e.params as { missingProperty: string }).missingProperty);
    return validationError(`missing required property ${JSON.stringify(prop)}`, 'missing_required_property', {
      context: { property: prop, command: cmd.commandPath() },
      fix: `Give ${prop}.`,
    });
  }
  const prop = propertyOf(e) || '(arguments)';
  const where = e.instancePath.replace(/^\//, '').replace(/\//g, '.') || prop;
  return validationError(
    `invalid value for ${where}: ${e.message ?? 'does not match the schema'}`,
    'invalid_property_value',
    {
      context: {
        property: prop,
        keyword: e.keyword,
        command: cmd.commandPath(),
        ...(e.keyword === 'enum' ? { allowed: (e.params as { allowedValues: unknown[] }).allowedValues } : {}),
      },
      fix:
        e.keyword === 'enum'
          ? `Pass one of ${((e.params as { allowedValues: unknown[] }).allowedValues ?? []).map((x) => JSON.stringify(x)).join(', ')} as ${prop}.`
          : `Pass ${prop} as the inputSchema describes (${e.message ?? ''}).`,
    },
  );
}

/** The refusal of arguments nested deeper than {@link MAX_INPUT_DEPTH}: `validation_error` `too_deep`. */
export function tooDeepError(cmd: Command): AxError {
  return validationError(`tool arguments nest more than ${MAX_INPUT_DEPTH} levels deep`, 'too_deep', {
    context: { max_depth: MAX_INPUT_DEPTH, command: cmd.commandPath() },
    fix: `Send arguments nested at most ${MAX_INPUT_DEPTH} levels deep, shaped like the inputSchema.`,
  });
}

/**
 * Validates tool arguments. @returns the cleaned arguments (nulls dropped).
 * @throws AxError `validation_error` naming the property, before anything runs.
 */
export function validateArguments(cmd: Command, schema: JsonSchema, args: unknown): Record<string, unknown> {
  if (args === undefined || args === null) args = {};
  if (typeof args !== 'object' || Array.isArray(args)) {
    throw validationError('tool arguments must be a JSON object', 'invalid_arguments', {
      context: { command: cmd.commandPath() },
      fix: 'Send arguments as an object shaped like the inputSchema.',
    });
  }
  if (nestsDeeperThan(args)) throw tooDeepError(cmd);
  const known = (schema.properties ?? {}) as Record<string, unknown>;
  for (const k of Object.keys(args as object)) if (!Object.hasOwn(known, k)) throw unknownPropertyError(cmd, k);
  const infinite = nonFinite(args, '');
  if (infinite !== undefined) {
    const prop = infinite.split('.')[0]!;
    throw validationError(
      `invalid value for ${infinite}: the number is not finite (a ` +
        `JSON number beyond ±1.8e308, such as 1e309, reads as Infinity)`,
      'invalid_property_value',
      {
        context: { property: prop, keyword: 'finite', command: cmd.commandPath() },
        fix: `Pass ${prop} as a number within ±1.7976931348623157e308, as the inputSchema describes.`,
      },
    );
  }
  const cleaned = dropNulls(args as Record<string, unknown>);
  const v = validatorFor(cmd, schema);
  if (!v(cleaned)) throw toValidationError(cmd, v.errors![0]!);
  return cleaned;
}

/**
 * The dotted path of the first number in `v` that is not finite (JSON text such as `1e309` parses
 * to Infinity, which no JSON Schema number rule refuses and JSON.stringify writes as null).
 */
function nonFinite(v: unknown, at: string): string | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? undefined : at;
  if (typeof v !== 'object' || v === null) return undefined;
  for (const [k, x] of Object.entries(v)) {
    const found = nonFinite(x, at ? `${at}.${k}` : k);
    if (found !== undefined) return found;
  }
  return undefined;
}

const flagValidators = new WeakMap<object, ValidateFunction>();

/**
 * Checks a `json` flag's value against the flag's declared schema (argv and every other path, so a
 * value means the same wherever it comes from). No-op for flags without a schema.
 * @throws AxError `validation_error` (reason `invalid_flag_value`) naming `label` (`--meta` on the
 *   command line, `meta` under MCP) and the failing keyword.
 */
export function checkJsonFlag(label: string, spec: FlagSpec, value: unknown): void {
  if (!spec.schema) return;
  let v = flagValidators.get(spec.schema);
  if (!v) {
    const { $schema: _drop, ...schema } = spec.schema;
    v = instance().compile(schema);
    flagValidators.set(spec.schema, v);
  }
  if (v(value)) return;
  const e = v.errors![0]!;
  const where = e.instancePath ? `${label}${e.instancePath.replace(/\//g, '.')}` : label;
  throw validationError(
    `invalid value for ${where}: ${e.message ?? 'does not match its schema'}`,
    'invalid_flag_value',
    {
      context: { flag: label, keyword: e.keyword, path: e.instancePath },
      fix: `Pass ${label} as JSON matching its schema (see __schema: the flag's schema, or the tool's inputSchema).`,
    },
  );
}
