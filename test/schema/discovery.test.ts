/**
 * Progressive discovery (docs/schema.md#budgets-and-summaries): `__schema [command…]` and
 * `schema [command…] --field a.b` answer one subtree or one field; above the budget (the default,
 * the root's `schemaBudget`, `--budget`) the whole-tree answer of ax, mcp, llms and skill is a
 * summary — each command's path, one line and how to drill in — and the full document is one flag
 * away (`--full`); a lazy tree's summary loads nothing. The sizes of the answers for a generated
 * tree of 100 and 1,000 commands are held to the targets (whole answer ≤ 32 KB at any size, one
 * command ≤ 4 KB); the bench (test/bench/run.mjs) measures bytes, tokens and time on bundled trees.
 */
import { describe, expect, it } from 'vitest';
import { Command } from '../../lib/index.ts';
import { DEFAULT_SCHEMA_BUDGET } from '../../lib/schema/shapes.ts';
import { describeTool, searchTools } from '../../lib/schema/search.ts';
import { expandAxDocument } from '../../lib/schema/ax-expand.ts';
import { lazyTree } from '../fixtures/lazy-tree.ts';
import { runCli } from '../helpers/run.ts';

type Json = Record<string, any>;

/** A tree of `n` leaf commands under n/50 groups, each leaf with a positional and four flags (as gen-tree.mjs). */
function bigTree(n: number, budget?: number): Command {
  const groups: Command[] = [];
  for (let g = 0; g * 50 < n; g++) {
    const leaves: Command[] = [];
    for (let i = g * 50; i < Math.min(n, (g + 1) * 50); i++)
      leaves.push(
        new Command({
          use: `c${String(i).padStart(5, '0')} [target]`,
          short: `Synthetic command ${i}: inspect a target and report on it`,
          effects: 'idempotent',
          flags: {
            limit: { type: 'int', default: 10, usage: 'at most this many results' },
            verbose: { type: 'bool', usage: 'report every step' },
            tag: { type: 'stringSlice', usage: 'only items with these tags (comma-separated)' },
            mode: { type: 'string', choices: ['fast', 'safe', 'full'], default: 'safe', usage: 'strategy' },
          },
          output: { schema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } },
          run: () => ({ id: 1 }),
        }),
      );
    groups.push(new Command({ use: `g${String(g).padStart(3, '0')}`, short: `Group ${g}`, commands: leaves }));
  }
  return new Command({
    use: 'bench',
    short: `Synthetic CLI with ${n} commands`,
    version: '1.0.0',
    schemaBudget: budget,
    commands: groups,
  });
}

async function answer(root: Command, args: string[]): Promise<{ text: string; doc: Json; stderr: string }> {
  const r = await runCli(root, ['__schema', ...args]);
  expect(r.code, r.stderr).toBe(0);
  return { text: r.stdout, doc: args.includes('--as=skill') ? {} : (JSON.parse(r.stdout) as Json), stderr: r.stderr };
}

describe('budgets and summaries', () => {
  it.each([100, 1000])(
    'a %i-command tree: the whole answer of every budgeted shape is a summary within 32 KB; --full is the document',
    async (n) => {
      for (const as of ['ax', 'mcp', 'llms', 'skill']) {
        const { text, doc } = await answer(bigTree(n), [`--as=${as}`]);
        expect(text.length, as).toBeLessThanOrEqual(DEFAULT_SCHEMA_BUDGET);
        if (as === 'skill') {
          if (n === 100) continue; // its SKILL.md (a line per command) fits the budget: whole
          expect(text).toContain('This list is a summary');
          expect(text).toContain('`bench __schema --as=skill g000`');
          continue;
        }
        expect(doc.summary, as).toMatchObject({
          shape: as,
          reason: 'budget',
          budget: 32000,
          full: `bench __schema${as === 'ax' ? '' : ` --as=${as}`} --full`,
        });
        expect(doc.summary.full_size, as).toBeGreaterThan(DEFAULT_SCHEMA_BUDGET);
        const entries = doc.commands as Json[];
        expect(entries.length, as).toBeGreaterThan(0);
        for (const e of entries)
          expect(e.drill, as).toMatch(new RegExp(`^bench __schema${as === 'ax' ? '' : ` --as=${as}`} \\w`));
      }
      const full = await answer(bigTree(n), ['--full']);
      expect(full.text.length).toBeGreaterThan(DEFAULT_SCHEMA_BUDGET);
      expect(full.doc.command.commands).toHaveLength(Math.ceil(n / 50));
    },
  );

  it('a summary lists as deep as the budget holds: every command of a 100-command tree at 64 KB, only the groups (with counts) at 4 KB', async () => {
    const deep = (await answer(bigTree(100), ['--budget', '64000'])).doc;
    // 100 commands at 64 KB: the whole document (about 250 KB) does not fit, its summary does, two levels deep
    expect(deep.summary.reason).toBe('budget');
    expect((deep.commands as Json[]).filter((e) => e.runnable)).toHaveLength(100);
    const shallow = (await answer(bigTree(100), ['--budget', '4000'])).doc;
    expect(shallow.commands).toEqual([
      { path: 'bench g000', short: 'Group 0', runnable: false, drill: 'bench __schema g000', commands: 50 },
      { path: 'bench g001', short: 'Group 1', runnable: false, drill: 'bench __schema g001', commands: 50 },
    ]);
    // not even one level: the first commands, and how many were left out
    const tiny = (await answer(bigTree(1000), ['--budget', '1200'])).doc;
    expect(tiny.omitted).toBeGreaterThan(0);
    expect((tiny.commands as Json[]).length + tiny.omitted).toBe(20);
  });

  it("the root's schemaBudget sets the program's budget; --budget overrides it; 0 is no budget", async () => {
    expect((await answer(bigTree(100, 0), [])).doc.command).toBeDefined(); // the whole document
    expect((await answer(bigTree(100, 1_000_000), [])).doc.summary).toBeUndefined();
    expect((await answer(bigTree(100, 1_000_000), ['--budget', '5000'])).doc.summary.budget).toBe(5000);
    expect((await answer(bigTree(100), ['--budget', '0'])).doc.command).toBeDefined();
    expect(() => new Command({ use: 'x', schemaBudget: -1 })).toThrow(/schemaBudget/);
  });

  it('a lazy tree: the bare answer loads it and is the whole document; a summary only past the budget, saying so', async () => {
    const { doc, text } = await answer(lazyTree(), []);
    expect(doc.summary).toBeUndefined();
    expect(doc.command.commands.find((c: Json) => c.name === 'ops').commands.length).toBeGreaterThan(0);
    const small = (await answer(lazyTree(), ['--budget', '900'])).doc;
    expect(small.summary).toMatchObject({ reason: 'budget', budget: 900, full_size: text.length });
    expect((small.commands as Json[]).map((e) => e.path)).toContain('lazyapp ops');
  });

  it('--budget below the smallest summary is refused, naming the minimum', async () => {
    const r = await runCli(bigTree(100), ['__schema', '--budget', '50']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const { error } = JSON.parse(r.stderr.trim().split('\n').pop()!);
    expect(error.context).toMatchObject({ reason: 'budget_too_small', budget: 50 });
    const min = error.context.minimum as number;
    expect(error.actionable_fix).toContain(`--budget ${min}`);
    // the minimum is enough: a summary of at most that many characters
    const ok = await runCli(bigTree(100), ['__schema', '--budget', String(min)]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).summary.budget).toBe(min);
    expect(ok.stdout.length).toBeLessThanOrEqual(min + 1);
    // a budget that the whole answer fits is never refused, however small
    const tiny = new Command({ use: 't', run: () => 1 });
    expect((await runCli(tiny, ['__schema', '--as=mcp', '--budget', '1000'])).code).toBe(0);
  });

  it('clispec and agents are always whole', async () => {
    const clispec = await runCli(bigTree(100), ['schema']);
    expect(JSON.parse(clispec.stdout).commands).toHaveLength(100);
    const agents = await runCli(bigTree(100), ['__schema', '--as=agents']);
    expect(agents.stdout).toMatch(/^# Using bench from an agent/);
  });
});

describe('one command, one field', () => {
  it('__schema <command…>: its entry as the whole document has it, within 4 KB for one command', async () => {
    const one = await answer(bigTree(1000), ['g003', 'c00150']);
    expect(one.text.length).toBeLessThanOrEqual(4096);
    expect(one.doc).toMatchObject({ tool: 'bench', path: 'bench g003 c00150', command: { name: 'c00150' } });
    // read in full, the same entry: the drill-in writes in full what the whole document declares higher up
    const full = expandAxDocument((await answer(bigTree(200), ['--full'])).doc) as Json;
    const entry = full.command.commands[3].commands[0];
    const lean = (await answer(bigTree(200), ['g003', 'c00150'])).doc;
    expect(expandAxDocument(lean).command).toEqual(entry);
    expect(lean.command.flags.filter((f: Json) => f.inherited).length).toBeGreaterThan(0);
    // the other shapes: that command's tool, its clispec entry
    const mcp = (await answer(bigTree(1000), ['--as=mcp', 'g003', 'c00150'])).doc;
    expect(mcp.tools.map((t: Json) => t.name)).toEqual(['g003_c00150']);
    const llms = (await answer(bigTree(1000), ['--as=llms', 'g003', 'c00150'])).doc;
    expect(llms.tools.map((t: Json) => t.name)).toEqual(['help', 'g003_c00150']);
    const clispec = JSON.parse((await runCli(bigTree(1000), ['schema', 'g003', 'c00150'])).stdout);
    expect(clispec.commands.map((c: Json) => c.name)).toEqual(['g003 c00150']);
  });

  it('the field templates run as printed: each summary shape’s, and the --field help example of schema and __schema', async () => {
    const root = bigTree(100);
    // a printed command line, its <…> filled in: the words after the program's name
    const filled = (line: string, field: string) =>
      line
        .split(' ')
        .slice(1)
        .flatMap((w) =>
          w === '<command…>' ? ['g001', 'c00051'] : [w.replace(/^<a\.b>$/, field).replace('<flag>', 'limit')],
        );
    const fields: Record<string, [string, unknown]> = {
      ax: ['flags.limit.name', 'limit'],
      mcp: ['inputSchema.properties.mode.default', 'safe'],
      llms: ['tools.1.name', 'g001_c00051'],
    };
    for (const [as, [field, want]] of Object.entries(fields)) {
      const template = (await answer(root, [`--as=${as}`, '--budget', '2000'])).doc.summary.field as string;
      const r = await runCli(root, filled(template, field));
      expect(r.code, `${as}: ${template}: ${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(want);
    }
    for (const command of ['schema', '__schema']) {
      const help = (await runCli(root, [command, '--help'])).stdout;
      const example = new RegExp(`as in (bench ${command} <command…> --field options\\.<flag>)`).exec(help)?.[1];
      expect(example, help).toBeDefined();
      const r = await runCli(root, filled(example!, ''));
      expect(r.code, `${example}: ${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout).name).toMatch(/^(--)?limit$/);
    }
  });

  it('--field: one value by a dotted path; a list entry by its name; options reads flags or args', async () => {
    const flag = (await answer(bigTree(100), ['g001', 'c00051', '--field', 'flags.limit'])).doc;
    expect(flag).toMatchObject({ name: 'limit', type: 'int', default: 10 });
    expect((await answer(bigTree(100), ['g001', 'c00051', '--field', 'command.flags.mode.choices'])).doc).toEqual([
      'fast',
      'safe',
      'full',
    ]);
    const clispec = JSON.parse(
      (await runCli(bigTree(100), ['schema', 'g001', 'c00051', '--field', 'options.limit'])).stdout,
    );
    expect(clispec).toMatchObject({ name: '--limit', type: 'integer', default: 10 });
    const input = (await answer(bigTree(100), ['--as=mcp', 'g001', 'c00051', '--field', 'inputSchema.properties.mode']))
      .doc;
    expect(input.anyOf[0]).toEqual({ type: 'string', enum: ['fast', 'safe', 'full'] });
    expect((await answer(bigTree(100), ['--field', 'error_envelope.required'])).doc).toContain('error.kind');
  });

  it.each([
    [['g001', 'nope'], 'unknown_command'],
    [['__schema'], 'unknown_command'], // a built-in is in no document
    [['g001', 'c00051', '--field', 'flags.lmit'], 'unknown_field'],
    [['--as=skill', '--field', 'x'], 'field_of_text'],
  ])('%j: a validation_error (exit 2), reason %s', async (args, reason) => {
    const r = await runCli(bigTree(100), ['__schema', ...args]);
    expect(r.code).toBe(2);
    const { error } = JSON.parse(r.stderr.trim().split('\n').pop()!);
    expect(error.context.reason).toBe(reason);
    if (reason === 'unknown_field') expect(error.suggestions).toContain('limit');
    if (reason === 'unknown_command' && args[1] === 'nope') expect(error.suggestions).toBeUndefined();
  });
});

describe('search and describe (what a progressive MCP mode serves)', () => {
  it('searchTools: every word must match; name beats one line beats help; best first, at most limit', () => {
    const root = bigTree(200);
    const hits = searchTools(root, 'c00150');
    expect(hits).toEqual([
      {
        tool: 'g003_c00150',
        command: 'bench g003 c00150',
        short: 'Synthetic command 150: inspect a target and report on it',
        score: 3,
      },
    ]);
    expect(searchTools(root, 'inspect target', 5)).toHaveLength(5);
    expect(searchTools(root, 'inspect nothing-like-this')).toEqual([]);
    expect(searchTools(root, '', 3).map((h) => h.tool)).toEqual(['g000_c00000', 'g000_c00001', 'g000_c00002']);
  });

  it('describeTool: the tools/list entry of one tool, or undefined', async () => {
    const root = bigTree(100);
    const listed = (await answer(bigTree(100), ['--as=mcp', '--full'])).doc.tools.find(
      (t: Json) => t.name === 'g001_c00060',
    );
    expect(describeTool(root, 'g001_c00060')).toEqual({ ...listed, command: 'bench g001 c00060' });
    expect(describeTool(root, 'nope')).toBeUndefined();
  });
});
