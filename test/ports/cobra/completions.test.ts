/**
 * Port of spf13/cobra completions_test.go: command-name, flag-name, flag-value, validArgs and
 * ValidArgsFunction completion through the hidden `__complete` / `__completeNoDesc` commands, with
 * Cobra's expected candidate lines and directive. Cobra's tests also read its "Completion ended with
 * directive: …" debug line, which Cobra writes to stderr; ax-ts does not print it, so the port
 * compares the stdout protocol only. ax-ts's visible built-in `schema` command is left out of the
 * compared candidates (it is not in Cobra), and so are the injected contract flags where flag names
 * are compared. Cobra's RegisterFlagCompletionFunc is a flag's `completer`, MarkFlagFilename its
 * `fileExts`, MarkFlagDirname its `dirname`. The tests not ported are listed in
 * docs/cobra-differences.md.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ArbitraryArgs,
  Command,
  fixedCompletions,
  MinimumNArgs,
  NoArgs,
  ShellCompDirective,
} from '../../../lib/index.ts';
import { runCli } from '../../helpers/run.ts';
import { emptyRun } from './harness.ts';
import { connectStdio, REPO, type StdioConnection } from '../../helpers/mcp.ts';
import { completionTree } from '../../fixtures/cobra-completion-tree.ts';

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
        new Command({
          use: 'aliased',
          short: 'A command with aliases',
          aliases: ['testAlias', 'testSynonym'],
          run: emptyRun,
        }),
      ],
    });

  it('TestCmdNameCompletionInGo', async () => {
    expect(await complete(cmdTree(), '__completeNoDesc', '')).toStrictEqual([
      'aliased',
      'completion',
      'firstChild',
      'help',
      'secondChild',
      ':4',
    ]);
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
    const child1 = () =>
      new Command({
        use: 'childCmd1',
        short: 'First command',
        validateArgs: MinimumNArgs(0),
        run: emptyRun,
        persistentFlags: { persistent: { type: 'string', short: 'p', usage: 'persistent flag' } },
        flags: { nonPersistent: { type: 'string', short: 'n', usage: 'non-persistent flag' } },
        commands: [new Command({ use: 'childCmd2', run: emptyRun })],
      });
    const root = (traverseChildren = false) =>
      new Command({
        use: 'root',
        run: emptyRun,
        traverseChildren,
        flags: { localroot: { type: 'string', usage: 'local root flag' } },
        commands: [child1()],
      });
    // not completed if there is an argument already
    expect(await complete(root(), '__completeNoDesc', 'childCmd1', 'arg1', '')).toStrictEqual([':0']);
    // not completed if a local non-persistent flag is present
    expect(await complete(root(), '__completeNoDesc', 'childCmd1', '--nonPersistent', 'value', '')).toStrictEqual([
      ':0',
    ]);
    // completed if a local non-persistent flag is present and TraverseChildren is set on the root
    expect(await complete(root(true), '__completeNoDesc', '--localroot', 'value', '')).toStrictEqual([
      'childCmd1',
      'completion',
      'help',
      ':4',
    ]);
    // a child's subcommands are completed with a local flag of the root and of the child (TraverseChildren)
    expect(
      await complete(
        root(true),
        '__completeNoDesc',
        '--localroot',
        'value',
        'childCmd1',
        '--nonPersistent',
        'value',
        '',
      ),
    ).toStrictEqual(['childCmd2', ':4']);
    // without TraverseChildren the same line is invalid (the root's flag given to the child): nothing
    expect(await complete(root(), '__completeNoDesc', '--localroot', 'value', 'childCmd1', '')).toStrictEqual([':0']);
    // not completed with a local non-persistent short flag
    expect(await complete(root(), '__completeNoDesc', 'childCmd1', '-n', 'value', '')).toStrictEqual([':0']);
    // completed with a persistent flag given (long and short)
    expect(await complete(root(), '__completeNoDesc', 'childCmd1', '--persistent', 'value', '')).toStrictEqual([
      'childCmd2',
      ':4',
    ]);
    expect(await complete(root(), '__completeNoDesc', 'childCmd1', '-p', 'value', '')).toStrictEqual([
      'childCmd2',
      ':4',
    ]);
  });

  it('TestValidArgsCompletionInGo', async () => {
    const root = () =>
      new Command({ use: 'root', validArgs: ['one', 'two', 'three'], validateArgs: MinimumNArgs(1), run: emptyRun });
    expect(await complete(root(), '__completeNoDesc', '')).toStrictEqual(['one', 'two', 'three', ':4']);
    expect(await complete(root(), '__completeNoDesc', 'o')).toStrictEqual(['one', ':4']);
    // validArgs complete the first positional only; then completion stops with the default directive
    expect(await complete(root(), '__completeNoDesc', 'one', '')).toStrictEqual([':0']);
    // and a partial that matches none of them offers nothing, with the default directive too
    expect(await complete(root(), '__completeNoDesc', 'x')).toStrictEqual([':0']);
  });

  it('TestValidArgsAndCmdCompletionInGo', async () => {
    const root = () =>
      new Command({
        use: 'root',
        validArgs: ['one', 'two'],
        validateArgs: ArbitraryArgs,
        run: emptyRun,
        commands: [new Command({ use: 'thechild', run: emptyRun })],
      });
    expect(await complete(root(), '__completeNoDesc', '')).toStrictEqual([
      'completion',
      'help',
      'thechild',
      'one',
      'two',
      ':4',
    ]);
    expect(await complete(root(), '__completeNoDesc', 't')).toStrictEqual(['thechild', 'two', ':4']);
  });
});

/**
 * `complete` without ax-ts's injected contract flags (`--format`, `--dry-run`, `--idempotency-key`,
 * `--args-json`, `--yes`/`-y`, `--strict`, `--timeout`, `--explain`) and the root's `--version`/`-v`
 * (Cobra has it only where `Version` is set; ax-ts on every root and only there —
 * docs/cobra-differences.md), so Cobra's expected lines compare as they are.
 */
async function completeFlags(root: Command, ...args: string[]): Promise<string[]> {
  return (await complete(root, ...args)).filter(
    (l) =>
      !/^(--(format|dry-run|idempotency-key|args-json|yes|strict|timeout|explain|fields|version)|-[vy])(\t|$)/.test(l),
  );
}

/** Cobra's validArgsFunc / validArgsFunc2 (completions_test.go), as a ValidArgsFunction reply. */
const validArgsFunc = (values: string[]) => (toComplete: string, ctx: { args: readonly string[] }) =>
  ctx.args.length !== 0
    ? { completions: [], directive: ShellCompDirective.NoFileComp }
    : { completions: values.filter((v) => v.startsWith(toComplete)), directive: ShellCompDirective.Default };
const one = validArgsFunc(['one\tThe first', 'two\tThe second']);
const three = validArgsFunc(['three\tThe third', 'four\tThe fourth']);

describe('cobra completions_test.go: flag names', () => {
  const tree = (first = 'first flag') =>
    new Command({
      use: 'root',
      run: emptyRun,
      flags: { first: { type: 'int', short: 'f', default: -1, usage: first } },
      persistentFlags: { second: { type: 'bool', short: 's', usage: 'second flag' } },
      commands: [
        new Command({
          use: 'childCmd',
          short: 'first command',
          run: emptyRun,
          flags: { subFlag: { type: 'string', usage: 'sub flag' } },
        }),
      ],
    });

  it('TestFlagNameCompletionInGo (the child has no --version: ax-ts puts it on the root only)', async () => {
    expect(await completeFlags(tree(), '__completeNoDesc', '')).toStrictEqual(['childCmd', 'completion', 'help', ':4']);
    expect(await completeFlags(tree(), '__completeNoDesc', '-')).toStrictEqual([
      '--first',
      '-f',
      '--help',
      '-h',
      '--second',
      '-s',
      ':4',
    ]);
    expect(await completeFlags(tree(), '__completeNoDesc', '--f')).toStrictEqual(['--first', ':4']);
    expect(await completeFlags(tree(), '__completeNoDesc', 'childCmd', '-')).toStrictEqual([
      '--second',
      '-s',
      '--help',
      '-h',
      '--subFlag',
      ':4',
    ]);
  });

  it('TestFlagNameCompletionInGoWithDesc', async () => {
    const root = () => tree('first flag\nlonger description for flag');
    expect(await completeFlags(root(), '__complete', '')).toStrictEqual([
      'childCmd\tfirst command',
      'completion\tGenerate the autocompletion script for the specified shell',
      'help\tHelp about any command',
      ':4',
    ]);
    expect(await completeFlags(root(), '__complete', '-')).toStrictEqual([
      '--first\tfirst flag',
      '-f\tfirst flag',
      '--help\thelp for root',
      '-h\thelp for root',
      '--second\tsecond flag',
      '-s\tsecond flag',
      ':4',
    ]);
    expect(await completeFlags(root(), '__complete', '--f')).toStrictEqual(['--first\tfirst flag', ':4']);
    expect(await completeFlags(root(), '__complete', 'childCmd', '-')).toStrictEqual([
      '--second\tsecond flag',
      '-s\tsecond flag',
      '--help\thelp for childCmd',
      '-h\thelp for childCmd',
      '--subFlag\tsub flag',
      ':4',
    ]);
  });

  it('TestFlagNameCompletionRepeat (without the custom multi Value: no custom types)', async () => {
    const root = () =>
      new Command({
        use: 'root',
        run: emptyRun,
        flags: {
          first: { type: 'int', short: 'f', default: -1, usage: 'first flag' },
          second: { type: 'bool', short: 's', usage: 'second flag' },
          array: { type: 'stringArray', short: 'a', usage: 'array flag' },
          slice: { type: 'intSlice', short: 'l', usage: 'slice flag' },
          bslice: { type: 'boolSlice', short: 'b', usage: 'bool slice flag' },
        },
        commands: [new Command({ use: 'childCmd', short: 'first command', run: emptyRun })],
      });
    expect(await completeFlags(root(), '__completeNoDesc', '--first', '1', '--')).toStrictEqual([
      '--array',
      '--bslice',
      '--help',
      '--second',
      '--slice',
      ':4',
    ]);
    expect(await completeFlags(root(), '__completeNoDesc', '--first', '1', '--second=false', '--')).toStrictEqual([
      '--array',
      '--bslice',
      '--help',
      '--slice',
      ':4',
    ]);
    expect(
      await completeFlags(
        root(),
        '__completeNoDesc',
        '--slice',
        '1',
        '--slice=2',
        '--array',
        'val',
        '--bslice',
        'true',
        '--',
      ),
    ).toStrictEqual(['--array', '--bslice', '--first', '--help', '--second', '--slice', ':4']);
    expect(await completeFlags(root(), '__completeNoDesc', '-l', '1', '-l=2', '-a', 'val', '-')).toStrictEqual([
      '--array',
      '-a',
      '--bslice',
      '-b',
      '--first',
      '-f',
      '--help',
      '-h',
      '--second',
      '-s',
      '--slice',
      '-l',
      ':4',
    ]);
    expect(await completeFlags(root(), '__completeNoDesc', '-l', '1', '-l=2', '-a', 'val', '-a')).toStrictEqual([
      '-a',
      ':4',
    ]);
  });

  it('TestRequiredFlagNameCompletionInGo', async () => {
    const root = () =>
      new Command({
        use: 'root',
        validArgs: ['realArg'],
        validateArgs: ArbitraryArgs,
        run: emptyRun,
        flags: {
          requiredFlag: { type: 'int', short: 'r', default: -1, usage: 'required flag', required: true },
          release: { type: 'string', short: 'R', usage: 'Release name' },
        },
        persistentFlags: {
          requiredPersistent: { type: 'int', short: 'p', default: -1, usage: 'required persistent', required: true },
        },
        commands: [
          new Command({
            use: 'childCmd',
            validArgsFunction: () => ({ completions: ['subArg'], directive: ShellCompDirective.NoFileComp }),
            run: emptyRun,
            flags: {
              subRequired: { type: 'bool', short: 's', usage: 'sub required flag', required: true },
              subNotRequired: { type: 'bool', short: 'n', usage: 'sub not required flag' },
            },
          }),
        ],
      });
    const c = (...w: string[]) => completeFlags(root(), '__completeNoDesc', ...w);
    expect(await c('')).toStrictEqual([
      'childCmd',
      'completion',
      'help',
      '--requiredFlag',
      '-r',
      '--requiredPersistent',
      '-p',
      'realArg',
      ':4',
    ]);
    expect(await c('-')).toStrictEqual(['--requiredFlag', '-r', '--requiredPersistent', '-p', ':4']);
    expect(await c('--relea')).toStrictEqual(['--release', ':4']);
    expect(await c('childCmd', '')).toStrictEqual([
      '--requiredPersistent',
      '-p',
      '--subRequired',
      '-s',
      'subArg',
      ':4',
    ]);
    expect(await c('childCmd', '-')).toStrictEqual(['--requiredPersistent', '-p', '--subRequired', '-s', ':4']);
    expect(await c('childCmd', '--subNot')).toStrictEqual(['--subNotRequired', ':4']);
    expect(await c('--requiredFlag', '1', '')).toStrictEqual(['--requiredPersistent', '-p', 'realArg', ':4']);
    expect(await c('--requiredPersistent', '1', '')).toStrictEqual([
      'childCmd',
      'completion',
      'help',
      '--requiredFlag',
      '-r',
      'realArg',
      ':4',
    ]);
    // all required flags given: normal completion (a local flag was given, so no subcommand names)
    expect(await c('--requiredFlag', '1', '--requiredPersistent', '1', '')).toStrictEqual(['realArg', ':4']);
  });
});

describe('cobra completions_test.go: flag values', () => {
  it('TestFlagFileExtFilterCompletionInGo', async () => {
    const root = () =>
      new Command({
        use: 'root',
        run: emptyRun,
        flags: {
          file: { type: 'string', short: 'f', usage: 'file flag', fileExts: [] },
          log: { type: 'string', short: 'l', usage: 'log flag', fileExts: ['log'] },
          yaml: { type: 'string', short: 'y', usage: 'yaml flag', fileExts: ['yaml', 'yml'] },
          text: { type: 'string', short: 't', usage: 'text flag', fileExts: ['txt'] },
        },
      });
    const c = (...w: string[]) => complete(root(), '__completeNoDesc', ...w);
    expect(await c('--file', '')).toStrictEqual([':0']);
    expect(await c('--log', '')).toStrictEqual(['log', ':8']);
    for (const w of [['--yaml', ''], ['--yaml='], ['-y', ''], ['-y=']])
      expect(await c(...w)).toStrictEqual(['yaml', 'yml', ':8']);
    expect(await c('--text', '')).toStrictEqual(['txt', ':8']);
  });

  it('TestFlagDirFilterCompletionInGo (a list of several directories has no ax-ts spelling: `dirname` is one)', async () => {
    const root = () =>
      new Command({
        use: 'root',
        run: emptyRun,
        flags: {
          dir: { type: 'string', short: 'd', usage: 'dir flag', dirname: true },
          subdir: { type: 'string', short: 's', usage: 'subdir', dirname: 'themes' },
        },
      });
    const c = (...w: string[]) => complete(root(), '__completeNoDesc', ...w);
    expect(await c('--dir', '')).toStrictEqual([':16']);
    expect(await c('-d', '')).toStrictEqual([':16']);
    for (const w of [['--subdir', ''], ['--subdir='], ['-s', ''], ['-s=']])
      expect(await c(...w)).toStrictEqual(['themes', ':16']);
  });

  const flagTree = () =>
    new Command({
      use: 'root',
      run: emptyRun,
      flags: {
        introot: {
          type: 'int',
          short: 'i',
          default: -1,
          usage: 'help message for flag introot',
          completer: (toComplete: string) => ({
            completions: ['1\tThe first', '2\tThe second', '10\tThe tenth'].filter((c) => c.startsWith(toComplete)),
            directive: ShellCompDirective.Default,
          }),
        },
        filename: {
          type: 'string',
          usage: 'Enter a filename',
          completer: (toComplete: string) => ({
            completions: ['file.yaml\tYAML format', 'myfile.json\tJSON format', 'file.xml\tXML format'].filter((c) =>
              c.startsWith(toComplete),
            ),
            directive: ShellCompDirective.NoSpace | ShellCompDirective.NoFileComp,
          }),
        },
      },
    });

  it('TestFlagCompletionInGo', async () => {
    const c = (...w: string[]) => complete(flagTree(), '__completeNoDesc', ...w);
    expect(await c('--introot', '')).toStrictEqual(['1', '2', '10', ':0']);
    expect(await c('--introot', '1')).toStrictEqual(['1', '10', ':0']);
    expect(await c('--filename', '')).toStrictEqual(['file.yaml', 'myfile.json', 'file.xml', ':6']);
    expect(await c('--filename', 'f')).toStrictEqual(['file.yaml', 'file.xml', ':6']);
  });

  it('TestFlagCompletionInGoWithDesc', async () => {
    const c = (...w: string[]) => complete(flagTree(), '__complete', ...w);
    expect(await c('--introot', '')).toStrictEqual(['1\tThe first', '2\tThe second', '10\tThe tenth', ':0']);
    expect(await c('--introot', '1')).toStrictEqual(['1\tThe first', '10\tThe tenth', ':0']);
    expect(await c('--filename', '')).toStrictEqual([
      'file.yaml\tYAML format',
      'myfile.json\tJSON format',
      'file.xml\tXML format',
      ':6',
    ]);
    expect(await c('--filename', 'f')).toStrictEqual(['file.yaml\tYAML format', 'file.xml\tXML format', ':6']);
  });

  it('TestFlagCompletionForPersistentFlagsCalledFromSubCmd', async () => {
    const root = new Command({
      use: 'root',
      run: emptyRun,
      persistentFlags: {
        string: {
          type: 'string',
          usage: 'test string flag',
          completer: () => ({ completions: ['myval'], directive: ShellCompDirective.Default }),
        },
      },
      commands: [
        new Command({ use: 'child', run: emptyRun, flags: { bool: { type: 'bool', usage: 'test bool flag' } } }),
      ],
    });
    expect(await complete(root, '__completeNoDesc', 'child', '--string', '')).toStrictEqual(['myval', ':0']);
  });
});

describe('cobra completions_test.go: ValidArgsFunction', () => {
  it('TestValidArgsFuncSingleCmd', async () => {
    const root = () => new Command({ use: 'root', validateArgs: ArbitraryArgs, validArgsFunction: one, run: emptyRun });
    expect(await complete(root(), '__completeNoDesc', '')).toStrictEqual(['one', 'two', ':0']);
    expect(await complete(root(), '__completeNoDesc', 't')).toStrictEqual(['two', ':0']);
  });

  it('TestValidArgsFuncSingleCmdInvalidArg', async () => {
    const root = new Command({ use: 'root', validateArgs: MinimumNArgs(1), validArgsFunction: one, run: emptyRun });
    expect(await complete(root, '__completeNoDesc', 'unexpectedArg', 't')).toStrictEqual([':4']);
  });

  // [test, request command, the candidates of child1 and child2 with or without descriptions]
  it.each([
    ['TestValidArgsFuncChildCmds', '__completeNoDesc', ['one', 'two'], ['three', 'four']],
    [
      'TestValidArgsFuncChildCmdsWithDesc',
      '__complete',
      ['one\tThe first', 'two\tThe second'],
      ['three\tThe third', 'four\tThe fourth'],
    ],
  ])('%s', async (_n, request, child1, child2) => {
    const root = () =>
      new Command({
        use: 'root',
        validateArgs: NoArgs,
        run: emptyRun,
        commands: [
          new Command({ use: 'child1', validateArgs: ArbitraryArgs, validArgsFunction: one, run: emptyRun }),
          new Command({ use: 'child2', validateArgs: ArbitraryArgs, validArgsFunction: three, run: emptyRun }),
        ],
      });
    const c = (...w: string[]) => complete(root(), request, ...w);
    expect(await c('child1', '')).toStrictEqual([...child1, ':0']);
    expect(await c('child1', 't')).toStrictEqual([child1[1], ':0']);
    expect(await c('child1', 'unexpectedArg', 't')).toStrictEqual([':4']);
    expect(await c('child2', '')).toStrictEqual([...child2, ':0']);
    expect(await c('child2', 't')).toStrictEqual([child2[0], ':0']);
    expect(await c('child2', 'unexpectedArg', 't')).toStrictEqual([':4']);
  });

  it('TestValidArgsFuncAliases', async () => {
    const root = () =>
      new Command({
        use: 'root',
        validateArgs: NoArgs,
        run: emptyRun,
        commands: [
          new Command({
            use: 'child',
            aliases: ['son', 'daughter'],
            validateArgs: ArbitraryArgs,
            validArgsFunction: one,
            run: emptyRun,
          }),
        ],
      });
    expect(await complete(root(), '__completeNoDesc', 'son', '')).toStrictEqual(['one', 'two', ':0']);
    expect(await complete(root(), '__completeNoDesc', 'daughter', 't')).toStrictEqual(['two', ':0']);
    expect(await complete(root(), '__completeNoDesc', 'son', 'unexpectedArg', 't')).toStrictEqual([':4']);
  });

  it('TestValidArgsFuncAndCmdCompletionInGo', async () => {
    const root = () =>
      new Command({
        use: 'root',
        validateArgs: ArbitraryArgs,
        validArgsFunction: one,
        run: emptyRun,
        commands: [new Command({ use: 'thechild', short: 'The child command', run: emptyRun })],
      });
    expect(await complete(root(), '__completeNoDesc', '')).toStrictEqual([
      'completion',
      'help',
      'thechild',
      'one',
      'two',
      ':0',
    ]);
    expect(await complete(root(), '__completeNoDesc', 't')).toStrictEqual(['thechild', 'two', ':0']);
    expect(await complete(root(), '__complete', 't')).toStrictEqual([
      'thechild\tThe child command',
      'two\tThe second',
      ':0',
    ]);
  });

  it('TestValidArgsNotValidArgsFunc (validArgs win: the function is not called)', async () => {
    let called = false;
    const root = () =>
      new Command({
        use: 'root',
        validArgs: ['one\tThe first', 'two\tThe second'],
        validateArgs: ArbitraryArgs,
        validArgsFunction: () => ((called = true), ['three', 'four']),
        run: emptyRun,
      });
    expect(await complete(root(), '__completeNoDesc', '')).toStrictEqual(['one', 'two', ':4']);
    expect(await complete(root(), '__complete', 't')).toStrictEqual(['two\tThe second', ':4']);
    expect(called).toBe(false);
  });
});

describe("completers with Cobra's directives: shell completion and MCP completion/complete agree", () => {
  let conn: StdioConnection;
  beforeAll(async () => {
    conn = await connectStdio(['mcp-server'], {}, join(REPO, 'test/fixtures/cobra-completion-cli.ts'));
  }, 60_000);
  afterAll(async () => conn?.close());

  const mcp = async (name: string, value: string) =>
    (await conn.client.complete({ ref: { type: 'ref/prompt', name: 'deploy_plan' }, argument: { name, value } }))
      .completion.values;

  it.each([
    ['env (validArgsFunction)', ['deploy', 's'], 'env', 's', ['staging', ':2']],
    ["region (a flag completer's reply)", ['deploy', '--region', 'e'], 'region', 'e', ['eu-west', ':0']],
  ])('%s', async (_n, words, name, partial, shell) => {
    const lines = await complete(completionTree(), '__completeNoDesc', ...words);
    expect(lines).toStrictEqual(shell);
    expect(await mcp(name, partial)).toStrictEqual(lines.slice(0, -1));
  });

  it('a file-extension flag: the shell gets the extensions and directive 8; MCP gets no values (they are not values)', async () => {
    expect(await complete(completionTree(), '__completeNoDesc', 'deploy', '--manifest', '')).toStrictEqual([
      'yaml',
      'yml',
      ':8',
    ]);
    expect(await mcp('manifest', '')).toStrictEqual([]);
  });
});

describe('cobra completions_test.go: flag groups in completion (Cobra 1.6+)', () => {
  const groupTree =
    (kind: 'requiredTogether' | 'oneRequired' | 'mutuallyExclusive', slice = false) =>
    () =>
      new Command({
        use: 'root',
        run: emptyRun,
        persistentFlags: {
          ingroup1: slice
            ? { type: 'intSlice', default: [1], usage: 'ingroup1' }
            : { type: 'int', default: -1, usage: 'ingroup1' },
          ingroup2: { type: 'string', usage: 'ingroup2' },
        },
        commands: [
          new Command({
            use: 'child',
            validateArgs: ArbitraryArgs,
            validArgsFunction: () => ({ completions: ['subArg'], directive: ShellCompDirective.NoFileComp }),
            run: emptyRun,
            flags: { ingroup3: { type: 'bool', usage: 'ingroup3' }, nogroup: { type: 'bool', usage: 'nogroup' } },
            [kind]: [['ingroup1', 'ingroup2', 'ingroup3']],
          }),
        ],
      });

  // [test, tree, words, expected]
  it.each([
    [
      'TestCompletionForGroupedFlags: not suggested without -',
      groupTree('requiredTogether'),
      ['child', ''],
      ['subArg', ':4'],
    ],
    [
      'TestCompletionForGroupedFlags: suggested with -',
      groupTree('requiredTogether'),
      ['child', '-'],
      ['--ingroup1', '--ingroup2', '--help', '-h', '--ingroup3', '--nogroup', ':4'],
    ],
    [
      'TestCompletionForGroupedFlags: one given, the others suggested without -',
      groupTree('requiredTogether'),
      ['child', '--ingroup2', 'value', ''],
      ['--ingroup1', '--ingroup3', 'subArg', ':4'],
    ],
    [
      'TestCompletionForGroupedFlags: all given',
      groupTree('requiredTogether'),
      ['child', '--ingroup1', '8', '--ingroup2', 'value2', '--ingroup3', ''],
      ['subArg', ':4'],
    ],
    [
      'TestCompletionForGroupedFlags: ignored where some flags do not apply',
      groupTree('requiredTogether'),
      ['--ingroup2', 'value', ''],
      ['child', 'completion', 'help', ':4'],
    ],
    [
      'TestCompletionForOneRequiredGroupFlags: suggested without -',
      groupTree('oneRequired'),
      ['child', ''],
      ['--ingroup1', '--ingroup2', '--ingroup3', 'subArg', ':4'],
    ],
    [
      'TestCompletionForOneRequiredGroupFlags: only they with -',
      groupTree('oneRequired'),
      ['child', '-'],
      ['--ingroup1', '--ingroup2', '--ingroup3', ':4'],
    ],
    [
      'TestCompletionForOneRequiredGroupFlags: one given, none suggested',
      groupTree('oneRequired'),
      ['child', '--ingroup2', 'value', ''],
      ['subArg', ':4'],
    ],
    [
      'TestCompletionForOneRequiredGroupFlags: all given',
      groupTree('oneRequired'),
      ['child', '--ingroup1', '8', '--ingroup2', 'value2', '--ingroup3', ''],
      ['subArg', ':4'],
    ],
    [
      'TestCompletionForOneRequiredGroupFlags: ignored where some flags do not apply',
      groupTree('oneRequired'),
      ['--ingroup2', 'value', ''],
      ['child', 'completion', 'help', ':4'],
    ],
    [
      'TestCompletionForMutuallyExclusiveFlags: not suggested without -',
      groupTree('mutuallyExclusive', true),
      ['child', ''],
      ['subArg', ':4'],
    ],
    [
      'TestCompletionForMutuallyExclusiveFlags: suggested with -',
      groupTree('mutuallyExclusive', true),
      ['child', '-'],
      ['--ingroup1', '--ingroup2', '--help', '-h', '--ingroup3', '--nogroup', ':4'],
    ],
    [
      'TestCompletionForMutuallyExclusiveFlags: one given hides the others (a slice is suggested again)',
      groupTree('mutuallyExclusive', true),
      ['child', '--ingroup1', '8', '-'],
      ['--ingroup1', '--help', '-h', '--nogroup', ':4'],
    ],
    [
      'TestCompletionForMutuallyExclusiveFlags: ignored where some flags do not apply',
      groupTree('mutuallyExclusive', true),
      ['--ingroup1', '8', '-'],
      ['--help', '-h', '--ingroup1', '--ingroup2', ':4'],
    ],
  ])('%s', async (_n, tree, words, expected) => {
    expect(await completeFlags(tree(), '__completeNoDesc', ...words)).toStrictEqual(expected);
  });
});

describe('cobra completions_test.go: help, shorthand groups, disableFlagParsing, a lone root', () => {
  it('TestCompleteHelp', async () => {
    const root = () =>
      new Command({
        use: 'root',
        validateArgs: NoArgs,
        run: emptyRun,
        commands: [
          new Command({ use: 'child1', run: emptyRun, commands: [new Command({ use: 'child3', run: emptyRun })] }),
          new Command({ use: 'child2', run: emptyRun }),
        ],
      });
    expect(await complete(root(), '__completeNoDesc', '')).toStrictEqual([
      'child1',
      'child2',
      'completion',
      'help',
      ':4',
    ]);
    // `<program> help help` is a valid command, so `help` is completed too
    expect(await complete(root(), '__completeNoDesc', 'help', '')).toStrictEqual([
      'child1',
      'child2',
      'completion',
      'help',
      ':4',
    ]);
    expect(await complete(root(), '__completeNoDesc', 'help', 'child1', '')).toStrictEqual(['child3', ':4']);
  });

  it('TestMultipleShorthandFlagCompletion', async () => {
    const root = () =>
      new Command({
        use: 'root',
        validArgs: ['foo', 'bar'],
        validateArgs: ArbitraryArgs,
        run: emptyRun,
        flags: {
          short: { type: 'bool', short: 's', usage: 'short flag 1' },
          short2: { type: 'bool', short: 'd', usage: 'short flag 2' },
          short3: {
            type: 'string',
            short: 'f',
            usage: 'short flag 3',
            completer: () => ({ completions: ['works'], directive: ShellCompDirective.NoFileComp }),
          },
        },
      });
    const c = (...w: string[]) => complete(root(), '__completeNoDesc', ...w);
    expect(await c('-s', '')).toStrictEqual(['foo', 'bar', ':4']);
    expect(await c('-sd', '')).toStrictEqual(['foo', 'bar', ':4']);
    expect(await c('-sdf', '')).toStrictEqual(['works', ':4']);
    expect(await c('-sdf=')).toStrictEqual(['works', ':4']);
    expect(await c('-sdf=abc', '')).toStrictEqual(['foo', 'bar', ':4']);
  });

  it("TestCompleteWithDisableFlagParsing: the flags Cobra knows, then the validArgsFunction's; without it, Cobra's alone", async () => {
    const root = (disableFlagParsing: boolean) =>
      new Command({
        use: 'root',
        validateArgs: NoArgs,
        run: emptyRun,
        persistentFlags: { persistent: { type: 'string', short: 'p', usage: 'persistent flag' } },
        commands: [
          new Command({
            use: 'child',
            run: emptyRun,
            disableFlagParsing,
            validArgsFunction: () => ({ completions: ['--flag', '-f'], directive: ShellCompDirective.NoFileComp }),
            flags: { nonPersistent: { type: 'string', short: 'n', usage: 'non-persistent flag' } },
          }),
        ],
      });
    expect(await completeFlags(root(true), '__completeNoDesc', 'child', '-')).toStrictEqual([
      '--persistent',
      '-p',
      '--nonPersistent',
      '-n',
      '--flag',
      '-f',
      ':4',
    ]);
    expect(await completeFlags(root(false), '__completeNoDesc', 'child', '-')).toStrictEqual([
      '--persistent',
      '-p',
      '--help',
      '-h',
      '--nonPersistent',
      '-n',
      ':4',
    ]);
  });

  it('TestCompleteWithRootAndLegacyArgs', async () => {
    const root = () =>
      new Command({
        use: 'root',
        run: emptyRun,
        validArgsFunction: () => ({ completions: ['arg1', 'arg2'], directive: ShellCompDirective.NoFileComp }),
      });
    expect(await complete(root(), '__completeNoDesc', '')).toStrictEqual(['arg1', 'arg2', ':4']);
    expect(await complete(root(), '__completeNoDesc', 'arg1', '')).toStrictEqual(['arg1', 'arg2', ':4']);
  });
});

describe('cobra completions_test.go: fixed completions, words that look like flags, declaration order', () => {
  it("TestFixedCompletions (not filtered by the partial, as Cobra's)", async () => {
    const root = new Command({
      use: 'root',
      validateArgs: NoArgs,
      run: emptyRun,
      commands: [
        new Command({
          use: 'child',
          validateArgs: ArbitraryArgs,
          validArgsFunction: fixedCompletions(['apple', 'banana', 'orange'], ShellCompDirective.NoFileComp),
          run: emptyRun,
        }),
      ],
    });
    expect(await complete(root, '__completeNoDesc', 'child', 'a')).toStrictEqual(['apple', 'banana', 'orange', ':4']);
  });

  it.each([
    [['']],
    [['service', '']],
    [['1-123', 'service', '']],
    [['service', '11-123', '']],
    [['service', '1-123', '']],
  ])('TestArgsNotDetectedAsFlagsCompletionInGo %j', async (words) => {
    const root = new Command({
      use: 'root',
      validateArgs: ArbitraryArgs,
      validArgsFunction: () => ({
        completions: ['service', '1-123', '11-123'],
        directive: ShellCompDirective.NoFileComp,
      }),
    });
    expect(await complete(root, '__completeNoDesc', ...words)).toStrictEqual(['service', '1-123', '11-123', ':4']);
  });

  it('TestFlagCompletionWorksRootCommandAddedAfterFlags', async () => {
    const child = new Command({
      use: 'child',
      run: emptyRun,
      validArgsFunction: () => ({ completions: ['--validarg', 'test'], directive: ShellCompDirective.Default }),
      flags: {
        bool: { type: 'bool', usage: 'test bool flag' },
        string: {
          type: 'string',
          usage: 'test string flag',
          completer: () => ({ completions: ['myval'], directive: ShellCompDirective.Default }),
        },
      },
    });
    const root = new Command({ use: 'root', run: emptyRun });
    root.addCommand(child); // after the flags and their completer were declared
    expect(await complete(root, '__complete', 'child', '--string', '')).toStrictEqual(['myval', ':0']);
  });
});

describe('cobra completions_test.go: the completion command', () => {
  it('TestCompleteCompletion — DIFFERENCE: a root without subcommands has no completion command to complete', async () => {
    const root = () => new Command({ use: 'root', validateArgs: NoArgs, run: emptyRun });
    // as in Cobra, a root without subcommands has no `completion` command
    expect(await complete(root(), '__completeNoDesc', 'completion')).toStrictEqual([':0']);
    // Cobra then creates it anyway for `__complete completion …`; ax-ts does not (the root takes no words)
    expect(await complete(root(), '__completeNoDesc', 'completion', '')).toStrictEqual([':0']);
    const withSub = () =>
      new Command({
        use: 'root',
        validateArgs: NoArgs,
        run: emptyRun,
        commands: [new Command({ use: 'sub', run: emptyRun })],
      });
    expect(await complete(withSub(), '__completeNoDesc', 'completion', '')).toStrictEqual([
      'bash',
      'fish',
      'powershell',
      'zsh',
      ':4',
    ]);
    for (const shell of ['bash', 'fish', 'powershell', 'zsh'])
      expect(await complete(withSub(), '__completeNoDesc', 'completion', shell, '')).toStrictEqual([':4']);
  });
});

describe('cobra completions_test.go: after the help and version flags', () => {
  const cobraTree = () =>
    new Command({
      use: 'root',
      run: emptyRun,
      commands: [
        new Command({
          use: 'child',
          run: emptyRun,
          validateArgs: ArbitraryArgs,
          validArgsFunction: fixedCompletions(['extra'], ShellCompDirective.NoFileComp),
          flags: { bool: { type: 'bool', usage: 'A bool flag', required: true } },
        }),
        new Command({
          use: 'child2',
          run: emptyRun,
          validateArgs: ArbitraryArgs,
          validArgsFunction: fixedCompletions(['extra2'], ShellCompDirective.NoFileComp),
          flags: {
            help: { type: 'bool', short: 'h', usage: 'My own help' },
            version: { type: 'bool', short: 'v', usage: 'My own version' },
          },
        }),
        new Command({
          use: 'child3',
          run: emptyRun,
          validateArgs: ArbitraryArgs,
          validArgsFunction: fixedCompletions(['extra3'], ShellCompDirective.NoFileComp),
          flags: { verbose: { type: 'bool', short: 'v', usage: 'Not a version flag' } },
        }),
        new Command({
          use: 'child4',
          run: emptyRun,
          disableFlagParsing: true,
          validArgsFunction: fixedCompletions(['extra4'], ShellCompDirective.NoFileComp),
        }),
        new Command({
          use: 'child5',
          run: emptyRun,
          disableFlagParsing: true,
          validArgsFunction: fixedCompletions(['extra5'], ShellCompDirective.NoFileComp),
          flags: {
            help: { type: 'bool', short: 'h', usage: 'My own help' },
            version: { type: 'bool', short: 'v', usage: 'My own version' },
          },
        }),
      ],
    });
  /** Without the contract flags only (the root's --version is compared here). */
  const c = async (...words: string[]) =>
    (await complete(cobraTree(), '__completeNoDesc', ...words)).filter(
      (l) => !/^(--(format|dry-run|idempotency-key|args-json|yes|strict|timeout|explain|fields)|-y)(\t|$)/.test(l),
    );

  // The cases about a child's own --version are not here: ax-ts has --version on the root only
  // (Cobra: on every command with a Version) — "no completion after --version/-v" of child and child3.
  it.each([
    ['completion of help and version flags', ['-'], ['--help', '-h', '--version', '-v', ':4']],
    ['no completion after --help flag', ['--help', ''], [':4']],
    ['no completion after -h flag', ['-h', ''], [':4']],
    ['no completion after --version flag', ['--version', ''], [':4']],
    ['no completion after -v flag', ['-v', ''], [':4']],
    ['no completion after --help flag even with other completions', ['child', '--help', ''], [':4']],
    ['no completion after -h flag even with other completions', ['child', '-h', ''], [':4']],
    ['completion after --help flag when created by program', ['child2', '--help', ''], ['extra2', ':4']],
    ['completion after -h flag when created by program', ['child2', '-h', ''], ['extra2', ':4']],
    ['completion after --version flag when created by program', ['child2', '--version', ''], ['extra2', ':4']],
    ['completion after -v flag when created by program', ['child2', '-v', ''], ['extra2', ':4']],
    ['completion after -v flag when only -v flag was created by program', ['child3', '-v', ''], ['extra3', ':4']],
    [
      'no completion for --help/-h and --version/-v flags when DisableFlagParsing=true',
      ['child4', '-'],
      ['extra4', ':4'],
    ],
    [
      'completions for program-defined --help/-h and --version/-v flags even when DisableFlagParsing=true',
      ['child5', '-'],
      ['--help', '-h', '--version', '-v', 'extra5', ':4'],
    ],
  ])('TestCompletionCobraFlags: %s', async (_n, words, expected) => {
    expect(await c(...words)).toStrictEqual(expected);
  });
});
