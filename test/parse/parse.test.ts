/**
 * Flag parsing with Cobra/pflag semantics, through the public `execute` entry point: every flag form,
 * every flag type, `--`, shorthand groups, inheritance of persistent flags, shadowing, negation and
 * the usage errors (exit 2, one JSON error line on stderr, nothing on stdout).
 */
import { describe, expect, it, test } from 'vitest';
import { Command } from '../../lib/index.ts';
import { envelope, errorOf, runCli } from '../helpers/run.ts';

/** What the test leaf echoes back: every flag value (camelCase), named args and raw positionals. */
interface Echo {
  flags: Record<string, unknown>;
  args: Record<string, unknown>;
  argv: string[];
}

/**
 * A fresh tree: `app` (persistent --profile/-p, --level) → `grp` (persistent --region/-r) → `leaf [words...]`
 * with one flag of every type, plus `other` (shadows --level with a local string flag).
 */
function tree(): Command {
  const echo = (ctx: { flags: Record<string, unknown>; args: Record<string, unknown>; argv: string[] }): Echo => ({
    flags: ctx.flags,
    args: ctx.args,
    argv: ctx.argv,
  });
  const leaf = new Command({
    use: 'leaf [words...]',
    short: 'Echo flags',
    flags: {
      name: { type: 'string', short: 'n' },
      all: { type: 'bool', short: 'a' },
      brief: { type: 'bool', short: 'b' },
      color: { type: 'bool', short: 'c', negatable: true, default: true },
      verbose: { type: 'count', short: 'v' },
      num: { type: 'int', short: 'i' },
      ratio: { type: 'float' },
      timeout: { type: 'duration', short: 't' },
      tag: { type: 'stringSlice' },
      label: { type: 'stringArray', short: 'l' },
      port: { type: 'intSlice' },
      mode: { type: 'string', choices: ['fast', 'slow'] },
      cfg: { type: 'json' },
      'max-width': { type: 'int', default: 80 },
    },
    effects: 'read_only', // so it offers a dry run (docs/contract.md#dry-run-ctxguard-ctxperform-ctxconfirm)
    run: echo,
  });
  const shadow = new Command({
    use: 'shadow',
    short: 'Shadows --level',
    flags: { level: { type: 'string', default: 'lo', choices: ['lo', 'hi'] } },
    run: echo,
  });
  const grp = new Command({
    use: 'grp',
    short: 'A group',
    persistentFlags: { region: { type: 'string', short: 'r', default: 'eu' } },
    commands: [leaf, shadow],
  });
  const plain = new Command({ use: 'plain', short: 'Inherits --level', run: echo });
  return new Command({
    use: 'app',
    short: 'Test app',
    persistentFlags: { profile: { type: 'string', short: 'p' }, level: { type: 'int', default: 1 } },
    commands: [grp, plain],
  });
}

/** Runs `app grp leaf <args>` (or the given full argv), expects success and returns the echo. */
async function ok(args: string[], full = false): Promise<Echo> {
  const r = await runCli(tree(), full ? args : ['grp', 'leaf', ...args]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return envelope(r.stdout).data as Echo;
}

/** Runs the argv, expects a usage error (exit 2, stdout empty) and returns the `error` object. */
async function usageError(args: string[], full = false): Promise<Record<string, any>> {
  const r = await runCli(tree(), full ? args : ['grp', 'leaf', ...args]);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  const { error } = errorOf(r.stderr);
  expect(error.kind).toBe('validation_error');
  expect(error.exit_code).toBe(2);
  return error;
}

describe('flag forms (pflag)', () => {
  test.each([
    { form: '--name value', args: ['--name', 'bob'], want: { name: 'bob' } },
    { form: '--name=value', args: ['--name=bob'], want: { name: 'bob' } },
    { form: '--name=value with = inside', args: ['--name=a=b'], want: { name: 'a=b' } },
    { form: '--name= (empty value)', args: ['--name='], want: { name: '' } },
    { form: '--name value starting with a dash', args: ['--name', '-x'], want: { name: '-x' } },
    { form: '-n value', args: ['-n', 'bob'], want: { name: 'bob' } },
    { form: '-nvalue', args: ['-nbob'], want: { name: 'bob' } },
    { form: '-n=value', args: ['-n=bob'], want: { name: 'bob' } },
    { form: 'last occurrence of a scalar wins', args: ['--name', 'a', '-n', 'b'], want: { name: 'b' } },
    { form: '-abc (bool group)', args: ['--no-color', '-abc'], want: { all: true, brief: true, color: true } },
    {
      form: '-ab leaves the others alone',
      args: ['--no-color', '-ab'],
      want: { all: true, brief: true, color: false },
    },
    { form: '-avvb (bools and a count in one group)', args: ['-avvb'], want: { all: true, brief: true, verbose: 2 } },
    { form: '-abn value (last takes the value)', args: ['-abn', 'bob'], want: { all: true, brief: true, name: 'bob' } },
    {
      form: '-abnvalue (rest of the group is the value)',
      args: ['-abnbob'],
      want: { all: true, brief: true, name: 'bob' },
    },
    { form: '-ab=… sets the last bool', args: ['-ab=false'], want: { all: true, brief: false } },
    {
      form: '-nab (value-taking letter first swallows the rest)',
      args: ['-nab'],
      want: { all: false, brief: false, name: 'ab' },
    },
    { form: 'bool --all', args: ['--all'], want: { all: true } },
    { form: 'bool --all=false', args: ['--all=false'], want: { all: false } },
    { form: 'bool --all=true', args: ['--all=true'], want: { all: true } },
    { form: 'bool --all=FALSE (case-insensitive)', args: ['--all=FALSE'], want: { all: false } },
    { form: 'bool --all=1 / =0', args: ['--all=1', '--brief=0'], want: { all: true, brief: false } },
    { form: 'bool --all=t / =f', args: ['--all=t', '--brief=f'], want: { all: true, brief: false } },
    { form: 'bool does not take the next word', args: ['--all', 'false'], want: { all: true, words: ['false'] } },
    { form: 'negatable default true', args: [], want: { color: true } },
    { form: '--no-color', args: ['--no-color'], want: { color: false } },
    { form: '--no-color then --color (last wins)', args: ['--no-color', '--color'], want: { color: true } },
    { form: '--color=false', args: ['--color=false'], want: { color: false } },
    { form: 'count -vvv', args: ['-vvv'], want: { verbose: 3 } },
    { form: 'count -v -v', args: ['-v', '-v'], want: { verbose: 2 } },
    { form: 'count --verbose --verbose', args: ['--verbose', '--verbose'], want: { verbose: 2 } },
    { form: 'count --verbose=3', args: ['--verbose=3'], want: { verbose: 3 } },
    { form: 'count --verbose=3 -v', args: ['--verbose=3', '-v'], want: { verbose: 4 } },
    { form: 'count -v=5', args: ['-v=5'], want: { verbose: 5 } },
    { form: 'count absent is 0', args: [], want: { verbose: 0 } },
    { form: 'int', args: ['--num', '42'], want: { num: 42 } },
    { form: 'int negative', args: ['--num', '-7'], want: { num: -7 } },
    { form: 'int -i=+3', args: ['-i=+3'], want: { num: 3 } },
    { form: 'int unset is absent', args: [], want: { num: undefined } },
    { form: 'int default', args: [], want: { maxWidth: 80 } },
    { form: 'kebab-case flag → camelCase key', args: ['--max-width', '100'], want: { maxWidth: 100 } },
    { form: 'float', args: ['--ratio', '1.5'], want: { ratio: 1.5 } },
    { form: 'float exponent', args: ['--ratio=2e3'], want: { ratio: 2000 } },
    { form: 'float negative', args: ['--ratio', '-0.25'], want: { ratio: -0.25 } },
    { form: 'duration 1m30s', args: ['--timeout', '1m30s'], want: { timeout: 90_000 } },
    { form: 'duration 300ms', args: ['-t', '300ms'], want: { timeout: 300 } },
    { form: 'duration 1.5h', args: ['--timeout=1.5h'], want: { timeout: 5_400_000 } },
    { form: 'duration 2h45m', args: ['--timeout=2h45m'], want: { timeout: 9_900_000 } },
    { form: 'duration bare 0 (the only unitless duration, as in Go)', args: ['--timeout=0'], want: { timeout: 0 } },
    { form: 'stringSlice comma split', args: ['--tag', 'a,b'], want: { tag: ['a', 'b'] } },
    { form: 'stringSlice repeated', args: ['--tag', 'a,b', '--tag=c'], want: { tag: ['a', 'b', 'c'] } },
    { form: 'stringSlice quotes protect commas', args: ['--tag', '"x,y",z'], want: { tag: ['x,y', 'z'] } },
    {
      form: 'stringSlice doubled quote inside quotes',
      args: ['--tag', '"say ""hi""",b'],
      want: { tag: ['say "hi"', 'b'] },
    },
    { form: 'stringSlice empty value', args: ['--tag='], want: { tag: [] } },
    { form: 'stringSlice keeps empty fields', args: ['--tag=a,,b'], want: { tag: ['a', '', 'b'] } },
    { form: 'stringSlice absent is []', args: [], want: { tag: [] } },
    { form: 'stringArray does not split', args: ['--label', 'a,b', '-l', 'c'], want: { label: ['a,b', 'c'] } },
    { form: 'stringArray keeps quotes', args: ['--label', '"x,y"'], want: { label: ['"x,y"'] } },
    { form: 'intSlice', args: ['--port', '80,443', '--port', '8080'], want: { port: [80, 443, 8080] } },
    { form: 'choices: accepted value', args: ['--mode', 'slow'], want: { mode: 'slow' } },
    { form: 'json object', args: ['--cfg', '{"a":[1,2],"b":null}'], want: { cfg: { a: [1, 2], b: null } } },
    {
      form: 'flags interspersed with positionals',
      args: ['x', '--all', 'y', '-n', 'bob', 'z'],
      want: { all: true, name: 'bob', words: ['x', 'y', 'z'] },
    },
    {
      form: '-- ends flags',
      args: ['--all', '--', '--name', 'bob', '-x'],
      want: { all: true, name: undefined, words: ['--name', 'bob', '-x'] },
    },
    { form: '-- with nothing after', args: ['x', '--'], want: { words: ['x'] } },
    { form: '-- alone', args: ['--'], want: { words: [] } },
    { form: 'a lone dash is a positional', args: ['-'], want: { words: ['-'] } },
    {
      form: 'a value-taking flag takes -- as its value',
      args: ['--name', '--', 'x'],
      want: { name: '--', words: ['x'] },
    },
  ])('$form', async ({ args, want }) => {
    const echo = await ok(args);
    const { words, ...flags } = want as Record<string, unknown>;
    for (const [k, v] of Object.entries(flags)) expect(echo.flags[k], k).toStrictEqual(v);
    if (words !== undefined) {
      expect(echo.argv).toStrictEqual(words);
      expect(echo.args).toStrictEqual({ words });
    }
  });

  it('defaults are present for every flag of the command, own and inherited', async () => {
    const echo = await ok([]);
    expect(echo.flags).toStrictEqual({
      all: false,
      brief: false,
      color: true,
      verbose: 0,
      maxWidth: 80,
      tag: [],
      label: [],
      port: [],
      region: 'eu',
      level: 1,
      format: '',
      dryRun: false,
      yes: false, // the injected --yes and --strict (bools: false unless given)
      strict: false,
      fields: [], // the injected --fields (a slice: empty unless given)
      help: false,
    });
    expect(echo.argv).toStrictEqual([]);
    expect(echo.args).toStrictEqual({ words: [] });
  });
});

describe('count with a default', () => {
  function counted(): Command {
    return new Command({
      use: 'app',
      commands: [
        new Command({
          use: 'go',
          flags: { verbose: { type: 'count', short: 'v', default: 2 } },
          run: (ctx) => ctx.flags.verbose,
        }),
      ],
    });
  }
  test.each([
    { args: [], want: 2 },
    { args: ['-v'], want: 3 },
    { args: ['-vv'], want: 4 },
    { args: ['--verbose=0'], want: 0 },
    { args: ['--verbose=0', '-v'], want: 1 },
  ])('pflag increments from the default: $args', async ({ args, want }) => {
    const r = await runCli(counted(), ['go', ...args]);
    expect(r.code).toBe(0);
    expect(envelope(r.stdout).data).toBe(want);
  });
});

describe('bad flag values (validation_error, exit 2)', () => {
  test.each([
    {
      what: 'bad bool',
      args: ['--all=maybe'],
      message: 'invalid argument "maybe" for "-a, --all" flag: must be true or false',
      flag: '--all',
    },
    {
      what: 'bad bool in short form',
      args: ['-a=yes'],
      message: 'invalid argument "yes" for "-a, --all" flag: must be true or false',
      flag: '--all',
    },
    {
      what: 'bad int',
      args: ['--num', 'abc'],
      message: 'invalid argument "abc" for "-i, --num" flag: must be an integer',
      flag: '--num',
    },
    {
      what: 'int with a fraction',
      args: ['--num', '1.5'],
      message: 'invalid argument "1.5" for "-i, --num" flag: must be an integer',
      flag: '--num',
    },
    {
      what: 'empty int',
      args: ['--num='],
      message: 'invalid argument "" for "-i, --num" flag: must be an integer',
      flag: '--num',
    },
    {
      what: 'int overflow',
      args: ['--num', '9007199254740993'],
      message: 'invalid argument "9007199254740993" for "-i, --num" flag: must be an integer within ±2^53',
      flag: '--num',
    },
    {
      what: 'bad float',
      args: ['--ratio', 'fast'],
      message: 'invalid argument "fast" for "--ratio" flag: must be a number',
      flag: '--ratio',
    },
    {
      what: 'float Infinity',
      args: ['--ratio', 'Infinity'],
      message: 'invalid argument "Infinity" for "--ratio" flag: must be a number',
      flag: '--ratio',
    },
    {
      what: 'bad duration',
      args: ['--timeout', '5x'],
      message: 'invalid argument "5x" for "-t, --timeout" flag: must be a duration like "30s" or "5m"',
      flag: '--timeout',
    },
    {
      what: 'bad intSlice item',
      args: ['--port', '80,http'],
      message: 'invalid argument "80,http" for "--port" flag: must be an integer',
      flag: '--port',
    },
    {
      what: 'bad count value',
      args: ['--verbose=lots'],
      message: 'invalid argument "lots" for "-v, --verbose" flag: must be an integer',
      flag: '--verbose',
    },
  ])('$what', async ({ args, message, flag }) => {
    const error = await usageError(args);
    expect(error.message).toBe(message);
    expect(error.context.reason).toBe('invalid_flag_value');
    expect(error.context.flag).toBe(flag);
  });

  it('bad choice lists the choices in the fix', async () => {
    const error = await usageError(['--mode', 'medium']);
    expect(error).toStrictEqual({
      kind: 'validation_error',
      message: 'invalid argument "medium" for "--mode" flag: must be one of fast|slow',
      exit_code: 2,
      retryable: false,
      actionable_fix: 'Pass one of: fast, slow.',
      context: { reason: 'invalid_flag_value', flag: '--mode', value: 'medium', expected: 'one of fast|slow' },
    });
  });

  test.each([
    { what: 'not JSON', raw: '{a:1}' },
    { what: 'a JSON number', raw: '3' },
    { what: 'a JSON array', raw: '[1,2]' },
    { what: 'JSON null', raw: 'null' },
    { what: 'a JSON string', raw: '"x"' },
  ])('json flag refuses $what: it takes one JSON object', async ({ raw }) => {
    const error = await usageError(['--cfg', raw]);
    expect(error.message).toBe(`invalid argument ${JSON.stringify(raw)} for "--cfg" flag: must be a JSON object`);
    expect(error.context).toStrictEqual({
      reason: 'invalid_flag_value',
      flag: '--cfg',
      value: raw,
      expected: 'a JSON object',
    });
  });

  test.each([
    { what: 'long flag at the end', args: ['--name'], message: 'flag needs an argument: --name' },
    { what: 'shorthand at the end', args: ['-n'], message: "flag needs an argument: 'n' in -n" },
    { what: 'shorthand at the end of a group', args: ['-abn'], message: "flag needs an argument: 'n' in -n" },
  ])('missing value: $what', async ({ args, message }) => {
    const error = await usageError(args);
    expect(error.message).toBe(message);
    expect(error.context).toStrictEqual({ reason: 'missing_flag_value', flag: '--name' });
  });

  it('--no-x refuses a value', async () => {
    const error = await usageError(['--no-color=true']);
    expect(error.message).toBe('flag --no-color does not take a value');
    expect(error.actionable_fix).toBe('Pass --no-color alone, or --color=false.');
  });

  it('--no-x of a bool that is not negatable is an unknown flag', async () => {
    const error = await usageError(['--no-all']);
    expect(error.message).toBe('unknown flag: --no-all');
    expect(error.context.reason).toBe('unknown_flag');
  });
});

describe('unknown flags', () => {
  test.each([
    { typed: ['--nmae', 'x'], message: 'unknown flag: --nmae', suggestions: ['--name'] },
    { typed: ['--verbos'], message: 'unknown flag: --verbos', suggestions: ['--verbose'] },
    { typed: ['--max'], message: 'unknown flag: --max', suggestions: ['--max-width', '--tag'] }, // prefix, then distance 2 (max→tag)
    { typed: ['--zzzzzz'], message: 'unknown flag: --zzzzzz', suggestions: undefined },
    { typed: ['-z'], message: "unknown shorthand flag: 'z' in -z", suggestions: undefined },
    { typed: ['-abz'], message: "unknown shorthand flag: 'z' in -z", suggestions: undefined },
  ])('$typed.0', async ({ typed, message, suggestions }) => {
    const error = await usageError(typed);
    expect(error.message).toBe(message);
    expect(error.context.reason).toBe('unknown_flag');
    expect(error.context.command).toBe('app grp leaf');
    expect(error.suggestions).toStrictEqual(suggestions);
    expect(error.actionable_fix).toBe(
      suggestions
        ? `Did you mean ${suggestions[0]}? Run 'app grp leaf --help' to see its flags.`
        : "Run 'app grp leaf --help' to see its flags.",
    );
  });

  it('a flag of a sibling command is unknown', async () => {
    const error = await usageError(['grp', 'shadow', '--all'], true);
    expect(error.message).toBe('unknown flag: --all');
  });

  it('the root --version flag is not inherited', async () => {
    const error = await usageError(['--version']);
    expect(error.message).toBe('unknown flag: --version');
  });
});

describe('persistent flags', () => {
  test.each([
    { where: 'after the leaf', argv: ['grp', 'leaf', '--profile', 'dev'] },
    { where: 'before every command word', argv: ['--profile', 'dev', 'grp', 'leaf'] },
    { where: 'between the command words', argv: ['grp', '--profile', 'dev', 'leaf'] },
    { where: 'shorthand before the command words', argv: ['-p', 'dev', 'grp', 'leaf'] },
    { where: 'shorthand glued, before the command words', argv: ['-pdev', 'grp', 'leaf'] },
    { where: '--p=value before the command words', argv: ['--profile=dev', 'grp', 'leaf'] },
  ])('root persistent flag reaches a grandchild: $where', async ({ argv }) => {
    const echo = await ok(argv, true);
    expect(echo.flags.profile).toBe('dev');
    expect(echo.argv).toStrictEqual([]);
  });

  it('a flag value equal to a command name is not taken as a command word', async () => {
    const echo = await ok(['--profile', 'grp', 'grp', 'leaf', 'x'], true);
    expect(echo.flags.profile).toBe('grp');
    expect(echo.argv).toStrictEqual(['x']);
  });

  it("a middle command's persistent flag reaches its child, before or after the child word", async () => {
    expect((await ok(['grp', '-r', 'us', 'leaf'], true)).flags.region).toBe('us');
    expect((await ok(['grp', 'leaf', '--region=ap'], true)).flags.region).toBe('ap');
    expect((await ok(['grp', 'leaf'], true)).flags.region).toBe('eu');
  });

  it("a middle command's persistent flag does not reach the root's other children", async () => {
    const error = await usageError(['plain', '--region', 'us'], true);
    expect(error.message).toBe('unknown flag: --region');
  });

  it('a local flag shadows an inherited persistent flag of the same name', async () => {
    expect((await ok(['grp', 'shadow'], true)).flags.level).toBe('lo');
    expect((await ok(['grp', 'shadow', '--level', 'hi'], true)).flags.level).toBe('hi');
    const error = await usageError(['grp', 'shadow', '--level', '3'], true);
    expect(error.message).toBe('invalid argument "3" for "--level" flag: must be one of lo|hi');
    // Elsewhere the root's int flag is in force.
    expect((await ok(['plain', '--level', '3'], true)).flags.level).toBe(3);
    expect((await ok(['grp', 'leaf'], true)).flags.level).toBe(1);
  });

  it('the injected --dry-run is a persistent flag of every command that offers a dry run', async () => {
    expect((await ok(['--dry-run', 'grp', 'leaf'], true)).flags.dryRun).toBe(true);
    expect((await ok(['grp', 'leaf', '--dry-run'], true)).flags.dryRun).toBe(true);
    // plain offers none (nothing declared, not read-only): refused wherever the flag is given
    for (const argv of [
      ['--dry-run', 'plain'],
      ['plain', '--dry-run'],
    ]) {
      const r = await runCli(tree(), argv);
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stderr).error).toMatchObject({ kind: 'dry_run_unsupported', context: { flag: '--dry-run' } });
    }
  });
});

describe('aliases', () => {
  function aliased(): Command {
    return new Command({
      use: 'app',
      commands: [
        new Command({
          use: 'remove <id>',
          aliases: ['rm', 'del'],
          flags: { force: { type: 'bool', short: 'f' } },
          run: (ctx) => ({ cmd: ctx.command.name, id: ctx.args.id, force: ctx.flags.force }),
        }),
      ],
    });
  }
  test.each([['remove'], ['rm'], ['del']])('%s runs the command', async (word) => {
    const r = await runCli(aliased(), [word, '7', '-f']);
    expect(r.code).toBe(0);
    expect(envelope(r.stdout).data).toStrictEqual({ cmd: 'remove', id: '7', force: true });
  });
});

describe('required flags and flag groups', () => {
  function guarded(): Command {
    const deploy = new Command({
      use: 'deploy',
      flags: {
        token: { type: 'string', required: true },
        json: { type: 'bool' },
        yaml: { type: 'bool' },
        csv: { type: 'bool' },
        user: { type: 'string' },
        pass: { type: 'string' },
        id: { type: 'int' },
        name: { type: 'string' },
      },
      mutuallyExclusive: [['json', 'yaml', 'csv']],
      requiredTogether: [['user', 'pass']],
      oneRequired: [['id', 'name']],
      run: (ctx) => ({ token: ctx.flags.token, id: ctx.flags.id ?? null, name: ctx.flags.name ?? null }),
    });
    const many = new Command({
      use: 'many',
      flags: {
        a: { type: 'string', required: true },
        b: { type: 'int', required: true },
        c: { type: 'bool', required: true },
      },
      run: () => 'ok',
    });
    const marked = new Command({
      use: 'marked',
      flags: { x: { type: 'bool' }, y: { type: 'bool' }, z: { type: 'bool' } },
      run: () => 'ok',
    })
      .markFlagsMutuallyExclusive('x', 'y')
      .markFlagsRequiredTogether('y', 'z')
      .markFlagsOneRequired('x', 'z');
    const child = new Command({ use: 'child', run: (ctx) => ctx.flags.org });
    return new Command({
      use: 'app',
      commands: [
        deploy,
        many,
        marked,
        new Command({ use: 'org', persistentFlags: { org: { type: 'string', required: true } }, commands: [child] }),
      ],
    });
  }

  type Row = {
    name: string;
    argv: string[];
    error?: { message: string; context: Record<string, unknown>; fix: string };
  };
  const rows: Row[] = [
    { name: 'all satisfied', argv: ['deploy', '--token', 't', '--id', '1'] },
    { name: 'required flag given an empty value counts as given', argv: ['deploy', '--token=', '--name', 'n'] },
    { name: 'one of a mutually exclusive group', argv: ['deploy', '--token', 't', '--id', '1', '--yaml'] },
    {
      name: 'a required-together group complete',
      argv: ['deploy', '--token', 't', '--id', '1', '--user', 'u', '--pass', 'p'],
    },
    { name: 'both of a one-required group', argv: ['deploy', '--token', 't', '--id', '1', '--name', 'n'] },
    {
      name: 'missing required flag',
      argv: ['deploy', '--id', '1'],
      error: {
        message: 'required flag(s) "token" not set',
        context: { reason: 'missing_required_flag', command: 'app deploy', flags: ['--token'] },
        fix: 'Give --token.',
      },
    },
    {
      name: 'two missing required flags',
      argv: ['many', '--c'],
      error: {
        message: 'required flag(s) "a", "b" not set',
        context: { reason: 'missing_required_flag', command: 'app many', flags: ['--a', '--b'] },
        fix: 'Give --a and --b.',
      },
    },
    {
      name: 'three missing required flags',
      argv: ['many'],
      error: {
        message: 'required flag(s) "a", "b", "c" not set',
        context: { reason: 'missing_required_flag', command: 'app many', flags: ['--a', '--b', '--c'] },
        fix: 'Give --a, --b and --c.',
      },
    },
    {
      name: 'mutually exclusive',
      argv: ['deploy', '--token', 't', '--id', '1', '--json', '--csv'],
      error: {
        message: 'if any flags in the group [json yaml csv] are set none of the others can be; [csv json] were all set',
        context: {
          reason: 'mutually_exclusive',
          command: 'app deploy',
          group: ['--json', '--yaml', '--csv'],
          given: ['--json', '--csv'],
        },
        fix: 'Give only one of --json, --yaml and --csv.',
      },
    },
    {
      name: 'mutually exclusive, even when set to false',
      argv: ['deploy', '--token', 't', '--id', '1', '--json=false', '--yaml=false'],
      error: {
        message:
          'if any flags in the group [json yaml csv] are set none of the others can be; [json yaml] were all set',
        context: {
          reason: 'mutually_exclusive',
          command: 'app deploy',
          group: ['--json', '--yaml', '--csv'],
          given: ['--json', '--yaml'],
        },
        fix: 'Give only one of --json, --yaml and --csv.',
      },
    },
    {
      name: 'required together, one missing',
      argv: ['deploy', '--token', 't', '--id', '1', '--pass', 'p'],
      error: {
        message: 'if any flags in the group [user pass] are set they must all be set; missing [user]',
        context: {
          reason: 'required_together',
          command: 'app deploy',
          group: ['--user', '--pass'],
          missing: ['--user'],
        },
        fix: 'Also give --user, or none of the group.',
      },
    },
    {
      name: 'one required, none given',
      argv: ['deploy', '--token', 't'],
      error: {
        message: 'at least one of the flags in the group [id name] is required',
        context: { reason: 'one_required', command: 'app deploy', group: ['--id', '--name'] },
        fix: 'Give one of --id and --name.',
      },
    },
    {
      name: 'required flags are checked before groups',
      argv: ['deploy', '--json', '--yaml'],
      error: {
        message: 'required flag(s) "token" not set',
        context: { reason: 'missing_required_flag', command: 'app deploy', flags: ['--token'] },
        fix: 'Give --token.',
      },
    },
    { name: 'markFlags*: satisfied', argv: ['marked', '--x'] },
    {
      name: 'markFlagsMutuallyExclusive',
      argv: ['marked', '--x', '--y', '--z'],
      error: {
        message: 'if any flags in the group [x y] are set none of the others can be; [x y] were all set',
        context: { reason: 'mutually_exclusive', command: 'app marked', group: ['--x', '--y'], given: ['--x', '--y'] },
        fix: 'Give only one of --x and --y.',
      },
    },
    {
      name: 'markFlagsRequiredTogether',
      argv: ['marked', '--y'],
      error: {
        message: 'if any flags in the group [y z] are set they must all be set; missing [z]',
        context: { reason: 'required_together', command: 'app marked', group: ['--y', '--z'], missing: ['--z'] },
        fix: 'Also give --z, or none of the group.',
      },
    },
    {
      name: 'markFlagsOneRequired',
      argv: ['marked'],
      error: {
        message: 'at least one of the flags in the group [x z] is required',
        context: { reason: 'one_required', command: 'app marked', group: ['--x', '--z'] },
        fix: 'Give one of --x and --z.',
      },
    },
    { name: 'required persistent flag given to a child', argv: ['org', 'child', '--org', 'acme'] },
    { name: 'required persistent flag given before the child word', argv: ['org', '--org', 'acme', 'child'] },
    {
      name: 'required persistent flag enforced on a child',
      argv: ['org', 'child'],
      error: {
        message: 'required flag(s) "org" not set',
        context: { reason: 'missing_required_flag', command: 'app org child', flags: ['--org'] },
        fix: 'Give --org.',
      },
    },
  ];

  test.each(rows)('$name', async ({ argv, error }) => {
    const r = await runCli(guarded(), argv);
    if (!error) {
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      return;
    }
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(errorOf(r.stderr).error).toStrictEqual({
      kind: 'validation_error',
      message: error.message,
      exit_code: 2,
      retryable: false,
      actionable_fix: error.fix,
      context: error.context,
    });
  });

  it('-h prints help even when required flags are missing', async () => {
    const r = await runCli(guarded(), ['deploy', '-h']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.startsWith('Usage:\n  app deploy [flags]\n')).toBe(true);
  });

  it('required flag values arrive typed', async () => {
    const r = await runCli(guarded(), ['deploy', '--token', 'abc', '--id', '12']);
    expect(envelope(r.stdout).data).toStrictEqual({ token: 'abc', id: 12, name: null });
  });
});
