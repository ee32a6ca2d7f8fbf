/**
 * `ctx.progress` (docs/contract.md "Progress"): a report whose `done` does not rise is dropped on
 * every path (MCP requires increasing progress), and a person on a terminal sees a progress line on
 * stderr, redrawn in place and erased at the end — never in json mode, nor under an agent or CI.
 */
import { describe, expect, it } from 'vitest';
import { Command, execute } from '../../lib/index.ts';

const tree = () =>
  new Command({
    use: 'app',
    commands: [
      new Command({
        use: 'work',
        run: (ctx) => {
          for (const [done, total] of [
            [1, 4],
            [1, 4], // the same again: dropped
            [3, 4],
            [2, 4], // going back: dropped
            [Number.NaN, 4], // not a number: dropped
            [4, 4],
          ])
            ctx.progress(done!, total, 'copying');
          ctx.log('done copying');
          return { ok: true };
        },
      }),
    ],
  });

async function run(args: string[], opts: { tty: boolean; env?: Record<string, string> }) {
  let out = '';
  let err = '';
  const reports: unknown[][] = [];
  const code = await execute(tree(), {
    args,
    stdout: { write: (s) => void (out += String(s)), isTTY: opts.tty },
    stderr: { write: (s) => void (err += String(s)), isTTY: opts.tty },
    env: opts.env ?? {},
    stdinIsTTY: false,
    onProgress: (...r) => void reports.push(r),
  });
  return { code, out, err, reports };
}

describe('ctx.progress', () => {
  it('only rising reports get through', async () => {
    const r = await run(['work'], { tty: false });
    expect(r.code).toBe(0);
    expect(r.reports).toEqual([
      [1, 4, 'copying'],
      [3, 4, 'copying'],
      [4, 4, 'copying'],
    ]);
  });

  it('on a terminal in human mode: one line redrawn in place, erased before the run writes a line and at the end', async () => {
    const r = await run(['work'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.err).toBe(
      '\r\x1b[Kcopying 1/4 (25%)\r\x1b[Kcopying 3/4 (75%)\r\x1b[Kcopying 4/4 (100%)\r\x1b[Kdone copying\n',
    );
    expect(r.out).toBe('ok: true\n');
  });

  it.each([
    ['json mode', ['work', '--format', 'json'], {}],
    ['an agent', ['work'], { CLAUDECODE: '1' }],
    ['CI', ['work'], { CI: 'true' }],
  ])('never drawn for %s', async (_n, args, env) => {
    const r = await run(args as string[], { tty: true, env: env as Record<string, string> });
    expect(r.err).toBe('done copying\n');
    expect(r.reports).toHaveLength(3);
  });
});
