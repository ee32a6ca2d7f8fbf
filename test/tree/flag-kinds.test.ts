/**
 * The flag-kind registry (lib/tree/flag-kinds/) through the public entry points: a value of every flag
 * type means the same on every path — the CLI, `--args-json`, in-process `execute`, MCP `tools/call`
 * over stdio and over HTTP (stateful and stateless) — and uintSlice, the type added through the
 * registry alone (pflag's UintSlice: comma-split unsigned integers read with Go's ParseUint base 0),
 * reads, refuses, describes and completes like its siblings. Fixture: test/fixtures/flag-kinds-*.ts,
 * one persistent flag per type named as the type.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Command, type FlagType } from '../../lib/index.ts';
import { FLAG_TYPES } from '../../lib/tree/flags.ts';
import { inputSchema } from '../../lib/parse/input-schema.ts';
import { flagKindsTree, KIND_CASES } from '../fixtures/flag-kinds-tree.ts';
import { REPO } from '../helpers/mcp.ts';
import { httpPath, inProcessPath, processPath, stdioPath, type Call, type Path } from '../helpers/paths.ts';
import { runCli } from '../helpers/run.ts';

type Json = Record<string, any>;
const CLI = join(REPO, 'test/fixtures/flag-kinds-cli.ts');
const T = 60_000;

/** What `echo` returns when nothing is given: each flag's zero value, or null when unset. */
const UNSET: Record<FlagType, unknown> = {
  string: null,
  bool: false,
  int: null,
  uint: null,
  float: null,
  duration: null,
  count: 0,
  stringSlice: [],
  stringArray: [],
  intSlice: [],
  uintSlice: [],
  boolSlice: [],
  floatSlice: [],
  durationSlice: [],
  stringToString: {},
  stringToInt: {},
  json: null,
};

/** A call of `echo` with these flags: `argv` for the argv paths, `json` as the tool's arguments. */
const echo = (argv: string[], json: Json): Call => ({ tool: 'echo', argv: ['echo', ...argv], json });

// [label, the call, the values echo returns besides UNSET]
const CALLS: [string, Call, Json][] = [
  [
    'every type at once',
    echo(
      FLAG_TYPES.flatMap((t) => KIND_CASES[t].argv),
      Object.fromEntries(FLAG_TYPES.map((t) => [t, KIND_CASES[t].json])),
    ),
    Object.fromEntries(FLAG_TYPES.map((t) => [t, KIND_CASES[t].value])),
  ],
  ['nothing given: the zero values', echo([], {}), {}],
  [
    "uintSlice: Go's ParseUint forms, comma-split, repeated (the first occurrence replaces, later ones append)",
    echo(['--uintSlice=0x10,0o17,0b11', '--uintSlice=1_000', '--uintSlice=0755'], {
      uintSlice: [16, 15, 3, 1000, 493],
    }),
    { uintSlice: [16, 15, 3, 1000, 493] },
  ],
  ['uintSlice: one item', echo(['--uintSlice', '7'], { uintSlice: [7] }), { uintSlice: [7] }],
];

// [label, argv, json, the message on the argv paths]
const REFUSED: [string, string[], Json, string][] = [
  [
    'uintSlice: a negative item',
    ['--uintSlice=1,-2'],
    { uintSlice: [1, -2] },
    'invalid argument "1,-2" for "--uintSlice" flag: must be a non-negative integer',
  ],
  [
    'uintSlice: a fraction',
    ['--uintSlice=1.5'],
    { uintSlice: [1.5] },
    'invalid argument "1.5" for "--uintSlice" flag: must be a non-negative integer',
  ],
  [
    'uintSlice: not an array over JSON, not a number on the command line',
    ['--uintSlice=x'],
    { uintSlice: '1,2' },
    'invalid argument "x" for "--uintSlice" flag: must be a non-negative integer',
  ],
  [
    'uintSlice: beyond 2^53',
    ['--uintSlice=9007199254740993'],
    { uintSlice: [1e300] },
    'invalid argument "9007199254740993" for "--uintSlice" flag: must be a non-negative integer within ±2^53',
  ],
];

const paths: Path[] = [];
beforeAll(async () => {
  paths.push(processPath('cli', CLI, {}), processPath('args-json', CLI, {}), inProcessPath(flagKindsTree, {}));
  paths.push(...(await Promise.all([stdioPath(CLI, {}), httpPath(CLI, {}, false), httpPath(CLI, {}, true)])));
}, 120_000);
afterAll(async () => {
  await Promise.all(paths.map((p) => p.close()));
});

const NAMES: Path['name'][] = ['cli', 'args-json', 'in-process', 'mcp-stdio', 'mcp-http', 'mcp-http-stateless'];
const pathOf = (name: string) => paths.find((p) => p.name === name)!;

describe.each(NAMES)('path %s', (name) => {
  it.each(CALLS)(
    '%s',
    async (_label, call, values) => {
      const o = await pathOf(name).call(call);
      expect(o.code, JSON.stringify(o.error)).toBe(0);
      expect(JSON.parse(o.stdout).data).toStrictEqual({ ...UNSET, ...values });
    },
    T,
  );

  it.each(REFUSED)(
    'refused: %s',
    async (_label, argv, json, message) => {
      const p = pathOf(name);
      const o = await p.call(echo(argv, json));
      expect(o.code).toBe(2);
      expect(o.stdout).toBe('');
      expect(o.error?.error).toMatchObject({ kind: 'validation_error', exit_code: 2 });
      if (p.spelling === 'argv') expect(o.error?.error).toMatchObject({ message, context: { flag: '--uintSlice' } });
      else expect(o.error?.error.context.property).toBe('uintSlice');
    },
    T,
  );
});

describe('uintSlice beside its siblings: help, the schemas, completion, the declaration checks', () => {
  const tree = () =>
    new Command({
      use: 'app',
      flags: {
        uis: { type: 'uintSlice', default: [0, 1], usage: 'Command separated list!' },
        none: { type: 'uintSlice', usage: 'no default' },
      },
      run: (ctx) => ctx.flags,
    });

  it("help names the value `uints` (pflag's UnquoteUsage) and prints the default Go's way", async () => {
    const r = await runCli(tree(), ['--help']);
    expect(r.stdout).toMatch(/\n {6}--none uints +no default\n/);
    expect(r.stdout).toMatch(/\n {6}--uis uints +Command separated list! \(default \[0,1\]\)\n/);
  });

  it('the inputSchema: an array of non-negative integers, the default typed, the array note', () => {
    const p = inputSchema(tree()).properties as Json;
    expect(p.uis).toStrictEqual({
      anyOf: [{ type: 'array', items: { type: 'integer', minimum: 0 } }, { type: 'null' }],
      description: 'Command separated list! (an array; each item is passed as is, commas are not split)',
      default: [0, 1],
    });
  });

  it('__schema: type uintSlice (ax), integer[] (clispec)', async () => {
    const ax = JSON.parse((await runCli(tree(), ['__schema'])).stdout);
    expect(ax.command.flags.find((f: Json) => f.name === 'uis')).toMatchObject({ type: 'uintSlice' });
    const clispec = JSON.parse((await runCli(tree(), ['__schema', '--as=clispec'])).stdout);
    expect(clispec.commands[0].args.find((a: Json) => a.name === '--uis')).toMatchObject({
      type: 'integer[]',
      default: [0, 1],
    });
  });

  it('the handler gets [] when not given, the default copied when declared', async () => {
    const r = await runCli(tree(), []);
    expect(JSON.parse(r.stdout).data).toMatchObject({ uis: [0, 1], none: [] });
  });

  it('completion of a value offers no files (numbers, like intSlice)', async () => {
    for (const flag of ['--uis', '--none'])
      expect((await runCli(tree(), ['__complete', '--', flag, ''])).stdout).toBe(':4\n');
  });

  it('choices, negatable and a schema are refused at declaration, as for intSlice', () => {
    for (const extra of [{ choices: ['1'] }, { negatable: true }, { schema: { type: 'array' } }])
      expect(() => new Command({ use: 'x', flags: { u: { type: 'uintSlice', ...extra } } })).toThrow(TypeError);
  });
});
