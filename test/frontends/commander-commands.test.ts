/**
 * `withAx(program, { commands: { 'a b': {…} } })` for commander (docs/frontends.md#declaring-what-agents-need):
 * declarations by command path for commands a program adds after `withAx`, and a path the program
 * does not have refused when ax-ts is asked.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, TSX_LOADER } from '../helpers/mcp.ts';

const CLI = join(REPO, 'test/frontends/fixtures/late-commander.ts');

function run(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['--import', TSX_LOADER, CLI, ...args], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, AGENT_MODE: '', ...env },
  });
}

describe('commander withAx: declarations by command path', () => {
  it('commands added after withAx get the declared effects as MCP annotations', () => {
    const r = run(['__schema', '--as=mcp']);
    expect(r.status, r.stderr).toBe(0);
    const tools = (JSON.parse(r.stdout) as { tools: { name: string; annotations?: Record<string, unknown> }[] }).tools;
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    expect(byName.remote_list).toMatchObject({ readOnlyHint: true });
    expect(byName.remote_add).toMatchObject({ readOnlyHint: false, idempotentHint: false, destructiveHint: false });
  });

  it('a path the program does not have: validation_error, reason unknown_command (exit 2)', () => {
    const r = run(['__schema', '--format', 'json'], { LATE_UNKNOWN: '1' });
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!)).toMatchObject({
      error: { kind: 'validation_error', context: { reason: 'unknown_command', command: 'remote gone' } },
    });
  });

  it("a person's run is commander's own", () => {
    expect(run(['remote', 'add', 'up']).stdout).toBe('added up\n');
  });
});
