/**
 * A json-mode call of a front-ended program stopped before its action ends — SIGINT, SIGTERM, its
 * `--timeout` — ends with exactly one JSON error line on stderr, the last, as a native tree's does
 * (docs/contract.md), though the action is still running with its output captured; what the action
 * printed before the stop comes before it, not lost; served over MCP, on every path and era, it is
 * the result's items after the error. Real processes, commander and yargs.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectEra, envelopeOf, PATHS_BY_ERAS, startHttp } from '../helpers/eras.ts';
import { REPO, TSX_LOADER } from '../helpers/mcp.ts';

const FIXTURES = [
  ['commander', join(REPO, 'test/frontends/fixtures/queue-commander.ts')],
  ['yargs', join(REPO, 'test/frontends/fixtures/queue-yargs.ts')],
] as const;

/**
 * [how it is stopped, extra words, signal sent after the start (none: the timeout ends it), kind, exit
 * code]. The timeout leaves the program's start-up (tsx, a loaded machine) time to print first.
 */
const STOPS: [string, string[], NodeJS.Signals | undefined, string, number][] = [
  ['SIGINT', [], 'SIGINT', 'interrupted', 130],
  ['SIGTERM', [], 'SIGTERM', 'interrupted', 143],
  ['--timeout', ['--timeout', '5s'], undefined, 'timeout', 3],
];

function run(cli: string, words: string[], signal: NodeJS.Signals | undefined) {
  const started = join(mkdtempSync(join(tmpdir(), 'ax-json-stop-')), 'started');
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, cli, ...words], {
      cwd: REPO,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        SLOW_MS: '8000',
        STARTED_FILE: started,
        SLOW_SAY: 'said before the stop',
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    // signalled once the action has started (it leaves a mark, after its print), however long the
    // start-up takes, and its print has had time to reach the parent through the pipe
    const poll = setInterval(() => {
      if (!signal || !existsSync(started)) return;
      clearInterval(poll);
      setTimeout(() => child.kill(signal), 200);
    }, 20);
    child.on('close', () => (clearInterval(poll), rmSync(dirname(started), { recursive: true, force: true })));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.each(FIXTURES)('%s, json mode', (_name, cli) => {
  it.each(STOPS)(
    'stopped by %s: one error line on stderr, the last, after what the action printed',
    async (_how, extra, signal, kind, exit) => {
      const r = await run(cli, ['slow', '--format', 'json', ...extra], signal);
      expect(r.code).toBe(exit);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trim().split('\n');
      // its stdout print (json mode: on stderr) and its stderr print, then the error line
      expect(lines.slice(0, -1)).toEqual(['said before the stop', 'said before the stop']);
      expect(JSON.parse(lines.at(-1)!)).toMatchObject({ error: { kind, exit_code: exit } });
    },
    30_000,
  );
});

describe.each(FIXTURES)('%s, served over MCP', (_name, cli) => {
  describe.each(PATHS_BY_ERAS)('%s, a %s client', (path, era) => {
    it('a call ended by the server --timeout keeps what the action printed before it, as items after the error', async () => {
      const env = { SLOW_MS: '8000', SLOW_SAY: 'said before the stop' };
      const flags = ['--timeout', '5s', ...(path === 'http-stateless' ? ['--stateless'] : [])];
      const server = path === 'stdio' ? undefined : await startHttp(cli, flags, env);
      const c = await connectEra(era, path, { cli, url: server?.url, env, server: ['mcp-server', '--timeout', '5s'] });
      try {
        const r = await c.callTool('slow', {});
        expect(r.isError).toBe(true);
        expect(envelopeOf(r)).toMatchObject({ error: { kind: 'timeout' } });
        expect(
          (r.content as { text: string }[])
            .slice(1)
            .map((t) => t.text)
            .join(''),
        ).toBe('said before the stop\nsaid before the stop\n');
      } finally {
        await c.close();
        await server?.stop();
      }
    }, 30_000);
  });
});
