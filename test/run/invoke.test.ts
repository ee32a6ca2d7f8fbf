/**
 * The in-process call the MCP bridge runs (lib/run/invoke.ts) hands back the failure as it was
 * reported: the typed AxError (kind, context, next, exit code) and the error line's object, the very
 * one whose JSON is the last line of stderr — not text parsed back (docs/mcp-server.md#toolscall).
 */
import { describe, expect, it } from 'vitest';
import { AxError, Command } from '../../lib/index.ts';
import { invokeCommand } from '../../lib/run/invoke.ts';

function tree(): { root: Command; deploy: Command; ok: Command } {
  const deploy = new Command({
    use: 'deploy',
    short: 'Deploy',
    effects: 'non_idempotent',
    run: (ctx) =>
      ctx.actionRequired({
        reason: 'login_required',
        message: 'log in first',
        next: [{ args: ['login'], description: 'log in with your account' }],
      }),
  });
  const ok = new Command({ use: 'ok', short: 'Fine', effects: 'read_only', run: () => ({ fine: true }) });
  const root = new Command({ use: 'app', short: 'App' }).addCommand(deploy, ok);
  return { root, deploy, ok };
}

describe('invokeCommand', () => {
  it('returns the typed error and the error line object of a failed call', async () => {
    const { root, deploy } = tree();
    const r = await invokeCommand(root, deploy, {});
    expect(r.exitCode).toBe(2);
    expect(r.error).toBeInstanceOf(AxError);
    expect(r.error?.kind).toBe('action_required');
    expect(r.error?.context).toMatchObject({ reason: 'login_required' });
    expect(r.error?.next?.[0]).toMatchObject({ description: 'log in with your account' });
    const last = r.stderr.trimEnd().split('\n').pop()!;
    expect(JSON.stringify(r.errorEnvelope)).toBe(last);
    expect(r.errorEnvelope?.error.kind).toBe('action_required');
    expect(r.errorEnvelope?.meta.tool).toBe('app');
  });

  it('gives no error line object for a call that succeeds', async () => {
    const { root, ok } = tree();
    const r = await invokeCommand(root, ok, {});
    expect(r.exitCode).toBe(0);
    expect(r.payload).toEqual({ fine: true });
    expect('errorEnvelope' in r).toBe(false);
    expect(r.error).toBeUndefined();
  });

  it('returns a refused value the same way, before anything runs', async () => {
    const { root, ok } = tree();
    const r = await invokeCommand(root, ok, { nope: 1 });
    expect(r.error?.kind).toBe('validation_error');
    expect(r.error?.context?.reason).toBe('unknown_property');
    expect(JSON.stringify(r.errorEnvelope)).toBe(r.stderr.trimEnd().split('\n').pop());
  });

  it('gives each run ctx.flags of its own: every flag in order, a list or map default fresh, a given value in place', async () => {
    const seen: Record<string, unknown>[] = [];
    const tags = new Command({
      use: 'tags',
      short: 'Tags',
      effects: 'read_only',
      flags: {
        tag: { type: 'stringSlice', default: ['a'], usage: 'tags' },
        label: { type: 'stringToString', usage: 'labels' },
        limit: { type: 'int', default: 5, usage: 'limit' },
      },
      run: (ctx) => {
        const flags = ctx.flags as Record<string, unknown>;
        seen.push(structuredClone(flags));
        (flags.tag as string[]).push('mutated'); // a handler that changes its list must not change the next run's
        (flags.label as Record<string, string>).x = 'mutated';
        return null;
      },
    });
    const root = new Command({ use: 'app', short: 'App' }).addCommand(tags);
    for (const values of [{}, { limit: 7 }, {}]) expect((await invokeCommand(root, tags, values)).exitCode).toBe(0);
    expect(seen.map((f) => [f.tag, f.label, f.limit])).toEqual([
      [['a'], {}, 5],
      [['a'], {}, 7],
      [['a'], {}, 5],
    ]);
    // the keys: the command's flags as declared, then the injected ones, the same on every run
    expect(Object.keys(seen[1]!)).toEqual(Object.keys(seen[0]!));
    expect(Object.keys(seen[0]!).slice(0, 3)).toEqual(['tag', 'label', 'limit']);
  });
});
