/**
 * What a `__schema` shape is, renders and summarises is said once, by its record: its entry in
 * SHAPES (lib/schema/shapes.ts) and its render in documents.ts (docs/architecture.md#a-new-__schema-shape-a-projection).
 * No other file of lib/, mcp/, cmd/ or frontends/ chooses what to do by testing a shape's name
 * (`shape === 'mcp'`, `case 'clispec':`); asking the registry for one shape's document by name
 * (`shapeRender('skill')`) is no test. The check reads the sources as text and is proven on
 * planted lines; then every shape of the registry is rendered whole, within a command and, where it
 * has a summary, summarised, through `__schema`.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Command } from '../../lib/index.ts';
import { SCHEMA_SHAPES, SHAPES } from '../../lib/schema/shapes.ts';
import { shapeRender } from '../../lib/schema/documents.ts';
import { codeLinesMatching, sourceLinesMatching } from '../helpers/layers.ts';
import { runCli } from '../helpers/run.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
/** The registry itself: the default shape is its first entry. */
const EXEMPT = (f: string) => f === 'lib/schema/shapes.ts';

const names = SCHEMA_SHAPES.join('|');
/** The forms of a test on a shape's name. */
const NAME_TEST = [
  /\b(shape|as)\s*[!=]==(?!\s*(undefined|null)\b)|[!=]==\s*(\w+\.)*(shape|as)\b/,
  new RegExp(`[!=]==\\s*['"\`](${names})['"\`]|['"\`](${names})['"\`]\\s*[!=]==`),
  new RegExp(`\\bcase\\s+['"\`](${names})['"\`]\\s*:`),
  /\bSCHEMA_SHAPES\[\d+\]\s*[!=]==|[!=]==\s*SCHEMA_SHAPES\[\d+\]/,
];

describe('each __schema shape is one record', () => {
  it('no file outside the registry tests a shape by its name', () => {
    expect(sourceLinesMatching(repo, ['lib', 'mcp', 'cmd', 'frontends'], EXEMPT, NAME_TEST)).toEqual([]);
  });

  it.each([
    ["  if (a === 'ax') diffAx(c, oldDoc, newDoc);"],
    ["    asFlag: shape === SCHEMA_SHAPES[0] ? '' : ` --as=${shape}`,"],
    ["  if (req.shape !== 'clispec' && req.shape !== 'agents') return summary;"],
    ["    case 'skill':"],
    ["const markdown = 'skill' === name;"],
    ['  if (render.shape !== wanted) return;'],
  ])('finds a planted one: %s', (line) => {
    expect(codeLinesMatching(`const a = 1;\n${line}\n`, NAME_TEST)).toEqual([line]);
  });
});

/** A root with `n` commands, each with a line of help: large enough for a small budget to summarise. */
function tree(n = 80): Command {
  const commands = Array.from(
    { length: n },
    (_, i) =>
      new Command({
        use: `c${i} <target>`,
        short: `Command ${i}: inspect a target and report what was found there`,
        run: () => ({ ok: true }),
      }),
  );
  return new Command({ use: 'app', short: 'An app', version: '1.0.0', commands });
}

describe.each(SHAPES.map((s) => [s.name, s] as const))('the shape %s', (name, spec) => {
  const render = shapeRender(name);

  it('renders the whole tree and one command, in its media type', async () => {
    const whole = await runCli(tree(), ['__schema', `--as=${name}`, '--full']);
    const one = await runCli(tree(), ['__schema', `--as=${name}`, 'c1']);
    for (const r of [whole, one]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.endsWith('\n')).toBe(true);
      if (spec.mediaType === 'application/json') expect(() => JSON.parse(r.stdout) as unknown).not.toThrow();
    }
    expect(one.stdout.length).toBeLessThanOrEqual(whole.stdout.length);
    // a JSON shape's drill-in describes the command `--field` reads; a Markdown one has no fields
    const field = await runCli(tree(), ['__schema', `--as=${name}`, 'c1', '--field', 'name']);
    expect(field.code).toBe(render.focus ? 0 : 2);
  });

  it('above a small budget is its summary, naming the shape, or is printed whole when it has none', async () => {
    const full = await runCli(tree(), ['__schema', `--as=${name}`, '--full']);
    const small = await runCli(tree(), ['__schema', `--as=${name}`, '--budget=4000']);
    expect(small.code, small.stderr).toBe(0);
    if (!render.summary) {
      expect(small.stdout).toBe(full.stdout);
      return;
    }
    expect(small.stdout.length).toBeLessThan(full.stdout.length);
    expect(small.stdout.length).toBeLessThanOrEqual(4000);
    const drill = `app __schema${name === SCHEMA_SHAPES[0] ? '' : ` --as=${name}`}`;
    if (spec.mediaType === 'application/json') {
      const doc = JSON.parse(small.stdout) as { summary: { shape: string; full: string } };
      expect(doc.summary).toMatchObject({ shape: name, full: `${drill} --full` });
    } else expect(small.stdout).toContain(`\`${drill} --full\``);
  });
});
