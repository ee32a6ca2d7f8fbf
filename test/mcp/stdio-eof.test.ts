/**
 * `mcp-server` whose client closes stdin before sending anything (docs/mcp-server.md: "tasks
 * mcp-server < /dev/null" exits 0): the supervisor and the re-executed server process must both end
 * cleanly — exit 0, nothing on stderr — however early the EOF arrives, passed (a pipe) or relayed
 * (a file). Run several times: the EOF races the server process's start-up.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { REPO, TSX_LOADER } from '../helpers/mcp.ts';

const MAIN = join(REPO, 'cmd/tasks/main.ts');
const RUNS = 4;

describe('mcp-server with stdin at EOF from the start', () => {
  it.each([
    ['an empty pipe (passed)', 'pipe'],
    ['/dev/null (relayed)', 'devnull'],
  ] as const)(
    '%s: exit 0 with empty stderr, every time',
    (_name, kind) => {
      for (let i = 0; i < RUNS; i++) {
        const fd = kind === 'devnull' ? openSync('/dev/null', 'r') : undefined;
        const r = spawnSync(process.execPath, ['--import', TSX_LOADER, MAIN, 'mcp-server'], {
          input: kind === 'pipe' ? '' : undefined,
          stdio: [fd ?? 'pipe', 'pipe', 'pipe'],
          encoding: 'utf8',
          timeout: 20_000,
          env: { ...process.env, TASKS_FILE: join(REPO, 'node_modules/.ax-eof-test-tasks.json') },
        });
        if (fd !== undefined) closeSync(fd);
        expect({ run: i, code: r.status, stderr: r.stderr, stdout: r.stdout }).toEqual({
          run: i,
          code: 0,
          stderr: '',
          stdout: '',
        });
      }
    },
    120_000,
  );
});

describe('a supervisor killed with SIGKILL leaves nothing on disk', () => {
  it('relayed (stdin a file): no ax-mcp-* entry stays in TMPDIR, however early the kill comes', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'ax-kill9-'));
    try {
      for (const after of [300, 600, 900, 1200, 1600, 2200]) {
        const fd = openSync('/dev/null', 'r');
        const child = spawn(process.execPath, ['--import', TSX_LOADER, MAIN, 'mcp-server'], {
          stdio: [fd, 'pipe', 'pipe'],
          env: { ...process.env, TMPDIR: tmp, TASKS_FILE: join(tmp, 'tasks.json') },
        });
        closeSync(fd);
        const exited = new Promise((r) => child.once('exit', r)); // it may end on its own first (EOF)
        await sleep(after);
        child.kill('SIGKILL');
        await exited;
        await sleep(300); // an orphaned server process sees its channel close and goes
        expect(
          readdirSync(tmp).filter((f) => f.startsWith('ax-mcp-')),
          `killed after ${after} ms`,
        ).toEqual([]);
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 60_000);
});
