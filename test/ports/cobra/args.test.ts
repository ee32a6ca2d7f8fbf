/**
 * Port of spf13/cobra args_test.go: every case, inputs and expected texts as in Cobra, adapted to
 * ax-ts's API (`validateArgs`, `validArgs`). Deliberate differences are listed in
 * docs/cobra-differences.md and asserted here as ax-ts behaves (marked DIFFERENCE).
 */
import { describe, expect, it } from 'vitest';
import {
  ArbitraryArgs,
  Command,
  ExactArgs,
  ExactValidArgs,
  MatchAll,
  MaximumNArgs,
  MinimumNArgs,
  NoArgs,
  NoDuplicateArgs,
  OnlyValidArgs,
  RangeArgs,
  AxError,
  type ArgsValidator,
} from '../../../lib/index.ts';
import { emptyRun, executeCommand, jsonError } from './harness.ts';

function getCommand(validateArgs: ArgsValidator, withValid: boolean): Command {
  return new Command({
    use: 'c',
    validateArgs,
    run: emptyRun,
    ...(withValid ? { validArgs: ['one', 'two', 'three'] } : {}),
  });
}

const validOnlyWithInvalidArgs = 'invalid argument "a" for "c"';
const noArgsWithArgs = (arg: string) => `unknown command "${arg}" for "c"`;
const minimumNArgsWithLessArgs = 'requires at least 2 arg(s), only received 1';
const maximumNArgsWithMoreArgs = 'accepts at most 2 arg(s), received 3';
const exactArgsWithInvalidCount = 'accepts 2 arg(s), received 3';
const rangeArgsWithInvalidCount = 'accepts between 2 and 4 arg(s), received 1';
const noDuplicateArgsWithDuplicate = (arg: string) => `duplicate argument "${arg}" for "c"`;

type Case = [name: string, validator: ArgsValidator, withValid: boolean, args: string[], error?: string];

// Every Test* of args_test.go built on getCommand, in file order.
const cases: Case[] = [
  ['TestNoArgs', NoArgs, false, []],
  ['TestNoArgs_WithArgs', NoArgs, false, ['one'], noArgsWithArgs('one')],
  ['TestNoArgs_WithValid_WithArgs', NoArgs, true, ['one'], noArgsWithArgs('one')],
  ['TestNoArgs_WithValid_WithInvalidArgs', NoArgs, true, ['a'], noArgsWithArgs('a')],
  ['TestNoArgs_WithValidOnly_WithInvalidArgs', MatchAll(OnlyValidArgs, NoArgs), true, ['a'], validOnlyWithInvalidArgs],
  ['TestOnlyValidArgs', OnlyValidArgs, true, ['one', 'two']],
  ['TestOnlyValidArgs_WithInvalidArgs', OnlyValidArgs, true, ['a'], validOnlyWithInvalidArgs],
  ['TestNoDuplicateArgs', NoDuplicateArgs, false, ['one', 'two']],
  [
    'TestNoDuplicateArgs_WithDuplicateArgs',
    NoDuplicateArgs,
    false,
    ['one', 'one'],
    noDuplicateArgsWithDuplicate('one'),
  ],
  [
    'TestNoDuplicateArgs_WithValid_WithDuplicateArgs',
    NoDuplicateArgs,
    true,
    ['one', 'one'],
    noDuplicateArgsWithDuplicate('one'),
  ],
  [
    'TestNoDuplicateArgs_WithValidOnly_WithInvalidArgs',
    MatchAll(OnlyValidArgs, NoDuplicateArgs),
    true,
    ['a', 'a'],
    validOnlyWithInvalidArgs,
  ],
  ['TestArbitraryArgs', ArbitraryArgs, false, ['a', 'b']],
  ['TestArbitraryArgs_WithValid', ArbitraryArgs, true, ['one', 'two']],
  ['TestArbitraryArgs_WithValid_WithInvalidArgs', ArbitraryArgs, true, ['a']],
  [
    'TestArbitraryArgs_WithValidOnly_WithInvalidArgs',
    MatchAll(OnlyValidArgs, ArbitraryArgs),
    true,
    ['a'],
    validOnlyWithInvalidArgs,
  ],
  ['TestMinimumNArgs', MinimumNArgs(2), false, ['a', 'b', 'c']],
  ['TestMinimumNArgs_WithValid', MinimumNArgs(2), true, ['one', 'three']],
  ['TestMinimumNArgs_WithValid__WithInvalidArgs', MinimumNArgs(2), true, ['a', 'b']],
  [
    'TestMinimumNArgs_WithValidOnly_WithInvalidArgs',
    MatchAll(OnlyValidArgs, MinimumNArgs(2)),
    true,
    ['a', 'b'],
    validOnlyWithInvalidArgs,
  ],
  ['TestMinimumNArgs_WithLessArgs', MinimumNArgs(2), false, ['a'], minimumNArgsWithLessArgs],
  ['TestMinimumNArgs_WithLessArgs_WithValid', MinimumNArgs(2), true, ['one'], minimumNArgsWithLessArgs],
  ['TestMinimumNArgs_WithLessArgs_WithValid_WithInvalidArgs', MinimumNArgs(2), true, ['a'], minimumNArgsWithLessArgs],
  [
    'TestMinimumNArgs_WithLessArgs_WithValidOnly_WithInvalidArgs',
    MatchAll(OnlyValidArgs, MinimumNArgs(2)),
    true,
    ['a'],
    validOnlyWithInvalidArgs,
  ],
  ['TestMaximumNArgs', MaximumNArgs(3), false, ['a', 'b']],
  ['TestMaximumNArgs_WithValid', MaximumNArgs(2), true, ['one', 'three']],
  ['TestMaximumNArgs_WithValid_WithInvalidArgs', MaximumNArgs(2), true, ['a', 'b']],
  [
    'TestMaximumNArgs_WithValidOnly_WithInvalidArgs',
    MatchAll(OnlyValidArgs, MaximumNArgs(2)),
    true,
    ['a', 'b'],
    validOnlyWithInvalidArgs,
  ],
  ['TestMaximumNArgs_WithMoreArgs', MaximumNArgs(2), false, ['a', 'b', 'c'], maximumNArgsWithMoreArgs],
  ['TestMaximumNArgs_WithMoreArgs_WithValid', MaximumNArgs(2), true, ['one', 'three', 'two'], maximumNArgsWithMoreArgs],
  [
    'TestMaximumNArgs_WithMoreArgs_WithValid_WithInvalidArgs',
    MaximumNArgs(2),
    true,
    ['a', 'b', 'c'],
    maximumNArgsWithMoreArgs,
  ],
  [
    'TestMaximumNArgs_WithMoreArgs_WithValidOnly_WithInvalidArgs',
    MatchAll(OnlyValidArgs, MaximumNArgs(2)),
    true,
    ['a', 'b', 'c'],
    validOnlyWithInvalidArgs,
  ],
  ['TestExactArgs', ExactArgs(3), false, ['a', 'b', 'c']],
  ['TestExactArgs_WithValid', ExactArgs(3), true, ['three', 'one', 'two']],
  ['TestExactArgs_WithValid_WithInvalidArgs', ExactArgs(3), true, ['three', 'a', 'two']],
  [
    'TestExactArgs_WithValidOnly_WithInvalidArgs',
    MatchAll(OnlyValidArgs, ExactArgs(3)),
    true,
    ['three', 'a', 'two'],
    validOnlyWithInvalidArgs,
  ],
  ['TestExactArgs_WithInvalidCount', ExactArgs(2), false, ['a', 'b', 'c'], exactArgsWithInvalidCount],
  ['TestExactArgs_WithInvalidCount_WithValid', ExactArgs(2), true, ['three', 'one', 'two'], exactArgsWithInvalidCount],
  [
    'TestExactArgs_WithInvalidCount_WithValid_WithInvalidArgs',
    ExactArgs(2),
    true,
    ['three', 'a', 'two'],
    exactArgsWithInvalidCount,
  ],
  [
    'TestExactArgs_WithInvalidCount_WithValidOnly_WithInvalidArgs',
    MatchAll(OnlyValidArgs, ExactArgs(2)),
    true,
    ['three', 'a', 'two'],
    validOnlyWithInvalidArgs,
  ],
  ['TestRangeArgs', RangeArgs(2, 4), false, ['a', 'b', 'c']],
  ['TestRangeArgs_WithValid', RangeArgs(2, 4), true, ['three', 'one', 'two']],
  ['TestRangeArgs_WithValid_WithInvalidArgs', RangeArgs(2, 4), true, ['three', 'a', 'two']],
  [
    'TestRangeArgs_WithValidOnly_WithInvalidArgs',
    MatchAll(OnlyValidArgs, RangeArgs(2, 4)),
    true,
    ['three', 'a', 'two'],
    validOnlyWithInvalidArgs,
  ],
  ['TestRangeArgs_WithInvalidCount', RangeArgs(2, 4), false, ['a'], rangeArgsWithInvalidCount],
  ['TestRangeArgs_WithInvalidCount_WithValid', RangeArgs(2, 4), true, ['two'], rangeArgsWithInvalidCount],
  ['TestRangeArgs_WithInvalidCount_WithValid_WithInvalidArgs', RangeArgs(2, 4), true, ['a'], rangeArgsWithInvalidCount],
  [
    'TestRangeArgs_WithInvalidCount_WithValidOnly_WithInvalidArgs',
    MatchAll(OnlyValidArgs, RangeArgs(2, 4)),
    true,
    ['a'],
    validOnlyWithInvalidArgs,
  ],
  ['TestExactValidArgs', ExactValidArgs(3), true, ['three', 'one', 'two']],
  ['TestExactValidArgs_WithInvalidCount', ExactValidArgs(2), false, ['three', 'one', 'two'], exactArgsWithInvalidCount],
  [
    'TestExactValidArgs_WithInvalidCount_WithInvalidArgs',
    ExactValidArgs(2),
    true,
    ['three', 'a', 'two'],
    exactArgsWithInvalidCount,
  ],
  ['TestExactValidArgs_WithInvalidArgs', ExactValidArgs(2), true, ['three', 'a'], validOnlyWithInvalidArgs],
];

describe('cobra args_test.go: validators on a root without children', () => {
  it.each(cases)('%s', async (_name, validator, withValid, args, error) => {
    const r = await executeCommand(getCommand(validator, withValid), ...args);
    if (error === undefined) {
      expect(r.stderr).toBe('');
      expect(r.output).toBe(''); // Cobra's expectSuccess: no output
      expect(r.code).toBe(0);
    } else {
      expect(r.error).toBe(error);
      expect(r.code).toBe(2); // ax-ts: usage errors exit 2 (docs/cobra-differences.md)
    }
  });
});

describe('the same validators on a root that has children (the injected commands and its own)', () => {
  // Cobra applies its legacy "unknown command" check only when Args is nil: a root with its own
  // validator keeps that validator's errors even with subcommands, and the commands ax-ts injects
  // (help, schema, __schema, completion) never change how a root's words parse.
  it.each(cases)('%s', async (_name, validator, withValid, args, error) => {
    const root = getCommand(validator, withValid);
    root.addCommand(new Command({ use: 'child', run: emptyRun }));
    const r = await executeCommand(root, ...args);
    expect(r.error).toBe(error);
    expect(r.code).toBe(error === undefined ? 0 : 2);
  });

  it('MinimumNArgs(2) on a root: `c a` is too few, `c a b c` runs', async () => {
    const seen: string[][] = [];
    const c = new Command({ use: 'c', validateArgs: MinimumNArgs(2), run: (ctx) => void seen.push(ctx.argv) });
    expect((await executeCommand(c, 'a')).error).toBe('requires at least 2 arg(s), only received 1');
    expect((await jsonError(c, 'a'))?.context.reason).toBe('missing_argument');
    expect((await executeCommand(c, 'a', 'b', 'c')).code).toBe(0);
    expect(seen).toStrictEqual([['a', 'b', 'c']]);
  });

  it('a root with its own validator gets no injected `schema` command: the word is an argument', async () => {
    const seen: string[][] = [];
    const c = new Command({ use: 'c', validateArgs: ArbitraryArgs, run: (ctx) => void seen.push(ctx.argv) });
    expect((await executeCommand(c, 'schema')).code).toBe(0);
    expect(seen).toStrictEqual([['schema']]);
  });
});

describe('cobra args_test.go: Takes(No)Args', () => {
  it('TestRootTakesNoArgs', async () => {
    const root = new Command({ use: 'root', run: emptyRun, commands: [new Command({ use: 'child', run: emptyRun })] });
    expect((await executeCommand(root, 'illegal', 'args')).error).toContain('unknown command "illegal" for "root"');
  });

  it('TestRootTakesArgs', async () => {
    const root = new Command({
      use: 'root',
      validateArgs: ArbitraryArgs,
      run: emptyRun,
      commands: [new Command({ use: 'child', run: emptyRun })],
    });
    expect((await executeCommand(root, 'legal', 'args')).code).toBe(0);
  });

  it('TestChildTakesNoArgs', async () => {
    const root = new Command({
      use: 'root',
      run: emptyRun,
      commands: [new Command({ use: 'child', validateArgs: NoArgs, run: emptyRun })],
    });
    expect((await executeCommand(root, 'child', 'illegal', 'args')).error).toContain(
      'unknown command "illegal" for "root child"',
    );
  });

  it('TestChildTakesArgs', async () => {
    const root = new Command({
      use: 'root',
      run: emptyRun,
      commands: [new Command({ use: 'child', validateArgs: ArbitraryArgs, run: emptyRun })],
    });
    expect((await executeCommand(root, 'child', 'legal', 'args')).code).toBe(0);
  });

  describe('TestMatchAll', () => {
    const pargs = MatchAll(ExactArgs(3), (t, args) => {
      for (const a of args)
        if (Buffer.byteLength(a) !== 2) throw new AxError('validation_error', 'expected to be exactly 2 bytes long');
    });
    const root = new Command({ use: 'root', validateArgs: pargs, run: emptyRun });
    it.each([
      ['happy path', ['aa', 'bb', 'cc'], false],
      ['incorrect number of args', ['aa', 'bb', 'cc', 'dd'], true],
      ['incorrect number of bytes in one arg', ['aa', 'bb', 'abc'], true],
    ] as const)('%s', async (_n, args, fail) => {
      expect((await executeCommand(root, ...args)).code !== 0).toBe(fail);
    });
  });

  it('TestLegacyArgsRootAcceptsArgs — DIFFERENCE: strict positionals by default', async () => {
    // Cobra: a root without Args and without subcommands accepts any word. ax-ts: a command without a
    // validator takes exactly its declared positionals (none here), so the word is refused.
    const root = new Command({ use: 'root', run: emptyRun });
    expect((await executeCommand(root, 'somearg')).error).toBe('"root" takes no arguments, received "somearg"');
    // the Cobra behaviour is one declaration away
    expect(
      (await executeCommand(new Command({ use: 'root', validateArgs: ArbitraryArgs, run: emptyRun }), 'somearg')).code,
    ).toBe(0);
  });

  it('TestLegacyArgsSubcmdAcceptsArgs — DIFFERENCE: strict positionals by default', async () => {
    const grandchild = new Command({ use: 'grandchild', run: emptyRun });
    const child = new Command({ use: 'child', run: emptyRun, commands: [grandchild] });
    const root = new Command({ use: 'root', run: emptyRun, commands: [child] });
    expect((await executeCommand(root, 'child', 'somearg')).error).toBe('unknown command "somearg" for "root child"');
  });
});
