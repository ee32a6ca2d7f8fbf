/**
 * The json kind — beyond pflag, for object-valued options that agents pass as structured data. On
 * the command line the value is JSON text; over JSON it is the value itself when the flag declares
 * a `schema` (checked against it before the handler runs), else a string of JSON text holding an
 * object, the one spelling every model provider's converter keeps usable (docs/schema.md).
 */
import { MAX_INPUT_DEPTH, nestsDeeperThan } from '../../contract/depth.ts';
import { invalidFlagValue } from '../flag-text.ts';
import { copyOf, ONE_VALUE, refuse, word, type FlagKind, type Invalid } from './kind.ts';

const OBJECT: Invalid = ['must be a JSON object', 'a JSON object'];

const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** json: one JSON object (any JSON value with a declared `schema`). */
export const jsonKind: FlagKind<unknown> = {
  ...ONE_VALUE,
  declaresSchema: true,
  fromText: (name, spec, _prev, raw) => {
    const text = raw ?? '';
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      if (spec.schema)
        throw invalidFlagValue(
          name,
          spec.short,
          text,
          'invalid JSON',
          "JSON matching the flag's schema (see __schema)",
        );
      refuse(name, spec, text, OBJECT);
    }
    // with a declared schema any JSON value may do (the schema is checked before the handler runs)
    if (!spec.schema && !isObject(v)) refuse(name, spec, text, OBJECT);
    if (nestsDeeperThan(v))
      throw invalidFlagValue(
        name,
        spec.short,
        `${text.slice(0, 40)}…`,
        `nested more than ${MAX_INPUT_DEPTH} levels deep`,
        `a JSON object nested at most ${MAX_INPUT_DEPTH} levels deep`,
      );
    return v;
  },
  fromJson: (spec, value, fail) => {
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
    if (!isObject(v)) throw fail(expected);
    return v;
  },
  toArgv: (name, v) => [word(name, JSON.stringify(v))],
  valueSchema: (spec) => {
    if (!spec.schema) return { type: 'string' };
    const { $schema: _drop, ...declared } = structuredClone(spec.schema);
    return declared;
  },
  // without a schema the value is JSON text over MCP, and so is its default
  schemaDefault: (d, spec) => (spec.schema ? copyOf(d) : JSON.stringify(d)),
  schemaNotes: (spec) => (spec.schema ? '' : ' (a JSON object written as JSON text, e.g. "{\\"key\\": \\"value\\"}")'),
  helpName: 'json',
  clispecType: 'object',
};
