/**
 * `mcp-server --transport http` as a real process, driven by the SDK's own
 * `StreamableHTTPClientTransport` and by raw `fetch` / `node:http` for what a client would not send:
 * sessions, Accept variants, body size, stateless mode, Host/Origin checks (docs/mcp-server.md) and
 * the session idle timeout. Every raw answer is recorded: none may be a 500 with an empty body.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  callBody,
  initializeBody,
  jsonRpcError,
  killAll,
  post,
  postHeaders,
  rawInitialize,
  readResponse,
  startServer,
  type RawResponse,
  type RunningServer,
} from '../fixtures/http-harness.ts';

const seen: RawResponse[] = [];
function record(r: RawResponse): RawResponse {
  seen.push(r);
  return r;
}

async function connectClient(
  url: string,
  sessionId?: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'ax-ts-http-test', version: '0.0.1' });
  const transport = new StreamableHTTPClientTransport(new URL(url), sessionId ? { sessionId } : undefined);
  await client.connect(transport);
  return { client, transport };
}

function echoed(result: unknown): string {
  const r = result as { content: { type: string; text: string }[] };
  return JSON.parse(r.content[0]!.text).data.text;
}

/** A POST over node:http, whose Host header (unlike fetch's) can be set at will. */
function rawHttpPost(port: number, headers: Record<string, string>, body: unknown): Promise<RawResponse> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(text)) },
      },
      (res) => {
        let t = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (t += c));
        res.on('end', () => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
          void readResponse(new Response(t, { status: res.statusCode!, headers: h })).then(
            (r) => resolve(record(r)),
            reject,
          );
        });
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

afterAll(() => {
  killAll();
  const bad = seen.filter((r) => r.status >= 500 && r.text.trim() === '');
  expect(bad, 'no response may be a 500 with an empty body').toEqual([]);
});

describe('stateful Streamable HTTP', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('1. INIT gives an Mcp-Session-Id; echo with it answers 200 (SDK client and raw fetch)', async () => {
    const { client, transport } = await connectClient(server.url);
    try {
      expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(echoed(await client.callTool({ name: 'echo', arguments: { text: 'hello' } }))).toBe('hello');
      const r = record(
        await post(
          server.url,
          callBody(7, 'echo', { text: 'raw' }),
          postHeaders({ 'mcp-session-id': transport.sessionId! }),
        ),
      );
      expect(r.status).toBe(200);
      expect(r.messages.at(-1).id).toBe(7);
      expect(echoed(r.messages.at(-1).result)).toBe('raw');
    } finally {
      await client.close();
    }
  });

  it('2. a bogus Mcp-Session-Id → 404 with a JSON-RPC error body', async () => {
    const r = record(
      await post(server.url, callBody(2, 'echo', { text: 'x' }), postHeaders({ 'mcp-session-id': 'bogus' })),
    );
    expect(r.status).toBe(404);
    expect(jsonRpcError(r).message).toMatch(/session/i);
  });

  it('2b. GET and DELETE with a bogus id → 404 JSON-RPC too', async () => {
    for (const method of ['GET', 'DELETE']) {
      const r = record(
        await readResponse(
          await fetch(server.url, { method, headers: { accept: 'text/event-stream', 'mcp-session-id': 'bogus' } }),
        ),
      );
      expect(r.status, method).toBe(404);
      jsonRpcError(r);
    }
  });

  it('3. a non-initialize POST without a session id → 400 with a JSON-RPC error body', async () => {
    const r = record(await post(server.url, callBody(3, 'echo', { text: 'x' })));
    expect(r.status).toBe(400);
    jsonRpcError(r);
  });

  it('3b. malformed JSON → 400 parse error (-32700), a JSON body', async () => {
    const r = record(await post(server.url, '{"jsonrpc":"2.0",', postHeaders()));
    expect(r.status).toBe(400);
    expect(jsonRpcError(r).code).toBe(-32700);
  });

  it('5. two clients initialising at the same moment get distinct sessions and only their own results', async () => {
    const [a, b] = await Promise.all([connectClient(server.url), connectClient(server.url)]);
    try {
      expect(a.transport.sessionId).toBeTruthy();
      expect(b.transport.sessionId).toBeTruthy();
      expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
      const calls = [];
      for (let i = 0; i < 4; i++) {
        calls.push(
          a.client
            .callTool({ name: 'echo', arguments: { text: `a${i}`, delay_ms: 40 - i * 10 } })
            .then((r) => ['a', i, echoed(r)]),
        );
        calls.push(
          b.client
            .callTool({ name: 'echo', arguments: { text: `b${i}`, delay_ms: i * 10 } })
            .then((r) => ['b', i, echoed(r)]),
        );
      }
      for (const [who, i, text] of await Promise.all(calls)) expect(text).toBe(`${who}${i}`);
    } finally {
      await Promise.all([a.client.close(), b.client.close()]);
    }
  });

  it('6. Accept: both types (either order) → 200; json only or none → 406 with a JSON-RPC body (documented choice)', async () => {
    const base = { 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18' };
    for (const accept of ['application/json, text/event-stream', 'text/event-stream, application/json']) {
      const r = record(await post(server.url, initializeBody(), { ...base, accept }));
      expect(r.status, accept).toBe(200);
      expect(r.headers.get('mcp-session-id')).toBeTruthy();
      expect(r.messages[0].result.serverInfo.name).toBe('httpcli');
    }
    for (const headers of [{ ...base, accept: 'application/json' }, base]) {
      const r = record(await post(server.url, initializeBody(), headers));
      expect(r.status, JSON.stringify(headers)).toBe(406);
      expect(jsonRpcError(r).message).toMatch(/Not Acceptable/);
    }
  });

  it('7. a 300 kB echo round-trips; 1.5 MB too (limit ≥ 1 MB); 20 MB → 413 with a JSON-RPC body', async () => {
    const { client, transport } = await connectClient(server.url);
    try {
      const big = 'é'.repeat(150_000); // 300 kB of UTF-8
      expect(echoed(await client.callTool({ name: 'echo', arguments: { text: big } }))).toBe(big);
      const bigger = 'x'.repeat(1_500_000);
      expect(echoed(await client.callTool({ name: 'echo', arguments: { text: bigger } }))).toBe(bigger);
      const r = record(
        await post(
          server.url,
          callBody(9, 'echo', { text: 'x'.repeat(20 * 1024 * 1024) }),
          postHeaders({ 'mcp-session-id': transport.sessionId! }),
        ),
      );
      expect(r.status).toBe(413);
      expect(jsonRpcError(r).message).toMatch(/too large/i);
      // the session still works afterwards
      expect(echoed(await client.callTool({ name: 'echo', arguments: { text: 'after' } }))).toBe('after');
    } finally {
      await client.close();
    }
  }, 30_000);

  it('7b. 20 MB without a session id → 413 JSON too, never an HTML page', async () => {
    const r = record(await post(server.url, callBody(9, 'echo', { text: 'x'.repeat(20 * 1024 * 1024) })));
    expect(r.status).toBe(413);
    jsonRpcError(r);
  }, 30_000);

  it('DELETE ends a session; the id then answers 404', async () => {
    const { sessionId } = await rawInitialize(server.url);
    const del = record(
      await readResponse(
        await fetch(server.url, {
          method: 'DELETE',
          headers: { 'mcp-session-id': sessionId!, 'mcp-protocol-version': '2025-06-18' },
        }),
      ),
    );
    expect(del.status).toBe(200);
    const r = record(await post(server.url, callBody(2, 'ok'), postHeaders({ 'mcp-session-id': sessionId! })));
    expect(r.status).toBe(404);
    jsonRpcError(r);
  });

  it('an unknown path → 404 JSON-RPC, not an HTML page', async () => {
    const r = record(await readResponse(await fetch(server.url.replace(/\/mcp$/, '/nope'))));
    expect(r.status).toBe(404);
    jsonRpcError(r);
  });
});

describe('restart (B20 step 4)', () => {
  it('reusing a session id after a restart → 404 (not 400/500/-32602); a fresh INIT works', async () => {
    let server = await startServer();
    const port = server.port;
    const { client, transport } = await connectClient(server.url);
    const oldId = transport.sessionId!;
    expect(echoed(await client.callTool({ name: 'echo', arguments: { text: 'before' } }))).toBe('before');
    await client.close().catch(() => {});
    await server.stop();
    server = await startServer([], { addr: `127.0.0.1:${port}` });
    try {
      expect(server.port).toBe(port);
      const r = record(
        await post(server.url, callBody(2, 'echo', { text: 'x' }), postHeaders({ 'mcp-session-id': oldId })),
      );
      expect(r.status).toBe(404);
      expect(jsonRpcError(r).code).not.toBe(-32602);
      // the SDK client holding the stale id sees a 404 it can act on
      const stale = await connectClient(server.url, oldId);
      const err = await stale.client.callTool({ name: 'echo', arguments: { text: 'x' } }).then(
        () => undefined,
        (e: unknown) => e as { code?: number; message: string },
      );
      expect(err, 'the stale session must be refused').toBeDefined();
      expect(String(err!.code ?? err!.message)).toMatch(/404/);
      await stale.client.close().catch(() => {});
      const fresh = await connectClient(server.url);
      expect(fresh.transport.sessionId).not.toBe(oldId);
      expect(echoed(await fresh.client.callTool({ name: 'echo', arguments: { text: 'after' } }))).toBe('after');
      await fresh.client.close();
    } finally {
      await server.stop();
    }
  }, 60_000);
});

describe('Host and Origin checks (docs/mcp-server.md, DNS rebinding)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('a foreign Host → 403 with a JSON-RPC body', async () => {
    for (const host of ['evil.example', `evil.example:${server.port}`, `127.0.0.1.evil.example:${server.port}`]) {
      const r = await rawHttpPost(server.port, { ...postHeaders(), host }, initializeBody());
      expect(r.status, host).toBe(403);
      expect(jsonRpcError(r).message).toMatch(/Host/);
    }
  });

  it("a request without any Host header → 403 with a JSON-RPC body (not Node's empty 400)", async () => {
    const { connect } = await import('node:net');
    const body = JSON.stringify(initializeBody());
    const raw = await new Promise<string>((resolve, reject) => {
      const sock = connect(server.port, '127.0.0.1', () => {
        sock.end(
          `POST /mcp HTTP/1.1\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
        );
      });
      let t = '';
      sock.setEncoding('utf8').on('data', (c: string) => (t += c));
      sock.on('end', () => resolve(t));
      sock.on('error', reject);
    });
    expect(raw.split('\r\n')[0]).toBe('HTTP/1.1 403 Forbidden');
    const payload = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
    expect(payload).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
  });

  it('loopback Host names are accepted', async () => {
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, `[::1]:${server.port}`]) {
      const r = await rawHttpPost(server.port, { ...postHeaders(), host }, initializeBody());
      expect(r.status, host).toBe(200);
    }
  });

  it('a good Host with an evil Origin → 403 with a JSON-RPC body', async () => {
    for (const origin of ['http://evil.example', `http://evil.example:${server.port}`, 'null']) {
      const r = record(await post(server.url, initializeBody(), postHeaders({ origin })));
      expect(r.status, origin).toBe(403);
      expect(jsonRpcError(r).message).toMatch(/Origin/);
    }
  });

  it('a good Origin (http://127.0.0.1:PORT, http://localhost:PORT) is accepted', async () => {
    for (const origin of [`http://127.0.0.1:${server.port}`, `http://localhost:${server.port}`]) {
      const r = record(await post(server.url, initializeBody(), postHeaders({ origin })));
      expect(r.status, origin).toBe(200);
      expect(r.messages[0].result.protocolVersion).toBeTruthy();
    }
  });

  it('the checks apply to GET and DELETE as well', async () => {
    const r = record(
      await readResponse(
        await fetch(server.url, { headers: { accept: 'text/event-stream', origin: 'http://evil.example' } }),
      ),
    );
    expect(r.status).toBe(403);
    jsonRpcError(r);
  });
});

describe("--allowed-host (a proxy's host name)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(['--allowed-host', 'proxy.example']);
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('admits that Host and Origin, still refuses others', async () => {
    const ok = await rawHttpPost(
      server.port,
      { ...postHeaders(), host: 'proxy.example', origin: 'https://proxy.example' },
      initializeBody(),
    );
    expect(ok.status).toBe(200);
    const evilHost = await rawHttpPost(server.port, { ...postHeaders(), host: 'evil.example' }, initializeBody());
    expect(evilHost.status).toBe(403);
    jsonRpcError(evilHost);
    const evilOrigin = await rawHttpPost(
      server.port,
      { ...postHeaders(), host: 'proxy.example', origin: 'http://evil.example' },
      initializeBody(),
    );
    expect(evilOrigin.status).toBe(403);
    jsonRpcError(evilOrigin);
  });
});

describe('--max-sessions (no unbounded growth)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(['--max-sessions', '2']);
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('a new session beyond the cap gets 503 with a JSON-RPC body and Retry-After; existing ones still work', async () => {
    const host = `127.0.0.1:${server.port}`;
    const first = await rawHttpPost(server.port, { ...postHeaders(), host }, initializeBody());
    const second = await rawHttpPost(server.port, { ...postHeaders(), host }, initializeBody());
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await rawHttpPost(server.port, { ...postHeaders(), host }, initializeBody());
    expect(third.status).toBe(503);
    expect(jsonRpcError(third).message).toMatch(/Too many sessions/);
  });
});

describe('session idle timeout', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(['--session-idle', '300ms']);
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('a session idle longer than --session-idle is closed: reusing its id → 404', async () => {
    const { sessionId } = await rawInitialize(server.url);
    const h = postHeaders({ 'mcp-session-id': sessionId! });
    expect(record(await post(server.url, callBody(2, 'ok'), h)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 900));
    const r = record(await post(server.url, callBody(3, 'ok'), h));
    expect(r.status).toBe(404);
    jsonRpcError(r);
  });

  it('activity keeps a session alive past the idle time', async () => {
    const { sessionId } = await rawInitialize(server.url);
    const h = postHeaders({ 'mcp-session-id': sessionId! });
    for (let i = 0; i < 8; i++) {
      await new Promise((r) => setTimeout(r, 100));
      expect(record(await post(server.url, callBody(10 + i, 'ok'), h)).status).toBe(200);
    }
  });

  it('a call running longer than the idle time is not cut off by the sweep', async () => {
    const { client } = await connectClient(server.url);
    try {
      const r = (await client.callTool({ name: 'build', arguments: { seconds: 8, tick_ms: 100 } })) as {
        isError?: boolean;
        content: { text: string }[];
      };
      expect(r.isError ?? false).toBe(false);
      expect(JSON.parse(r.content[0]!.text).data).toEqual({ built: true, ticks: 8 });
    } finally {
      await client.close().catch(() => {});
    }
  });
});

describe('stateless mode (--stateless, B20 step 8)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(['--stateless']);
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('ten back-to-back INIT-and-call pairs without a session id → all 200, no session ids', async () => {
    for (let i = 0; i < 10; i++) {
      const init = record(await post(server.url, initializeBody(i)));
      expect(init.status).toBe(200);
      expect(init.headers.get('mcp-session-id')).toBeNull();
      const call = record(await post(server.url, callBody(100 + i, 'echo', { text: `n${i}` })));
      expect(call.status).toBe(200);
      expect(echoed(call.messages.at(-1).result)).toBe(`n${i}`);
    }
  });

  it('the SDK client works against it', async () => {
    const { client, transport } = await connectClient(server.url);
    try {
      expect(transport.sessionId).toBeUndefined();
      expect(echoed(await client.callTool({ name: 'echo', arguments: { text: 'stateless' } }))).toBe('stateless');
      await client.ping();
    } finally {
      await client.close();
    }
  });

  it('GET and DELETE (no stream, no session to end) answer with a JSON-RPC body, never hang', async () => {
    for (const method of ['GET', 'DELETE']) {
      const r = record(
        await readResponse(
          await fetch(server.url, {
            method,
            headers: { accept: 'text/event-stream' },
            signal: AbortSignal.timeout(5000),
          }),
        ),
      );
      expect(r.status, method).toBe(405);
      jsonRpcError(r);
    }
  });

  it('20 MB → 413 JSON in stateless mode too', async () => {
    const r = record(await post(server.url, callBody(9, 'echo', { text: 'x'.repeat(20 * 1024 * 1024) })));
    expect(r.status).toBe(413);
    jsonRpcError(r);
  }, 30_000);
});
