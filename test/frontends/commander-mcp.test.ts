/**
 * A commander program served by ax-ts/commander on every MCP path ax-ts serves (stdio, HTTP,
 * stateless HTTP) to both eras' SDK clients: the action's return value is the structured result, a
 * printing action's output is the text item after the envelope, a throwing parser an isError validation_error
 * (docs/frontends.md#how-a-call-runs). commander 15 on every path with both eras; commander 14 on
 * every path with the modern era (the front end claims both).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectEra,
  PATHS,
  PATHS_BY_ERAS,
  startHttp,
  type EraClient,
  type EraName,
  type HttpFixture,
  type McpPath,
} from '../helpers/eras.ts';
import { COMMANDERS } from '../helpers/commanders.ts';
import { REPO } from '../helpers/mcp.ts';

const CLI = join(REPO, 'test/frontends/fixtures/notes-commander.ts');
/** [commander version, path, era, environment of the program]. */
type Case = [string, McpPath, EraName, Record<string, string>];
const [[NEWEST, NEWEST_ENV], ...OLDER] = COMMANDERS as [(typeof COMMANDERS)[number], ...typeof COMMANDERS];
const CASES: Case[] = [
  ...PATHS_BY_ERAS.map(([path, era]): Case => [NEWEST, path, era, NEWEST_ENV]),
  ...OLDER.flatMap(([version, env]) => PATHS.map((path): Case => [version, path, 'modern', env])),
];

describe.each(CASES)('commander %s over %s, a %s client', (_version, path, era, base) => {
  const ENV = { NOTES_AX: '1', ...base };
  let server: HttpFixture | undefined;
  let c: EraClient;
  beforeAll(async () => {
    if (path !== 'stdio') server = await startHttp(CLI, path === 'http-stateless' ? ['--stateless'] : [], ENV);
    c = await connectEra(era, path, { cli: CLI, url: server?.url, env: ENV });
  }, 60_000);
  afterAll(async () => {
    await c?.close();
    await server?.stop();
  });

  it('tools/list: the program’s commands; the withheld one left out; declared effects as annotations', async () => {
    const tools = (await c.listTools()).tools as { name: string; annotations?: Record<string, unknown> }[];
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['add', 'list']));
    expect(names).not.toContain('wipe');
    expect(tools.find((t) => t.name === 'list')!.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('the action’s return value is the structured result', async () => {
    const r = await c.callTool('add', { text: ['tea', 'leaves'], priority: 'low', no_pin: true });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ text: 'tea leaves', priority: 'low', pinned: false, tag: 'misc' });
  });

  it('a printing action: the envelope first (data null), its output the next text item', async () => {
    const r = await c.callTool('list', { limit: '1' });
    expect(r.isError).toBeFalsy();
    const items = r.content as { text?: string }[];
    expect(JSON.parse(items[0]!.text!)).toMatchObject({ data: null });
    expect(items[1]!.text).toBe('first 1 notes:\n- buy milk\n');
  });

  it('a parser that throws: isError, validation_error', async () => {
    const r = await c.callTool('list', { limit: 'none' });
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toContain('validation_error');
  });
});
