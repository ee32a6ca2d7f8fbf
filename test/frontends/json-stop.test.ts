/**
 * A json-mode call of a front-ended program stopped before its action ends — SIGINT, SIGTERM, its
 * `--timeout` — ends with exactly one JSON error line on stderr, as a native tree's does
 * (docs/contract.md), though the action is still running with its output captured. Real processes,
 * commander and yargs.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, TSX_LOADER } from '../helpers/mcp.ts';

const FIXTURES = [
  ['commander', join(REPO, 'test/frontends/fixtures/queue-commander.ts')],
  ['yargs', join(REPO, 'test/frontends/fixtures/queue-yargs.ts')],
] as const;

/** [how it is stopped, extra words, signal sent after the start (none: the timeout ends it), kind, exit code]. */
const STOPS: [string, string[], NodeJS.Signals | undefined, string, number][] = [
  ['SIGINT', [], 'SIGINT', 'interrupted', 130],
  ['SIGTERM', [], 'SIGTERM', 'interrupted', 143],
  ['--timeout', ['--timeout', '1s'], undefined, 'timeout', 3],
];

function run(cli: string, words: string[], signal: NodeJS.Signals | undefined) {
  const started = join(mkdtempSync(join(tmpdir(), 'ax-json-stop-')), 'started');
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, cli, ...words], {
      cwd: REPO,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SLOW_MS: '8000', STARTED_FILE: started },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    // signalled once the action has started (it leaves a mark), however long the start-up takes
    const poll = setInterval(() => {
      if (!signal || !existsSync(started)) return;
      clearInterval(poll);
      child.kill(signal);
    }, 20);
    child.on('close', () => (clearInterval(poll), rmSync(dirname(started), { recursive: true, force: true })));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.each(FIXTURES)('%s, json mode', (_name, cli) => {
  it.each(STOPS)(
    'stopped by %s: one error line on stderr',
    async (_how, extra, signal, kind, exit) => {
      const r = await run(cli, ['slow', '--format', 'json', ...extra], signal);
      expect(r.code).toBe(exit);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ error: { kind, exit_code: exit } });
    },
    30_000,
  );
});
