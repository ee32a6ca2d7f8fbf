/**
 * What a command resolves to (its flag set, its inputSchema properties: lib/tree/resolved.ts) is
 * derived once per tree shape and carried by each invocation; a change to the tree after a run is
 * seen by the next run: a flag added to an ancestor, a command added, one removed.
 */
import { describe, expect, it } from 'vitest';
import { Command } from '../../lib/index.ts';
import { runCli } from '../helpers/run.ts';

function app(): { root: Command; show: Command } {
  const show = new Command({
    use: 'show',
    short: 'Show',
    effects: 'read_only',
    run: (ctx) => ({ flags: Object.keys(ctx.flags).sort() }),
  });
  return { root: new Command({ use: 'app', short: 'App' }).addCommand(show), show };
}

describe('the resolved view follows the tree', () => {
  it('a persistent flag added to the root after a run is accepted and bound by the next run', async () => {
    const { root } = app();
    const first = await runCli(root, ['show', '--region', 'eu', '--format', 'json']);
    expect(first.code).toBe(2);
    expect(JSON.parse(first.stderr.trim().split('\n').pop()!).error.context.reason).toBe('unknown_flag');
    root.addFlag('region', { type: 'string', usage: 'where' }, { persistent: true });
    const second = await runCli(root, ['show', '--region', 'eu', '--format', 'json']);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout).data.flags).toContain('region');
  });

  it('a command added after a run is found, and one removed is gone', async () => {
    const { root, show } = app();
    expect((await runCli(root, ['show', '--format', 'json'])).code).toBe(0);
    root.addCommand(new Command({ use: 'list', short: 'List', effects: 'read_only', run: () => ({ n: 0 }) }));
    const listed = await runCli(root, ['list', '--format', 'json']);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).data).toEqual({ n: 0 });
    root.removeCommand(show);
    const gone = await runCli(root, ['show', '--format', 'json']);
    expect(gone.code).toBe(2);
    expect(JSON.parse(gone.stderr.trim().split('\n').pop()!).error.context.reason).toBe('unknown_command');
  });
});
