/**
 * A program whose work follows `parse()` (no action, no command: commander's global-program shape)
 * is served: its options are read from its tree, and a call runs the program's own code in a
 * process of its own — what it printed and its exit status are the result
 * (docs/frontends.md#how-a-call-runs). Never its help as a success, never a byte of it on stdout
 * but the envelope; a person's run is the program's own.
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
    [['-n', 'bob', '--format', 'json'], 'hello bob'],
    [['--args-json', '{"name":"bob"}', '--format', 'json'], 'hello bob'],
    [['--format', 'json'], 'hello world'],
    [['--args-json', '{"name":"--help"}', '--format', 'json'], 'hello --help'],
  ])('%j: its own code runs, what it printed on stderr, the envelope alone on stdout', async (words, said) => {
    const r = await run(words);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ data: null });
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toBe(`${said}\n`);
  });

  it('__schema --as=mcp describes its options', async () => {
    const r = await run(['__schema', '--as=mcp', '--format', 'json']);
    expect(r.status).toBe(0);
    const tools = (JSON.parse(r.stdout) as { tools: { name: string; inputSchema: { properties: object } }[] }).tools;
    expect(tools.map((t) => t.name)).toEqual(['greet']);
    expect(Object.keys(tools[0]!.inputSchema.properties)).toContain('name');
    // data is always null: nothing for fields to select, so it is no property and no flag
    expect(Object.keys(tools[0]!.inputSchema.properties)).not.toContain('fields');
    const f = await run(['--fields', 'x', '--format', 'json']);
    expect(f.status).toBe(2);
    expect(f.stdout).toBe('');
    expect(JSON.parse(f.stderr.trim().split('\n').at(-1)!).error.message).toMatch(/unknown flag: --fields/);
  });

  it('a refusal of the words is a validation_error, exit 2, nothing on stdout', async () => {
    const r = await run(['--nope', '--format', 'json']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!).error).toMatchObject({ kind: 'validation_error' });
  });

  it("a person's run is the program's own, with or without the front end", async () => {
    for (const words of [['-n', 'bob'], ['--help'], ['--nope']])
      expect(await run(words), words.join(' ')).toEqual(await run(words, {}));
  });
});
