/**
 * The flag types added for Cobra parity (uint, boolSlice, floatSlice, durationSlice, stringToString,
 * stringToInt) and noOptDefVal, on every path: the CLI (pflag's text forms), `--args-json` and MCP
 * `tools/call` (structured values against the advertised inputSchema) — the same values reach the
 * handler whichever way they came.
 */
import { flat } from '../../fixtures/schema-trees.ts';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inputSchema } from '../../../lib/parse/input-schema.ts';
import { connectStdio, envelopeOf, REPO, type StdioConnection } from '../../helpers/mcp.ts';
import { envelope, errorOf, runCli } from '../../helpers/run.ts';
import { typesTree } from '../../fixtures/cobra-types-tree.ts';

const empty = { u: null, bs: [], fs: [], ds: [], label: {}, limit: {}, color: null };

// [name, argv (pflag text), the same inputs as structured values, what the handler sees]
const cases: [string, string[], Record<string, unknown>, Record<string, unknown>][] = [
  ['uint (Go forms)', ['--u', '0x10'], { u: 16 }, { u: 16 }],
  [
    'boolSlice (comma-split, repeatable)',
    ['--bs', 'true,F', '--bs=1'],
    { bs: [true, false, true] },
    { bs: [true, false, true] },
  ],
  ['floatSlice', ['--fs=1.5,-2e3'], { fs: [1.5, -2000] }, { fs: [1.5, -2000] }],
  [
    'durationSlice (milliseconds)',
    ['--ds', '1s,300ms', '--ds=1m'],
    { ds: ['1s', '300ms', '1m'] },
    { ds: [1000, 300, 60000] },
  ],
  [
    'stringToString (comma-split and repeated, later keys win)',
    ['--label', 'a=1,b=2', '--label', 'b=3'],
    {
      label: [
        { key: 'a', value: '1' },
        { key: 'b', value: '2' },
        { key: 'b', value: '3' },
      ],
    },
    { label: { a: '1', b: '3' } },
  ],
  [
    'stringToString: one pair keeps its commas',
    ['--label', 'k=x,y'],
    { label: [{ key: 'k', value: 'x,y' }] },
    { label: { k: 'x,y' } },
  ],
  [
    'stringToInt',
    ['--limit=cpu=2,mem=512'],
    {
      limit: [
        { key: 'cpu', value: 2 },
        { key: 'mem', value: 512 },
      ],
    },
    { limit: { cpu: 2, mem: 512 } },
  ],
  ['noOptDefVal: --color alone is "auto"', ['--color'], { color: 'auto' }, { color: 'auto' }],
  ['noOptDefVal: --color=never', ['--color=never'], { color: 'never' }, { color: 'never' }],
];

describe('new flag types: CLI and --args-json', () => {
  it.each(cases)('%s', async (_n, argv, values, seen) => {
    const cli = await runCli(typesTree(), ['echo', ...argv]);
    expect(cli.stderr).toBe('');
    expect(envelope(cli.stdout).data).toStrictEqual({ ...empty, ...seen });
    const json = await runCli(typesTree(), ['echo', '--args-json', JSON.stringify(values)]);
    expect(json.stderr).toBe('');
    expect(envelope(json.stdout).data).toStrictEqual({ ...empty, ...seen });
  });

  it('noOptDefVal never takes the next word: `--color never` leaves "never" a positional', async () => {
    const r = await runCli(typesTree(), ['echo', '--color', 'never']);
    expect(errorOf(r.stderr).error.context.reason).toBe('too_many_arguments');
  });

  it.each([
    [['--label', 'nokey'], 'invalid argument "nokey" for "--label" flag: nokey must be formatted as key=value'],
    [['--limit', 'a=x'], 'invalid argument "a=x" for "--limit" flag: must be an integer'],
    [['--bs', 'yes'], 'invalid argument "yes" for "--bs" flag: must be true or false'],
    [['--u', '-1'], 'invalid argument "-1" for "--u" flag: must be a non-negative integer'],
  ])('bad text %j', async (argv, message) => {
    const r = await runCli(typesTree(), ['echo', ...argv]);
    expect(r.code).toBe(2);
    expect(errorOf(r.stderr).error).toMatchObject({ message, context: { reason: 'invalid_flag_value' } });
  });

  it('the inputSchema of each type', () => {
    // optional properties are nullable (anyOf [value, null]); flat() shows each as its value schema
    const p = flat(inputSchema(typesTree().findChild('echo')!)).properties as Record<string, Record<string, unknown>>;
    expect(p.u).toMatchObject({ type: 'integer', minimum: 0 });
    expect(p.bs).toMatchObject({ type: 'array', items: { type: 'boolean' } });
    expect(p.fs).toMatchObject({ type: 'array', items: { type: 'number' } });
    expect(p.ds).toMatchObject({ type: 'array', items: { type: 'string' } });
    // a map is an array of {key, value} items over MCP and --args-json (an open object is not portable)
    const entries = (value: string) => ({
      type: 'array',
      items: {
        type: 'object',
        properties: { key: { type: 'string' }, value: { type: value } },
        required: ['key', 'value'],
        additionalProperties: false,
      },
    });
    expect(p.label).toMatchObject(entries('string'));
    expect(p.limit).toMatchObject(entries('integer'));
    expect(p.color).toMatchObject({ type: 'string', enum: ['auto', 'always', 'never'] });
  });

  it.each([
    ["an item's value of the wrong type", { limit: [{ key: 'cpu', value: 'two' }] }],
    ['an object instead of the items', { label: { a: '1' } }],
    ['an item with another key', { label: [{ key: 'a', value: '1', extra: true }] }],
  ])('--args-json refuses a map of the wrong shape, as the inputSchema says: %s', async (_n, args) => {
    const r = await runCli(typesTree(), ['echo', '--args-json', JSON.stringify(args)]);
    expect(r.code).toBe(2);
    expect(errorOf(r.stderr).error.kind).toBe('validation_error');
  });

  it('a map key is an own property whatever it is (`__proto__` included), on the CLI and --args-json', async () => {
    const cli = await runCli(typesTree(), ['echo', '--label', '__proto__=x']);
    expect(envelope(cli.stdout).data).toMatchObject({ label: { ['__proto__']: 'x' } });
    const json = await runCli(typesTree(), [
      'echo',
      '--args-json',
      JSON.stringify({ label: [{ key: '__proto__', value: 'x' }] }),
    ]);
    expect(JSON.parse(json.stdout).data.label).toStrictEqual(JSON.parse('{"__proto__":"x"}'));
  });
});

describe('new flag types: MCP tools/call (stdio server, SDK client)', () => {
  let conn: StdioConnection;
  beforeAll(async () => {
    conn = await connectStdio(['mcp-server'], {}, join(REPO, 'test/fixtures/cobra-types-cli.ts'));
  }, 60_000);
  afterAll(async () => conn?.close());

  it.each(cases)('%s', async (_n, _argv, values, seen) => {
    const r = await conn.client.callTool({ name: 'echo', arguments: values });
    expect(r.isError).toBeFalsy();
    expect(envelopeOf(r as { content?: unknown }).data).toStrictEqual({ ...empty, ...seen });
  });

  it('tools/list advertises the same inputSchema', async () => {
    const { tools } = await conn.client.listTools();
    expect(tools.find((t) => t.name === 'echo')!.inputSchema.properties).toStrictEqual(
      inputSchema(typesTree().findChild('echo')!).properties,
    );
  });
});

describe('new flag types: a map from a config file', () => {
  it('is a JSON object in the file; the handler gets the same object as from the CLI or --args-json', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'ax-maps-')), 'app.jsonc');
    writeFileSync(file, '{ "labels": { "a": "1", "b": "2" }, "limits": [{ "key": "cpu", "value": 2 }] }');
    const { Command } = await import('../../../lib/index.ts');
    const tree = () =>
      new Command({
        use: 'app',
        config: { file },
        flags: {
          label: { type: 'stringToString', config: 'labels' },
          limit: { type: 'stringToInt', config: 'limits' },
        },
        run: (ctx) => ({ label: ctx.flags.label, limit: ctx.flags.limit }),
      });
    const r = await runCli(tree(), []);
    expect(r.stderr).toBe('');
    // an object in the file, or the inputSchema's [{key, value}] items
    expect(envelope(r.stdout).data).toStrictEqual({ label: { a: '1', b: '2' }, limit: { cpu: 2 } });
  });
});
