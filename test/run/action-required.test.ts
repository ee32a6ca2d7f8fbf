/**
 * `ctx.actionRequired` stops the run where it is called (docs/contract.md#stops-and-next-steps): a
 * handler that calls it without `throw` — a word-for-word port of code written for a library whose
 * stop returns — still stops, exit 2, nothing after it runs. In human mode the stop says its reason
 * and each next step's description, on lines a person can paste into a shell.
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
