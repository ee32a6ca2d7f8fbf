/**
 * Progressive discovery (`mcp-server --discovery progressive`, docs/mcp-server.md#progressive-discovery)
 * on every MCP path with a client of each era: `tools/list` is the four fixed tools with honest
 * annotations; `search_tools` and `describe_tool` give what the per-command list would;
 * `call_read_only_tool` runs only read-only tools and `call_tool` any, each with the result a direct
 * call gives (structuredContent shaped for the era, stops, input_required for a 2026-07-28 client).
 * The contract rules themselves run through this mode in test/e2e/contract-paths.test.ts and
 * test/e2e/stops-paths.test.ts (the `mcp-progressive` path).
 */
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

const CLI = join(REPO, 'test/fixtures/eras-cli.ts');
const PROGRESSIVE = ['--discovery', 'progressive'];
const dir = mkdtempSync(join(tmpdir(), 'ax-progressive-'));
const ENV = { ERAS_DIR: dir };
const servers: Partial<Record<McpPath, HttpFixture>> = {};
const clients = new Map<string, EraClient>();
let schemaTools: Record<string, any>[] = [];

const calls = (): string[] => {
  try {
    return readFileSync(join(dir, 'calls'), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

async function clientOf(path: McpPath, era: EraName, capabilities?: Record<string, unknown>): Promise<EraClient> {
  const key = `${path}/${era}/${JSON.stringify(capabilities ?? {})}`;
  let c = clients.get(key);
  if (!c) {
    c = await connectEra(era, path, {
      cli: CLI,
      url: servers[path]?.url,
      env: ENV,
      server: ['mcp-server', ...PROGRESSIVE],
      ...(capabilities ? { capabilities } : {}),
    });
    clients.set(key, c);
  }
  return c;
}

beforeAll(async () => {
  const [http, stateless] = await Promise.all([
    startHttp(CLI, PROGRESSIVE, ENV),
    startHttp(CLI, [...PROGRESSIVE, '--stateless'], ENV),
  ]);
  servers.http = http;
  servers['http-stateless'] = stateless;
  const schema = spawnSync(process.execPath, ['--import', TSX_LOADER, CLI, '__schema', '--as=mcp'], {
    cwd: REPO,
    encoding: 'utf8',
  });
  schemaTools = (JSON.parse(schema.stdout) as { tools: Record<string, any>[] }).tools;
}, 60_000);

afterAll(async () => {
  await Promise.allSettled([...clients.values()].map((c) => c.close()));
  await Promise.allSettled(Object.values(servers).map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

describe.each(PATHS_BY_ERAS)('%s, %s era', (path, era) => {
  it('tools/list is the four discovery tools; only the two that change nothing say readOnlyHint', async () => {
    const { tools } = await (await clientOf(path, era)).listTools();
    expect(tools.map((t: { name: string }) => t.name)).toEqual([
      'search_tools',
      'describe_tool',
      'call_read_only_tool',
      'call_tool',
    ]);
    const hints = Object.fromEntries(tools.map((t: Record<string, any>) => [t.name, t.annotations]));
    expect(hints.call_read_only_tool).toEqual({ readOnlyHint: true, idempotentHint: true, destructiveHint: false });
    expect(hints.call_tool).toEqual({ readOnlyHint: false, idempotentHint: false, destructiveHint: true });
  }, 60_000);

  it('search_tools: every tool for an empty query, matching words otherwise, each with the call tool that runs it', async () => {
    const c = await clientOf(path, era);
    const all = (await c.callTool('search_tools', { query: '', limit: 100 })).structuredContent;
    expect(all.total).toBe(schemaTools.length);
    expect(all.tools.map((t: { name: string }) => t.name)).toEqual(schemaTools.map((t) => t.name));
    const hit = (await c.callTool('search_tools', { query: 'numbers' })).structuredContent;
    expect(hit.tools).toEqual([
      {
        name: 'primes',
        command: 'erascli primes',
        description: 'A list of numbers (not an object)',
        annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false },
        call_with: 'call_read_only_tool',
      },
    ]);
    const touch = (await c.callTool('search_tools', { query: 'touch' })).structuredContent.tools[0];
    expect(touch).toMatchObject({ name: 'touch', call_with: 'call_tool' });
  }, 60_000);

  it('describe_tool: the tools/list entry of the era (a non-object outputSchema unwrapped for 2026-07-28)', async () => {
    const c = await clientOf(path, era);
    const point = (await c.callTool('describe_tool', { name: 'point' })).structuredContent;
    expect(point).toEqual({ ...schemaTools.find((t) => t.name === 'point'), call_with: 'call_read_only_tool' });
    const primes = (await c.callTool('describe_tool', { name: 'primes' })).structuredContent;
    expect(primes.inputSchema).toEqual(schemaTools.find((t) => t.name === 'primes')!.inputSchema);
    expect(primes.outputSchema.type).toBe(era === 'modern' ? 'array' : 'object');
    const unknown = await c.callTool('describe_tool', { name: 'nope' });
    expect(unknown.isError).toBe(true);
    expect(envelopeOf(unknown).error).toMatchObject({ kind: 'validation_error', exit_code: 2 });
    expect(envelopeOf(unknown).error.context).toMatchObject({ reason: 'unknown_tool', tool: 'nope' });
  }, 60_000);

  it('call_read_only_tool runs a read-only tool with the result of a direct call', async () => {
    const r = await (await clientOf(path, era)).callTool('call_read_only_tool', { name: 'primes' });
    expect(r.isError).toBeFalsy();
    expect(envelopeOf(r).data).toEqual([2, 3, 5]);
    expect(r.structuredContent).toEqual(era === 'modern' ? [2, 3, 5] : { result: [2, 3, 5] });
  }, 60_000);

  it('call_read_only_tool refuses a tool with effects (not_read_only, exit 2) and runs nothing; call_tool runs it', async () => {
    const c = await clientOf(path, era);
    const name = `p-${path}-${era}`;
    const refused = await c.callTool('call_read_only_tool', { name: 'touch', arguments: { name } });
    expect(refused.isError).toBe(true);
    expect(envelopeOf(refused).error).toMatchObject({ kind: 'validation_error', exit_code: 2 });
    expect(envelopeOf(refused).error.context).toMatchObject({ reason: 'not_read_only', tool: 'touch' });
    expect(calls()).not.toContain(name);
    const done = await c.callTool('call_tool', { name: 'touch', arguments: { name } });
    expect(done.isError).toBeFalsy();
    expect(envelopeOf(done).data).toEqual({ touched: name });
    expect(calls().filter((x) => x === name)).toHaveLength(1);
  }, 60_000);

  it('call_tool: the tool’s own validation and stops; bad arguments to call_tool itself are a validation_error', async () => {
    const c = await clientOf(path, era);
    const bad = await c.callTool('call_tool', { name: 'touch', arguments: { nam: 'x' } });
    expect(bad.isError).toBe(true);
    expect(envelopeOf(bad).error.context).toMatchObject({ reason: 'unknown_property' });
    // a confirmation nobody can give (no elicitation declared): the same stop, its next step the same
    // tool through call_tool (this server's tool; test/mcp/progressive-compose.test.ts runs it)
    const name = `conf-${path}-${era}`;
    const stop = await c.callTool('call_tool', { name: 'drop', arguments: { name } });
    expect(envelopeOf(stop).error).toMatchObject({ kind: 'confirmation_required', exit_code: 2 });
    expect(envelopeOf(stop).error.next).toEqual([
      expect.objectContaining({ tool: 'call_tool', arguments: { name: 'drop', arguments: { name, yes: true } } }),
    ]);
    const noName = await c.callTool('call_tool', { arguments: {} });
    expect(noName.isError).toBe(true);
    expect(envelopeOf(noName).error.context).toMatchObject({ reason: 'missing_required_property', property: 'name' });
  }, 60_000);

  it('log lines of a command run through a call tool are named after the command’s tool', async () => {
    const c = await clientOf(path, era);
    c.logs.length = 0;
    const r = await c.callTool(
      'call_read_only_tool',
      { name: 'talk' },
      era === 'modern' ? { 'io.modelcontextprotocol/logLevel': 'info' } : undefined,
    );
    expect(r.isError).toBeFalsy();
    await expect.poll(() => c.logs.length).toBeGreaterThan(0);
    expect(new Set(c.logs.map((l) => (l as { logger?: string }).logger))).toEqual(new Set(['talk']));
  }, 60_000);

  it('a command’s own tool name is not a tool of this server (-32602, pointing to call_tool)', async () => {
    const e = await (await clientOf(path, era)).callTool('point', {}).then(
      () => undefined,
      (x: unknown) => x as { code: number; message: string },
    );
    expect(e?.code).toBe(-32602);
    expect(e?.message).toContain('call_tool');
  }, 60_000);
});

describe.each(PATHS)('%s: a 2026-07-28 client asked through call_tool', (path) => {
  it('input_required: the SDK client answers the confirmation and retries call_tool; the command runs once', async () => {
    const c = await clientOf(path, 'modern', { elicitation: {} });
    const client = c.client as ModernClient;
    const asked: unknown[] = [];
    client.setRequestHandler('elicitation/create', async (r) => {
      asked.push(r.params);
      return { action: 'accept', content: { confirm: true } };
    });
    const r = await c.callTool('call_tool', { name: 'drop', arguments: { name: `mrtr-${path}` } });
    expect(r.isError).toBeFalsy();
    expect(envelopeOf(r).data).toEqual({ dropped: `mrtr-${path}` });
    expect(asked).toHaveLength(1);
  }, 60_000);
});

describe('--print-config carries --discovery', () => {
  it('the printed block starts the server in progressive mode', () => {
    const r = spawnSync(
      process.execPath,
      ['--import', TSX_LOADER, CLI, 'mcp-server', '--discovery', 'progressive', '--print-config'],
      { cwd: REPO, encoding: 'utf8' },
    );
    expect(r.status).toBe(0);
    const block = (JSON.parse(r.stdout) as { mcpServers: Record<string, { args: string[] }> }).mcpServers.erascli!;
    expect(block.args.slice(-2)).toEqual(['mcp-server', '--discovery=progressive']);
  });
});
