/**
 * The 2026-07-28 rules on the wire, byte for byte, where an SDK client would hide them: a request
 * that claims the revision without its `_meta`, a header that disagrees with the body, a method the
 * revision removed, a revision the server does not speak — each gets the specification's error code
 * and message, nothing runs and nothing is logged; `server/discover` carries versions, capabilities,
 * instructions and cache hints; 2025-era answers carry none of the 2026-07-28 vocabulary. Over HTTP
 * (with and without `--stateless`) and over stdio (docs/mcp-server.md#protocol-eras).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODERN, startHttp, type HttpFixture } from '../helpers/eras.ts';
import { rawStdio, REPO } from '../helpers/mcp.ts';

const CLI = join(REPO, 'test/fixtures/eras-cli.ts');
const dir = mkdtempSync(join(tmpdir(), 'ax-eras-wire-'));
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};
const touched = (): string[] => {
  try {
    return readFileSync(join(dir, 'calls'), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};
const servers: Record<string, HttpFixture> = {};

beforeAll(async () => {
  [servers.http, servers['http-stateless']] = await Promise.all([
    startHttp(CLI, [], { ERAS_DIR: dir }),
    startHttp(CLI, ['--stateless'], { ERAS_DIR: dir }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.allSettled(Object.values(servers).map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

/** A modern request's standard headers, for `method` and the name it carries (tool, prompt, resource). */
function modernHeaders(method: string, name?: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
    ...(name !== undefined ? { 'mcp-name': name } : {}),
    ...extra,
  };
}

/** POSTs `body` and returns the status and the one JSON-RPC message (JSON or SSE). */
async function post(url: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await res.text();
  const data = (res.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data:') && l.length > 6)
        .map((l) => JSON.parse(l.slice(5)) as Record<string, any>)
        .at(-1)
    : (JSON.parse(text) as Record<string, any>);
  return { status: res.status, message: data! };
}

const touch = (id: number, meta?: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'touch', arguments: { name: `t${id}` }, ...(meta ? { _meta: meta } : {}) },
});

describe.each(['http', 'http-stateless'])('%s: 2026-07-28 requests on the wire', (mode) => {
  const url = () => servers[mode]!.url;

  it('server/discover: the revision, the capabilities, the instructions, the server in _meta, cacheable for an hour', async () => {
    const r = await post(
      url(),
      { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } },
      modernHeaders('server/discover'),
    );
    expect(r.status).toBe(200);
    expect(r.message.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: [MODERN],
      capabilities: { tools: {}, prompts: {}, resources: {}, completions: {}, logging: {} },
      instructions: 'A fixture for the two protocol eras.',
      ttlMs: 3_600_000,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'erascli', version: '1.2.3' } },
    });
  });

  it.each([
    {
      what: 'MCP-Protocol-Version names 2026-07-28 but the body has no _meta',
      body: touch(10),
      headers: modernHeaders('tools/call', 'touch'),
      code: -32602,
      message: /missing the required per-request envelope key\(s\): _meta/,
    },
    {
      what: '_meta lacks the client capabilities',
      body: touch(11, { 'io.modelcontextprotocol/protocolVersion': MODERN }),
      headers: modernHeaders('tools/call', 'touch'),
      code: -32602,
      message: /clientCapabilities/,
    },
    {
      what: 'Mcp-Method disagrees with the body',
      body: touch(12, META),
      headers: modernHeaders('tools/list', 'touch'),
      code: -32020,
      message: /Mcp-Method/,
    },
    {
      what: 'Mcp-Name disagrees with the body',
      body: touch(13, META),
      headers: modernHeaders('tools/call', 'other'),
      code: -32020,
      message: /Mcp-Name/,
    },
    {
      what: 'Mcp-Name is missing',
      body: touch(14, META),
      headers: modernHeaders('tools/call'),
      code: -32020,
      message: /Mcp-Name/,
    },
    {
      what: 'MCP-Protocol-Version disagrees with _meta',
      body: touch(15, META),
      headers: modernHeaders('tools/call', 'touch', { 'mcp-protocol-version': '2025-11-25' }),
      code: -32020,
      message: /2026-07-28/,
    },
    {
      what: '_meta names a revision the server does not speak',
      body: touch(16, { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }),
      headers: modernHeaders('tools/call', 'touch', { 'mcp-protocol-version': '2099-01-01' }),
      code: -32022,
      message: /Unsupported protocol version/,
    },
  ])('$what → 400 $code, the request id echoed, nothing runs', async ({ body, headers, code, message }) => {
    const r = await post(url(), body, headers);
    expect(r.status).toBe(400);
    expect(r.message).toMatchObject({
      jsonrpc: '2.0',
      id: body.id,
      error: { code, message: expect.stringMatching(message) },
    });
    expect(touched()).not.toContain(`t${body.id}`);
  });

  it.each(['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe'])(
    '%s (not a 2026-07-28 method) → 404 -32601',
    async (method) => {
      const params: Record<string, unknown> = { _meta: META };
      if (method === 'logging/setLevel') params.level = 'debug';
      if (method.startsWith('resources/')) params.uri = 'erascli://readme';
      if (method === 'initialize')
        Object.assign(params, { protocolVersion: MODERN, capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
      const r = await post(url(), { jsonrpc: '2.0', id: 20, method, params }, modernHeaders(method));
      expect(r.status).toBe(404);
      expect(r.message.error).toMatchObject({ code: -32601 });
    },
  );

  it("a valid call runs once; the server's stderr holds only its listening line (clients' mistakes are not logged)", async () => {
    const before = touched().filter((l) => l === 't30').length;
    const r = await post(url(), touch(30, META), modernHeaders('tools/call', 'touch'));
    expect(r.message.result.resultType).toBe('complete');
    expect(r.message.result.isError).toBeUndefined();
    expect(touched().filter((l) => l === 't30')).toHaveLength(before + 1);
    await new Promise((res) => setTimeout(res, 100));
    expect(servers[mode]!.stderr().trim().split('\n')).toEqual([expect.stringMatching(/^mcp-server: listening on /)]);
  });

  it('2025-era answers carry none of the 2026-07-28 vocabulary (no resultType, ttlMs, cacheScope, serverInfo in _meta)', async () => {
    const legacy = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await post(
      url(),
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      },
      legacy,
    );
    expect(init.message.result.protocolVersion).toBe('2025-11-25');
    const session: Record<string, string> =
      mode === 'http' ? { 'mcp-session-id': (await fetchSessionId(url(), legacy))! } : {};
    const list = await post(url(), { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { ...legacy, ...session });
    for (const key of ['resultType', 'ttlMs', 'cacheScope', '_meta'])
      expect(list.message.result).not.toHaveProperty(key);
  });
});

/** A new 2025-era session's id. */
async function fetchSessionId(url: string, headers: Record<string, string>): Promise<string | null> {
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  await res.text();
  return res.headers.get('mcp-session-id');
}

describe('stdio: the connection takes the era of its first request', () => {
  it('2026-07-28: server/discover; a request with _meta fixes the era; a later one without → -32602 and nothing runs; 2025-era methods → -32601', async () => {
    const s = rawStdio(['mcp-server'], { cli: CLI, env: { ERAS_DIR: dir } });
    try {
      const discover = await s.request(1, 'server/discover', { _meta: META });
      expect(discover.result).toMatchObject({ supportedVersions: [MODERN], ttlMs: 3_600_000, cacheScope: 'public' });
      // (a probe alone does not fix the era: a client may still fall back to initialize)
      const list = await s.request(6, 'tools/list', { _meta: META });
      expect(list.result).toMatchObject({ resultType: 'complete', ttlMs: 3_600_000 });
      const bare = await s.request(2, 'tools/call', { name: 'touch', arguments: { name: 'stdio-bare' } });
      expect(bare.error).toMatchObject({ code: -32602 });
      expect(touched()).not.toContain('stdio-bare');
      for (const [id, method] of [
        [3, 'ping'],
        [4, 'logging/setLevel'],
      ] as const) {
        const r = await s.request(id, method, {
          _meta: META,
          ...(method === 'logging/setLevel' ? { level: 'debug' } : {}),
        });
        expect(r.error, method).toMatchObject({ code: -32601 });
      }
      const ok = await s.request(5, 'tools/call', { name: 'touch', arguments: { name: 'stdio-ok' }, _meta: META });
      expect(ok.result).toMatchObject({ resultType: 'complete' });
      expect(touched()).toContain('stdio-ok');
      await new Promise((r) => setTimeout(r, 100));
      expect(s.stderr()).toBe('');
    } finally {
      s.kill('SIGTERM');
      await s.exited;
    }
  }, 60_000);

  it('2025 era: initialize; answers carry none of the 2026-07-28 vocabulary; server/discover → -32601', async () => {
    const s = rawStdio(['mcp-server'], { cli: CLI, env: { ERAS_DIR: dir } });
    try {
      await s.init();
      const list = await s.request(2, 'tools/list', {});
      for (const key of ['resultType', 'ttlMs', 'cacheScope', '_meta']) expect(list.result).not.toHaveProperty(key);
      const discover = await s.request(3, 'server/discover', {});
      expect(discover.error).toMatchObject({ code: -32601 });
    } finally {
      s.kill('SIGTERM');
      await s.exited;
    }
  }, 60_000);
});
