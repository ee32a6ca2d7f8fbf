/**
 * A server's front-end calls are capped (`AX_MCP_MAX_CALLS`, docs/frontends.md#how-a-call-runs): a
 * call beyond the cap waits for a running call's end, no longer than its own signal allows; calls
 * beyond the cap all answer in turn; a value that is no positive integer stops the server as it
 * starts, with a clear error. Real server processes, both eras' SDK clients; the wait's bound on the slots themselves.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectEra, envelopeOf, type EraName, type McpPath } from '../helpers/eras.ts';
import { takeSlot } from '../../frontends/shared/call-slots.ts';
import { REPO, tempDir, TSX_LOADER } from '../helpers/mcp.ts';

const CLI = join(REPO, 'test/frontends/fixtures/calls-commander.ts');
const SETUPS: [McpPath, EraName][] = [
  ['stdio', 'legacy'],
  ['stdio', 'modern'],
];

const dirs: { cleanup(): void }[] = [];
afterAll(() => dirs.forEach((d) => d.cleanup()));

describe.each(SETUPS)('over %s, %s era', (path, era) => {
  it('AX_MCP_MAX_CALLS=1: a call behind one that never settles waits for its end (its timeout)', async () => {
    const dir = tempDir('ax-call-cap-');
    dirs.push(dir);
    const client = await connectEra(era, path, {
      cli: CLI,
      env: { PID_DIR: dir.path, AX_MCP_MAX_CALLS: '1' },
      server: ['mcp-server', '--timeout', '3s'],
    });
    try {
      const t0 = Date.now();
      const hang = client.callTool('hang');
      await new Promise((r) => setTimeout(r, 300));
      const quick = client.callTool('quick', { n: '1' }).then((r) => ({ r, at: Date.now() - t0 }));
      const [stuck, { r: queued, at }] = await Promise.all([hang, quick]);
      expect(envelopeOf(stuck).error).toMatchObject({ kind: 'timeout' });
      // it ran only once the stuck call's process was gone, at its 3 s timeout (without the cap it
      // answers in well under a second)
      expect(at).toBeGreaterThanOrEqual(2900);
      // then it ran in the slot freed, or its own timeout (300 ms after the stuck one's) came first:
      // either way it waited, and what it got is its own answer
      if (queued.isError) expect(envelopeOf(queued).error).toMatchObject({ kind: 'timeout' });
      else expect(envelopeOf(queued).data).toMatchObject({ n: '1' });
    } finally {
      await client.close();
    }
  }, 60_000);

  it('AX_MCP_MAX_CALLS=2: five calls at once all answer, each in its own process', async () => {
    const client = await connectEra(era, path, { cli: CLI, env: { AX_MCP_MAX_CALLS: '2' } });
    try {
      const answers = await Promise.all([0, 1, 2, 3, 4].map((n) => client.callTool('quick', { n: String(n) })));
      const pids = answers.map((r, n) => {
        expect(r.isError, JSON.stringify(r)).toBeFalsy();
        expect(envelopeOf(r).data).toMatchObject({ n: String(n) });
        return (envelopeOf(r).data as { pid: number }).pid;
      });
      expect(new Set(pids).size).toBe(5);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('a cap that is no positive integer', () => {
  it.each(['0', 'many', '-1', '1.5'])(
    'AX_MCP_MAX_CALLS=%s: mcp-server refuses to start: one error line naming the variable, exit 2, nothing on stdout',
    (value) => {
      const r = spawnSync(process.execPath, ['--import', TSX_LOADER, CLI, 'mcp-server'], {
        cwd: REPO,
        encoding: 'utf8',
        input: '',
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', AX_MCP_MAX_CALLS: value },
        timeout: 60_000,
      });
      expect(r.status, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!)).toMatchObject({
        error: { kind: 'validation_error', context: { reason: 'invalid_call_limit', variable: 'AX_MCP_MAX_CALLS' } },
      });
    },
    60_000,
  );
});

describe('the slots (frontends/shared/call-slots.ts)', () => {
  it('a call waiting for a slot whose signal aborts never starts: it rejects with the reason, and the queue moves on', async () => {
    const before = process.env.AX_MCP_MAX_CALLS;
    process.env.AX_MCP_MAX_CALLS = '1';
    try {
      const first = await takeSlot(new AbortController().signal);
      const gaveUp = new AbortController();
      const waiting = takeSlot(gaveUp.signal);
      const third = takeSlot(new AbortController().signal);
      gaveUp.abort(new Error('timed out'));
      await expect(waiting).rejects.toThrow('timed out');
      let thirdStarted = false;
      void third.then(() => (thirdStarted = true));
      await new Promise((r) => setTimeout(r, 20));
      expect(thirdStarted).toBe(false);
      first();
      (await third)();
    } finally {
      if (before === undefined) delete process.env.AX_MCP_MAX_CALLS;
      else process.env.AX_MCP_MAX_CALLS = before;
    }
  });
});
