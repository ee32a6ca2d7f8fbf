/**
 * A program that wraps its synchronous `parse()` in try/catch (commander's documented
 * `try { program.parse() } catch { process.exit(1) }`) keeps ax-ts's answer: the catch, which sees
 * the error that stops the program's code, can neither end the process nor write a byte, so a
 * json-mode call gives its one error line or envelope with the contract's exit code, and
 * `mcp-server` keeps serving (docs/frontends.md#what-does-not-map). Real processes, commander and
 * yargs, both eras' SDK clients.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectEra, envelopeOf, type EraName, type McpPath } from '../helpers/eras.ts';
import { REPO } from '../helpers/mcp.ts';
import { runScript } from '../helpers/spawn.ts';

const CLI = join(REPO, 'test/frontends/fixtures/catch-parse.ts');

/** The line a printing catch writes on stderr: the stop's message (what the program's catch sees). */
const SAID =
  'failed: ax-ts serves this invocation: the code after parse() does not run in it (docs/frontends.md#how-a-call-runs)\n';

/** [front end, its env, what the catch itself writes on stderr] x [the catch silent, the catch printing first]. */
const PROGRAMS: [string, Record<string, string>, string][] = [
  ['commander, a silent catch', {}, ''],
  ['commander, a catch that prints', { CATCH_SAY: '1' }, SAID],
  ['yargs, a silent catch', { CATCH_YARGS: '1' }, ''],
  ['yargs, a catch that prints', { CATCH_YARGS: '1', CATCH_SAY: '1' }, SAID],
];

const SETUPS: [McpPath, EraName][] = [
  ['stdio', 'legacy'],
  ['stdio', 'modern'],
];

function run(words: string[], env: Record<string, string>) {
  return runScript(CLI, words, { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env });
}

describe.each(PROGRAMS)('%s around parse()', (_name, env, said) => {
  it('AGENT_MODE=json, --args-json with a positional: the validation_error line alone, exit 2', async () => {
    const r = await run(['check', 'a.txt', '--args-json', '{"file":"b.txt"}'], { ...env, AGENT_MODE: 'json' });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    // what the catch printed (it is not held), then the error line alone
    expect(r.stderr.startsWith(said)).toBe(true);
    const lines = r.stderr.slice(said.length).trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      error: { kind: 'validation_error', exit_code: 2, context: { reason: 'args_json_conflict' } },
    });
  }, 30_000);

  it('--format json: the envelope on stdout, what the call printed on stderr, exit 0', async () => {
    const r = await run(['check', '--args-json', '{"file":"b.txt"}', '--format', 'json'], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ data: null });
    expect(r.stderr).toBe(`${said}checked b.txt\n`);
  }, 30_000);

  it.each(SETUPS)(
    'mcp-server over %s, %s era: serves, and a call answers',
    async (path, era) => {
      const client = await connectEra(era, path, { cli: CLI, env });
      try {
        const tools = (await client.listTools()).tools as { name: string }[];
        expect(tools.map((t) => t.name)).toContain('check');
        const r = await client.callTool('check', { file: 'b.txt' });
        expect(r.isError).toBeFalsy();
        expect(envelopeOf(r)).toMatchObject({ data: null });
        expect(
          (r.content as { text: string }[])
            .slice(1)
            .map((c) => c.text)
            .join(''),
        ).toBe('checked b.txt\n');
      } finally {
        await client.close();
      }
    },
    30_000,
  );
});

describe("a person's run of the same program is its own", () => {
  it.each(PROGRAMS)(
    '%s: a refusal exits 1 through the catch',
    async (_name, env) => {
      const r = await run(['check'], env);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
    },
    30_000,
  );
});
