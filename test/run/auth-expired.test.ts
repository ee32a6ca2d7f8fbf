/**
 * `auth_expired` (docs/contract.md#an-expired-credential-auth_expired): a built-in kind, exit 4 and
 * retryable, listed by `__schema`; its fix when the thrower gave none; `next[0]` only where the root
 * declares `login`; the declaration checked.
 */
import { describe, expect, it } from 'vitest';
import { AxError, Command } from '../../lib/index.ts';
import { runCli } from '../helpers/run.ts';

function tree(login?: string[], fix?: string): Command {
  const root = new Command({ use: 'fx', ...(login ? { login } : {}) });
  root.addCommand(
    new Command({
      use: 'fetch',
      effects: 'read_only',
      run: () => {
        throw new AxError('auth_expired', 'the token expired', fix ? { fix } : {});
      },
    }),
    new Command({ use: 'auth', commands: [new Command({ use: 'login', effects: 'idempotent', run: () => ({}) })] }),
  );
  return root;
}

const errorOf = (r: { stderr: string }) => JSON.parse(r.stderr.trimEnd().split('\n').at(-1)!).error;

describe('auth_expired', () => {
  it('is in the catalogue __schema lists: exit 4, retryable', async () => {
    const doc = JSON.parse((await runCli(tree(), ['__schema'])).stdout);
    expect(doc.errors).toContainEqual({ kind: 'auth_expired', exit_code: 4, retryable: true });
    expect(doc.error_envelope.exit_codes['4']).toBe('auth');
  });

  it('without a login declaration: the fix says to sign in again, and there is no next step', async () => {
    const r = await runCli(tree(), ['fetch', '--format', 'json']);
    expect(r.code).toBe(4);
    const e = errorOf(r);
    expect(e).toMatchObject({ kind: 'auth_expired', exit_code: 4, retryable: true });
    expect(e.actionable_fix).toMatch(/^The credential has expired: sign in again \(renew/);
    expect(e.next).toBeUndefined();
  });

  it("with one: next[0] is that command, with the caller's --format, and runs; a thrower's own fix is kept", async () => {
    const e = errorOf(await runCli(tree(['auth', 'login']), ['fetch', '--format', 'json']));
    expect(e.next).toEqual([
      {
        description: 'sign in again',
        command: 'fx auth login --format json',
        argv: ['fx', 'auth', 'login', '--format', 'json'],
      },
    ]);
    expect((await runCli(tree(['auth', 'login']), e.next[0].argv.slice(1))).code).toBe(0);
    const own = errorOf(await runCli(tree(['auth', 'login'], 'Run fx auth login.'), ['fetch']));
    expect(own.actionable_fix).toBe('Run fx auth login.');
    expect(own.next[0].argv).toEqual(['fx', 'auth', 'login']);
  });

  it('the declaration is words after the program name', () => {
    for (const bad of [[], [''], 'auth login', [1]])
      expect(() => new Command({ use: 'fx', login: bad as never })).toThrow(/login must be the words of a command/);
  });
});
