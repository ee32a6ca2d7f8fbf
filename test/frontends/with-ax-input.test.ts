/**
 * `withAx` given something other than what it takes — a yargs instance instead of its factory, a
 * value that is no commander `Command` — refuses with an Error that names what was given and what to
 * pass (a `code` to test), never a raw TypeError from deep inside (docs/frontends.md).
 */
import { Command } from 'commander';
import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import { withAx as commanderAx } from '../../frontends/commander/index.ts';
import { ax, withAx as yargsAx } from '../../frontends/yargs/index.ts';

/** What `fn` threw. */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('nothing was thrown');
}

describe('withAx given the wrong thing', () => {
  it('yargs: an instance instead of the factory', () => {
    const e = thrown(() => yargsAx(yargs([]) as never));
    expect(e).not.toBeInstanceOf(TypeError);
    expect(e).toMatchObject({ code: 'ax_ts.not_a_factory' });
    expect(e.message).toContain('got a yargs instance');
    expect(e.message).toContain('(args) => yargs(args)');
  });

  it('yargs: a factory that returns no yargs instance is refused when it is read', async () => {
    const program = yargsAx((() => ({})) as never);
    const e = await Promise.resolve()
      .then(() => program.parseAsync(['--format', 'json']))
      .catch((err: unknown) => err as Error);
    expect(e).not.toBeInstanceOf(TypeError);
    expect(e).toMatchObject({ code: 'ax_ts.not_yargs' });
  });

  it('yargs: ax() given no handler', () => {
    const e = thrown(() => ax({} as never, {}));
    expect(e).not.toBeInstanceOf(TypeError);
    expect(e).toMatchObject({ code: 'ax_ts.not_a_handler' });
  });

  it.each([[null], [{}], ['notes'], [() => new Command()]])('commander: %j', (given) => {
    const e = thrown(() => commanderAx(given as never));
    expect(e).not.toBeInstanceOf(TypeError);
    expect(e).toMatchObject({ code: 'ax_ts.not_a_command' });
    expect(e.message).toContain('withAx takes a commander Command');
  });
});
