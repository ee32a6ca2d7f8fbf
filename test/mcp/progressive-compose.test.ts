/**
 * Progressive discovery where it meets other features (docs/mcp-server.md#progressive-discovery),
 * on every MCP path with a client of each era: a stop's next steps and fix name calls this server
 * has (a call tool with the inner tool's name and arguments), and run as given; a lazy subtree that
 * failed to load never lets `call_read_only_tool` run a tool that is not read-only.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectEra,
  envelopeOf,
  PATHS_BY_ERAS,
  startHttp,
  type EraClient,
  type EraName,
  type HttpFixture,
  type McpPath,
} from '../helpers/eras.ts';
import { REPO } from '../helpers/spawn.ts';

const PROGRESSIVE = ['--discovery', 'progressive'];
const ERAS_CLI = join(REPO, 'test/fixtures/eras-cli.ts');
const BROKEN_CLI = join(REPO, 'test/fixtures/broken-lazy-cli.ts');
const dir = mkdtempSync(join(tmpdir(), 'ax-progressive-compose-'));
const ENV = { ERAS_DIR: dir, BROKEN_DIR: dir };
const servers = new Map<string, HttpFixture>();
const clients = new Map<string, EraClient>();

const calls = (): string[] => {
  try {
    return readFileSync(join(dir, 'calls'), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

async function clientOf(cli: string, path: McpPath, era: EraName): Promise<EraClient> {
  const key = `${cli}/${path}/${era}`;
  let c = clients.get(key);
  if (!c) {
    c = await connectEra(era, path, {
      cli,
      url: servers.get(`${cli}/${path}`)?.url,
      env: ENV,
      server: ['mcp-server', ...PROGRESSIVE],
    });
    clients.set(key, c);
  }
  return c;
}

beforeAll(async () => {
  const http = new Set(PATHS_BY_ERAS.map(([p]) => p).filter((p) => p !== 'stdio'));
  await Promise.all(
    [ERAS_CLI, BROKEN_CLI].flatMap((cli) =>
      [...http].map(async (p) =>
        servers.set(
          `${cli}/${p}`,
          await startHttp(cli, [...PROGRESSIVE, ...(p === 'http-stateless' ? ['--stateless'] : [])], ENV),
        ),
      ),
    ),
  );
}, 60_000);

afterAll(async () => {
  await Promise.allSettled([...clients.values()].map((c) => c.close()));
  await Promise.allSettled([...servers.values()].map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

describe.each(PATHS_BY_ERAS)('%s, %s era', (path, era) => {
  it('a confirmation stop: next[] is call_tool with the inner name and arguments, and runs as given', async () => {
    const c = await clientOf(ERAS_CLI, path, era);
    const name = `pc-${path}-${era}`;
    const stop = envelopeOf(await c.callTool('call_tool', { name: 'drop', arguments: { name } })).error;
    expect(stop).toMatchObject({ kind: 'confirmation_required' });
    expect(stop.next).toEqual([
      expect.objectContaining({
        tool: 'call_tool',
        arguments: { name: 'drop', arguments: { name, yes: true } },
      }),
    ]);
    const step = stop.next[0] as {
      tool: string;
      arguments: Record<string, unknown>;
    };
    const done = await c.callTool(step.tool, step.arguments);
    expect(done.isError).toBeFalsy();
    expect(envelopeOf(done).data).toEqual({ dropped: name });
  }, 60_000);

  it('an author’s stop: each next step names the call tool that runs it, and the fix says the same', async () => {
    const c = await clientOf(ERAS_CLI, path, era);
    const stop = envelopeOf(await c.callTool('call_read_only_tool', { name: 'gate' })).error;
    expect(stop).toMatchObject({ kind: 'action_required' });
    expect(stop.next).toEqual([
      {
        description: 'read the point',
        tool: 'call_read_only_tool',
        arguments: { name: 'point', arguments: {} },
      },
    ]);
    expect(stop.actionable_fix).toBe(
      'Run the next step that fits: call_read_only_tool {"name":"point","arguments":{}}.',
    );
    const step = stop.next[0] as {
      tool: string;
      arguments: Record<string, unknown>;
    };
    const done = await c.callTool(step.tool, step.arguments);
    expect(envelopeOf(done).data).toEqual({ x: 1 });
    const tools = new Set((await c.listTools()).tools.map((t: { name: string }) => t.name));
    for (const s of stop.next) expect(tools).toContain(s.tool);
  }, 60_000);

  it('a lazy subtree that failed to load: call_read_only_tool still refuses a destructive tool named like it', async () => {
    const c = await clientOf(BROKEN_CLI, path, era);
    const before = calls().filter((x) => x === 'db_wipe').length;
    const refused = await c.callTool('call_read_only_tool', {
      name: 'db_wipe',
    });
    expect(refused.isError).toBe(true);
    expect(envelopeOf(refused).error.context).toMatchObject({
      reason: 'not_read_only',
      tool: 'db_wipe',
    });
    expect(calls().filter((x) => x === 'db_wipe')).toHaveLength(before);
    // a name below the broken stub answers with its load error, and runs nothing
    const below = await c.callTool('call_read_only_tool', {
      name: 'db_migrate',
    });
    expect(below.isError).toBe(true);
    expect(envelopeOf(below).error.message).toContain('the db module is missing');
    // the read-only one runs; call_tool runs the destructive one
    expect(envelopeOf(await c.callTool('call_read_only_tool', { name: 'db_peek' })).data).toEqual({ row: 1 });
    expect(envelopeOf(await c.callTool('call_tool', { name: 'db_wipe' })).data).toEqual({ wiped: true });
    expect(calls().filter((x) => x === 'db_wipe')).toHaveLength(before + 1);
  }, 60_000);
});
