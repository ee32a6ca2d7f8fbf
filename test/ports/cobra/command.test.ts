/**
 * Port of spf13/cobra command_test.go: the cases about parsing, finding commands, flags, help,
 * version, hooks, groups and suggestions, with Cobra's inputs and expected texts, adapted to ax-ts's
 * API. Where a Cobra root or child relies on `Args == nil` accepting any word, the port declares
 * `validateArgs: ArbitraryArgs` (ax-ts's positionals are strict by default — see
 * docs/cobra-differences.md). Help-text comparisons leave out the lines of the contract flags ax-ts
 * injects (`--format`, `--dry-run`, `--idempotency-key`, `--args-json`). Tests of APIs ax-ts does not
 * have are listed under "Not ported" in docs/cobra-differences.md.
 */
import { describe, expect, it } from 'vitest';
import { ArbitraryArgs, Command, ExactArgs, NoArgs, defaultHelpText, type RunContext } from '../../../lib/index.ts';
import { findCommand } from '../../../lib/parse/parse.ts';
import { emptyRun, executeCommand, jsonError } from './harness.ts';
import { runCli } from '../../helpers/run.ts';

const onetwo = 'one two';
const recorder = () => {
  let args: string[] | undefined;
  return { run: (ctx: RunContext) => void (args = ctx.argv), got: () => args?.join(' ') };
};
/** Help text without the lines of ax-ts's injected contract flags. */
const cobraLines = (help: string) =>
  help
    .split('\n')
    .filter((l) => !/--(format|dry-run|idempotency-key|args-json|yes|strict|timeout|explain|fields)\b/.test(l))
    .join('\n');

describe('cobra command_test.go: finding and running commands', () => {
  it('TestSingleCommand', async () => {
    const r = recorder();
    const root = new Command({
      use: 'root',
      validateArgs: ExactArgs(2),
      run: r.run,
      commands: [
        new Command({ use: 'a', validateArgs: NoArgs, run: emptyRun }),
        new Command({ use: 'b', validateArgs: NoArgs, run: emptyRun }),
      ],
    });
    const out = await executeCommand(root, 'one', 'two');
    expect([out.output, out.error, r.got()]).toStrictEqual(['', undefined, onetwo]);
  });

  it('TestChildCommand', async () => {
    const r = recorder();
    const root = new Command({
      use: 'root',
      validateArgs: NoArgs,
      run: emptyRun,
      commands: [
        new Command({ use: 'child1', validateArgs: ExactArgs(2), run: r.run }),
        new Command({ use: 'child2', validateArgs: NoArgs, run: emptyRun }),
      ],
    });
    const out = await executeCommand(root, 'child1', 'one', 'two');
    expect([out.output, out.error, r.got()]).toStrictEqual(['', undefined, onetwo]);
  });

  it('TestCallCommandWithoutSubcommands', async () => {
    expect(
      (await executeCommand(new Command({ use: 'root', validateArgs: NoArgs, run: emptyRun }))).error,
    ).toBeUndefined();
  });

  it('TestRootExecuteUnknownCommand (text; ax-ts adds the usage line and the fix)', async () => {
    const root = new Command({ use: 'root', run: emptyRun, commands: [new Command({ use: 'child', run: emptyRun })] });
    const r = await executeCommand(root, 'unknown');
    expect(r.stderr.startsWith('Error: unknown command "unknown" for "root"\n')).toBe(true);
    expect(r.stderr).toContain("Run 'root --help' to list commands (agents: 'root __schema').");
  });

  it('TestSubcommandExecuteC', async () => {
    let ran = '';
    const root = new Command({
      use: 'root',
      run: emptyRun,
      commands: [new Command({ use: 'child', run: (ctx) => void (ran = ctx.command.name) })],
    });
    expect((await executeCommand(root, 'child')).output).toBe('');
    expect(ran).toBe('child');
  });

  it('TestCommandAlias', async () => {
    const r = recorder();
    const echo = new Command({
      use: 'echo',
      aliases: ['say', 'tell'],
      validateArgs: NoArgs,
      run: emptyRun,
      commands: [new Command({ use: 'times', validateArgs: ExactArgs(2), run: r.run })],
    });
    const root = new Command({ use: 'root', validateArgs: NoArgs, run: emptyRun, commands: [echo] });
    expect((await executeCommand(root, 'tell', 'times', 'one', 'two')).error).toBeUndefined();
    expect(r.got()).toBe(onetwo);
  });

  it('TestChildSameName', async () => {
    const r = recorder();
    const root = new Command({
      use: 'foo',
      validateArgs: NoArgs,
      run: emptyRun,
      commands: [
        new Command({ use: 'foo', validateArgs: ExactArgs(2), run: r.run }),
        new Command({ use: 'bar', validateArgs: NoArgs, run: emptyRun }),
      ],
    });
    expect((await executeCommand(root, 'foo', 'one', 'two')).error).toBeUndefined();
    expect(r.got()).toBe(onetwo);
  });

  it('TestGrandChildSameName', async () => {
    const r = recorder();
    const bar = new Command({
      use: 'bar',
      validateArgs: NoArgs,
      run: emptyRun,
      commands: [new Command({ use: 'foo', validateArgs: ExactArgs(2), run: r.run })],
    });
    const root = new Command({ use: 'foo', validateArgs: NoArgs, run: emptyRun, commands: [bar] });
    expect((await executeCommand(root, 'bar', 'foo', 'one', 'two')).error).toBeUndefined();
    expect(r.got()).toBe(onetwo);
  });

  it('TestCaseSensitivityBackwardCompatibility', async () => {
    const root = new Command({ use: 'root', run: emptyRun, commands: [new Command({ use: 'child', run: emptyRun })] });
    expect((await executeCommand(root, 'CHILD')).code).toBe(2);
  });

  it('TestRemoveCommand', async () => {
    const child = new Command({ use: 'child', run: emptyRun });
    const root = new Command({ use: 'root', validateArgs: NoArgs, run: emptyRun, commands: [child] });
    root.removeCommand(child);
    expect((await executeCommand(root, 'child')).code).toBe(2);
  });

  it('TestReplaceCommandWithRemove', async () => {
    let used = 0;
    const c1 = new Command({ use: 'child', run: () => void (used = 1) });
    const c2 = new Command({ use: 'child', run: () => void (used = 2) });
    const root = new Command({ use: 'root', run: emptyRun, commands: [c1] });
    root.removeCommand(c1);
    root.addCommand(c2);
    expect((await executeCommand(root, 'child')).output).toBe('');
    expect(used).toBe(2);
  });

  it('TestDeprecatedCommand', async () => {
    const root = new Command({
      use: 'root',
      run: emptyRun,
      commands: [new Command({ use: 'deprecated', deprecated: 'This command is deprecated', run: emptyRun })],
    });
    expect((await executeCommand(root, 'deprecated')).stderr).toContain('This command is deprecated'); // ax-ts: diagnostics on stderr
  });

  it('TestHiddenCommandExecutes', async () => {
    let executed = false;
    const r = await executeCommand(new Command({ use: 'c', hidden: true, run: () => void (executed = true) }));
    expect([r.output, executed]).toStrictEqual(['', true]);
  });

  it('TestCommandsAreSorted', () => {
    const root = new Command({ use: 'root' });
    for (const name of ['middle', 'zlast', 'afirst']) root.addCommand(new Command({ use: name }));
    expect(root.commands().map((c) => c.name)).toStrictEqual(['afirst', 'middle', 'zlast']);
  });

  it('TestUsageIsNotPrintedTwice', async () => {
    const root = new Command({ use: 'root', commands: [new Command({ use: 'sub' })] });
    const r = await executeCommand(root, '');
    expect((r.output + r.stderr).split('Usage:').length - 1).toBe(1);
  });
});

describe('cobra command_test.go: flags', () => {
  const flagged = () => {
    const seen: { args?: string[]; flags?: Record<string, unknown>; dash?: number } = {};
    const run = (ctx: RunContext) =>
      void Object.assign(seen, { args: ctx.argv, flags: ctx.flags, dash: ctx.argsLenAtDash });
    return { seen, run };
  };

  it('TestFlagLong', async () => {
    const { seen, run } = flagged();
    const c = new Command({
      use: 'c',
      validateArgs: ArbitraryArgs,
      run,
      flags: { intf: { type: 'int', default: -1 }, sf: { type: 'string', default: '' } },
    });
    expect((await executeCommand(c, '--intf=7', '--sf=abc', 'one', '--', 'two')).output).toBe('');
    expect([seen.dash, seen.flags!.intf, seen.flags!.sf, seen.args!.join(' ')]).toStrictEqual([1, 7, 'abc', onetwo]);
  });

  it('TestFlagShort', async () => {
    const { seen, run } = flagged();
    const c = new Command({
      use: 'c',
      validateArgs: ArbitraryArgs,
      run,
      flags: { intf: { type: 'int', short: 'i', default: -1 }, sf: { type: 'string', short: 's', default: '' } },
    });
    await executeCommand(c, '-i', '7', '-sabc', 'one', 'two');
    expect([seen.flags!.intf, seen.flags!.sf, seen.args!.join(' ')]).toStrictEqual([7, 'abc', onetwo]);
  });

  it('TestChildFlag', async () => {
    const { seen, run } = flagged();
    const root = new Command({
      use: 'root',
      run: emptyRun,
      commands: [new Command({ use: 'child', run, flags: { intf: { type: 'int', short: 'i', default: -1 } } })],
    });
    expect((await executeCommand(root, 'child', '-i7')).output).toBe('');
    expect(seen.flags!.intf).toBe(7);
  });

  it('TestChildFlagWithParentLocalFlag', async () => {
    const root = new Command({
      use: 'root',
      run: emptyRun,
      flags: { sf: { type: 'string', short: 's' } },
      commands: [
        new Command({ use: 'child', run: emptyRun, flags: { intf: { type: 'int', short: 'i', default: -1 } } }),
      ],
    });
    expect((await executeCommand(root, 'child', '-i7', '-sabc')).error).toContain('unknown shorthand');
  });

  it('TestFlagInvalidInput (pflag\'s current text instead of strconv\'s "invalid syntax")', async () => {
    const root = new Command({ use: 'root', run: emptyRun, flags: { intf: { type: 'int', short: 'i', default: -1 } } });
    expect((await executeCommand(root, '-iabc')).error).toBe(
      'invalid argument "abc" for "-i, --intf" flag: must be an integer',
    );
  });

  it('TestFlagBeforeCommand', async () => {
    const { seen, run } = flagged();
    const root = new Command({
      use: 'root',
      run: emptyRun,
      commands: [new Command({ use: 'child', run, flags: { intf: { type: 'int', short: 'i', default: -1 } } })],
    });
    expect((await executeCommand(root, '-i7', 'child')).error).toBeUndefined();
    expect(seen.flags!.intf).toBe(7);
    expect((await executeCommand(root, '--intf=8', 'child')).error).toBeUndefined();
    expect(seen.flags!.intf).toBe(8);
  });

  // TestStripFlags: Cobra's stripFlags, observed as the positionals a command with those flags receives
  it.each([
    [
      ['foo', 'bar'],
      ['foo', 'bar'],
    ],
    [['foo', '--str', '-s'], ['foo']],
    [['-s', 'foo', '--str', 'bar'], []],
    [['-i10', 'echo'], ['echo']],
    [['-i=10', 'echo'], ['echo']],
    [['--int=100', 'echo'], ['echo']],
    [
      ['-ib', 'echo', '-sfoo', 'baz'],
      ['echo', 'baz'],
    ],
    [
      ['-i=baz', 'bar', '-i', 'foo', 'blah'],
      ['bar', 'blah'],
    ],
    [['--int=baz', '-sbar', '-i', 'foo', 'blah'], ['blah']],
    [
      ['--bool', 'bar', '-i', 'foo', 'blah'],
      ['bar', 'blah'],
    ],
    [
      ['-b', 'bar', '-i', 'foo', 'blah'],
      ['bar', 'blah'],
    ],
    [['--persist', 'bar'], ['bar']],
    [['-p', 'bar'], ['bar']],
  ])('TestStripFlags %j', async (input, output) => {
    // stripFlags does not parse values; the port gives -i a string type so "baz"/"foo" values parse
    const { seen, run } = flagged();
    const c = new Command({
      use: 'c',
      validateArgs: ArbitraryArgs,
      run,
      persistentFlags: { persist: { type: 'bool', short: 'p' } },
      flags: {
        int: { type: 'string', short: 'i' },
        str: { type: 'string', short: 's' },
        bool: { type: 'bool', short: 'b' },
      },
    });
    const r = await executeCommand(c, ...input);
    if (input.join(' ') === 'foo --str -s') {
      // pflag: --str takes "-s" as its value (a value may start with a dash)
      expect(seen.flags!.str).toBe('-s');
    }
    expect(r.error).toBeUndefined();
    expect(seen.args).toStrictEqual(output);
  });

  it('TestDisableFlagParsing', async () => {
    const { seen, run } = flagged();
    const c = new Command({ use: 'c [args...]', disableFlagParsing: true, run });
    const args = ['cmd', '-v', '-race', '-file', 'foo.go'];
    expect((await executeCommand(c, ...args)).output).toBe('');
    expect(seen.args).toStrictEqual(args);
  });

  it('TestPersistentFlagsOnSameCommand', async () => {
    const { seen, run } = flagged();
    const root = new Command({
      use: 'root',
      validateArgs: ArbitraryArgs,
      run,
      persistentFlags: { intf: { type: 'int', short: 'i', default: -1 } },
    });
    await executeCommand(root, '-i7', 'one', 'two');
    expect([seen.args!.join(' '), seen.flags!.intf]).toStrictEqual([onetwo, 7]);
  });

  it('TestEmptyInputs', async () => {
    const { seen, run } = flagged();
    const c = new Command({
      use: 'c',
      validateArgs: ArbitraryArgs,
      run,
      flags: { intf: { type: 'int', short: 'i', default: -1 } },
    });
    expect((await executeCommand(c, '', '-i7', '')).error).toBeUndefined();
    expect(seen.flags!.intf).toBe(7);
  });

  it('TestPersistentFlagsOnChild', async () => {
    const { seen, run } = flagged();
    const root = new Command({
      use: 'root',
      run: emptyRun,
      persistentFlags: { parentf: { type: 'int', short: 'p', default: -1 } },
      commands: [
        new Command({
          use: 'child',
          validateArgs: ArbitraryArgs,
          run,
          flags: { childf: { type: 'int', short: 'c', default: -1 } },
        }),
      ],
    });
    await executeCommand(root, 'child', '-c7', '-p8', 'one', 'two');
    expect([seen.args!.join(' '), seen.flags!.parentf, seen.flags!.childf]).toStrictEqual([onetwo, 8, 7]);
  });

  it('TestRequiredFlags', async () => {
    const c = new Command({
      use: 'c',
      run: emptyRun,
      flags: {
        foo1: { type: 'string', required: true },
        foo2: { type: 'string', required: true },
        bar: { type: 'string' },
      },
    });
    expect((await executeCommand(c)).error).toBe('required flag(s) "foo1", "foo2" not set');
  });

  it('TestPersistentRequiredFlags', async () => {
    const child = new Command({
      use: 'child',
      run: emptyRun,
      flags: {
        bar1: { type: 'string', required: true },
        bar2: { type: 'string', required: true },
        bar3: { type: 'string' },
      },
    });
    const parent = new Command({
      use: 'parent',
      run: emptyRun,
      persistentFlags: { foo1: { type: 'string', required: true }, foo2: { type: 'string', required: true } },
      flags: { foo3: { type: 'string' } },
      commands: [child],
    });
    expect((await executeCommand(parent, 'child')).error).toBe(
      'required flag(s) "bar1", "bar2", "foo1", "foo2" not set',
    );
  });

  it('TestPersistentRequiredFlagsWithDisableFlagParsing', async () => {
    const mk = () =>
      new Command({
        use: 'parent',
        run: emptyRun,
        persistentFlags: { foo: { type: 'bool', required: true } },
        commands: [new Command({ use: 'child [args...]', disableFlagParsing: true, run: emptyRun })],
      });
    for (const args of [['--foo', 'child'], ['child', '--foo'], ['child']])
      expect((await executeCommand(mk(), ...args)).error).toBeUndefined();
  });

  it('TestChildFlagShadowsParentPersistentFlag (seen through help: Flags vs Global Flags)', async () => {
    const child = new Command({
      use: 'child',
      run: emptyRun,
      flags: { strf: { type: 'string' }, intf: { type: 'int', default: -1 } },
    });
    const parent = new Command({
      use: 'parent',
      run: emptyRun,
      persistentFlags: { boolf: { type: 'bool' }, intf: { type: 'int', default: -1 } },
      commands: [child],
    });
    const help = (await executeCommand(parent, 'child', '--help')).output;
    const [local, inherited] = help.split('Global Flags:');
    expect(local).toMatch(/--strf/);
    expect(local).toMatch(/--intf/);
    expect(inherited).toMatch(/--boolf/);
    expect(inherited).not.toMatch(/--intf/);
  });

  it('TestUseDeprecatedFlags', async () => {
    const c = new Command({
      use: 'c',
      validateArgs: ArbitraryArgs,
      run: emptyRun,
      flags: {
        deprecated: { type: 'bool', short: 'd', usage: 'deprecated flag', deprecated: 'This flag is deprecated' },
      },
    });
    expect((await executeCommand(c, 'c', '-d')).stderr).toContain('This flag is deprecated');
  });

  describe('TestUnknownFlagShouldReturnSameErrorRegardlessOfArgPosition', () => {
    const root = () =>
      new Command({
        use: 'root',
        run: emptyRun,
        persistentFlags: { namespace: { type: 'string', usage: 'a string flag' } },
        commands: [
          new Command({ use: 'child', run: emptyRun, flags: { bar: { type: 'bool', usage: 'a boolean flag' } } }),
        ],
      });
    it.each([
      ['--namespace', 'foo', '--unknown', 'child', '--bar'],
      ['--namespace', 'foo', 'child', '--unknown', '--bar'],
      ['--namespace', 'foo', 'child', '--bar', '--unknown'],
      ['--unknown', '--namespace=foo', 'child', '--bar'],
      ['--namespace=foo', '--unknown', 'child', '--bar'],
      ['--namespace=foo', 'child', '--unknown', '--bar'],
      ['--namespace=foo', 'child', '--bar', '--unknown'],
      ['--unknown', '--namespace=foo', 'child', '--bar=true'],
      ['--namespace=foo', '--unknown', 'child', '--bar=true'],
      ['--namespace=foo', 'child', '--unknown', '--bar=true'],
      ['--namespace=foo', 'child', '--bar=true', '--unknown'],
    ])('%s %s %s %s %s', async (...tc) => {
      expect((await executeCommand(root(), ...tc.filter((x): x is string => typeof x === 'string'))).error).toBe(
        'unknown flag: --unknown',
      );
    });
  });
});

describe('cobra command_test.go: help', () => {
  it('TestHelpCommandExecuted', async () => {
    const root = new Command({
      use: 'root',
      long: 'Long description',
      run: emptyRun,
      commands: [new Command({ use: 'child', run: emptyRun })],
    });
    expect((await executeCommand(root, 'help')).output).toContain('Long description');
  });

  it('TestHelpCommandExecutedOnChild', async () => {
    const root = new Command({
      use: 'root',
      run: emptyRun,
      commands: [new Command({ use: 'child', long: 'Long description', run: emptyRun })],
    });
    expect((await executeCommand(root, 'help', 'child')).output).toContain('Long description');
  });

  it('TestHelpCommandExecutedOnChildWithFlagThatShadowsParentFlag (line for line, but the injected flags)', async () => {
    const child = new Command({
      use: 'child',
      run: emptyRun,
      flags: { foo: { type: 'bool', usage: 'child foo usage' }, baz: { type: 'bool', usage: 'child baz usage' } },
    });
    const parent = new Command({
      use: 'parent',
      run: emptyRun,
      persistentFlags: {
        foo: { type: 'bool', usage: 'parent foo usage' },
        bar: { type: 'bool', usage: 'parent bar usage' },
      },
      commands: [child],
    });
    const got = (await executeCommand(parent, 'help', 'child')).output;
    // the injected flags also widen the Global Flags column (pflag aligns each section to its longest flag)
    const squeeze = (s: string) => s.replace(/(\S) {2,}/g, '$1 ');
    expect(squeeze(cobraLines(got))).toBe(
      squeeze(`Usage:
  parent child [flags]

Flags:
      --baz    child baz usage
      --foo    child foo usage
  -h, --help   help for child

Global Flags:
      --bar   parent bar usage
`),
    );
  });

  it('TestSetHelpTemplate (as helpFunc: inherited, and back to the default when removed)', async () => {
    const child = new Command({ use: 'child', run: emptyRun });
    const root = new Command({ use: 'root', run: emptyRun, commands: [child] });
    root.helpFunc = (c) => `WORKS ${c.commandPath()}`;
    expect((await executeCommand(root, '--help')).output).toBe('WORKS root');
    expect((await executeCommand(root, 'child', '--help')).output).toBe('WORKS root child');
    root.helpFunc = undefined;
    expect((await executeCommand(root, '--help')).output).toContain('Usage:');
  });

  it("TestHelpFuncExecuted (help <child> uses the child's help function)", async () => {
    const child = new Command({ use: 'child', run: emptyRun, helpFunc: () => 'Long description' });
    const root = new Command({ use: 'root', run: emptyRun, commands: [child] });
    expect((await executeCommand(root, 'help', 'child')).output).toContain('Long description');
  });

  it('TestSetUsageTemplate (as usageFunc, in help: inherited, default again when removed)', async () => {
    const child = new Command({ use: 'child', run: emptyRun });
    const root = new Command({ use: 'root', run: emptyRun, commands: [child] });
    root.usageFunc = (c) => `WORKS ${c.commandPath()}`;
    expect((await executeCommand(root, '--help')).output).toContain('WORKS root');
    expect((await executeCommand(root, 'child', '--help')).output).toContain('WORKS root child');
    root.usageFunc = undefined;
    expect(defaultHelpText(root)).toContain('Usage:');
  });

  it.each([
    [
      'TestHelpFlagExecuted',
      () => new Command({ use: 'root', long: 'Long description', run: emptyRun }),
      ['--help'],
      'Long description',
    ],
    [
      'TestHelpFlagExecutedOnChild',
      () =>
        new Command({
          use: 'root',
          run: emptyRun,
          commands: [new Command({ use: 'child', long: 'Long description', run: emptyRun })],
        }),
      ['child', '--help'],
      'Long description',
    ],
    [
      'TestHelpFlagInHelp',
      () => new Command({ use: 'parent', run: emptyRun, commands: [new Command({ use: 'child', run: emptyRun })] }),
      ['help', 'child'],
      '[flags]',
    ],
    [
      'TestFlagsInUsage',
      () => new Command({ use: 'root', validateArgs: NoArgs, run: emptyRun }),
      ['--help'],
      '[flags]',
    ],
    [
      'TestHelpExecutedOnNonRunnableChild',
      () =>
        new Command({
          use: 'root',
          run: emptyRun,
          commands: [new Command({ use: 'child', long: 'Long description' })],
        }),
      ['child'],
      'Long description',
    ],
  ] as [string, () => Command, string[], string][])('%s', async (_n, mk, args, want) => {
    const r = await executeCommand(mk(), ...args);
    expect(r.error).toBeUndefined();
    expect(r.output).toContain(want);
  });

  it.each([
    ['TestNoRootRunCommandExecutedWithVersionSet', [], false],
    ['TestHelpCommandExecutedWithVersionSet', ['help'], true],
    ['TestHelpflagCommandExecutedWithVersionSet', ['--help'], true],
  ] as [string, string[], boolean][])(
    '%s (ax-ts always has --version on the root: a difference)',
    async (_n, args, runnable) => {
      const root = new Command({
        use: 'root',
        version: '1.0.0',
        long: 'Long description',
        ...(runnable ? { run: emptyRun } : {}),
        commands: [new Command({ use: 'child', run: emptyRun })],
      });
      const out = (await executeCommand(root, ...args)).output;
      expect(out).toContain('Long description');
      expect(out).toContain('--help');
      expect(out).toContain('--version');
    },
  );
});

describe('cobra command_test.go: version', () => {
  const root = (extra: Partial<ConstructorParameters<typeof Command>[0]> = {}) =>
    new Command({ use: 'root', version: '1.0.0', validateArgs: ArbitraryArgs, run: emptyRun, ...extra });
  it.each([
    ['TestVersionFlagExecuted', ['--version', 'arg1'], 'root version 1.0.0'],
    ['TestShorthandVersionFlagExecuted', ['-v', 'arg1'], 'root version 1.0.0'],
  ])('%s', async (_n, args, want) => {
    // no `version` option to execute, so the root's own version is the one reported
    const r = await runCli(root(), args, { tty: true, version: undefined });
    expect(r.stdout).toBe(`${want}\n`);
  });
  it('TestShortAndLongVersionFlagInHelp', async () => {
    expect((await executeCommand(root(), '--help')).output).toContain('-v, --version');
  });
  it('TestLongVersionFlagOnlyInHelpWhenShortPredefined', async () => {
    const out = (
      await executeCommand(
        root({ flags: { foo: { type: 'string', short: 'v', usage: 'not a version flag' } } }),
        '--help',
      )
    ).output;
    expect(out).not.toContain('-v, --version');
    expect(out).toContain('--version');
  });
  it.each([
    ['TestVersionTemplate', ['--version', 'arg1']],
    ['TestShorthandVersionTemplate', ['-v', 'arg1']],
  ])('%s (versionTemplate as a function)', async (_n, args) => {
    const r = await runCli(root({ versionTemplate: (v) => `customized version: ${v.version}` }), args, {
      tty: true,
      version: undefined,
    });
    expect(r.stdout).toBe('customized version: 1.0.0');
  });
  it.each([
    ['TestVersionFlagExecutedOnSubcommand', ['--version', 'sub'], 'unknown flag: --version'],
    ['TestShorthandVersionFlagExecutedOnSubcommand', ['-v', 'sub'], "unknown shorthand flag: 'v' in -v"],
  ])("%s — DIFFERENCE: `sub` is the command, and --version is the root's only", async (_n, args, want) => {
    // Cobra adds --version after finding the command, so while finding it reads `--version sub` as a
    // flag with the value "sub" and runs the root. ax-ts knows the flag while finding: `sub` is the command.
    const r = await executeCommand(
      new Command({ use: 'root', version: '1.0.0', commands: [new Command({ use: 'sub', run: emptyRun })] }),
      ...args,
    );
    expect(r.error).toBe(want);
    expect(
      (
        await executeCommand(
          new Command({ use: 'root', version: '1.0.0', commands: [new Command({ use: 'sub', run: emptyRun })] }),
          args[0]!,
        )
      ).output,
    ).toMatch(/^root version /);
  });
  it.each([
    ['TestVersionFlagOnlyAddedToRoot', ['sub', '--version'], 'unknown flag: --version'],
    ['TestShortVersionFlagOnlyAddedToRoot', ['sub', '-v'], "unknown shorthand flag: 'v' in -v"],
  ])('%s', async (_n, args, want) => {
    const r = await executeCommand(
      new Command({
        use: 'root',
        version: '1.0.0',
        run: emptyRun,
        commands: [new Command({ use: 'sub', run: emptyRun })],
      }),
      ...args,
    );
    expect(r.error).toContain(want);
  });
  it('TestShorthandVersionFlagOnlyAddedIfShorthandNotDefined', async () => {
    const r = await executeCommand(
      root({ flags: { notversion: { type: 'string', short: 'v', usage: 'not a version flag' } } }),
      '-v',
    );
    expect(r.error).toContain("flag needs an argument: 'v' in -v");
  });
  it('TestShorthandVersionFlagOnlyAddedIfVersionNotDefined', async () => {
    const r = await executeCommand(
      root({ flags: { version: { type: 'bool', usage: 'a different kind of version flag' } } }),
      '-v',
    );
    expect(r.error).toContain("unknown shorthand flag: 'v' in -v");
  });
});

describe('cobra command_test.go: hooks (the full order table is test/ports/cobra/hooks.test.ts)', () => {
  it('TestHooks: every hook sees the positionals', async () => {
    const got: Record<string, string> = {};
    const rec = (k: string) => (ctx: RunContext) => void (got[k] = ctx.argv.join(' '));
    const c = new Command({
      use: 'c',
      validateArgs: ArbitraryArgs,
      persistentPreRun: rec('persPre'),
      preRun: rec('pre'),
      run: rec('run'),
      postRun: rec('post'),
      persistentPostRun: rec('persPost'),
    });
    expect((await executeCommand(c, 'one', 'two')).output).toBe('');
    expect(got).toStrictEqual({ persPre: onetwo, pre: onetwo, run: onetwo, post: onetwo, persPost: onetwo });
  });

  it.each([
    [
      true,
      [
        'parent PersistentPreRun',
        'child PersistentPreRun',
        'child PreRun',
        'child Run',
        'child PostRun',
        'child PersistentPostRun',
        'parent PersistentPostRun',
      ],
    ],
    [false, ['child PersistentPreRun', 'child PreRun', 'child Run', 'child PostRun', 'child PersistentPostRun']],
  ])('TestPersistentHooks (enableTraverseRunHooks=%s)', async (traverse, want) => {
    const hooks: string[] = [];
    const h = (s: string) => () => void hooks.push(s);
    const child = new Command({
      use: 'child',
      persistentPreRun: h('child PersistentPreRun'),
      preRun: h('child PreRun'),
      run: h('child Run'),
      postRun: h('child PostRun'),
      persistentPostRun: h('child PersistentPostRun'),
    });
    const parent = new Command({
      use: 'parent',
      enableTraverseRunHooks: traverse,
      persistentPreRun: h('parent PersistentPreRun'),
      preRun: h('parent PreRun'),
      run: h('parent Run'),
      postRun: h('parent PostRun'),
      persistentPostRun: h('parent PersistentPostRun'),
      commands: [child],
    });
    expect((await executeCommand(parent, 'child')).output).toBe('');
    expect(hooks).toStrictEqual(want);
  });
});

describe('cobra command_test.go: groups', () => {
  it('TestUsageWithGroup', async () => {
    const root = new Command({ use: 'root', short: 'test', run: emptyRun });
    root.addGroup({ id: 'group1', title: 'group1' }, { id: 'group2', title: 'group2' });
    root.addCommand(
      new Command({ use: 'cmd1', groupId: 'group1', run: emptyRun }),
      new Command({ use: 'cmd2', groupId: 'group2', run: emptyRun }),
    );
    const out = (await executeCommand(root, '--help')).output;
    // help is ungrouped (Cobra's test turns the completion command off; ax-ts's stays, listed first)
    expect(out).toMatch(/\nAdditional Commands:\n(  \S+ .*\n)*  help /);
    expect(out).toContain('\ngroup1\n  cmd1');
    expect(out).toContain('\ngroup2\n  cmd2');
  });

  it('TestUngroupedCommand', async () => {
    const root = new Command({ use: 'root', short: 'test', run: emptyRun });
    root.addGroup({ id: 'group', title: 'group' });
    root.addCommand(
      new Command({ use: 'xxx', groupId: 'group', run: emptyRun }),
      new Command({ use: 'yyy', run: emptyRun }),
    );
    // Cobra puts help/completion in groups with SetHelpCommandGroupID; ax-ts lists its built-ins under Additional Commands
    expect((await executeCommand(root, '--help')).output).toMatch(/\nAdditional Commands:\n(  \S+ .*\n)*  yyy/);
  });

  it('TestAddGroup', async () => {
    const root = new Command({ use: 'root', short: 'test', run: emptyRun });
    root.addGroup({ id: 'group', title: 'Test group' });
    root.addCommand(new Command({ use: 'cmd', groupId: 'group', run: emptyRun }));
    expect((await executeCommand(root, '--help')).output).toContain('\nTest group\n  cmd');
  });

  it('TestWrongGroupFirstLevel / TestWrongGroupNestedLevel (Cobra panics; ax-ts: a TypeError, exit 1)', async () => {
    const root = new Command({ use: 'root', short: 'test', run: emptyRun });
    root.addGroup({ id: 'group', title: 'Test group' });
    root.addCommand(new Command({ use: 'cmd', groupId: 'wrong', run: emptyRun }));
    const r = await executeCommand(root, '--help');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("group id 'wrong' is not defined for subcommand 'root cmd'");
    const nested = new Command({
      use: 'root',
      run: emptyRun,
      commands: [
        new Command({
          use: 'sub',
          run: emptyRun,
          commands: [new Command({ use: 'deep', groupId: 'nope', run: emptyRun })],
        }),
      ],
    });
    expect((await executeCommand(nested, '--help')).stderr).toContain(
      "group id 'nope' is not defined for subcommand 'root sub deep'",
    );
    // Cobra checks the groups on every execution, whichever command runs
    for (const args of [['sub'], ['sub', 'deep'], ['sub', '--help'], ['__schema']]) {
      const r = await executeCommand(nested, ...args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toContain("group id 'nope' is not defined for subcommand 'root sub deep'");
    }
  });
});

describe('cobra command_test.go: suggestions', () => {
  // TestSuggestions: the typos and what Cobra suggests for them (SuggestFor "counts" is not ported)
  const root = () =>
    new Command({ use: 'root', run: emptyRun, commands: [new Command({ use: 'times', run: emptyRun })] });
  it.each([
    ['time', 'times'],
    ['tiems', 'times'],
    ['tims', 'times'],
    ['timeS', 'times'],
    ['rimes', 'times'],
    ['ti', 'times'],
    ['t', 'times'],
    ['timely', 'times'],
    ['ri', ''],
    ['timezone', ''],
    ['foo', ''],
  ])('TestSuggestions %s → %s', async (typo, suggestion) => {
    const r = await executeCommand(root(), typo);
    expect(r.stderr.startsWith(`Error: unknown command "${typo}" for "root"\n`)).toBe(true);
    if (suggestion) expect(r.stderr).toContain(`\n\nDid you mean this?\n\troot ${suggestion}\n\n`);
    else expect(r.stderr).not.toContain('Did you mean this?');
  });
});

describe('cobra command_test.go: TraverseChildren (Cobra calls Traverse; the port finds the command with findCommand and runs it)', () => {
  it('TestTraverseWithParentFlags', async () => {
    let seen: unknown;
    const child = new Command({
      use: 'child',
      flags: { int: { type: 'int', default: -1 } },
      run: (ctx) => void (seen = [ctx.flags.str, ctx.flags.bool, ctx.flags.int]),
    });
    const root = new Command({
      use: 'root',
      traverseChildren: true,
      flags: { str: { type: 'string' }, bool: { type: 'bool', short: 'b' } },
      run: emptyRun,
      commands: [child],
    });
    const argv = ['-b', '--str', 'ok', 'child', '--int'];
    expect(findCommand(root, argv)).toStrictEqual({ command: child, rest: ['-b', '--str', 'ok', '--int'] });
    // the child then parses its own flags: `--int` needs its value
    expect((await executeCommand(root, ...argv)).error).toBe('flag needs an argument: --int');
    expect((await executeCommand(root, ...argv, '7')).error).toBeUndefined();
    expect(seen).toStrictEqual(['ok', true, 7]);
  });

  it('TestTraverseNoParentFlags', async () => {
    const child = new Command({ use: 'child', flags: { str: { type: 'string' } }, run: emptyRun });
    const root = new Command({
      use: 'root',
      traverseChildren: true,
      flags: { foo: { type: 'string', usage: 'foo things' } },
      run: emptyRun,
      commands: [child],
    });
    expect(findCommand(root, ['child'])).toStrictEqual({ command: child, rest: [] });
    expect((await executeCommand(root, 'child')).error).toBeUndefined();
  });

  it("TestTraverseWithBadParentFlags (the error is the root's: Cobra returns no command)", async () => {
    const root = new Command({
      use: 'root',
      traverseChildren: true,
      run: emptyRun,
      commands: [new Command({ use: 'child', flags: { str: { type: 'string' } }, run: emptyRun })],
    });
    expect((await executeCommand(root, '--str', 'ok', 'child')).error).toContain('unknown flag: --str');
    expect((await jsonError(root, '--str', 'ok', 'child'))!.context.command).toBe('root');
  });

  it("TestTraverseWithBadChildFlag (the last command's words are not parsed while traversing)", async () => {
    const child = new Command({ use: 'child', run: emptyRun });
    const root = new Command({
      use: 'root',
      traverseChildren: true,
      flags: { str: { type: 'string' } },
      run: emptyRun,
      commands: [child],
    });
    expect(findCommand(root, ['child', '--str'])).toStrictEqual({ command: child, rest: ['--str'] });
    // running it, the child meets --str, which is not its flag (as Cobra's child parse does)
    expect((await executeCommand(root, 'child', '--str')).error).toBe('unknown flag: --str');
  });

  it('TestTraverseWithTwoSubcommands', () => {
    const subsub = new Command({ use: 'subsub', run: emptyRun });
    const root = new Command({
      use: 'root',
      traverseChildren: true,
      commands: [new Command({ use: 'sub', traverseChildren: true, commands: [subsub] })],
    });
    expect(findCommand(root, ['sub', 'subsub']).command).toBe(subsub);
  });
});
