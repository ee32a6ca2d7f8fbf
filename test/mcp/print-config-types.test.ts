/**
 * `mcp-server --print-config` writes back a persistent flag of EVERY type so that the server a client
 * starts from the printed block runs with the same value (docs/mcp-server.md#connecting-a-client).
 * Per row: the fixture CLI (one persistent flag per type) prints its block with that flag given; the
 * printed command, args and env are started exactly as a desktop client does (the SDK's Client +
 * StdioClientTransport, from `/`), and `echo` must return what the same command line gives `echo`
 * directly. Before write-back went through the flag kinds, maps came out as `[object Object]` and
 * durationSlice items as bare milliseconds, and the started server refused them (exit 2).
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { FLAG_TYPES } from '../../lib/tree/flags.ts';
import { flagKindsTree, KIND_CASES } from '../fixtures/flag-kinds-tree.ts';
import { envelopeOf, REPO, runCasesCli } from '../helpers/mcp.ts';
import { envelope, runCli } from '../helpers/run.ts';

const CLI = join(REPO, 'test/fixtures/flag-kinds-cli.ts');
const T = 60_000;

// [label, the persistent flags given, the flag whose value must come back, that value]
const rows: [string, string[], string, unknown][] = [
  ...FLAG_TYPES.map((t): [string, string[], string, unknown] => [t, KIND_CASES[t].argv, t, KIND_CASES[t].value]),
  // values whose words need care
  ['bool false', ['--bool=false'], 'bool', false],
  ['duration that Go text would not read back exactly', ['--duration=61001ms'], 'duration', 61_001],
  ['duration under a millisecond', ['--duration=1500us'], 'duration', 1.5],
  ['stringSlice with an empty item and quotes', ['--stringSlice=,"""q""",x'], 'stringSlice', ['', '"q"', 'x']],
  ['stringSlice given empty', ['--stringSlice='], 'stringSlice', []],
  ['durationSlice of fractions', ['--durationSlice=1.5s,250us'], 'durationSlice', [1500, 0.25]],
  [
    'stringToString: values with commas, = and quotes',
    ['--stringToString="k=a,b=c"', '--stringToString="q=x""",z=1', '--stringToString=e='],
    'stringToString',
    { k: 'a,b=c', q: 'x"', z: '1', e: '' },
  ],
  ['json holding quotes and newlines', ['--json={"t":"a \\"b\\"\\nc"}'], 'json', { t: 'a "b"\nc' }],
];

describe('mcp-server --print-config: a persistent flag of every type reaches the started server', () => {
  it('covers every flag type', () => {
    expect(new Set(rows.map((r) => r[2]))).toStrictEqual(new Set(FLAG_TYPES));
  });

  it.each(rows)(
    '%s',
    async (_label, given, flag, value) => {
      // what the command line itself gives the handler
      const direct = await runCli(flagKindsTree(), [...given, 'echo']);
      expect(direct.stderr).toBe('');
      const want = envelope(direct.stdout).data as Record<string, unknown>;
      expect(want[flag]).toStrictEqual(value);

      const printed = await runCasesCli([...given, 'mcp-server', '--print-config'], { cli: CLI });
      expect(printed.code, printed.stderr).toBe(0);
      const entry = JSON.parse(printed.stdout.toString()).mcpServers.kinds as {
        command: string;
        args: string[];
        env?: Record<string, string>;
      };
      expect(entry.args.at(-1)).toBe('mcp-server');
      // the flag is carried (a false bool too, though here it equals the zero value)
      expect(
        entry.args.some((a) => a === `--${flag}` || a.startsWith(`--${flag}=`)),
        entry.args.join(' '),
      ).toBe(true);

      const transport = new StdioClientTransport({
        command: entry.command,
        args: entry.args,
        env: entry.env,
        stderr: 'pipe',
        cwd: '/',
      });
      let stderr = '';
      transport.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
      const client = new Client({ name: 'print-config-types', version: '1.0.0' });
      try {
        await client.connect(transport).catch((e: unknown) => {
          throw new Error(`the printed server did not start (args ${JSON.stringify(entry.args)}):\n${stderr}`, {
            cause: e,
          });
        });
        const r = await client.callTool({ name: 'echo', arguments: {} });
        expect(r.isError ?? false, JSON.stringify(r.content)).toBe(false);
        expect(envelopeOf(r as { content?: unknown }).data).toStrictEqual(want);
      } finally {
        await client.close();
      }
    },
    T,
  );
});
