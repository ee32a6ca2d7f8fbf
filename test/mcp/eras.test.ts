/**
 * One `mcp-server`, both protocol eras, on every MCP path: a 2025-era client (the v1 SDK's `Client`:
 * `initialize`, sessions) and a 2026-07-28 client (the v2 SDK's `Client` pinned to that revision:
 * `server/discover`, `_meta` on every request) each get their own protocol from the same tree walk —
 * over stdio, HTTP with sessions and HTTP `--stateless` (docs/mcp-server.md#protocol-eras). Each rule
 * below runs on all six path × era pairs.
 */
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectEra,
  envelopeOf,
  MODERN,
  PATHS_BY_ERAS,
  startHttp,
  type EraClient,
  type EraName,
  type HttpFixture,
  type McpPath,
} from '../helpers/eras.ts';
import { REPO, TSX_LOADER } from '../helpers/spawn.ts';

const CLI = join(REPO, 'test/fixtures/eras-cli.ts');
const HOUR = 3_600_000;
const dir = mkdtempSync(join(tmpdir(), 'ax-eras-'));
const servers: Partial<Record<McpPath, HttpFixture>> = {};
const clients = new Map<string, EraClient>();
let schemaTools: Record<string, any>[] = [];

/** The client of `era` on `path` (declaring `capabilities`), connected once per file. */
async function clientOf(path: McpPath, era: EraName, capabilities?: Record<string, unknown>): Promise<EraClient> {
  const key = `${path}/${era}/${JSON.stringify(capabilities ?? {})}`;
  let c = clients.get(key);
  if (!c) {
    c = await connectEra(era, path, {
      cli: CLI,
      url: servers[path]?.url,
      env: { ERAS_DIR: dir },
      ...(capabilities ? { capabilities } : {}),
    });
    clients.set(key, c);
  }
  return c;
}

/** The JSON-RPC error a call rejected with. */
async function rpcError(p: Promise<unknown>): Promise<{ code: number; message: string; data?: any }> {
  const e = (await p.then(
    () => undefined,
    (x: unknown) => x,
  )) as { code?: number; message?: string; data?: unknown } | undefined;
  if (!e || typeof e.code !== 'number') throw new Error(`expected a JSON-RPC error, got ${String(e)}`);
  return e as { code: number; message: string; data?: any };
}

const calls = (): string[] => {
  try {
    return readFileSync(join(dir, 'calls'), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

beforeAll(async () => {
  const [http, stateless] = await Promise.all([
    startHttp(CLI, [], { ERAS_DIR: dir }),
    startHttp(CLI, ['--stateless'], { ERAS_DIR: dir }),
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
  it('the client is served its own era, with the instructions and the version', async () => {
    const { client } = await clientOf(path, era);
    expect(client.getInstructions()).toBe('A fixture for the two protocol eras.');
    expect(client.getServerVersion()).toMatchObject({ name: 'erascli', version: '1.2.3' });
    if (era === 'modern') expect((client as { getProtocolEra(): string }).getProtocolEra()).toBe('modern');
    else
      expect((client as { getNegotiatedProtocolVersion?(): string }).getNegotiatedProtocolVersion?.()).not.toBe(MODERN);
  }, 60_000);

  it('tools/list is the tree walk of __schema --as=mcp; a non-object outputSchema is the declared one for 2026-07-28, wrapped in an object for the 2025 era', async () => {
    const r = await (await clientOf(path, era)).listTools();
    const natural: Record<string, unknown> = {
      primes: { type: 'array', items: { type: 'integer' } },
      count: {
        type: 'array',
        items: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      },
    };
    const expected =
      era === 'legacy'
        ? schemaTools
        : schemaTools.map((t) => (natural[t.name] ? { ...t, outputSchema: natural[t.name] } : t));
    expect(r.tools).toEqual(expected);
    if (era === 'modern') expect(r).toMatchObject({ ttlMs: HOUR, cacheScope: 'public' });
    else expect(r).not.toHaveProperty('ttlMs');
  }, 60_000);

  it('structuredContent: an object as it is; a list or a stream as itself (2026-07-28) or wrapped in an object (2025 era)', async () => {
    const c = await clientOf(path, era);
    expect((await c.callTool('point')).structuredContent).toEqual({ x: 1 });
    const primes = (await c.callTool('primes')).structuredContent;
    const count = (await c.callTool('count')).structuredContent;
    if (era === 'modern') {
      expect(primes).toEqual([2, 3, 5]);
      expect(count).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    } else {
      expect(primes).toEqual({ result: [2, 3, 5] });
      expect(count).toEqual({ items: [{ n: 1 }, { n: 2 }, { n: 3 }] });
    }
    // the text content is the --format json envelope either way
    expect(envelopeOf(await c.callTool('primes')).data).toEqual([2, 3, 5]);
  }, 60_000);

  it('resources/read: declared content (cacheable for an hour in 2026-07-28); an unknown URI is -32602 (2026-07-28) or -32002 (2025 era)', async () => {
    const c = await clientOf(path, era);
    const r = await c.readResource('erascli://days/monday');
    expect(r.contents).toEqual([{ uri: 'erascli://days/monday', mimeType: 'text/plain', text: 'Notes for monday.' }]);
    if (era === 'modern') expect(r).toMatchObject({ ttlMs: HOUR, cacheScope: 'public' });
    const e = await rpcError(c.readResource('erascli://nope'));
    expect(e.code).toBe(era === 'modern' ? -32602 : -32002);
    expect(e.data).toEqual({ uri: 'erascli://nope' });
  }, 60_000);

  it('log lines: from the session level (2025 era, default info) or the level named in the request _meta (2026-07-28; none without one)', async () => {
    const c = await clientOf(path, era);
    const levels = async (meta?: Record<string, unknown>) => {
      c.logs.length = 0;
      await c.callTool('talk', {}, meta);
      await new Promise((r) => setTimeout(r, 50));
      return c.logs.map((l) => l.level);
    };
    if (era === 'legacy') {
      expect(await levels()).toEqual(['info', 'warning', 'error']);
    } else {
      expect(await levels()).toEqual([]);
      expect(await levels({ 'io.modelcontextprotocol/logLevel': 'warning' })).toEqual(['warning', 'error']);
      expect(await levels({ 'io.modelcontextprotocol/logLevel': 'debug' })).toEqual([
        'debug',
        'info',
        'warning',
        'error',
      ]);
    }
  }, 60_000);

  it('progress notifications reach the caller', async () => {
    const { client } = await clientOf(path, era);
    const seen: unknown[] = [];
    await (client as { callTool(p: unknown, s?: unknown, o?: unknown): Promise<unknown> }).callTool(
      { name: 'talk', arguments: {} },
      ...(era === 'legacy' ? [undefined] : []),
      { onprogress: (p: unknown) => seen.push(p) },
    );
    // the first always arrives; the v2 client over stdio may drop the one written just before the result
    expect(seen[0]).toMatchObject({ progress: 1, total: 2 });
  }, 60_000);

  it('a call that can only go on by asking the client what it did not declare: -32021 for 2026-07-28, an isError result for the 2025 era; a confirmation the yes property gives is an isError result in both', async () => {
    const c = await clientOf(path, era);
    if (era === 'modern') {
      const form = await rpcError(c.callTool('colour'));
      expect(form).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
      const model = await rpcError(c.callTool('think'));
      expect(model).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    } else {
      expect(envelopeOf(await c.callTool('colour')).error.kind).toBe('input_required');
      expect(envelopeOf(await c.callTool('think')).error.kind).toBe('sampling_unavailable');
    }
    const drop = await c.callTool('drop', { name: 'x' });
    expect(drop.isError).toBe(true);
    expect(envelopeOf(drop).error).toMatchObject({ kind: 'confirmation_required', context: { bypass_flag: 'yes' } });
  }, 60_000);

  it("a failure's structuredContent is its error envelope, next steps included; a 2025-era client of a tool with an outputSchema gets none (its SDK would check it against the outputSchema and throw)", async () => {
    const c = await clientOf(path, era);
    const drop = await c.callTool('drop', { name: 'x' }); // no outputSchema
    expect(drop.isError).toBe(true);
    expect(drop.structuredContent).toEqual(envelopeOf(drop));
    const gate = await c.callTool('gate'); // an outputSchema: the client still returns the failure
    expect(gate.isError).toBe(true);
    const envelope = envelopeOf(gate);
    expect(envelope.error).toMatchObject({
      kind: 'action_required',
      context: { reason: 'point_first' },
      next: [{ description: 'read the point', tool: 'point', arguments: {} }],
    });
    if (era === 'modern') expect(gate.structuredContent).toEqual(envelope);
    else expect(gate).not.toHaveProperty('structuredContent');
  }, 60_000);

  it.runIf(era === 'modern')(
    '2026-07-28: a client that declares the form and the model is asked through input_required results, on every path (input-required.test.ts has the rest)',
    async () => {
      const c = await clientOf(path, era, { elicitation: {}, sampling: {} });
      const client = c.client as ModernClient;
      client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { colour: 'teal' } }));
      client.setRequestHandler('sampling/createMessage', async () => ({
        role: 'assistant',
        content: { type: 'text', text: 'hello' },
        model: 'm',
      }));
      expect(envelopeOf(await c.callTool('colour')).data).toEqual({ colour: 'teal' });
      expect(envelopeOf(await c.callTool('think')).data).toEqual({ text: 'hello' });
    },
    60_000,
  );

  // 2025 era without sessions: the cancellation is a POST of its own, answered by a server (maybe on
  // another replica) that never saw the call, and the call's stream stays open for its answer
  const unreachable = path === 'http-stateless' && era === 'legacy';
  it(
    unreachable
      ? 'cancelling a call cannot reach it (no session: the cancellation goes to a server of its own); the call runs on'
      : "cancelling a call stops its handler (notifications/cancelled, or over 2026-07-28 HTTP the request's stream closing)",
    async () => {
      const { client } = await clientOf(path, era);
      const count = (what: string) => calls().filter((l) => l === what).length;
      const before = { cancelled: count('nap cancelled'), slept: count('nap slept') };
      const ac = new AbortController();
      const call = (client as { callTool(p: unknown, s?: unknown, o?: unknown): Promise<unknown> }).callTool(
        { name: 'nap', arguments: {} },
        ...(era === 'legacy' ? [undefined] : []),
        { signal: ac.signal },
      );
      setTimeout(() => ac.abort(), 300);
      await expect(call).rejects.toThrow();
      const t0 = Date.now();
      const done = () => count('nap cancelled') + count('nap slept') > before.cancelled + before.slept;
      while (!done() && Date.now() - t0 < 6000) await new Promise((r) => setTimeout(r, 50));
      expect({
        cancelled: count('nap cancelled') - before.cancelled,
        slept: count('nap slept') - before.slept,
      }).toEqual(unreachable ? { cancelled: 0, slept: 1 } : { cancelled: 1, slept: 0 });
    },
    60_000,
  );
});
