/**
 * `mcp-server` whose client closes stdin before sending anything (docs/mcp-server.md: "tasks
 * mcp-server < /dev/null" exits 0): the supervisor and the re-executed server process must both end
 * cleanly — exit 0, nothing on stderr — however early the EOF arrives, passed (a pipe) or relayed
 * (a file). Run several times: the EOF races the server process's start-up.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
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
