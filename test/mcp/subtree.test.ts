/**
 * `mcp-server` mounted under a subcommand serves that subtree (docs/mcp-server.md#mounting): tool
 * names relative to the mounted command, only its prompts and resources, serverInfo naming it, a
 * stop's next steps naming its tools (and a command line for a step outside it), `--print-config`
 * starting `<program> grp mcp-server` — on every MCP path with a client of each era (real SDK
 * clients, real server processes). `mcp-server`, `__schema` and `completion` are reserved at every
 * depth, as in ax-go: never a tool.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectEra,
  envelopeOf,
  PATHS,
  PATHS_BY_ERAS,
  startHttp,
  type EraClient,
  type EraName,
  type HttpFixture,
  type McpPath,
} from '../helpers/eras.ts';
import { REPO, TSX_LOADER } from '../helpers/spawn.ts';

const CLI = join(REPO, 'test/fixtures/mcp-subtree-cli.ts');
const GRP = ['grp', 'mcp-server'];
const servers: Partial<Record<string, HttpFixture>> = {};
const clients = new Map<string, EraClient>();

/** The client of `era` on `path` to the server mounted under grp (`grp`) or on the root (`root`). */
async function clientOf(path: McpPath, era: EraName, at: 'grp' | 'root' = 'grp'): Promise<EraClient> {
  const key = `${at}/${path}/${era}`;
  let c = clients.get(key);
  if (!c) {
    c = await connectEra(era, path, {
      cli: CLI,
      url: servers[`${at}/${path}`]?.url,
      ...(at === 'grp' ? { server: GRP } : {}),
    });
    clients.set(key, c);
  }
  return c;
}

const names = (r: Record<string, any>) => (r.tools as { name: string }[]).map((t) => t.name);

beforeAll(async () => {
  const started = await Promise.all([
    startHttp(CLI, [], {}, GRP),
    startHttp(CLI, ['--stateless'], {}, GRP),
    startHttp(CLI, ['--stateless'], {}),
  ]);
  servers['grp/http'] = started[0];
  servers['grp/http-stateless'] = started[1];
  servers['root/http-stateless'] = started[2];
}, 60_000);

afterAll(async () => {
  await Promise.allSettled([...clients.values()].map((c) => c.close()));
  await Promise.allSettled(Object.values(servers).map((s) => s!.stop()));
});

describe.each(PATHS_BY_ERAS)('mounted under grp: %s, %s era', (path, era) => {
  it('serves grp’s subtree under names relative to grp, and names itself after grp', async () => {
    const c = await clientOf(path, era);
    expect(names(await c.listTools())).toEqual(['add', 'gated', 'inner_ping', 'list']);
    expect(c.client.getServerVersion()).toMatchObject({ name: 'subfx-grp', version: '2.0.0' });
  }, 60_000);

  it('runs a tool of the subtree as the command line would', async () => {
    const r = await (await clientOf(path, era)).callTool('add', { title: 'milk' });
    expect(r.isError).toBeFalsy();
    expect(JSON.parse((r.content as { text: string }[])[0]!.text).data).toEqual({ added: 'milk' });
  }, 60_000);

  it('a tool outside the subtree, or the reserved completion, is unknown', async () => {
    const c = await clientOf(path, era);
    for (const name of ['top', 'grp_add', 'completion', 'mcp-server'])
      await expect(c.callTool(name, {})).rejects.toMatchObject({ code: -32602 });
  }, 60_000);

  it('a stop names the next tool relative to grp; a step outside grp stays a command line', async () => {
    const r = await (await clientOf(path, era)).callTool('gated', {});
    expect(r.isError).toBe(true);
    const next = envelopeOf(r).error.next as Record<string, unknown>[];
    expect(next[0]).toMatchObject({ tool: 'add', arguments: { title: '<title>' } });
    expect(next[1]).toMatchObject({ command: 'subfx top' });
    expect(next[1]).not.toHaveProperty('tool');
  }, 60_000);

  it('lists only the prompts and resources declared in the subtree', async () => {
    const { client } = await clientOf(path, era);
    const prompts = (await (client as { listPrompts(): Promise<{ prompts: { name: string }[] }> }).listPrompts())
      .prompts;
    expect(prompts.map((p) => p.name)).toEqual(['grp-note']);
    const resources = (await (client as { listResources(): Promise<{ resources: { uri: string }[] }> }).listResources())
      .resources;
    expect(resources.map((x) => x.uri)).toEqual([
      'subfx://grp/info',
      'skill://subfx/SKILL.md',
      'skill://subfx/AGENTS.md',
    ]);
  }, 60_000);
});

describe.each(PATHS.filter((p) => p !== 'http'))('mounted on the root as well: %s', (path) => {
  it('the root’s server lists grp’s tools but neither grp mcp-server nor grp completion', async () => {
    const c = await clientOf(path, 'modern', 'root');
    expect(names(await c.listTools())).toEqual(['grp_add', 'grp_gated', 'grp_inner_ping', 'grp_list', 'top']);
    expect(c.client.getServerVersion()).toMatchObject({ name: 'subfx' });
  }, 60_000);
});

describe('--print-config of a server mounted under grp', () => {
  it('prints the block that starts `<program> grp mcp-server`, named after grp', () => {
    const r = spawnSync(process.execPath, ['--import', TSX_LOADER, CLI, 'grp', 'mcp-server', '--print-config'], {
      cwd: REPO,
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    const servers = (JSON.parse(r.stdout) as { mcpServers: Record<string, { args: string[] }> }).mcpServers;
    expect(Object.keys(servers)).toEqual(['subfx-grp']);
    expect(servers['subfx-grp']!.args.slice(-3)).toEqual([CLI, 'grp', 'mcp-server']);
  });

  it('__schema --as=mcp describes the whole tree under root-relative names, with no mcp-server at any depth', () => {
    const r = spawnSync(process.execPath, ['--import', TSX_LOADER, CLI, '__schema', '--as=mcp'], {
      cwd: REPO,
      encoding: 'utf8',
    });
    // __schema describes the whole tree (root-relative names), with no mcp-server at any depth
    const tools = (JSON.parse(r.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(tools).toEqual(['grp_add', 'grp_gated', 'grp_inner_ping', 'grp_list', 'top']);
  });
});
