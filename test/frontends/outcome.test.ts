/**
 * A front-ended program's outcome read right, and nothing it printed lost
 * (docs/frontends.md#how-a-call-runs): an action that prints its report and then throws an error
 * carrying `exitCode` — how a linter says "problems found" — is `command_failed` with that exit code
 * (never `internal_error` with advice to retry), and its report reaches the caller: on stderr before
 * the error line on a json-mode command line, as the text item after the envelope over MCP (every
 * path, both eras). A plain throw stays the handler's `internal_error`, its output kept too. A
 * person's run is the program's own, with or without the front end.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEra, PATHS_BY_ERAS, startHttp, type EraClient, type HttpFixture } from '../helpers/eras.ts';
import { envelopeOf, REPO } from '../helpers/mcp.ts';
import { runScript } from '../helpers/spawn.ts';

const CLI = join(REPO, 'test/frontends/fixtures/lint-commander.ts');
const ENV = { LINT_AX: '1' };

async function run(words: string[], env: Record<string, string> = ENV, cli = CLI) {
  const r = await runScript(cli, words, { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env });
  return { status: r.code, stdout: r.stdout, stderr: r.stderr };
}

const lastLine = (text: string) => JSON.parse(text.trimEnd().split('\n').at(-1)!) as Record<string, any>;

describe('json mode on the command line', () => {
  it('problems found (an error with exitCode 3): command_failed, exit 3, the report on stderr before the error line', async () => {
    const r = await run(['lint', 'a.js', 'bad.js', '--format', 'json']);
    expect(r.status).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('a.js: ok\nbad.js: 1 problem\n');
    expect(r.stderr).toContain('checked 2 file(s)\n');
    const { error } = lastLine(r.stderr);
    expect(error).toMatchObject({ kind: 'command_failed', exit_code: 3, context: { exit_code_set: 3 } });
    expect(error.message).toContain('1 problem(s) found');
    expect(error.retryable).toBe(false);
    expect(error.actionable_fix ?? '').not.toMatch(/bug|retry/i);
  });

  it('no problems: the envelope alone on stdout, the report on stderr', async () => {
    const r = await run(['lint', 'a.js', '--format', 'json']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ data: null });
    expect(r.stderr).toContain('a.js: ok\n');
  });

  it('a plain throw stays internal_error (exit 1), what it printed kept', async () => {
    const r = await run(['crash', '--format', 'json']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('partial output\n');
    expect(lastLine(r.stderr).error.kind).toBe('internal_error');
  });

  it("commander's this.error() in an action (exitCode 4): command_failed, exit 4, never a refusal of the arguments", async () => {
    const r = await run(['strict', '--format', 'json']);
    expect(r.status).toBe(4);
    expect(r.stderr).toContain('strict report\n');
    expect(lastLine(r.stderr).error).toMatchObject({ kind: 'command_failed', exit_code: 4 });
  });

  it('a hidden command is still a command: it runs', async () => {
    const r = await run(['secret', '--format', 'json']);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('secret ran\n');
  });

  it("yargs: an async handler's exitCode error is command_failed; the program's own .fail() (print, exit) does not run", async () => {
    const r = await run(
      ['lint', 'a.js', 'bad.js', '--format', 'json'],
      ENV,
      join(REPO, 'test/frontends/fixtures/lint-yargs.ts'),
    );
    expect(r.status).toBe(3);
    expect(r.stderr).toContain('bad.js: 1 problem\n');
    expect(r.stderr).not.toContain('ylint:');
    expect(lastLine(r.stderr).error).toMatchObject({ kind: 'command_failed', exit_code: 3 });
  });

  it("a person's run is the program's own, with or without the front end", async () => {
    for (const words of [['lint', 'a.js', 'bad.js'], ['crash'], ['lint', 'a.js']]) {
      const plain = await run(words, {});
      const fronted = await run(words);
      expect(fronted, words.join(' ')).toEqual(plain);
    }
  });
});

describe.each(PATHS_BY_ERAS)('over MCP, %s, a %s client', (path, era) => {
  let server: HttpFixture | undefined;
  let c: EraClient;
  beforeAll(async () => {
    if (path !== 'stdio') server = await startHttp(CLI, path === 'http-stateless' ? ['--stateless'] : [], ENV);
    c = await connectEra(era, path, { cli: CLI, url: server?.url, env: ENV });
  }, 60_000);
  afterAll(async () => {
    await c?.close();
    await server?.stop();
  });

  it('problems found: isError, command_failed with exit code 3, the report the next text item', async () => {
    const r = await c.callTool('lint', { files: ['a.js', 'bad.js'] });
    expect(r.isError).toBe(true);
    expect(envelopeOf(r).error).toMatchObject({ kind: 'command_failed', exit_code: 3 });
    const texts = (r.content as { type: string; text: string }[]).slice(1).map((i) => i.text);
    expect(texts.join('')).toContain('a.js: ok\nbad.js: 1 problem\n');
  });
});
