/**
 * Positional arguments through `execute`: named declarations (from `use` or explicit `args`), the
 * default DeclaredArgs validator, Cobra's Args validators, and positionals given to groups.
 */
import { describe, expect, it, test } from 'vitest';
import {
  ArbitraryArgs,
  Command,
  ExactArgs,
  MatchAll,
  MaximumNArgs,
  MinimumNArgs,
  NoArgs,
  OnlyValidArgs,
  RangeArgs,
  type ArgSpec,
  type ArgsValidator,
} from '../../lib/index.ts';
import { envelope, errorOf, runCli } from '../helpers/run.ts';

/** A root with one child built from `config`; the child echoes its named args and raw positionals. */
function withChild(config: {
  use: string;
  args?: readonly ArgSpec[];
  validateArgs?: ArgsValidator;
  validArgs?: string[];
}): Command {
  return new Command({
    use: 'app',
    commands: [new Command({ ...config, run: (ctx) => ({ args: ctx.args, argv: ctx.argv }) })],
  });
}

async function ok(root: Command, argv: string[]): Promise<{ args: Record<string, unknown>; argv: string[] }> {
  const r = await runCli(root, argv);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return envelope(r.stdout).data;
}

async function usageError(root: Command, argv: string[]): Promise<Record<string, any>> {
  const r = await runCli(root, argv);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  const { error } = errorOf(r.stderr);
  expect(error.kind).toBe('validation_error');
  expect(error.exit_code).toBe(2);
  return error;
}

describe('named positionals from use', () => {
  test.each([
    { use: 'show <id>', argv: ['7'], args: { id: '7' } },
    { use: 'cp <src> [dst]', argv: ['a'], args: { src: 'a' } },
    { use: 'cp <src> [dst]', argv: ['a', 'b'], args: { src: 'a', dst: 'b' } },
    { use: 'add <items...>', argv: ['x'], args: { items: ['x'] } },
    { use: 'add <items...>', argv: ['x', 'y', 'z'], args: { items: ['x', 'y', 'z'] } },
    { use: 'add <title>...', argv: ['x', 'y'], args: { title: ['x', 'y'] } },
    { use: 'tag <id> [labels...]', argv: ['1'], args: { id: '1', labels: [] } },
    { use: 'tag <id> [labels...]', argv: ['1', 'a', 'b'], args: { id: '1', labels: ['a', 'b'] } },
    { use: 'get <task-id> [flags]', argv: ['9'], args: { taskId: '9' } },
    { use: 'ping', argv: [], args: {} },
  ])('$use with $argv', async ({ use, argv, args }) => {
    const name = use.split(' ')[0]!;
    const data = await ok(withChild({ use }), [name, ...argv]);
    expect(data.args).toStrictEqual(args);
    expect(data.argv).toStrictEqual(argv);
  });

  test.each([
    {
      use: 'show <id>',
      argv: [],
      message: 'missing required argument <id>',
      context: { reason: 'missing_argument', command: 'app show', argument: 'id', position: 1 },
    },
    {
      use: 'cp <src> <dst>',
      argv: ['a'],
      message: 'missing required argument <dst>',
      context: { reason: 'missing_argument', command: 'app cp', argument: 'dst', position: 2 },
    },
    {
      use: 'add <items...>',
      argv: [],
      message: 'missing required argument <items...>',
      context: { reason: 'missing_argument', command: 'app add', argument: 'items', position: 1 },
    },
    {
      use: 'show <id>',
      argv: ['1', '2'],
      message: 'too many arguments: "app show" takes at most 1, received 2',
      context: { reason: 'too_many_arguments', command: 'app show', max: 1, received: 2, unexpected: '2' },
    },
    {
      use: 'cp <src> [dst]',
      argv: ['a', 'b', 'c', 'd'],
      message: 'too many arguments: "app cp" takes at most 2, received 4',
      context: { reason: 'too_many_arguments', command: 'app cp', max: 2, received: 4, unexpected: 'c' },
    },
    // Deliberate choice: a command without declarations refuses positionals.
    {
      use: 'ping',
      argv: ['x'],
      message: '"app ping" takes no arguments, received "x"',
      context: { reason: 'too_many_arguments', command: 'app ping', max: 0, received: 1, unexpected: 'x' },
    },
  ])('DeclaredArgs: $use with $argv fails', async ({ use, argv, message, context }) => {
    const name = use.split(' ')[0]!;
    const error = await usageError(withChild({ use }), [name, ...argv]);
    expect(error.message).toBe(message);
    expect(error.context).toStrictEqual(context);
    expect(error.actionable_fix).toBe(`Run 'app ${name} --help' to see the arguments it takes.`);
  });

  it('positionals after -- are counted like any other', async () => {
    const data = await ok(withChild({ use: 'show <id>' }), ['show', '--', '-5']);
    expect(data.args).toStrictEqual({ id: '-5' });
  });
});

describe('explicit args declarations', () => {
  const decls = [
    { name: 'task-id', description: 'the task', choices: ['1', '2', '3'] },
    { name: 'notes', required: false, variadic: true },
  ] as const;

  it('override the words of use and are read by camelCase name', async () => {
    const root = withChild({ use: 'note <ignored>', args: decls });
    expect((await ok(root, ['note', '2'])).args).toStrictEqual({ taskId: '2', notes: [] });
    expect((await ok(root, ['note', '3', 'a', 'b'])).args).toStrictEqual({ taskId: '3', notes: ['a', 'b'] });
  });

  it('choices are enforced by DeclaredArgs', async () => {
    const error = await usageError(withChild({ use: 'note', args: decls }), ['note', '9']);
    expect(error.message).toBe('invalid value "9" for <task-id>: expected one of 1|2|3');
    expect(error.context).toStrictEqual({
      reason: 'invalid_argument',
      command: 'app note',
      argument: 'task-id',
      value: '9',
    });
  });

  it('missing required explicit arg names it', async () => {
    const error = await usageError(withChild({ use: 'note', args: decls }), ['note']);
    expect(error.message).toBe('missing required argument <task-id>');
  });

  test.each([
    {
      args: [{ name: 'a', required: false }, { name: 'b' }],
      message: 'x: required argument b follows an optional one',
    },
    {
      args: [{ name: 'a', variadic: true }, { name: 'b' }],
      message: 'x: only the last argument may be variadic (a is not last)',
    },
    { args: [{ name: 'a' }, { name: 'a' }], message: 'x: argument a declared twice' },
    { args: [{ name: '1st' }], message: 'x: argument name "1st" must match ^[A-Za-z][A-Za-z0-9_-]*$' },
    {
      // a positional's type is a kind of the flags' registry that reads words (ARG_TYPES), no other
      args: [{ name: 'a', type: 'bool' as never }],
      message: 'x: argument a has type "bool"; a positional is one of string, int, float',
    },
  ])('inconsistent declarations throw at construction: $message', ({ args, message }) => {
    expect(() => new Command({ use: 'x', args })).toThrow(new TypeError(message));
  });

  it('inconsistent declarations in use throw too', () => {
    expect(() => new Command({ use: 'x [a] <b>' })).toThrow(
      new TypeError('x: required argument b follows an optional one'),
    );
  });
});

describe('Cobra Args validators', () => {
  type Row = {
    name: string;
    validator: ArgsValidator;
    validArgs?: string[];
    argv: string[];
    error?: { message: string; reason: string; context?: Record<string, unknown> };
  };
  const rows: Row[] = [
    { name: 'ArbitraryArgs: none', validator: ArbitraryArgs, argv: [] },
    { name: 'ArbitraryArgs: many', validator: ArbitraryArgs, argv: ['a', 'b', 'c'] },
    { name: 'NoArgs: none', validator: NoArgs, argv: [] },
    {
      name: 'NoArgs: one',
      validator: NoArgs,
      argv: ['zap'],
      error: {
        message: 'unknown command "zap" for "app cmd"',
        reason: 'unknown_command',
        context: { reason: 'unknown_command', command: 'app cmd', received: 'zap' },
      },
    },
    { name: 'ExactArgs(2): 2', validator: ExactArgs(2), argv: ['a', 'b'] },
    {
      name: 'ExactArgs(2): 1',
      validator: ExactArgs(2),
      argv: ['a'],
      error: {
        message: 'accepts 2 arg(s), received 1',
        reason: 'missing_argument',
        context: { reason: 'missing_argument', command: 'app cmd', expected: 2, received: 1 },
      },
    },
    {
      name: 'ExactArgs(2): 3',
      validator: ExactArgs(2),
      argv: ['a', 'b', 'c'],
      error: {
        message: 'accepts 2 arg(s), received 3',
        reason: 'too_many_arguments',
        context: { reason: 'too_many_arguments', command: 'app cmd', expected: 2, received: 3 },
      },
    },
    { name: 'ExactArgs(0): 0', validator: ExactArgs(0), argv: [] },
    { name: 'MinimumNArgs(1): 1', validator: MinimumNArgs(1), argv: ['a'] },
    { name: 'MinimumNArgs(1): 4', validator: MinimumNArgs(1), argv: ['a', 'b', 'c', 'd'] },
    {
      name: 'MinimumNArgs(1): 0',
      validator: MinimumNArgs(1),
      argv: [],
      error: {
        message: 'requires at least 1 arg(s), only received 0',
        reason: 'missing_argument',
        context: { reason: 'missing_argument', command: 'app cmd', min: 1, received: 0 },
      },
    },
    { name: 'MaximumNArgs(1): 0', validator: MaximumNArgs(1), argv: [] },
    { name: 'MaximumNArgs(1): 1', validator: MaximumNArgs(1), argv: ['a'] },
    {
      name: 'MaximumNArgs(1): 2',
      validator: MaximumNArgs(1),
      argv: ['a', 'b'],
      error: {
        message: 'accepts at most 1 arg(s), received 2',
        reason: 'too_many_arguments',
        context: { reason: 'too_many_arguments', command: 'app cmd', max: 1, received: 2 },
      },
    },
    { name: 'RangeArgs(1,2): 1', validator: RangeArgs(1, 2), argv: ['a'] },
    { name: 'RangeArgs(1,2): 2', validator: RangeArgs(1, 2), argv: ['a', 'b'] },
    {
      name: 'RangeArgs(1,2): 0',
      validator: RangeArgs(1, 2),
      argv: [],
      error: {
        message: 'accepts between 1 and 2 arg(s), received 0',
        reason: 'missing_argument',
        context: { reason: 'missing_argument', command: 'app cmd', min: 1, max: 2, received: 0 },
      },
    },
    {
      name: 'RangeArgs(1,2): 3',
      validator: RangeArgs(1, 2),
      argv: ['a', 'b', 'c'],
      error: {
        message: 'accepts between 1 and 2 arg(s), received 3',
        reason: 'too_many_arguments',
        context: { reason: 'too_many_arguments', command: 'app cmd', min: 1, max: 2, received: 3 },
      },
    },
    { name: 'OnlyValidArgs: valid', validator: OnlyValidArgs, validArgs: ['red', 'green'], argv: ['green', 'red'] },
    { name: 'OnlyValidArgs: none given', validator: OnlyValidArgs, validArgs: ['red', 'green'], argv: [] },
    {
      name: 'OnlyValidArgs: invalid',
      validator: OnlyValidArgs,
      validArgs: ['red', 'green'],
      argv: ['red', 'blue'],
      error: {
        message: 'invalid argument "blue" for "app cmd"',
        reason: 'invalid_argument',
        context: { reason: 'invalid_argument', command: 'app cmd', argument: 'blue', valid: ['red', 'green'] },
      },
    },
    {
      // Cobra's OnlyValidArgs checks only when ValidArgs are declared
      name: 'OnlyValidArgs: without validArgs accepts anything (Cobra)',
      validator: OnlyValidArgs,
      argv: ['x'],
    },
    {
      name: 'MatchAll(ExactArgs(1), OnlyValidArgs): ok',
      validator: MatchAll(ExactArgs(1), OnlyValidArgs),
      validArgs: ['red'],
      argv: ['red'],
    },
    {
      name: 'MatchAll(ExactArgs(1), OnlyValidArgs): count fails first',
      validator: MatchAll(ExactArgs(1), OnlyValidArgs),
      validArgs: ['red'],
      argv: ['blue', 'red'],
      error: { message: 'accepts 1 arg(s), received 2', reason: 'too_many_arguments' },
    },
    {
      name: 'MatchAll(ExactArgs(1), OnlyValidArgs): then validity',
      validator: MatchAll(ExactArgs(1), OnlyValidArgs),
      validArgs: ['red'],
      argv: ['blue'],
      error: { message: 'invalid argument "blue" for "app cmd"', reason: 'invalid_argument' },
    },
    { name: 'MatchAll(): accepts anything', validator: MatchAll(), argv: ['a', 'b'] },
  ];

  test.each(rows)('$name', async ({ validator, validArgs, argv, error }) => {
    const root = withChild({ use: 'cmd', validateArgs: validator, validArgs });
    if (!error) {
      const data = await ok(root, ['cmd', ...argv]);
      expect(data.argv).toStrictEqual(argv);
      expect(data.args).toStrictEqual({});
      return;
    }
    const e = await usageError(root, ['cmd', ...argv]);
    expect(e.message).toBe(error.message);
    expect(e.context.reason).toBe(error.reason);
    if (error.context) expect(e.context).toStrictEqual(error.context);
    expect(e.actionable_fix).toBe("Run 'app cmd --help' to see the arguments it takes.");
  });

  it('a custom validator replaces DeclaredArgs but the declarations still name the values', async () => {
    const root = withChild({ use: 'cmd <first> [rest...]', validateArgs: RangeArgs(2, 3) });
    expect((await ok(root, ['cmd', 'a', 'b'])).args).toStrictEqual({ first: 'a', rest: ['b'] });
    const e = await usageError(root, ['cmd', 'a']);
    expect(e.message).toBe('accepts between 2 and 3 arg(s), received 1');
  });

  it('a validator error is reported before a missing required flag (Cobra order)', async () => {
    const root = new Command({
      use: 'app',
      commands: [
        new Command({ use: 'cmd <id>', flags: { must: { type: 'string', required: true } }, run: () => null }),
      ],
    });
    const e = await usageError(root, ['cmd']);
    expect(e.context.reason).toBe('missing_argument');
  });
});

describe('positionals and command groups', () => {
  function groups(): Command {
    const leaf = new Command({ use: 'leaf', run: () => 'leaf' });
    const group = new Command({ use: 'group', short: 'a group', commands: [leaf] });
    const runnable = new Command({
      use: 'runner [what]',
      run: (ctx) => ({ what: ctx.args.what ?? null }),
      commands: [new Command({ use: 'sub', run: () => 'sub' })],
    });
    const bare = new Command({
      use: 'bare',
      run: () => 'bare',
      commands: [new Command({ use: 'sub', run: () => 'sub' })],
    });
    return new Command({ use: 'app', commands: [group, runnable, bare] });
  }

  it('a command word after -- is an argument, and the group takes none', async () => {
    const e = await usageError(groups(), ['group', '--', 'leaf']);
    expect(e).toStrictEqual({
      kind: 'validation_error',
      message: '"app group" takes no arguments, and words after "--" are arguments, not commands (received "leaf")',
      exit_code: 2,
      retryable: false,
      actionable_fix: `Put the command words before "--": 'app group leaf …'. Run 'app group --help' to list commands.`,
      context: { reason: 'unknown_command', command: 'app group', received: 'leaf', after_dash_dash: true },
    });
  });

  test.each([
    { argv: ['group', 'bogus'], message: 'unknown command "bogus" for "app group"' },
    { argv: ['bare', 'extra'], message: 'unknown command "extra" for "app bare"' },
    { argv: ['nope'], message: 'unknown command "nope" for "app"' },
  ])('a word that is no subcommand: $argv', async ({ argv, message }) => {
    const e = await usageError(groups(), argv);
    expect(e.message).toBe(message);
    expect(e.context.reason).toBe('unknown_command');
    expect(e.context.received).toBe(argv.at(-1));
  });

  it('a runnable command with children and declared args takes a non-child word as a positional', async () => {
    const r = await runCli(groups(), ['runner', 'thing']);
    expect(r.code).toBe(0);
    expect(envelope(r.stdout).data).toStrictEqual({ what: 'thing' });
    const s = await runCli(groups(), ['runner', 'sub']);
    expect(envelope(s.stdout).data).toBe('sub');
  });
});

describe('a command whose only subcommands are hidden', () => {
  function withHidden(use: string): Command {
    const tool = new Command({
      use,
      run: (ctx) => ctx.args.file ?? 'ran',
      commands: [new Command({ use: 'debug', hidden: true, run: () => 'debug' })],
    });
    return new Command({ use: 'app', commands: [tool] });
  }

  it('refuses a positional with its own argument error, not "unknown command … to list commands"', async () => {
    const e = await usageError(withHidden('tool'), ['tool', 'foo']);
    expect(e.message).toBe('"app tool" takes no arguments, received "foo"');
    expect(e.context.reason).toBe('too_many_arguments');
  });

  it('takes a non-child word as its declared positional; the hidden child still runs', async () => {
    const root = withHidden('tool [file]');
    expect(envelope((await runCli(root, ['tool', 'notes.txt'])).stdout).data).toBe('notes.txt');
    expect(envelope((await runCli(root, ['tool', 'debug'])).stdout).data).toBe('debug');
    const e = await usageError(root, ['tool', 'a', 'b']);
    expect(e.message).toBe('too many arguments: "app tool" takes at most 1, received 2');
  });

  it('runs without positionals', async () => {
    expect(envelope((await runCli(withHidden('tool'), ['tool'])).stdout).data).toBe('ran');
  });
});
