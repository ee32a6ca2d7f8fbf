/**
 * The HTTP server under a hostile local user and a careless client: SIGTERM
 * with a call whose handler ignores the abort (answered `interrupted`, exit 0, empty stderr, within
 * the budget); a duplicate in-flight JSON-RPC id; two Host headers and junk Host bytes (raw
 * sockets, since fetch cannot send them); the wildcard bind address as Host; an empty batch;
 * loopback spellings refused at start with a reason; bearer-token authentication.
 */
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import {
  callBody,
  jsonRpcError,
  killAll,
  post,
  postHeaders,
  rawInitialize,
  runFixture,
  startServer,
} from '../fixtures/http-harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'ax-perimeter-'));
afterAll(() => {
  killAll();
  rmSync(dir, { recursive: true, force: true });
});
const TOKEN = 'c2VjcmV0LXRva2VuLWZvci10ZXN0cw-0123456789';
const tokenFile = join(dir, 'token');
writeFileSync(tokenFile, `${TOKEN}\n`);
chmodSync(tokenFile, 0o600);

/** Sends raw bytes on a fresh TCP connection and resolves with everything received until it closes. */
function rawHttp(port: number, request: string): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const s = connect({ port, host: '127.0.0.1' });
    let got = '';
    s.setEncoding('utf8');
    s.on('data', (c: string) => {
      got += c;
      const end = got.indexOf('\r\n\r\n');
      const len = /content-length: *(\d+)/i.exec(got.slice(0, end));
      if (end >= 0 && len && Buffer.byteLength(got.slice(end + 4)) >= Number(len[1])) s.end();
    });
    s.on('error', reject);
    s.on('close', () => {
      const end = got.indexOf('\r\n\r\n');
      resolve({ status: Number(got.slice(9, 12)), head: got.slice(0, end), body: got.slice(end + 4) });
    });
    s.write(request);
  });
}
const rawPost = (port: number, headers: string[], body: string) =>
  rawHttp(
    port,
    [
      `POST /mcp HTTP/1.1`,
      ...headers,
      'content-type: application/json',
      'accept: application/json, text/event-stream',
      `content-length: ${Buffer.byteLength(body)}`,
      'connection: close',
      '',
      body,
    ].join('\r\n'),
  );
const init = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
/** The `data` of a tool result's envelope. */
const dataOf = (m: { result?: { content?: { text: string }[] } } | undefined) =>
  JSON.parse(m?.result?.content?.[0]?.text ?? 'null')?.data as unknown;
const rpcError = (body: string) =>
  JSON.parse(body) as { jsonrpc: string; error: { code: number; message: string }; id: unknown };

describe('item 5: one shutdown budget', () => {
  it('SIGTERM while a handler ignores the abort: the call is answered `interrupted`, exit 0, nothing on stderr but the URL, within 3.5 s', async () => {
    const server = await startServer();
    const client = new Client({ name: 'perimeter', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const pending = client.callTool({ name: 'hang', arguments: {} }).then(
      (r) => r,
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    const { code, signal } = await server.stop('SIGTERM');
    const took = Date.now() - t0;
    expect(signal).toBeNull();
    expect(code).toBe(0);
    expect(server.stderr().trim().split('\n')).toEqual([expect.stringMatching(/^mcp-server: listening on /)]);
    expect(took).toBeLessThan(3500);
    const r = (await pending) as { isError?: boolean; content: { text: string }[] };
    expect(r.isError).toBe(true);
    expect(JSON.parse(r.content[0]!.text).error.kind).toBe('interrupted');
    await client.close().catch(() => {});
  }, 30_000);
});

describe.concurrent('items 6-7: ids, Host headers, bodies', () => {
  it('item 6: a second request with an id already in flight in the session gets -32600 with that id; the first is answered', async () => {
    const server = await startServer();
    try {
      const { sessionId } = await rawInitialize(server.url);
      const h = postHeaders({ 'mcp-session-id': sessionId! });
      const first = post(server.url, callBody(7, 'echo', { text: 'first', delay_ms: 800 }), h);
      await new Promise((r) => setTimeout(r, 200));
      const dup = await post(server.url, callBody(7, 'echo', { text: 'second' }), h);
      expect(dup.status).toBe(400);
      expect(JSON.parse(dup.text)).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32600 } });
      const one = await first;
      expect(one.status).toBe(200);
      expect(dataOf(one.messages.find((m) => m.id === 7)), one.text).toEqual({ text: 'first' });
      // once answered, the id may be used again
      const again = await post(server.url, callBody(7, 'echo', { text: 'third' }), h);
      expect(dataOf(again.messages.find((m) => m.id === 7))).toEqual({ text: 'third' });
      // the same id twice in one batch is refused too
      const batch = await post(server.url, [callBody(8, 'pong'), callBody(8, 'pong')], h);
      expect(JSON.parse(batch.text)).toMatchObject({ id: 8, error: { code: -32600 } });
    } finally {
      await server.stop();
    }
  }, 30_000);

  it('item 7: two Host headers → 400 with a JSON-RPC body (first good, second evil; and the reverse)', async () => {
    const server = await startServer();
    try {
      for (const hosts of [
        [`127.0.0.1:${server.port}`, 'evil.example'],
        ['evil.example', `127.0.0.1:${server.port}`],
      ]) {
        const r = await rawPost(
          server.port,
          hosts.map((h) => `Host: ${h}`),
          init,
        );
        expect(r.status, r.head).toBe(400);
        expect(rpcError(r.body)).toMatchObject({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: expect.stringMatching(/more than one Host/) },
        });
      }
    } finally {
      await server.stop();
    }
  }, 30_000);

  it("item 7: junk Host values get a JSON-RPC body: unparsable (403) and bytes Node's parser refuses (400, not an empty 400)", async () => {
    const server = await startServer();
    try {
      for (const junk of ['[::1', '127.0.0.1:80:80', 'a b', '127.0.0.1@evil.example']) {
        const r = await rawPost(server.port, [`Host: ${junk}`], init);
        expect(r.status, junk).toBe(403);
        expect(rpcError(r.body).error.code).toBe(-32000);
      }
      const bad = await rawHttp(
        server.port,
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\x01\r\ncontent-length: 2\r\n\r\n{}`,
      );
      expect(bad.status).toBe(400);
      expect(rpcError(bad.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    } finally {
      await server.stop();
    }
  }, 30_000);

  it('item 7: an empty batch [] → one -32600 error object (not an array, not an empty body)', async () => {
    const server = await startServer();
    try {
      const r = await post(server.url, '[]');
      expect(r.status).toBe(400);
      expect(JSON.parse(r.text)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: expect.stringMatching(/empty batch/) },
      });
      const { sessionId } = await rawInitialize(server.url);
      const s = await post(server.url, '[]', postHeaders({ 'mcp-session-id': sessionId! }));
      expect(jsonRpcError(s).code).toBe(-32600);
    } finally {
      await server.stop();
    }
  }, 30_000);

  it('wrong-typed params over HTTP get -32602 on one line, as over stdio', async () => {
    const server = await startServer();
    try {
      const { sessionId } = await rawInitialize(server.url);
      const r = await post(
        server.url,
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 5 } },
        postHeaders({ 'mcp-session-id': sessionId! }),
      );
      const e = r.messages.find((m) => m.id === 3)?.error as { code: number; message: string };
      expect(e.code).toBe(-32602);
      expect(e.message).not.toMatch(/\n/);
    } finally {
      await server.stop();
    }
  }, 30_000);

  it('item 7: on a wildcard bind (0.0.0.0) the wildcard address is never an allowed Host', async () => {
    const server = await startServer(['--allow-non-loopback', '--token-file', tokenFile], { addr: '0.0.0.0:0' });
    try {
      const auth = `Authorization: Bearer ${TOKEN}`;
      const wild = await rawPost(server.port, [`Host: 0.0.0.0:${server.port}`, auth], init);
      expect(wild.status).toBe(403);
      expect(rpcError(wild.body).error.message).toMatch(/Host "0\.0\.0\.0/);
      const ok = await rawPost(server.port, [`Host: 127.0.0.1:${server.port}`, auth], init);
      expect(ok.status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 30_000);
});

describe.concurrent('item 7: loopback spellings refused at start say why (exit 2)', () => {
  for (const [addr, why] of [
    ['127.1:0', /short or numeric spelling/],
    ['[::ffff:127.0.0.1]:0', /IPv4-mapped/],
    ['2130706433:0', /short or numeric spelling/],
  ] as const) {
    it(`--addr ${addr}`, async () => {
      const r = await runFixture(['mcp-server', '--transport', 'http', '--addr', addr]);
      expect(r.code).toBe(2);
      const line = JSON.parse(r.stderr.trim().split('\n').pop()!) as {
        error: { message: string; context: { reason: string } };
      };
      expect(line.error.context.reason).toBe('loopback_spelling');
      expect(line.error.message).toMatch(why);
      expect(line.error.message).not.toMatch(/not a loopback address/);
    }, 30_000);
  }
});

describe.concurrent('item 8: bearer-token authentication', () => {
  it('--token-file: no Authorization → 401 WWW-Authenticate: Bearer + JSON-RPC body; a wrong token → 401 invalid_token; the right one → the SDK client works', async () => {
    const server = await startServer(['--token-file', tokenFile]);
    try {
      const none = await post(server.url, JSON.parse(init));
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(jsonRpcError(none).code).toBe(-32001);
      const wrong = await post(
        server.url,
        JSON.parse(init),
        postHeaders({ authorization: `Bearer ${TOKEN.slice(0, -1)}x` }),
      );
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
      // raw socket: a GET without the token is refused the same way
      const get = await rawHttp(
        server.port,
        `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\naccept: text/event-stream\r\nconnection: close\r\n\r\n`,
      );
      expect(get.status).toBe(401);
      expect(get.head).toMatch(/www-authenticate: Bearer/i);
      const client = new Client({ name: 'perimeter', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
        }),
      );
      const r = await client.callTool({ name: 'pong', arguments: {} });
      expect(dataOf({ result: r as never })).toEqual({ pong: true });
      await client.close();
    } finally {
      await server.stop();
    }
  }, 30_000);

  it('$AX_MCP_TOKEN works like --token-file; stateless mode checks it too', async () => {
    const server = await startServer(['--stateless'], { env: { AX_MCP_TOKEN: TOKEN } });
    try {
      expect((await post(server.url, callBody(1, 'pong'))).status).toBe(401);
      const ok = await post(server.url, callBody(1, 'pong'), postHeaders({ authorization: `Bearer ${TOKEN}` }));
      expect(ok.status).toBe(200);
      // the secret stops at the server: no handler, and no child it starts, can read it
      const seen = await post(server.url, callBody(2, 'token-seen'), postHeaders({ authorization: `Bearer ${TOKEN}` }));
      expect(dataOf(seen.messages.find((m) => m.id === 2)), seen.text).toEqual({
        ctx: null,
        process: null,
        child: null,
      });
    } finally {
      await server.stop();
    }
  }, 30_000);

  it('--print-config prints the Authorization header for clients that take one', async () => {
    const r = await runFixture([
      'mcp-server',
      '--print-config',
      '--transport',
      'http',
      '--addr',
      '127.0.0.1:8080',
      '--token-file',
      tokenFile,
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      mcpServers: {
        httpcli: { type: 'http', url: 'http://127.0.0.1:8080/mcp', headers: { Authorization: `Bearer ${TOKEN}` } },
      },
    });
  }, 30_000);

  it('fail-closed: a non-loopback bind without a token → exit 2 token_required; a short token or a missing file → exit 2 invalid_token', async () => {
    const cases: [string[], string][] = [
      [['--addr', '0.0.0.0:0', '--allow-non-loopback'], 'token_required'],
      [['--token-file', join(dir, 'missing')], 'invalid_token'],
    ];
    cases.push([['--token-file', dir], 'invalid_token']); // a directory is no token file
    const short = join(dir, 'short');
    writeFileSync(short, 'abc\n', { mode: 0o600 });
    cases.push([['--token-file', short], 'invalid_token']);
    // a secret file others may read or write is refused, as OpenSSH refuses such a private key
    for (const mode of [0o644, 0o666, 0o640, 0o604]) {
      const loose = join(dir, `token-${mode.toString(8)}`);
      writeFileSync(loose, `${TOKEN}\n`);
      chmodSync(loose, mode);
      cases.push([['--token-file', loose], 'insecure_token_file']);
    }
    if (process.getuid?.() === 0) {
      // root reading a file another user owns (and could rewrite at will)
      const theirs = join(dir, 'token-nobody');
      writeFileSync(theirs, `${TOKEN}\n`, { mode: 0o600 });
      chownSync(theirs, 65534, 65534);
      cases.push([['--token-file', theirs], 'insecure_token_file']);
    }
    for (const [args, reason] of cases) {
      const r = await runFixture(['mcp-server', '--transport', 'http', '--addr', '127.0.0.1:0', ...args]);
      expect(r.code, r.stderr).toBe(2);
      expect(
        (JSON.parse(r.stderr.trim().split('\n').pop()!) as { error: { context: { reason: string } } }).error.context
          .reason,
      ).toBe(reason);
    }
  }, 60_000);
});
