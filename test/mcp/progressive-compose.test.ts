/**
 * Progressive discovery where it meets other features (docs/mcp-server.md#progressive-discovery),
 * on every MCP path with a client of each era: a lazy subtree that failed to load never lets
 * `call_read_only_tool` run a tool that is not read-only.
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
  it('a lazy subtree that failed to load: call_read_only_tool still refuses a destructive tool named like it', async () => {
    const c = await clientOf(BROKEN_CLI, path, era);
    const before = calls().filter((x) => x === 'db_wipe').length;
    const refused = await c.callTool('call_read_only_tool', { name: 'db_wipe' });
    expect(refused.isError).toBe(true);
    expect(envelopeOf(refused).error.context).toMatchObject({ reason: 'not_read_only', tool: 'db_wipe' });
    expect(calls().filter((x) => x === 'db_wipe')).toHaveLength(before);
    // a name below the broken stub answers with its load error, and runs nothing
    const below = await c.callTool('call_read_only_tool', { name: 'db_migrate' });
    expect(below.isError).toBe(true);
    expect(envelopeOf(below).error.message).toContain('the db module is missing');
    // the read-only one runs; call_tool runs the destructive one
    expect(envelopeOf(await c.callTool('call_read_only_tool', { name: 'db_peek' })).data).toEqual({ row: 1 });
    expect(envelopeOf(await c.callTool('call_tool', { name: 'db_wipe' })).data).toEqual({ wiped: true });
    expect(calls().filter((x) => x === 'db_wipe')).toHaveLength(before + 1);
  }, 60_000);
});
