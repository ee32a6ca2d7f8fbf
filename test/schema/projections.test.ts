/**
 * Every projection for agents agrees on what an agent may call (docs/mcp-server.md#which-commands-become-tools): the live
 * `tools/list` (real server, SDK client), `__schema --as=mcp`, `--as=llms`, the `mcp` field of
 * `--as=ax`, the clispec document, `--as=skill` and the committed SKILL.md of the demo list exactly
 * the same set of commands — for the reference fixture, the surfaces fixture, the agents fixture and
 * the demo.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Command } from '../../lib/index.ts';
import { buildRefCli } from '../../golden/fixtures/ref-cli.ts';
import { buildTasksCli } from '../../cmd/tasks/cli.ts';
import { buildSurfacesCli } from '../fixtures/surfaces-cli.ts';
import { buildAgentsCli } from '../fixtures/agents-cli.ts';
import { connectStdio, REPO, tempDir, type StdioConnection } from '../helpers/mcp.ts';
import { runCli } from '../helpers/run.ts';
import { expandAxDocument } from '../../lib/schema/index.ts';

type Json = Record<string, any>;
const T = 60_000;

async function shape(build: () => Command, as: string): Promise<string> {
  const r = await runCli(build(), ['__schema', `--as=${as}`, '--full']); // the whole document, whatever its size
  expect(r.code, `${as}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

/**
 * tool name → command path, and the set of paths the ax document marks as tools: the lean document
 * names a tool only where its name does not follow from the path, so it is read in full.
 */
function axTools(lean: Json): Map<string, string> {
  const ax = expandAxDocument(lean) as Json;
  const out = new Map<string, string>();
  const walk = (c: Json) => {
    if (c.mcp?.tool) out.set(c.mcp.tool, c.path);
    for (const k of c.commands ?? []) walk(k);
  };
  walk(ax.command);
  return out;
}

/** Command paths listed under "## Commands" of a SKILL.md. */
function skillPaths(md: string, program: string): string[] {
  const section = md.split('\n## Commands\n')[1]!.split('\n## ')[0]!;
  return section
    .split('\n')
    .filter((l) => l.startsWith('- `'))
    .map((l) => {
      const words = l.slice(3, l.indexOf('`', 3)).split(' ');
      const cut = words.findIndex((w) => w.startsWith('<') || w.startsWith('['));
      return (cut < 0 ? words : words.slice(0, cut)).join(' ');
    })
    .map((p) => (p === '' ? program : p));
}

/** The callable set as every projection sees it (command paths, sorted). */
async function projections(build: () => Command): Promise<Record<string, string[]>> {
  const program = build().name;
  const ax = JSON.parse(await shape(build, 'ax'));
  const names = axTools(ax);
  const pathOf = (tool: string) => names.get(tool) ?? `<no command for tool ${tool}>`;
  const mcp = JSON.parse(await shape(build, 'mcp'));
  const llms = JSON.parse(await shape(build, 'llms'));
  const clispec = JSON.parse(await shape(build, 'clispec'));
  const skill = await shape(build, 'skill');
  const sorted = (xs: string[]) => [...xs].sort();
  return {
    ax: sorted([...names.values()]),
    mcp: sorted(mcp.tools.map((t: Json) => pathOf(t.name))),
    llms: sorted(llms.tools.filter((t: Json) => t.name !== 'help').map((t: Json) => pathOf(t.name))),
    clispec: sorted(clispec.commands.map((c: Json) => (c.name === program ? program : `${program} ${c.name}`))),
    skill: sorted(skillPaths(skill, program)),
  };
}

function expectAgree(p: Record<string, string[]>, label: string): void {
  for (const [k, v] of Object.entries(p)) expect(v, `${label}: ${k} vs ax`).toEqual(p.ax);
}

describe('the callable set is the same in every projection', () => {
  it('reference fixture: the excluded admin is in none, its child admin purge in all; hidden debug and reserved completion in none', async () => {
    const p = await projections(buildRefCli);
    expectAgree(p, 'ref');
    expect(p.ax).toContain('ref admin purge');
    for (const gone of ['ref admin', 'ref debug', 'ref debug dump', 'ref completion', 'ref item', 'ref config'])
      expect(p.ax).not.toContain(gone);
  });

  it('surfaces fixture', async () => {
    const p = await projections(() => buildSurfacesCli());
    expectAgree(p, 'surfaces');
    expect(p.ax).not.toContain('surfaces audit');
  });

  describe('agents fixture and the demo, against the live tools/list', () => {
    const conns: StdioConnection[] = [];
    const tmp = tempDir('ax-proj-');
    afterAll(async () => {
      for (const c of conns) await c.close();
      tmp.cleanup();
    });

    it(
      'agents fixture: subtree-excluded, self-excluded, ax-go-excluded and hidden commands are in none',
      async () => {
        const p = await projections(() => buildAgentsCli());
        const s = await connectStdio(['mcp-server'], {}, join(REPO, 'test/fixtures/agents-cli.ts'));
        conns.push(s);
        const ax = JSON.parse(await shape(() => buildAgentsCli(), 'ax'));
        const names = axTools(ax);
        p.live = (await s.client.listTools()).tools.map((t) => names.get(t.name)!).sort();
        expectAgree(p, 'agents');
        expect(p.ax).toEqual(['agents auth login', 'agents ported-other', 'agents read']);
      },
      T,
    );

    it(
      'demo: live tools/list, every __schema shape and the committed SKILL.md agree',
      async () => {
        const p = await projections(buildTasksCli);
        const s = await connectStdio(
          ['mcp-server'],
          { TASKS_FILE: join(tmp.path, 'tasks.json') },
          join(REPO, 'cmd/tasks/main.ts'),
        );
        conns.push(s);
        const names = axTools(JSON.parse(await shape(buildTasksCli, 'ax')));
        p.live = (await s.client.listTools()).tools.map((t) => names.get(t.name)!).sort();
        p.committedSkill = skillPaths(readFileSync(join(REPO, 'cmd/tasks/SKILL.md'), 'utf8'), 'tasks').sort();
        expectAgree(p, 'demo');
        expect(p.ax).toEqual(['tasks add', 'tasks done', 'tasks export', 'tasks list', 'tasks rm', 'tasks show']);
      },
      T,
    );
  });
});
