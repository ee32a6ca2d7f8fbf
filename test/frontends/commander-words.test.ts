/**
 * commander parses whatever values a JavaScript caller passes (`parse([123], { from: 'user' })`);
 * installing the front end must not change that: its check of the words reads them as text
 * (docs/frontends.md#which-invocations-go-to-ax-ts). commander's own suite found the front end
 * throwing a TypeError on a number here.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { asksForAx, withAx } from '../../frontends/commander/index.ts';

describe('words that are not strings', () => {
  it('a number among the words is parsed as commander parses it, with and without the front end', async () => {
    const seen: unknown[] = [];
    const build = () => {
      const program = new Command().exitOverride();
      program.argument('<n>').action((n: unknown) => void seen.push(n));
      return program;
    };
    build().parse([123] as unknown as string[], { from: 'user' });
    withAx(build()).parse([123] as unknown as string[], { from: 'user' });
    await withAx(build()).parseAsync([456] as unknown as string[], { from: 'user' });
    expect(seen).toEqual([123, 123, 456]);
  });

  it('asksForAx reads them as text', () => {
    const program = new Command();
    expect(asksForAx(program, [1, '__schema'] as unknown as string[])).toBe(true);
    expect(asksForAx(program, [1, 2] as unknown as string[], {})).toBe(false);
  });
});
