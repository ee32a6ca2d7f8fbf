/**
 * `Command.find(args)` (docs/api.md#commandfind), Cobra's Find and Traverse: the command a command
 * line reaches and the words left, for default-subcommand logic and plugins; nothing runs. The cases
 * follow Cobra's own (command_test.go TestFind, TestTraverse*), on the public API.
 */
import { describe, expect, it } from 'vitest';
import { AxError, Command } from '../../lib/index.ts';
import { BUILTIN_ANNOTATION } from '../../lib/tree/builtin.ts';

function tree(traverse = false): Command {
  const run = () => null;
  const root = new Command({
    use: 'app',
    short: 'root',
    traverseChildren: traverse,
    persistentFlags: { verbose: { type: 'bool', usage: 'v' }, region: { type: 'string', usage: 'r' } },
  });
  root.addCommand(
    new Command({
      use: 'deploy',
      short: 'deploy',
      aliases: ['d'],
      commands: [
        new Command({ use: 'app <name>', short: 'an app', flags: { force: { type: 'bool', usage: 'f' } }, run }),
      ],
    }),
    new Command({ use: 'status', short: 'status', run }),
  );
  return root;
}

describe('Command.find', () => {
  it.each([
    [[], 'app', []],
    [['status'], 'app status', []],
    [['deploy', 'app', 'web', '--force'], 'app deploy app', ['web', '--force']],
    [['d', 'app', 'web'], 'app deploy app', ['web']], // an alias
    [['--region', 'eu', 'deploy', 'app', 'x'], 'app deploy app', ['--region', 'eu', 'x']], // a flag's value is no command word
    [['--verbose', 'status'], 'app status', ['--verbose']],
    [['nope', 'status'], 'app', ['nope', 'status']], // an unknown word stops the walk (Cobra: legacyArgs decides)
    [['deploy', '--', 'app'], 'app deploy', ['--', 'app']], // after -- nothing is a command
  ])('%j reaches %s, leaving %j', (args, path, rest) => {
    const found = tree().find(args as string[]);
    expect(found.command.commandPath()).toBe(path);
    expect(found.rest).toEqual(rest);
  });

  it('from a subcommand: the words after its name', () => {
    const deploy = tree().findChild('deploy')!;
    expect(deploy.find(['app', 'x']).command.commandPath()).toBe('app deploy app');
  });

  it("with traverseChildren on the root (Cobra's Traverse): each level's flags before its child", () => {
    const found = tree(true).find(['--verbose', 'deploy', 'app', 'web']);
    expect(found.command.commandPath()).toBe('app deploy app');
    expect(found.rest).toContain('web');
  });

  it('bad input: a clear validation_error, never a raw TypeError', () => {
    // eslint-disable-next-line no-sparse-arrays -- a hole is no string either
    for (const bad of [undefined, 'status', [1, 2], [null], [, 'status'], new Array(2)]) {
      let thrown: unknown;
      try {
        tree().find(bad as never);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(AxError);
      expect((thrown as AxError).kind).toBe('validation_error');
      expect((thrown as AxError).context).toMatchObject({ reason: 'invalid_argument' });
    }
  });

  it("an author's command is found before one ax-ts added under the same name, by its name or an alias", () => {
    const ours = () => new Command({ use: 'mcp', hidden: true, annotations: { [BUILTIN_ANNOTATION]: 'true' } });
    for (const [use, aliases] of [
      ['mcp', []],
      ['servers', ['mcp']],
    ] as const) {
      const root = new Command({ use: 'app' });
      const builtin = ours();
      root.addCommand(builtin); // ax-ts's first, as mountMcpServer adds it before the author's next line
      const mine = new Command({ use, aliases: [...aliases], run: () => null });
      root.addCommand(mine);
      expect(root.findChild('mcp'), use).toBe(mine);
      expect(root.find(['mcp', 'x']).command, use).toBe(mine);
      root.removeCommand(mine);
      expect(root.findChild('mcp'), use).toBe(builtin); // alone, ax-ts's is found
    }
  });
});
