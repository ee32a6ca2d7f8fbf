/**
 * A program whose work follows `parse()` (no action, no command: commander's global-program shape)
 * has no command ax-ts can run, describe or serve. Every agent surface says so — `validation_error`,
 * exit 2, reason `no_action` — instead of printing the program's help as a success onto stdout or
 * the protocol stream (docs/frontends.md#what-does-not-map); a person's run is the program's own.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/mcp.ts';
import { runScript } from '../helpers/spawn.ts';

const CLI = join(REPO, 'test/frontends/fixtures/greet-noaction.ts');

async function run(words: string[], env: Record<string, string> = { GREET_AX: '1' }) {
  const r = await runScript(CLI, words, { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env });
  return { status: r.code, stdout: r.stdout, stderr: r.stderr };
}

describe('a program without actions', () => {
  it.each([
    [['-n', 'bob', '--format', 'json']],
    [['--args-json', '{"name":"bob"}', '--format', 'json']],
    [['__schema', '--format', 'json']],
    [['__schema', '--as=mcp', '--format', 'json']],
    [['mcp-server', '--format', 'json']],
    [['__complete', '-']],
  ])('%j: validation_error no_action, exit 2, nothing on stdout', async (words) => {
    const r = await run(words);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    const last = r.stderr.trimEnd().split('\n').at(-1)!;
    if (words.includes('json')) {
      expect(JSON.parse(last).error).toMatchObject({ kind: 'validation_error', context: { reason: 'no_action' } });
    } else expect(r.stderr).toContain('does its work after parse()');
  });

  it("a person's run is the program's own, with or without the front end", async () => {
    for (const words of [['-n', 'bob'], ['--help'], ['--nope']])
      expect(await run(words), words.join(' ')).toEqual(await run(words, {}));
  });
});
