/**
 * `ctx.actionRequired` stops the run where it is called (docs/contract.md#stops-and-next-steps): a
 * handler that calls it without `throw` — a word-for-word port of code written for a library whose
 * stop returns — still stops, exit 2, nothing after it runs. In human mode the stop says its reason
 * and each next step's description, on lines a person can paste into a shell. `ctx.step`, which
 * records what is done, does no work in a dry run.
 */
import { describe, expect, it } from 'vitest';
import { Command } from '../../lib/index.ts';
import { runCli } from '../helpers/run.ts';

function deployer(done: string[]): Command {
  return new Command({ use: 'deployer', short: 'Deploys' }).addCommand(
    new Command({
      use: 'deploy',
      short: 'Deploy',
      effects: 'non_idempotent',
      run: (ctx) => {
        ctx.actionRequired({
          reason: 'login_required',
          message: 'log in first',
          next: [
            { args: ['login'], description: 'log in with your account' },
            { args: ['deploy', '--offline'], description: 'deploy\nwithout the network' },
          ],
        });
        done.push('deployed');
        return { deployed: true };
      },
    }),
    new Command({ use: 'login', short: 'Log in', run: () => ({}) }),
  );
}

describe('ctx.actionRequired', () => {
  it('stops the run even when its result is left unused: exit 2, action_required, nothing after it ran', async () => {
    const done: string[] = [];
    const r = await runCli(deployer(done), ['deploy', '--format', 'json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr.trim()).error).toMatchObject({
      kind: 'action_required',
      context: { reason: 'login_required' },
      next: [{ command: 'deployer login --format json' }, { command: 'deployer deploy --offline --format json' }],
    });
    expect(done).toEqual([]);
  });

  it('human mode: the reason, then each step with its description after a #', async () => {
    const r = await runCli(deployer([]), ['deploy', '--format', 'text']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'Error: log in first\n' +
        'Reason: login_required\n' +
        'Fix: Run the next step that fits: deployer login --format text; or deployer deploy --offline --format text.\n' +
        'next:\n' +
        '  deployer login --format text             # log in with your account\n' +
        '  deployer deploy --offline --format text  # deploy without the network\n',
    );
  });
});

describe('a stop in a dry run', () => {
  it('keeps the rehearsal in each step that can preview, even one the author spelled --dry-run=false', async () => {
    const root = new Command({ use: 'dr', short: 'Dry runs' }).addCommand(
      new Command({
        use: 'go <x>',
        short: 'Go',
        effects: 'non_idempotent',
        dryRun: true,
        run: (ctx) =>
          ctx.actionRequired({
            reason: 'not_ready',
            message: 'not ready',
            next: [{ args: ['go', 'y', '--dry-run=false'] }, { args: ['go', 'z'] }, { args: ['go', '--', '-w'] }],
          }),
      }),
    );
    const r = await runCli(root, ['go', 'a', '--dry-run', '--format', 'json']);
    const steps = (JSON.parse(r.stderr.trim().split('\n').pop()!).error.next as { argv: string[] }[]).map(
      (s) => s.argv,
    );
    expect(steps).toEqual([
      ['dr', 'go', 'y', '--dry-run', '--format', 'json'],
      ['dr', 'go', 'z', '--dry-run', '--format', 'json'],
      ['dr', 'go', '--dry-run', '--format', 'json', '--', '-w'],
    ]);
  });
});

describe('ctx.step in a dry run', () => {
  it('does not run the work: the step is in meta.would, the step resolves to undefined', async () => {
    const ran: string[] = [];
    const root = new Command({ use: 'fx', short: 'fx' }).addCommand(
      new Command({
        use: 'publish',
        short: 'Publish',
        effects: 'non_idempotent',
        dryRun: true,
        run: async (ctx) => ({ got: (await ctx.step('upload', () => (ran.push('upload'), 'id-1'))) ?? null }),
      }),
    );
    const r = await runCli(root, ['publish', '--dry-run', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const line = JSON.parse(r.stdout);
    expect(line.data).toEqual({ got: null });
    expect(line.meta).toMatchObject({ dry_run: true, would: ['upload'] });
    expect(ran).toEqual([]);
    const real = await runCli(root, ['publish', '--format', 'json']);
    expect(JSON.parse(real.stdout).data).toEqual({ got: 'id-1' });
  });
});
