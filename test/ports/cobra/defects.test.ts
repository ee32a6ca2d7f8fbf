/**
 * Issue 10's defects, each pinned through the public entry points: an author's `help` flag, Go's
 * integer forms, unknown flag types, pflag's error texts, help layout.
 */
import { describe, expect, it } from 'vitest';
import { Command, helpText } from '../../../lib/index.ts';
import { envelope, runCli } from '../../helpers/run.ts';
import { emptyRun, executeCommand, jsonError } from './harness.ts';

describe("an author's own help flag is the help flag (Cobra)", () => {
  const tree = () => {
    let ran = 0;
    const root = new Command({
      use: 'c',
      flags: { help: { type: 'bool', usage: 'my own help' } },
      run: () => void ran++,
    });
    return { root, ran: () => ran };
  };
  it('--help prints help and does not run the handler', async () => {
    const t = tree();
    const r = await executeCommand(t.root, '--help');
    expect(r.code).toBe(0);
    expect(r.output).toContain('Usage:\n  c [flags]');
    expect(r.output).toMatch(/\n      --help +my own help\n/);
    expect(t.ran()).toBe(0);
  });
  it('-h prints help when the author gave no shorthand (pflag: an undeclared -h is ErrHelp, which Cobra answers with help)', async () => {
    const t = tree();
    for (const args of [['-h'], ['-h', '--no-such-flag', 'word']]) {
      const r = await executeCommand(t.root, ...args);
      expect(r.code).toBe(0);
      expect(r.output).toContain('Usage:\n  c [flags]');
    }
    expect(t.ran()).toBe(0);
  });
  it('-h stays the shorthand an author gave another flag', async () => {
    const root = new Command({
      use: 'c',
      flags: { host: { type: 'string', short: 'h' } },
      run: (ctx) => ctx.flags.host,
    });
    expect((await executeCommand(root, '-h', 'x')).output).not.toContain('Usage:');
  });
  it('an author help flag with a shorthand answers to it', async () => {
    const root = new Command({ use: 'c', flags: { help: { type: 'bool', short: 'x' } }, run: emptyRun });
    expect((await executeCommand(root, '-x')).output).toContain('Usage:');
  });
});

describe("int flags read Go's strconv.ParseInt(s, 0, 64) forms (pflag)", () => {
  const root = () =>
    new Command({
      use: 'c',
      flags: { n: { type: 'int', short: 'i' }, u: { type: 'uint' } },
      run: (ctx) => ctx.flags.n ?? ctx.flags.u,
    });
  it.each([
    ['0x23', 35],
    ['0X23', 35],
    ['0o17', 15],
    ['0O17', 15],
    ['0b11', 3],
    ['1_000', 1000],
    ['0755', 493],
    ['-0x10', -16],
    ['+7', 7],
    ['0', 0],
    ['00', 0],
    ['0x_ff', 255],
  ])('%s = %d', async (text, want) => {
    const r = await runCli(root(), [`--n=${text}`]);
    expect(envelope(r.stdout).data).toBe(want);
  });
  it.each(['', '0x', '08', '1__0', '_1', '1_', '1.5', ' 1', 'abc', '0b2'])(
    "%j is refused with pflag's text",
    async (text) => {
      expect((await executeCommand(root(), `--n=${text}`)).error).toBe(
        `invalid argument ${JSON.stringify(text)} for "-i, --n" flag: must be an integer`,
      );
      expect((await jsonError(root(), `--n=${text}`))?.context.reason).toBe('invalid_flag_value');
    },
  );
  it('uint refuses a sign', async () => {
    expect((await executeCommand(root(), '--u=-1')).error).toBe(
      'invalid argument "-1" for "--u" flag: must be a non-negative integer',
    );
    expect(envelope((await runCli(root(), ['--u', '0x10'])).stdout).data).toBe(16);
  });
});

describe('declarations', () => {
  it('an unknown flag type is a TypeError naming it and the accepted ones', () => {
    expect(() => new Command({ use: 'c', flags: { n: { type: 'uint64' as 'int' } } })).toThrow(
      new TypeError(
        'c: flag --n has unknown type "uint64"; accepted types: string, bool, int, uint, float, duration, count, stringSlice, stringArray, intSlice, uintSlice, boolSlice, floatSlice, durationSlice, stringToString, stringToInt, json',
      ),
    );
    expect(() => new Command({ use: 'c' }).addFlag('x', { type: 'strng' as 'string' })).toThrow(TypeError);
  });

  // not Cobra's (Go's compiler refuses such keys); generic flags/args inference lets TypeScript miss them
  it('a misspelled key in a flag, a positional or the command itself is a TypeError naming it, with a suggestion', () => {
    const build = (config: object) => () => new Command(config as ConstructorParameters<typeof Command>[0]);
    expect(build({ use: 'c', flags: { n: { type: 'int', defualt: 5 } } })).toThrow(
      /^c: unknown flag --n key "defualt" \(did you mean "default"\?\); accepted: type, short, usage, default,/,
    );
    expect(build({ use: 'c', persistentFlags: { v: { type: 'bool', shorthand: 'v' } } })).toThrow(
      /unknown flag --v key "shorthand" \(did you mean "short"\?\)/,
    );
    expect(build({ use: 'c [n]', args: [{ name: 'n', optional: true }] })).toThrow(
      /^Command c: unknown positional "n" key "optional" \(did you mean required: false\?\); accepted: name, description,/,
    );
    expect(build({ use: 'c', shrot: 'x' })).toThrow(
      /^Command "c": unknown option key "shrot" \(did you mean "short"\?\)/,
    );
    expect(() => new Command({ use: 'c' }).addFlag('x', { type: 'string', usgae: 'u' } as never)).toThrow(
      /unknown flag --x key "usgae" \(did you mean "usage"\?\)/,
    );
    // every documented key is accepted
    expect(
      build({
        use: 'c',
        short: 's',
        flags: { n: { type: 'int', default: 1, usage: 'u', short: 'n', hidden: false, env: 'N', config: 'a.n' } },
        args: [],
      }),
    ).not.toThrow();
  });
});

describe("pflag's and Cobra's error texts in human mode", () => {
  const root = () =>
    new Command({
      use: 'c',
      flags: {
        str: { type: 'string', short: 's' },
        int: { type: 'int', short: 'i' },
        a: { type: 'string', required: true },
        b: { type: 'string', required: true },
      },
      run: emptyRun,
    });
  it.each([
    [['-ukn'], "unknown shorthand flag: 'u' in -ukn"],
    [['--nope'], 'unknown flag: --nope'],
    [['-s'], "flag needs an argument: 's' in -s"],
    [['--str'], 'flag needs an argument: --str'],
    [['-i', 'x'], 'invalid argument "x" for "-i, --int" flag: must be an integer'],
    [[], 'required flag(s) "a", "b" not set'],
  ])('%j', async (args, message) => {
    expect((await executeCommand(root(), ...args)).error).toBe(message);
  });
});

describe('help layout (Cobra/pflag)', () => {
  it('Available Commands pads names to at least 11, then one space', () => {
    const root = new Command({
      use: 'r',
      commands: [
        new Command({ use: 'a', short: 'A', run: emptyRun }),
        new Command({ use: 'longer-name-x', short: 'L', run: emptyRun }),
      ],
    });
    expect(helpText(root)).toContain('\nAvailable Commands:\n  a             A\n  longer-name-x L\n');
    const short = new Command({ use: 'r', commands: [new Command({ use: 'a', short: 'A', run: emptyRun })] });
    expect(helpText(short)).toContain('\n  a           A\n');
  });
  it("a multi-line usage continues under its first line (pflag's FlagUsages)", () => {
    const c = new Command({
      use: 'c',
      run: emptyRun,
      flags: {
        long: { type: 'string', usage: 'first line\nsecond line' },
        x: { type: 'bool', short: 'x', usage: 'X' },
      },
    });
    const flags = helpText(c).split('\nFlags:\n')[1]!;
    const first = flags.split('\n').find((l) => l.includes('first line'))!;
    const column = first.indexOf('first line');
    expect(flags).toContain(`first line\n${' '.repeat(column)}second line\n`);
    expect(flags).toMatch(/\n  -x, --x +X\n/);
  });
  it('zero defaults are not printed, others are', () => {
    const c = new Command({
      use: 'c',
      run: emptyRun,
      flags: {
        i: { type: 'int', default: 0 },
        b: { type: 'bool', default: false },
        s: { type: 'string', default: '' },
        j: { type: 'int', default: 3 },
        d: { type: 'duration', default: '1m30s' },
        m: { type: 'stringToString', default: { b: '2', a: '1' } },
      },
    });
    const h = helpText(c);
    expect(h).not.toContain('(default 0)');
    expect(h).not.toContain('(default false)');
    expect(h).not.toContain('(default "")');
    expect(h).toContain('(default 3)');
    expect(h).toContain('(default 1m30s)');
    expect(h).toContain('(default [a=1,b=2])');
  });
});
