/**
 * The output-schema check (lib/parse/output-check.ts; docs/contract.md "Output schema"): the keywords
 * it checks itself give Ajv's verdict (JSON Schema 2020-12, the validator every MCP client uses) on a
 * table of schemas and values, including the corners (integers, code-point lengths, `u`-flag
 * patterns, nested anyOf/oneOf, JSON's view of a Date and of undefined); a schema with any other
 * keyword goes to Ajv with ajv-formats; a misfit names the field; stream items are checked one by
 * one, before each is written. And `run` is typed from a `const` schema: the `@ts-expect-error`
 * lines below are compile errors, which `npx tsc --noEmit -p .` holds (an unused one fails it).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { Command } from '../../lib/index.ts';
import { checkedHere, misfit } from '../../lib/parse/output-check.ts';
import { schemaMisfit } from '../../lib/parse/arguments.ts';
import { runCli, jsonLines } from '../helpers/run.ts';

type Json = Record<string, any>;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  a: Ajv2020,
) => void;
const ajv = new Ajv2020({ strict: false });
addFormats(ajv);

const OBJ = {
  type: 'object',
  properties: {
    id: { type: 'integer', minimum: 1 },
    name: { type: 'string', minLength: 2, maxLength: 4, pattern: '^\\p{L}+$' },
    tags: { type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true },
    due: { anyOf: [{ type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }, { type: 'null' }] },
    kind: { enum: ['a', 'b', 1] },
    fixed: { const: { x: [1, 2] } },
    ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.25 },
    either: { oneOf: [{ type: 'integer' }, { type: 'number', minimum: 10 }] },
    both: { allOf: [{ type: 'string' }, { not: { const: 'no' } }] },
    pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
    extra: { type: 'object', additionalProperties: { type: 'boolean' }, minProperties: 1, maxProperties: 2 },
  },
  required: ['id'],
  additionalProperties: false,
};

const VALUES: unknown[] = [
  { id: 1 },
  { id: 0 },
  { id: 1.5 },
  { id: 2 ** 53 },
  { id: '1' },
  {},
  { id: 1, surprise: true },
  { id: 1, name: 'éé' },
  { id: 1, name: '😀😀' }, // two code points, four UTF-16 units
  { id: 1, name: 'é' },
  { id: 1, name: 'abcde' },
  { id: 1, name: 'ab1' },
  { id: 1, tags: [] },
  { id: 1, tags: ['a', 'a'] },
  { id: 1, tags: ['a', 2] },
  { id: 1, due: null },
  { id: 1, due: '2030-01-31' },
  { id: 1, due: 'soon' },
  { id: 1, kind: 1 },
  { id: 1, kind: '1' },
  { id: 1, fixed: { x: [1, 2] } },
  { id: 1, fixed: { x: [2, 1] } },
  { id: 1, ratio: 0.5 },
  { id: 1, ratio: 0.3 },
  { id: 1, ratio: 1 },
  { id: 1, either: 3 },
  { id: 1, either: 12 },
  { id: 1, either: 3.5 },
  { id: 1, both: 'yes' },
  { id: 1, both: 'no' },
  { id: 1, pair: ['a', 1] },
  { id: 1, pair: ['a', 1, 2] },
  { id: 1, pair: [1, 'a'] },
  { id: 1, extra: { a: true } },
  { id: 1, extra: { a: 1 } },
  { id: 1, extra: {} },
  { id: 1, extra: { a: true, b: true, c: true } },
  null,
  [],
  'text',
];

describe('the checked keywords give Ajv’s verdict', () => {
  it('the table schema is checked here (no Ajv needed), and every value gets the same verdict as Ajv', () => {
    expect(checkedHere(OBJ)).toBe(true);
    const validate = ajv.compile(OBJ);
    for (const v of VALUES) expect({ v, fits: misfit(OBJ, v) === undefined }).toEqual({ v, fits: validate(v) });
  });

  it('values as JSON sees them: a Date is its ISO string, an undefined property is absent, an undefined item null', () => {
    const s = {
      type: 'object',
      properties: { at: { type: 'string' }, list: { type: 'array', items: { type: 'null' } } },
      required: ['at'],
    };
    expect(misfit(s, { at: new Date(0), gone: undefined, list: [undefined] })).toBeUndefined();
    expect(misfit({ ...s, additionalProperties: false }, { at: 'x', gone: undefined })).toBeUndefined();
    expect(misfit(s, { at: undefined })).toMatchObject({ keyword: 'required' });
    expect(misfit({ type: 'number' }, Number.NaN)).toMatchObject({ keyword: 'type' }); // JSON has no NaN
  });

  it('a misfit names the field (a JSON Pointer) and the keyword', () => {
    expect(misfit(OBJ, { id: 1, tags: ['a', 2] })).toEqual({
      path: '/tags/1',
      keyword: 'type',
      message: 'must be string',
    });
    expect(misfit(OBJ, { id: 1, surprise: 1 })).toMatchObject({ path: '/surprise', keyword: 'additionalProperties' });
    expect(misfit({ type: 'object', properties: { 'a/b': { type: 'string' } } }, { 'a/b': 1 })).toMatchObject({
      path: '/a~1b',
    });
  });

  it('a keyword it does not check sends the schema to Ajv, with formats', () => {
    for (const s of [
      { type: 'string', format: 'date-time' },
      { $ref: '#/$defs/x', $defs: { x: {} } },
      { patternProperties: {} },
      { type: 'string', pattern: '(' },
    ])
      expect(checkedHere(s), JSON.stringify(s)).toBe(false);
    expect(schemaMisfit({ type: 'string', format: 'date-time' }, '2030-01-31T10:00:00Z')).toBeUndefined();
    expect(schemaMisfit({ type: 'string', format: 'date-time' }, 'yesterday')).toMatchObject({ keyword: 'format' });
    expect(schemaMisfit({ type: 'object', properties: { u: { format: 'uuid' } } }, { u: 'x' })).toMatchObject({
      path: '/u',
    });
  });
});

describe('at run time, on the command line', () => {
  const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
  const tree = () =>
    new Command({
      use: 'app',
      commands: [
        new Command({ use: 'ok', output: { schema }, run: () => ({ n: 1 }) }),
        new Command({ use: 'none', output: { schema }, run: () => undefined }),
        new Command({
          use: 'items',
          output: { schema, kind: 'stream' },
          run: function* () {
            yield { n: 1 };
            yield { n: 'two' };
          },
        }),
        new Command({ use: 'opaque', output: { kind: 'opaque', schema }, run: () => 'anything' }),
      ],
    });

  it('a fitting payload passes; nothing returned is null, which must fit too', async () => {
    expect((await runCli(tree(), ['ok'])).code).toBe(0);
    const none = await runCli(tree(), ['none']);
    expect(none.code).toBe(1);
    expect(JSON.parse(none.stderr.trim()).error.context).toEqual({
      reason: 'output_schema_mismatch',
      path: '/',
      keyword: 'type',
    });
  });

  it('a stream is checked item by item, before each is written: the items before the misfit stand', async () => {
    const r = await runCli(tree(), ['items']);
    expect(r.code).toBe(1);
    expect(jsonLines(r.stdout).map((l: Json) => l.data)).toEqual([{ n: 1 }]);
    expect(JSON.parse(r.stderr.trim()).error.context).toEqual({
      reason: 'output_schema_mismatch',
      path: '/n',
      keyword: 'type',
      item: 1,
    });
  });

  it('opaque output is not checked (it has no payload schema)', async () => {
    expect((await runCli(tree(), ['opaque'])).code).toBe(0);
  });
});

describe('run is typed from a const schema', () => {
  it('a mismatch is a compile error; a match, an async handler and a stream of items compile', () => {
    const schema = {
      type: 'object',
      properties: { id: { type: 'string' }, n: { type: 'integer' } },
      required: ['id'],
      additionalProperties: false,
    } as const;
    // @ts-expect-error -- id must be a string: TypeScript refuses the handler
    const wrong = new Command({ use: 'a', output: { schema }, run: () => ({ id: 42 }) });
    // @ts-expect-error -- id is required
    const missing = new Command({ use: 'b', output: { schema }, run: () => ({ n: 1 }) });
    const right = new Command({ use: 'c', output: { schema }, run: async () => ({ id: 'x', n: 1 }) });
    const stream = new Command({
      use: 'd',
      output: { schema, kind: 'stream' },
      run: async function* () {
        yield { id: 'x' };
      },
    });
    // a schema TypeScript cannot read (built at run time) constrains nothing
    const loose: Record<string, unknown> = { type: 'object' };
    const free = new Command({ use: 'e', output: { schema: loose }, run: () => 42 });
    expect([wrong, missing, right, stream, free].map((c) => c.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});
