/**
 * A lazy subtree answers `__schema` exactly as the same subtree declared eagerly
 * (docs/schema.md#budgets-and-summaries): in every shape, for the bare `__schema` (the whole
 * document, or a summary past the budget), a drill-in and a field, and under the marks set on a
 * stub (`mcp.exclude(…, {subtree: true})`, `mcp.toolName`), over MCP too; a loader that throws fails
 * `__schema` whole, with the loader's error.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Command, mcp } from '../../lib/index.ts';
import { mountMcpServer } from '../../mcp/index.ts';
import { SCHEMA_SHAPES } from '../../lib/schema/index.ts';
import { buildLazyMarksCli } from '../fixtures/lazy-marks-cli.ts';
import { eagerTree, lazyTree, loads } from '../fixtures/lazy-tree.ts';
import { connectStdio } from '../helpers/mcp.ts';
import { runCli } from '../helpers/run.ts';

const MARKS_CLI = fileURLToPath(new URL('../fixtures/lazy-marks-cli.ts', import.meta.url));

/** The eager twin of the lazy-marks fixture: the same declarations and marks, nothing lazy. */
function eagerMarks(): Command {
  const root = new Command({ use: 'marks', short: 'Lazy stubs with marks', version: '1.0.0' });
  const adm = new Command({
    use: 'adm',
    short: 'Administration',
    commands: [new Command({ use: 'purge', short: 'Purge everything', run: () => ({ purged: true }) })],
  });
  const reports = new Command({
    use: 'reports',
    short: 'Show the reports',
    effects: 'read_only',
    run: () => ({ reports: 3 }),
  });
  root.addCommand(
    mcp.exclude(adm, { subtree: true }),
    mcp.toolName(reports, 'show_reports'),
    new Command({ use: 'ok', short: 'Say ok', effects: 'read_only', run: () => ({ ok: true }) }),
  );
  mountMcpServer(root);
  return root;
}

/** Every answer compared: each shape bare, with a small budget, a drill-in and `--full`. */
const ASKS: string[][] = SCHEMA_SHAPES.flatMap((s) => [
  ['__schema', `--as=${s}`],
  ['__schema', `--as=${s}`, '--budget', '900'],
  ['__schema', `--as=${s}`, '--full'],
]);

async function answers(build: () => Command | Promise<Command>, asks: string[][]): Promise<string[]> {
  const out: string[] = [];
  for (const args of asks) {
    const r = await runCli(await build(), args);
    // an error line's trace id is new on every run
    out.push(
      `${args.join(' ')} → ${r.code}\n${r.stdout}${r.stderr.replace(/"trace_id":"\w+"/g, '"trace_id":"…"').replace(/"duration_ms":\d+/g, '"duration_ms":0')}`,
    );
  }
  return out;
}

describe('__schema of a tree with lazy subtrees', () => {
  it('the bare __schema loads them: every shape, the summary and a drill-in equal the eager twin', async () => {
    const asks = [...ASKS, ['__schema', 'ops'], ['__schema', '--as=mcp', 'db'], ['__schema', '--field', 'command']];
    const before = { ...loads };
    const lazy = await answers(lazyTree, asks);
    expect(lazy).toEqual(await answers(eagerTree, asks));
    expect(loads.ops).toBeGreaterThan(before.ops ?? 0); // it did load them
    // the bare answer is the whole document: no summary within the budget
    const bare = JSON.parse((await runCli(lazyTree(), ['__schema'])).stdout) as { summary?: unknown };
    expect(bare.summary).toBeUndefined();
  });

  it('under marks set on the stubs (mcp.exclude with subtree, mcp.toolName): every shape equals the eager twin', async () => {
    const lazy = await answers(() => buildLazyMarksCli({}), ASKS);
    expect(lazy).toEqual(await answers(eagerMarks, ASKS));
    const ax = JSON.parse((await runCli(buildLazyMarksCli({}), ['__schema'])).stdout) as {
      command: { commands: { name: string; mcp?: unknown; commands?: { mcp?: unknown }[] }[] };
    };
    const adm = ax.command.commands.find((c) => c.name === 'adm')!;
    expect(adm.mcp).toEqual({ tool: null, reason: 'excluded' });
    expect(adm.commands?.[0]?.mcp).toEqual({ tool: null, reason: 'excluded' });
  });

  it("tools/list of the lazy tree (stdio, SDK client) is what the eager twin's __schema --as=mcp lists", async () => {
    const c = await connectStdio(['mcp-server'], {}, MARKS_CLI);
    try {
      const lazy = (await c.client.listTools()).tools;
      expect(lazy.map((t) => t.name).sort()).toEqual(['ok', 'show_reports']);
      const eager = JSON.parse((await runCli(eagerMarks(), ['__schema', '--as=mcp'])).stdout) as { tools: unknown[] };
      expect(lazy).toEqual(eager.tools);
    } finally {
      await c.close();
    }
  }, 60_000);

  it.each(SCHEMA_SHAPES)('a loader that throws fails __schema --as=%s whole, with its error', async (shape) => {
    const r = await runCli(buildLazyMarksCli({ BROKEN: '1' }), ['__schema', `--as=${shape}`]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr.trim().split('\n').pop()!).error).toMatchObject({
      kind: 'internal_error',
      message: 'cannot load the command "marks broken": the module is missing',
    });
  });
});
