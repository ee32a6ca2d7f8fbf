/**
 * The built-ins (`help`, `__schema`, `schema`, `completion`, `__complete`) are added to a tree only by
 * a run whose words can reach them (lib/builtins/builtins.ts, docs/performance.md): one that names a
 * command under another root child, or asks the root only for its version, builds none — and answers
 * exactly what it answers with them built.
 */
import { describe, expect, it } from 'vitest';
import { Command } from '../../lib/index.ts';
import { runCli } from '../helpers/run.ts';

function tree(): Command {
  return new Command({
    use: 'app',
    short: 'An app',
    commands: [
      new Command({
        use: 'link',
        short: 'Links',
        commands: [new Command({ use: 'list', short: 'List links', effects: 'read_only', run: () => [] })],
      }),
    ],
  });
}

const builtinsOf = (root: Command) =>
  ['help', '__schema', 'schema', 'completion', '__complete'].filter((n) => root.findChild(n) !== undefined);

describe('built-ins on demand', () => {
  it.each([
    [['--version'], false],
    [['-v'], false],
    [['--version', '--format=text'], false],
    [['--version', '--format', 'json'], true], // a value word: read as any root run
    [['--version', '--help'], true],
    [['-v', 'extra'], true],
    [['--help'], true],
    [[], true],
    [['help'], true],
    [['bogus'], true],
    [['link', 'list'], false],
  ] as const)('%j builds them: %s', async (args, built) => {
    const root = tree();
    const r = await runCli(root, args);
    expect(builtinsOf(root).length > 0).toBe(built);
    // the same answer as from a tree whose built-ins were built first (by a run that reached them)
    const warm = tree();
    await runCli(warm, ['--help']);
    const again = await runCli(warm, args);
    const ids = (s: string) =>
      s
        .replace(/"(trace_id|span_id|idempotency_key)":"[^"]*"/g, '"$1":"…"')
        .replace(/"duration_ms":\d+/g, '"duration_ms":0');
    expect(ids(r.stdout)).toBe(ids(again.stdout));
    expect(ids(r.stderr)).toBe(ids(again.stderr));
    expect(r.code).toBe(again.code);
  });

  it('a root whose own --version replaces the injected one is not taken for a version answer', async () => {
    const root = new Command({
      use: 'app',
      flags: { version: { type: 'bool', usage: 'its own' } },
      run: (ctx) => ({ own: ctx.flags.version === true, children: ctx.command.commands().length }),
      commands: [new Command({ use: 'go', run: () => null })],
    });
    const r = await runCli(root, ['--version']);
    expect(JSON.parse(r.stdout).data.own).toBe(true);
    expect(builtinsOf(root).length).toBeGreaterThan(0);
  });
});
