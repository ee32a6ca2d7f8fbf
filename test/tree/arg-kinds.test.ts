/**
 * A positional's type is a kind of the flags' registry (lib/tree/flag-kinds/, ARG_TYPES): every
 * place that depends on the type asks the kind. Table-driven over the registry: for each type a
 * positional may have, a word of it round-trips through the command line and `--args-json` to
 * the handler, the inputSchema property is the kind's value schema, help prints the kind's note,
 * clispec its type, completion hands completers the value the handler gets, and a word that is not
 * one is refused in the kind's words. A type added to ARG_TYPES does not compile until it has a
 * case here (and a kind with a `positional` there).
 */
import { describe, expect, it } from 'vitest';
import { Command } from '../../lib/index.ts';
import { ARG_TYPES, type ArgType } from '../../lib/tree/flag-spec.ts';
import { FLAG_KINDS } from '../../lib/tree/flag-kinds/index.ts';
import { inputSchema } from '../../lib/parse/input-schema.ts';
import { envelope, errorOf, runCli } from '../helpers/run.ts';

/** Per type: a word, the value it gives the handler, and a word the kind refuses (none for string). */
const ARG_CASES: { readonly [T in ArgType]: { word: string; value: unknown; bad?: string } } = {
  string: { word: 'blue', value: 'blue' },
  // a positional int is decimal digits: Go's forms, which a flag's int takes, are refused
  int: { word: '42', value: 42, bad: '0x10' },
  float: { word: '0.25', value: 0.25, bad: 'quarter' },
};

/** `app get <v> [next]` with `v` of type `type`; the handler returns what it got; `next` completes from `v`. */
function tree(type: ArgType): Command {
  return new Command({
    use: 'app',
    commands: [
      new Command({
        use: 'get <v> [next]',
        short: 'Get one',
        args: [
          { name: 'v', type, description: 'the value' },
          {
            name: 'next',
            required: false,
            completer: (_partial, ctx) => [JSON.stringify(ctx.argValues.v)],
          },
        ],
        run: (ctx) => ({ v: ctx.args.v, type: typeof ctx.args.v }),
      }),
    ],
  });
}

describe.each(ARG_TYPES.map((t) => [t, FLAG_KINDS[t], ARG_CASES[t]] as const))(
  'a positional of type %s',
  (type, kind, c) => {
    it('reads its word as the kind does, on the command line and from --args-json', async () => {
      const expected = { v: c.value, type: typeof c.value };
      expect(kind.positional.fromWord(c.word)).toEqual(c.value);
      const cli = await runCli(tree(type), ['get', c.word]);
      expect(cli.code, cli.stderr).toBe(0);
      expect(envelope(cli.stdout).data).toEqual(expected);
      const json = await runCli(tree(type), ['get', '--args-json', JSON.stringify({ v: c.value })]);
      expect(json.code, json.stderr).toBe(0);
      expect(envelope(json.stdout).data).toEqual(expected);
    });

    it("is the kind's value schema in the inputSchema", () => {
      const get = tree(type).commands()[0]!;
      const { description: _, ...property } = (inputSchema(get).properties as Record<string, object>).v as {
        description: string;
      };
      expect(property).toEqual(kind.valueSchema({ type }));
    });

    it("prints the kind's note in help and its type in clispec", async () => {
      const help = await runCli(tree(type), ['get', '--help']);
      const line = help.stdout.split('\n').find((l) => l.trimStart().startsWith('v '))!;
      expect(line.trim().replace(/ +/g, ' ')).toBe(
        `v the value${kind.positional.helpNote ? ` ${kind.positional.helpNote}` : ''}`,
      );
      const spec = await runCli(tree(type), ['__schema', '--as=clispec', '--full', 'get']);
      expect(spec.code, spec.stderr).toBe(0);
      const args = (JSON.parse(spec.stdout) as { commands: { args: { name: string; type: string }[] }[] }).commands[0]!
        .args;
      expect(args.find((a) => a.name === 'v')!.type).toBe(kind.clispecType);
    });

    it('hands a completer the value the handler gets', async () => {
      const r = await runCli(tree(type), ['__complete', 'get', c.word, '']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.split('\n')[0]).toBe(JSON.stringify(c.value));
    });

    it.runIf(c.bad !== undefined)("refuses a word that is not one, in the kind's words", async () => {
      const r = await runCli(tree(type), ['get', c.bad!]);
      expect(r.code).toBe(2);
      expect(kind.positional.fromWord(c.bad!)).toBeNull();
      expect(errorOf(r.stderr).error).toMatchObject({
        kind: 'validation_error',
        message: `invalid value ${JSON.stringify(c.bad)} for <v>: expected ${kind.positional.expected}`,
        context: { reason: 'invalid_argument' },
      });
      // what the run refuses reaches a completer as the word, never as a value the handler cannot get
      const completed = await runCli(tree(type), ['__complete', 'get', c.bad!, '']);
      expect(completed.stdout.split('\n')[0]).toBe(JSON.stringify(c.bad));
    });
  },
);

describe.each([
  ['int', '-5', -5],
  ['float', '-0.5', -0.5],
] as const)('a negative number for a positional of type %s', (type, word, value) => {
  it('reads as a shorthand flag (as in pflag); the fix names the line that works, which works verbatim', async () => {
    const r = await runCli(tree(type), ['get', word, '--format', 'json']);
    expect(r.code).toBe(2);
    const e = errorOf(r.stderr).error;
    expect(e).toMatchObject({ kind: 'validation_error', context: { reason: 'unknown_flag', flag: word.slice(0, 2) } });
    const line = `app get --format json -- ${word}`;
    expect(e.actionable_fix).toBe(
      `${word} reads as a flag: give a negative number after --, which ends the flags: '${line}'.`,
    );
    const verbatim = await runCli(tree(type), line.split(' ').slice(1));
    expect(verbatim.code, verbatim.stderr).toBe(0);
    expect(envelope(verbatim.stdout).data).toEqual({ v: value, type: 'number' });
    // a string positional keeps pflag's plain refusal: no fix speaks of a number there
    const plain = await runCli(tree('string'), ['get', word]);
    expect(errorOf(plain.stderr).error.actionable_fix).not.toMatch(/negative number/);
  });

  it('is a number as --args-json gives it (typed JSON: no flag reading)', async () => {
    const r = await runCli(tree(type), ['get', '--args-json', JSON.stringify({ v: value })]);
    expect(r.code, r.stderr).toBe(0);
    expect(envelope(r.stdout).data).toEqual({ v: value, type: 'number' });
  });
});
