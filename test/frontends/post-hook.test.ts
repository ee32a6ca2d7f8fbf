/**
 * A `postAction` hook that throws after the action has returned (its value already reported to the
 * server) is the call's outcome, as an action's throw is: its message reaches the caller — the
 * json-mode error line, the MCP result's `isError` envelope — and an `exitCode` it carries is
 * `command_failed` with that code (docs/frontends.md#how-a-call-runs). Real processes, both eras'
 * SDK clients.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectEra, envelopeOf, type EraName, type McpPath } from '../helpers/eras.ts';
import { REPO } from '../helpers/mcp.ts';
import { runScript } from '../helpers/spawn.ts';

const CLI = join(REPO, 'test/frontends/fixtures/post-hook.ts');
const ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };

/** [the hook's error, the env, the kind and exit code the caller gets]. */
const HOOKS: [string, Record<string, string>, string, number][] = [
  ['a plain error', {}, 'internal_error', 1],
  ['an error carrying exitCode 5', { POST_EXIT_CODE: '5' }, 'command_failed', 5],
];

const SETUPS: [McpPath, EraName][] = [
  ['stdio', 'legacy'],
  ['stdio', 'modern'],
];

describe.each(HOOKS)('a postAction hook that throws %s', (_what, env, kind, exit) => {
  it('json mode: the error line carries its message and exit code; what the action printed is on stderr', async () => {
    const r = await runScript(CLI, ['run', '--format', 'json'], { ...ENV, ...env });
    expect(r.code).toBe(exit);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toBe('ran');
    const e = (JSON.parse(lines.at(-1)!) as { error: { kind: string; message: string; exit_code: number } }).error;
    expect(e).toMatchObject({ kind, exit_code: exit });
    expect(e.message).toMatch(/post hook failed: the cleanup could not remove its lock/);
  }, 30_000);

  it.each(SETUPS)(
    'over MCP (%s, %s era): an isError result with its message',
    async (path, era) => {
      const client = await connectEra(era, path, { cli: CLI, env });
      try {
        const r = await client.callTool('run');
        expect(r.isError).toBe(true);
        const e = envelopeOf(r).error as { kind: string; message: string; exit_code: number };
        expect(e).toMatchObject({ kind, exit_code: exit });
        expect(e.message).toMatch(/post hook failed: the cleanup could not remove its lock/);
      } finally {
        await client.close();
      }
    },
    30_000,
  );
});
