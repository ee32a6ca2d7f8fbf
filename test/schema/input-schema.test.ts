/**
 * inputSchema mapping (docs/mcp-server.md#inputschema), effects → annotations and output.schema → outputSchema (docs/contract.md#effects-and-destructive),
 * the portable-subset lint and Ajv 2020 strict compilation of every tool of several trees —
 * all read from `__schema --as=mcp` through `execute`.
 */
import { describe, expect, it } from 'vitest';
import { Command, type FlagSpec } from '../../lib/index.ts';
import { inputSchema, MAX_DESCRIPTION } from '../../lib/parse/input-schema.ts';
import { outputSchema, toolDescription } from '../../lib/schema/tool.ts';
import { buildTasksCli } from '../../cmd/tasks/cli.ts';
import {
  compileAll,
  flat,
  kitchenSinkTree,
  lintTool,
  mcpDoc,
  schemaFailure,
  schemaRun,
  tool,
  type Json,
} from '../fixtures/schema-trees.ts';
import { expandAxDocument } from '../../lib/schema/ax-expand.ts';

const ok = () => ({ ok: true });

/** The inputSchema of the tool `t` of a one-command tree whose command has these flags. */
async function schemaWithFlags(
  flags: Record<string, FlagSpec>,
  extra: Partial<ConstructorParameters<typeof Command>[0]> = {},
): Promise<Json> {
  const root = new Command({ use: 'yourcli', commands: [new Command({ use: 't', run: ok, flags, ...extra })] });
  // optional properties are nullable (anyOf [value, null]); flat() shows each as its value schema
  return flat(tool(await mcpDoc(root), 't').inputSchema);
}

/** Every JSON Schema node reachable through properties/items. */
function* nodes(s: Json): Generator<Json> {
  if (!s || typeof s !== 'object') return;
  yield s;
  for (const v of Object.values<Json>(s.properties ?? {})) yield* nodes(v);
  if (s.items) yield* nodes(s.items);
}

describe('inputSchema: one row per flag type (docs/mcp-server.md#inputschema)', () => {
  it.each<[string, FlagSpec, Json]>([
    ['string', { type: 'string' }, { type: 'string' }],
    ['string with default', { type: 'string', default: 'anon' }, { type: 'string', default: 'anon' }],
    ['bool', { type: 'bool' }, { type: 'boolean' }],
    [
      'bool default true (negatable)',
      { type: 'bool', default: true, negatable: true },
      { type: 'boolean', default: true },
    ],
    ['int', { type: 'int', default: 80 }, { type: 'integer', default: 80 }],
    ['count', { type: 'count' }, { type: 'integer' }],
    ['float', { type: 'float', default: 0.25 }, { type: 'number', default: 0.25 }],
    ['duration (string default)', { type: 'duration', default: '1m30s' }, { type: 'string', default: '1m30s' }],
    ['duration (ms default)', { type: 'duration', default: 1500 }, { type: 'string', default: '1500ms' }],
    [
      'stringSlice',
      { type: 'stringSlice', default: ['a', 'b,c'] },
      { type: 'array', items: { type: 'string' }, default: ['a', 'b,c'] },
    ],
    ['stringArray', { type: 'stringArray' }, { type: 'array', items: { type: 'string' } }],
    ['intSlice', { type: 'intSlice', default: [1, 2] }, { type: 'array', items: { type: 'integer' }, default: [1, 2] }],
    [
      'string choices',
      { type: 'string', choices: ['x', 'y'], default: 'y' },
      { type: 'string', enum: ['x', 'y'], default: 'y' },
    ],
    [
      'stringSlice choices',
      { type: 'stringSlice', choices: ['p', 'q'] },
      { type: 'array', items: { type: 'string', enum: ['p', 'q'] } },
    ],
    [
      'stringArray choices',
      { type: 'stringArray', choices: ['p'] },
      { type: 'array', items: { type: 'string', enum: ['p'] } },
    ],
    ['json (no schema: JSON text)', { type: 'json' }, { type: 'string' }],
    [
      'json with object default (as JSON text)',
      { type: 'json', default: { a: [1] } },
      { type: 'string', default: '{"a":[1]}' },
    ],
    [
      'json with a declared schema',
      { type: 'json', schema: { type: 'array', items: { type: 'integer' } } },
      { type: 'array', items: { type: 'integer' } },
    ],
  ])('%s', async (_label, spec, expected) => {
    const s = await schemaWithFlags({ opt: spec });
    const { description, ...rest } = s.properties.opt;
    expect(rest).toEqual(expected);
    expect(typeof description).toBe('string');
    expect(description.length).toBeGreaterThan(0);
    expect(s.required).toBeUndefined();
  });

  it('defaults keep their JSON type (numbers are numbers, booleans booleans, arrays arrays)', async () => {
    const s = await schemaWithFlags({
      n: { type: 'int', default: 0 },
      f: { type: 'float', default: 1.5 },
      b: { type: 'bool', default: false },
      ids: { type: 'intSlice', default: [3] },
    });
    expect(s.properties.n.default).toBe(0);
    expect(s.properties.f.default).toBe(1.5);
    expect(s.properties.b.default).toBe(false);
    expect(s.properties.ids.default).toEqual([3]);
  });

  it('a flag without a default has no default key (bool false and count 0 are implicit)', async () => {
    const s = await schemaWithFlags({
      b: { type: 'bool' },
      c: { type: 'count' },
      s: { type: 'string' },
      l: { type: 'stringSlice' },
    });
    for (const k of ['b', 'c', 's', 'l']) expect(s.properties[k]).not.toHaveProperty('default');
  });

  it('the declared usage is the description; deprecations and durations are explained', async () => {
    const s = await schemaWithFlags({
      out: { type: 'string', usage: 'where to write' },
      old: { type: 'string', deprecated: 'use --out' },
      wait: { type: 'duration' },
    });
    expect(s.properties.out.description).toBe('where to write');
    expect(s.properties.old.description).toContain('deprecated: use out'); // MCP vocabulary: the property, not --out
    expect(s.properties.wait.description).toMatch(/duration/);
  });

  it('property descriptions stay within 2048 characters, keeping their notes (deprecation, positional index)', async () => {
    const huge = 'word '.repeat(1200);
    const root = new Command({
      use: 'yourcli',
      commands: [
        new Command({
          use: 't',
          run: ok,
          args: [
            { name: 'file', description: huge },
            { name: 'more', variadic: true, description: huge },
          ],
          flags: {
            long: { type: 'string', usage: huge },
            old: { type: 'duration', usage: huge, deprecated: 'use --new' },
          },
        }),
      ],
    });
    const t = tool(await mcpDoc(root), 't');
    expect(lintTool(t)).toEqual([]);
    const p = t.inputSchema.properties;
    for (const k of ['file', 'more', 'long', 'old']) {
      expect(p[k].description.length).toBeLessThanOrEqual(MAX_DESCRIPTION);
      expect(p[k].description).toContain('truncated');
    }
    expect(p.file.description.endsWith('(positional 1)')).toBe(true);
    expect(p.more.description.endsWith('(positional, variadic)')).toBe(true);
    expect(p.old.description.endsWith('(deprecated: use --new)')).toBe(true); // --new is no flag of t: left as written
    expect(p.old.description).toContain('(a duration such as');
  });

  it('the schema object never mutates the tree: a default array in the schema is a copy', async () => {
    const def = ['a'];
    const cmd = new Command({ use: 't', run: ok, flags: { l: { type: 'stringSlice', default: def } } });
    new Command({ use: 'yourcli', commands: [cmd] });
    const s = inputSchema(cmd) as Json;
    s.properties.l.default.push('mutated');
    expect(def).toEqual(['a']);
  });
});

describe('inputSchema: names, required, positionals, left-out flags', () => {
  it('property names are snake_case flag names; no kebab-case or camelCase key', async () => {
    const s = await schemaWithFlags({
      'skip-blank': { type: 'bool' },
      'max-width': { type: 'int' },
      'a-b-c': { type: 'string' },
    });
    expect(Object.keys(s.properties)).toEqual(expect.arrayContaining(['skip_blank', 'max_width', 'a_b_c']));
    for (const k of Object.keys(s.properties)) {
      expect(k).not.toContain('-');
      expect(k).toMatch(/^[a-z0-9_]+$/);
    }
    expect(s.properties).not.toHaveProperty('skipBlank');
    expect(s.properties).not.toHaveProperty('maxWidth');
  });

  it('required flags are in required, after the required positionals in declaration order', async () => {
    const root = new Command({
      use: 'yourcli',
      commands: [
        new Command({
          use: 'cp <src> <dst> [extra]',
          run: ok,
          flags: {
            'zz-top': { type: 'string', required: true },
            mode: { type: 'string' },
            'aa-first': { type: 'int', required: true },
          },
        }),
      ],
    });
    const s = flat(tool(await mcpDoc(root), 'cp').inputSchema);
    expect(s.required).toEqual(['src', 'dst', 'aa_first', 'zz_top']);
    expect(Object.keys(s.properties).slice(0, 3)).toEqual(['src', 'dst', 'extra']);
    expect(s.properties.src).toEqual({ type: 'string', description: 'the src argument (positional 1)' });
    expect(s.properties.extra.description).toContain('positional 3');
  });

  it('positionals: choices → string enum; variadic → array (minItems 1 when required, none when optional)', async () => {
    const root = new Command({
      use: 'yourcli',
      commands: [
        new Command({
          use: 'a',
          run: ok,
          args: [
            { name: 'kind', choices: ['x', 'y'], description: 'the kind' },
            { name: 'files', variadic: true },
          ],
        }),
        new Command({
          use: 'b',
          run: ok,
          args: [{ name: 'opt-files', variadic: true, required: false, choices: ['p'] }],
        }),
      ],
    });
    const doc = await mcpDoc(root);
    const a = flat(tool(doc, 'a').inputSchema);
    expect(a.properties.kind).toEqual({
      type: 'string',
      enum: ['x', 'y'],
      description: 'the kind (positional 1) (one of: x, y)',
    });
    expect(a.properties.files).toMatchObject({ type: 'array', items: { type: 'string' }, minItems: 1 });
    expect(a.required).toEqual(['kind', 'files']);
    const b = flat(tool(doc, 'b').inputSchema);
    expect(b.properties.opt_files).toMatchObject({ type: 'array', items: { type: 'string', enum: ['p'] } });
    expect(b.properties.opt_files).not.toHaveProperty('minItems');
    expect(b.required).toBeUndefined();
  });

  it('the positional order and which one is variadic are recorded in --as=ax', async () => {
    const root = new Command({ use: 'yourcli', commands: [new Command({ use: 'mv <from-path> <to...>', run: ok })] });
    const r = await schemaRun(root, 'ax');
    // lean: a name and what is not at its default; in full, every field
    expect(JSON.parse(r.stdout).command.commands[0].args).toEqual([
      { name: 'from-path' },
      { name: 'to', variadic: true },
    ]);
    const args = (expandAxDocument(JSON.parse(r.stdout)) as Json).command.commands[0].args;
    expect(args).toEqual([
      {
        name: 'from-path',
        property: 'from_path',
        position: 1,
        type: 'string',
        description: '',
        required: true,
        variadic: false,
      },
      { name: 'to', property: 'to', position: 2, type: 'string', description: '', required: true, variadic: true },
    ]);
  });

  it('inherited persistent flags are properties too; hidden flags (local or inherited) are not', async () => {
    const leaf = new Command({
      use: 'leaf',
      run: ok,
      flags: { shown: { type: 'string' }, secret: { type: 'string', hidden: true } },
    });
    const mid = new Command({
      use: 'mid',
      persistentFlags: { region: { type: 'string', choices: ['eu', 'us'] }, internal: { type: 'bool', hidden: true } },
      commands: [leaf],
    });
    const root = new Command({ use: 'yourcli', persistentFlags: { verbose: { type: 'count' } }, commands: [mid] });
    const s = flat(tool(await mcpDoc(root), 'mid_leaf').inputSchema);
    expect(Object.keys(s.properties)).toEqual(['shown', 'fields', 'idempotency_key', 'region', 'verbose']);
    expect(s.properties.region.enum).toEqual(['eu', 'us']);
  });

  it('leaves out the injected --format, --help, --version and --args-json; keeps --idempotency-key, and --dry-run where the command offers a dry run', async () => {
    const root = new Command({
      use: 'yourcli',
      run: ok,
      commands: [
        new Command({ use: 'x', run: ok }),
        new Command({ use: 'y', dryRun: true, run: ok }),
        new Command({ use: 'z', effects: 'read_only', run: ok }),
      ],
    });
    const doc = await mcpDoc(root);
    for (const t of doc.tools) {
      const keys = Object.keys(t.inputSchema.properties);
      for (const gone of ['format', 'help', 'version', 'args_json', 'args-json']) expect(keys).not.toContain(gone);
      expect(keys, t.name).toEqual(
        // a read-only command (z) offers a dry run undeclared, and has no idempotency_key: it never replays;
        // every one returns data, so every one selects fields
        t.name === 'y'
          ? ['dry_run', 'fields', 'idempotency_key']
          : t.name === 'z'
            ? ['dry_run', 'fields']
            : ['fields', 'idempotency_key'],
      );
    }
  });

  it("a command's own local --format is a property: exactly one format, the local enum", async () => {
    const exp = new Command({
      use: 'export',
      run: ok,
      flags: { format: { type: 'string', choices: ['csv', 'xlsx'], default: 'csv' }, out: { type: 'string' } },
    });
    const root = new Command({ use: 'yourcli', commands: [exp, new Command({ use: 'other', run: ok })] });
    const doc = await mcpDoc(root);
    const s = flat(tool(doc, 'export').inputSchema);
    expect(Object.keys(s.properties).filter((k) => k === 'format')).toHaveLength(1);
    expect(s.properties.format).toMatchObject({ type: 'string', enum: ['csv', 'xlsx'], default: 'csv' });
    expect(flat(tool(doc, 'other').inputSchema).properties).not.toHaveProperty('format');
  });

  it('properties is present (and {}) when a command has no inputs at all', async () => {
    // the root shadows the injected flags with hidden ones, so nothing is left
    const root = new Command({
      use: 'yourcli',
      persistentFlags: {
        'dry-run': { type: 'bool', hidden: true },
        'idempotency-key': { type: 'string', hidden: true },
        fields: { type: 'stringSlice', hidden: true },
      },
      commands: [new Command({ use: 'status', run: ok })],
    });
    const t = tool(await mcpDoc(root), 'status');
    expect(t.inputSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
  });

  it('two inputs that map to one property name make __schema fail (never a silently duplicated property)', async () => {
    const root = new Command({
      use: 'yourcli',
      commands: [
        new Command({ use: 'x', run: ok, flags: { 'max-width': { type: 'int' }, max_width: { type: 'int' } } }),
      ],
    });
    const err = await schemaFailure(root, 'mcp');
    expect(err.kind).toBe('validation_error');
    expect(err.context).toMatchObject({ reason: 'property_collision', command: 'yourcli x', property: 'max_width' });
    expect(err.message).toContain('--max-width');
    expect(err.message).toContain('--max_width');
    expect(err.actionable_fix).toMatch(/Rename/);
    // a flag and a positional of one name collide too
    const both = new Command({
      use: 'yourcli',
      commands: [new Command({ use: 'y <out-file>', run: ok, flags: { 'out-file': { type: 'string' } } })],
    });
    expect((await schemaFailure(both, 'mcp')).context).toMatchObject({
      reason: 'property_collision',
      property: 'out_file',
    });
    // a positional named as an injected input collides with it, `fields` as `dry-run` does; the fix
    // renames the positional (the injected flag is no author's to rename)
    for (const name of ['fields', 'dry-run']) {
      const injected = new Command({
        use: 'yourcli',
        commands: [new Command({ use: `z <${name}>`, effects: 'read_only', run: ok })],
      });
      const e = await schemaFailure(injected, 'mcp');
      const prop = name.replace('-', '_');
      expect(e.context, name).toMatchObject({
        reason: 'property_collision',
        property: prop,
        inputs: [`argument <${name}>`, `flag --${name}`],
      });
      expect(e.actionable_fix).toBe(
        `Rename argument <${name}>: "${prop}" is the input property of flag --${name}, which ax-ts injects.`,
      );
    }
  });
});

describe('portable subset and Ajv 2020 strict', () => {
  it('the kitchen-sink tree: every tool lints clean and every schema compiles', async () => {
    const doc = await mcpDoc(kitchenSinkTree());
    expect(doc.tools.length).toBe(6);
    for (const t of doc.tools) expect(lintTool(t)).toEqual([]);
    expect(compileAll(doc)).toBe(6 + 4);
  });

  it('the demo tasks CLI: every tool lints clean and every schema compiles', async () => {
    const doc = await mcpDoc(buildTasksCli());
    expect(doc.tools.length).toBeGreaterThan(0);
    for (const t of doc.tools) expect(lintTool(t)).toEqual([]);
    expect(compileAll(doc)).toBeGreaterThanOrEqual(doc.tools.length);
  });

  it('no $schema, no format, string-only enums, typed items, no top-level combinators anywhere', async () => {
    const doc = await mcpDoc(kitchenSinkTree());
    for (const t of doc.tools) {
      const s = t.inputSchema;
      expect(Object.keys(s).sort()).toEqual(expect.arrayContaining(['additionalProperties', 'properties', 'type']));
      for (const k of ['$schema', 'oneOf', 'anyOf', 'allOf', 'not', '$defs', 'definitions'])
        expect(s).not.toHaveProperty(k);
      for (const n of nodes(s)) {
        expect(n).not.toHaveProperty('format');
        expect(n).not.toHaveProperty('$schema');
        if (n.enum) for (const v of n.enum) expect(typeof v).toBe('string');
        if (n.type === 'array') expect(typeof n.items?.type).toBe('string');
      }
    }
  });

  it('flag groups are described in the tool description, never as combinators', async () => {
    const t = tool(await mcpDoc(kitchenSinkTree()), 'all');
    expect(t.description).toContain('At most one of quiet, level may be given.');
    expect(t.description).toContain('ratio, wait must be given together.');
    expect(t.description).toContain('At least one of name, data is required.');
  });

  it('the description opens with the summary and what is required (positionals and required flags), named as properties', async () => {
    const t = tool(await mcpDoc(kitchenSinkTree()), 'all');
    expect(t.description.startsWith('Every flag type. Required: target, limit.')).toBe(true);
    expect(t.description).not.toMatch(/--[a-z]/);
  });

  it('a deprecated command\'s description begins with "Deprecated: <message>."; --flags of the command are named as properties', async () => {
    const root = new Command({
      use: 'yourcli',
      commands: [
        new Command({
          use: 'old',
          short: 'Sync the old way (see --max-width)',
          long: 'Use --max-width to wrap, --no-cache to skip the cache, --help for help.',
          deprecated: 'use "yourcli new" with --max-width instead',
          flags: {
            'max-width': { type: 'int', usage: 'wrap at this width (like --max-width in new)' },
            cache: { type: 'bool', negatable: true, default: true },
          },
          run: ok,
        }),
      ],
    });
    const t = tool(await mcpDoc(root), 'old');
    expect(t.description).toBe(
      'Deprecated: use "yourcli new" with max_width instead. Sync the old way (see max_width).\n\nUse max_width to wrap, cache: false to skip the cache, --help for help.',
    );
    expect(t.inputSchema.properties.max_width.description).toBe('wrap at this width (like max_width in new)');
  });

  it('a property with choices lists them in its description too (clients that drop enum keep them)', async () => {
    const s = await schemaWithFlags({
      color: { type: 'string', choices: ['red', 'blue'], usage: 'the colour' },
      tags: { type: 'stringArray', choices: ['a', 'b'], usage: 'tags' },
    });
    expect(s.properties.color.description).toBe('the colour (one of: red, blue)');
    expect(s.properties.tags.description).toContain('(each item one of: a, b)');
  });

  it('the lint itself catches each rule (self-test of the checker)', () => {
    const good = {
      name: 't',
      description: 'd',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'string', description: 'a' } },
        additionalProperties: false,
      },
    };
    expect(lintTool(good)).toEqual([]);
    const bad = (patch: Json) => lintTool({ ...good, ...patch });
    expect(bad({ name: '3d' })).not.toEqual([]);
    expect(bad({ description: 'x'.repeat(MAX_DESCRIPTION + 1) })).not.toEqual([]);
    expect(bad({ inputSchema: { type: 'object', additionalProperties: false } })).not.toEqual([]);
    expect(bad({ inputSchema: { ...good.inputSchema, oneOf: [] } })).not.toEqual([]);
    expect(
      bad({
        inputSchema: { ...good.inputSchema, properties: { a: { type: 'string', format: 'uri', description: 'a' } } },
      }),
    ).not.toEqual([]);
    expect(
      bad({
        inputSchema: { ...good.inputSchema, properties: { a: { type: 'integer', enum: [1], description: 'a' } } },
      }),
    ).not.toEqual([]);
    expect(
      bad({ inputSchema: { ...good.inputSchema, properties: { a: { type: 'array', description: 'a' } } } }),
    ).not.toEqual([]);
    expect(bad({ inputSchema: { ...good.inputSchema, additionalProperties: true } })).not.toEqual([]);
    // a property *named* format is not the format keyword
    expect(
      bad({ inputSchema: { ...good.inputSchema, properties: { format: { type: 'string', description: 'f' } } } }),
    ).toEqual([]);
  });
});

describe('effects → annotations, output.schema → outputSchema (docs/contract.md#effects-and-destructive)', () => {
  const tree = () =>
    new Command({
      use: 'yourcli',
      commands: [
        new Command({ use: 'ro', run: ok, effects: 'read_only' }),
        new Command({ use: 'idem', run: ok, effects: 'idempotent' }),
        new Command({ use: 'nonidem', run: ok, effects: 'non_idempotent' }),
        new Command({ use: 'none', run: ok }),
        new Command({
          use: 'obj',
          run: ok,
          output: { schema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } },
        }),
        new Command({ use: 'arr', run: ok, output: { schema: { type: 'array', items: { type: 'string' } } } }),
        new Command({ use: 'str', run: ok, output: { schema: { type: 'string' } } }),
        new Command({
          use: 'stream',
          run: ok,
          output: { kind: 'stream', schema: { type: 'object', properties: { n: { type: 'integer' } } } },
        }),
        new Command({
          use: 'opaque',
          run: ok,
          output: { kind: 'opaque', mediaType: 'text/plain', schema: { type: 'string' } },
        }),
        new Command({ use: 'noschema', run: ok, output: { cardinality: 'single' } }),
        new Command({
          use: 'dollar',
          run: ok,
          output: {
            schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: {} },
          },
        }),
      ],
    });

  it.each([
    ['ro', { readOnlyHint: true, idempotentHint: true, destructiveHint: false }],
    ['idem', { readOnlyHint: false, idempotentHint: true, destructiveHint: false }],
    ['nonidem', { readOnlyHint: false, idempotentHint: false, destructiveHint: true }],
  ])('effects of %s → %j', async (name, ann) => {
    expect(tool(await mcpDoc(tree()), name).annotations).toEqual(ann);
  });

  it('undeclared effects → no annotations at all (clients assume destructive)', async () => {
    expect(tool(await mcpDoc(tree()), 'none')).not.toHaveProperty('annotations');
  });

  it('an object output schema is the outputSchema as is', async () => {
    expect(tool(await mcpDoc(tree()), 'obj').outputSchema).toEqual({
      type: 'object',
      properties: { id: { type: 'integer' } },
      required: ['id'],
    });
  });

  it.each([
    ['arr', { type: 'array', items: { type: 'string' } }],
    ['str', { type: 'string' }],
  ])('a non-object output (%s) is wrapped as {result}', async (name, inner) => {
    expect(tool(await mcpDoc(tree()), name).outputSchema).toEqual({
      type: 'object',
      properties: { result: inner },
      required: ['result'],
    });
  });

  it('a stream declares its item schema under items', async () => {
    expect(tool(await mcpDoc(tree()), 'stream').outputSchema).toEqual({
      type: 'object',
      properties: { items: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } } },
      required: ['items'],
    });
  });

  it('opaque output or no schema → no outputSchema; $schema is dropped from a declared one', async () => {
    const doc = await mcpDoc(tree());
    expect(tool(doc, 'opaque')).not.toHaveProperty('outputSchema');
    expect(tool(doc, 'noschema')).not.toHaveProperty('outputSchema');
    expect(tool(doc, 'dollar').outputSchema).toEqual({ type: 'object', properties: {} });
  });

  it('every outputSchema compiles under Ajv 2020 strict', async () => {
    expect(compileAll(await mcpDoc(tree()))).toBeGreaterThan(11);
  });

  it('the exported functions agree with the document (one projection)', async () => {
    const root = tree();
    const doc = await mcpDoc(root);
    const names = new Set(doc.tools.map((t: Json) => t.name));
    const cmds = root.commands().filter((c) => names.has(c.name));
    expect(cmds).toHaveLength(11);
    for (const cmd of cmds) {
      const t = tool(doc, cmd.name);
      expect(t.inputSchema).toEqual(inputSchema(cmd));
      expect(t.description).toBe(toolDescription(cmd));
      expect(t.outputSchema).toEqual(outputSchema(cmd)?.schema);
    }
  });
});
