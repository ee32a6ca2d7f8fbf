/** Typed positionals (`type: 'int' | 'float'`): parsed and checked on the CLI, numbers in ctx.args and in the inputSchema. */
import { flat } from '../fixtures/schema-trees.ts';
import { describe, expect, it } from 'vitest';
import { Command } from '../../lib/index.ts';
import { inputSchema } from '../../lib/parse/input-schema.ts';
import { errorOf, envelope, runCli } from '../helpers/run.ts';

function tree(): Command {
  const root = new Command({ use: 'app' });
  root.addCommand(
    new Command({
      use: 'get <id> [ratio] [more...]',
      args: [
        { name: 'id', type: 'int', description: 'item id' },
        { name: 'ratio', type: 'float', required: false },
        { name: 'more', type: 'int', required: false, variadic: true },
      ] as const,
      run: (ctx) => ({
        id: ctx.args.id,
        ratio: ctx.args.ratio ?? null,
        more: ctx.args.more,
        types: [typeof ctx.args.id, typeof ctx.args.ratio],
      }),
    }),
  );
  return root;
}

describe('typed positionals', () => {
  it('reach the handler as numbers', async () => {
    const r = await runCli(tree(), ['get', '7', '0.5', '1', '2']);
    expect(r.code, r.stderr).toBe(0);
    expect(envelope(r.stdout).data).toEqual({ id: 7, ratio: 0.5, more: [1, 2], types: ['number', 'number'] });
  });

  it.each([
    [['get', 'abc'], 'invalid value "abc" for <id>: expected an integer'],
    [['get', '1.5'], 'invalid value "1.5" for <id>: expected an integer'],
    [['get', '1', 'x'], 'invalid value "x" for <ratio>: expected a number'],
    [['get', '1', '2', '3', 'z'], 'invalid value "z" for <more>: expected an integer'],
    // a whole number JavaScript cannot hold exactly: the reason says which integers are taken
    [['get', '9007199254740993'], 'invalid value "9007199254740993" for <id>: expected an integer within ±2^53'],
    [['get', '--args-json', '{"id":9007199254740993}'], 'invalid value for id: expected an integer within ±2^53'],
    [
      ['get', '--args-json', '{"id":1,"more":[1,-9007199254740993]}'],
      'invalid value for more: expected an array of integers within ±2^53',
    ],
  ])('%j is refused with a validation_error naming the argument', async (args, message) => {
    const r = await runCli(tree(), args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(errorOf(r.stderr).error).toMatchObject({
      kind: 'validation_error',
      message,
      context: { reason: 'invalid_argument' },
    });
  });

  it('a JSON number beyond a double (1e309, Infinity once parsed) is refused as not finite', async () => {
    const r = await runCli(tree(), ['get', '--args-json', '{"id":1e309}']);
    expect(r.code).toBe(2);
    expect(errorOf(r.stderr).error).toMatchObject({
      kind: 'validation_error',
      context: { reason: 'invalid_property_value', property: 'id' },
    });
    expect(errorOf(r.stderr).error.message).toMatch(/not finite/);
  });

  it('are integer/number in the inputSchema, and --args-json takes numbers (a string is refused)', async () => {
    const schema = flat(inputSchema(tree().findChild('get')!));
    expect(schema.properties).toMatchObject({
      id: { type: 'integer' },
      ratio: { type: 'number' },
      more: { type: 'array', items: { type: 'integer' } },
    });
    const ok = await runCli(tree(), ['get', '--args-json', '{"id":7,"ratio":2,"more":[1]}']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(envelope(ok.stdout).data).toMatchObject({ id: 7, more: [1] });
    const bad = await runCli(tree(), ['get', '--args-json', '{"id":"7"}']);
    expect(bad.code).toBe(2);
    expect(errorOf(bad.stderr).error.context.property).toBe('id');
  });
});
