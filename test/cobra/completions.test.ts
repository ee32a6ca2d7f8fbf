/**
 * Port of part of spf13/cobra completions_test.go: command-name and validArgs completion through the
 * hidden `__complete` / `__completeNoDesc` commands, with Cobra's expected candidate lines and
 * directive. Cobra's tests also read its "Completion ended with directive: …" debug line, which
 * Cobra writes to stderr; ax-ts does not print it, so the port compares the stdout protocol only.
 * ax-ts's visible built-in `schema` command is left out of the compared candidates (it is not in
 * Cobra). The tests not ported are listed in docs/cobra-differences.md.
 */
import { describe, expect, it } from 'vitest';
import { ArbitraryArgs, Command, MinimumNArgs } from '../../lib/index.ts';
import { runCli } from '../helpers/run.ts';
import { emptyRun } from './harness.ts';

/** Runs `root __complete…` and returns its stdout lines without ax-ts's own `schema` command. */
async function complete(root: Command, ...args: string[]): Promise<string[]> {
  const r = await runCli(root, args);
  expect(r.code).toBe(0);
  return r.stdout.split('\n').filter((l) => l !== '' && !/^schema(\t|$)/.test(l));
}

describe('cobra completions_test.go', () => {
  const cmdTree = () =>
    new Command({
      use: 'root',
      run: emptyRun,
      commands: [
        new Command({ use: 'firstChild', short: 'First command', run: emptyRun }),
        new Command({ use: 'secondChild', run: emptyRun }),
        new Command({ use: 'testHidden', hidden: true, run: emptyRun }),
        new Command({ use: 'testDeprecated', deprecated: 'deprecated', run: emptyRun }),
        new Command({ use: 'aliased', short: 'A command with aliases', aliases: ['testAlias', 'testSynonym'], run: emptyRun }),
      ],
    });

  it('TestCmdNameCompletionInGo', async () => {
    expect(await complete(cmdTree(), '__completeNoDesc', '')).toStrictEqual(['aliased', 'completion', 'firstChild', 'help', 'secondChild', ':4']);
    expect(await complete(cmdTree(), '__completeNoDesc', 's')).toStrictEqual(['secondChild', ':4']);
    // even with no match, hidden, deprecated and aliases are not completed
    expect(await complete(cmdTree(), '__completeNoDesc', 'test')).toStrictEqual([':4']);
    expect(await complete(cmdTree(), '__complete', '')).toStrictEqual([
      'aliased\tA command with aliases',
      'completion\tGenerate the autocompletion script for the specified shell',
      'firstChild\tFirst command',
      'help\tHelp about any command',
      'secondChild',
      ':4',
    ]);
  });

  it('TestNoCmdNameCompletionInGo', async () => {
    const child1 = () => new Command({
      use: 'childCmd1',
      short: 'First command',
      validateArgs: MinimumNArgs(0),
      run: emptyRun,
      persistentFlags: { persistent: { type: 'string', short: 'p', usage: 'persistent flag' } },
      flags: { nonPersistent: { type: 'string', short: 'n', usage: 'non-persistent flag' } },
      commands: [new Command({ use: 'childCmd2', run: emptyRun })],
    });
    const root = (traverseChildren = false) => new Command({ use: 'root', run: emptyRun, traverseChildren, flags: { localroot: { type: 'string', usage: 'local root flag' } }, commands: [child1()] });
    // not completed if there is an argument already
    expect(await complete(root(), '__completeNoDesc', 'childCmd1', 'arg1', '')).toStrictEqual([':0']);
    // not completed if a local non-persistent flag is present
    expect(await complete(root(), '__completeNoDesc', 'childCmd1', '--nonPersistent', 'value', '')).toStrictEqual([':0']);
    // completed if a local non-persistent flag is present and TraverseChildren is set on the root
    expect(await complete(root(true), '__completeNoDesc', '--localroot', 'value', '')).toStrictEqual(['childCmd1', 'completion', 'help', ':4']);
    // a child's subcommands are completed with a local flag of the root and of the child (TraverseChildren)
    expect(await complete(root(true), '__completeNoDesc', '--localroot', 'value', 'childCmd1', '--nonPersistent', 'value', '')).toStrictEqual(['childCmd2', ':4']);
    // without TraverseChildren the same line is invalid (the root's flag given to the child): nothing
    expect(await complete(root(), '__completeNoDesc', '--localroot', 'value', 'childCmd1', '')).toStrictEqual([':0']);
    // not completed with a local non-persistent short flag
    expect(await complete(root(), '__completeNoDesc', 'childCmd1', '-n', 'value', '')).toStrictEqual([':0']);
    // completed with a persistent flag given (long and short)
    expect(await complete(root(), '__completeNoDesc', 'childCmd1', '--persistent', 'value', '')).toStrictEqual(['childCmd2', ':4']);
    expect(await complete(root(), '__completeNoDesc', 'childCmd1', '-p', 'value', '')).toStrictEqual(['childCmd2', ':4']);
  });

  it('TestValidArgsCompletionInGo', async () => {
    const root = () => new Command({ use: 'root', validArgs: ['one', 'two', 'three'], validateArgs: MinimumNArgs(1), run: emptyRun });
    expect(await complete(root(), '__completeNoDesc', '')).toStrictEqual(['one', 'two', 'three', ':4']);
    expect(await complete(root(), '__completeNoDesc', 'o')).toStrictEqual(['one', ':4']);
    // validArgs complete the first positional only; then completion stops (Cobra: ":0")
    expect((await complete(root(), '__completeNoDesc', 'one', '')).filter((l) => !l.startsWith(':'))).toStrictEqual([]);
  });

  it('TestValidArgsAndCmdCompletionInGo', async () => {
    const root = () => new Command({ use: 'root', validArgs: ['one', 'two'], validateArgs: ArbitraryArgs, run: emptyRun, commands: [new Command({ use: 'thechild', run: emptyRun })] });
    expect(await complete(root(), '__completeNoDesc', '')).toStrictEqual(['completion', 'help', 'thechild', 'one', 'two', ':4']);
    expect(await complete(root(), '__completeNoDesc', 't')).toStrictEqual(['thechild', 'two', ':4']);
  });
});
