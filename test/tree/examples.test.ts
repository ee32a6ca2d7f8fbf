/**
 * Example values of flags and arguments (ax-go's flag examples; `FlagSpec.examples`, `ArgSpec.examples`):
 * checked against the flag's or argument's type when the command is built, shown in help as
 * `(e.g. …)`, and projected to the inputSchema's `examples` (JSON Schema 2020-12) and clispec's.
 */
import { describe, expect, it } from 'vitest';
import { Command } from '../../lib/index.ts';
import { runCli } from '../helpers/run.ts';

type Json = Record<string, any>;

const tool = () =>
  new Command({
    use: 'tool',
    commands: [
      new Command({
        use: 'wait <zone>',
        short: 'Wait in a zone',
        args: [{ name: 'zone', examples: ['eu-1', 'us-2'] }],
        flags: {
          for: { type: 'duration', usage: 'how long', examples: ['30s', '2m'] },
          n: { type: 'int', usage: 'how many', examples: [3] },
          plain: { type: 'string', usage: 'no examples' },
        },
        run: () => ({ ok: true }),
      }),
    ],
  });

describe('examples', () => {
  it('help shows them after the usage, for flags and arguments', async () => {
    const r = await runCli(tool(), ['wait', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  zone   (e.g. eu-1, us-2)\n');
    expect(r.stdout).toMatch(/^ {6}--for duration +how long \(e\.g\. 30s, 2m\)$/m);
    expect(r.stdout).toMatch(/^ {6}--n int +how many \(e\.g\. 3\)$/m);
    expect(r.stdout).toMatch(/^ {6}--plain string +no examples$/m);
  });

  it('the inputSchema and clispec carry them, typed as the property is', async () => {
    const mcp = JSON.parse((await runCli(tool(), ['__schema', '--as=mcp', '--full'])).stdout) as Json;
    const props = (mcp.tools as Json[]).find((t) => t.name === 'wait')!.inputSchema.properties as Json;
    expect(props.zone.examples).toEqual(['eu-1', 'us-2']);
    expect(props.for.examples).toEqual(['30s', '2m']);
    expect(props.n.examples).toEqual([3]);
    expect(props.plain).not.toHaveProperty('examples');
    const spec = JSON.parse((await runCli(tool(), ['schema', 'wait'])).stdout) as Json;
    expect(JSON.stringify(spec)).toContain('"examples":["30s","2m"]');
  });

  it.each([
    [{ type: 'int', examples: ['x'] }, 'example "x" of --f is not a value of the flag (expected an integer)'],
    [{ type: 'duration', examples: ['soon'] }, 'example "soon" of --f is not a value of the flag'],
    [{ type: 'string', examples: [] }, 'examples of --f must be a non-empty list of values'],
  ])('a wrong example is an author error when the command is built: %j', (spec, message) => {
    expect(() => new Command({ use: 'x', flags: { f: spec as never }, run: () => 1 })).toThrow(
      expect.objectContaining({ name: 'TypeError', message: expect.stringContaining(message) }),
    );
  });
});
