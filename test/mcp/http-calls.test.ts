/**
 * Tool calls over Streamable HTTP against the real `mcp-server` process with the SDK's
 * `StreamableHTTPClientTransport`: misbehaving handlers do not take the server down,
 * progress, responsiveness and cancellation of long commands, and 16 parallel calls that
 * each get their own arguments back (docs/mcp-server.md).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  killAll,
  post,
  postHeaders,
  rawInitialize,
  startServer,
  type RunningServer,
} from '../fixtures/http-harness.ts';

let server: RunningServer;
let client: Client;
let dir: string;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function call(name: string, args: Record<string, unknown> = {}, c: Client = client): Promise<CallToolResult> {
  return (await c.callTool({ name, arguments: args })) as CallToolResult;
}

function textOf(r: CallToolResult): string {
  const first = r.content[0];
  if (!first || first.type !== 'text') throw new Error(`no text content: ${JSON.stringify(r)}`);
  return first.text;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ax-http-calls-'));
  server = await startServer();
  client = new Client({ name: 'ax-ts-http-calls', version: '0.0.1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
}, 30_000);

afterAll(async () => {
  await client?.close().catch(() => {});
  await server?.stop();
  killAll();
  rmSync(dir, { recursive: true, force: true });
});

describe('B15 over HTTP: throwing and late-rejecting handlers', () => {
  it('bad-throw, bad-sync → isError with readable text; bad-late succeeds; after 100 ms the server is alive, ok and ping answer', async () => {
    const thrown = await call('bad-throw');
    expect(thrown.isError).toBe(true);
    expect(textOf(thrown)).toContain('42');
    expect(textOf(thrown)).not.toContain('[object Object]');
    const env = JSON.parse(textOf(thrown));
    expect(env.error.kind).toBe('internal_error');

    const sync = await call('bad-sync');
    expect(sync.isError).toBe(true);
    expect(textOf(sync)).toContain('thrown synchronously');

    const late = await call('bad-late');
    expect(late.isError ?? false).toBe(false);
    expect(JSON.parse(textOf(late)).data).toEqual({ ok: true });

    await sleep(100);
    expect(server.proc.exitCode).toBeNull();
    expect(server.proc.signalCode).toBeNull();
    const ok = await call('ok');
    expect(ok.isError ?? false).toBe(false);
    expect(JSON.parse(textOf(ok)).data).toEqual({ ok: true });
    await expect(client.ping()).resolves.toBeDefined();

    // the stray rejection was logged on stderr, readably
    await sleep(50);
    expect(server.stderr()).toMatch(/unhandled rejection.*bad-late: stray rejection/);
  });

  it('an unknown tool is a JSON-RPC error (or isError), and the session goes on', async () => {
    const outcome = await call('no-such-tool').then(
      (r) => ({ isError: r.isError === true, text: textOf(r) }),
      (e: Error) => ({ isError: true, text: e.message }),
    );
    expect(outcome.isError).toBe(true);
    expect(outcome.text).toMatch(/no-such-tool/);
    expect(JSON.parse(textOf(await call('ok'))).data).toEqual({ ok: true });
  });
});

describe('B21 over HTTP: progress, responsiveness, cancellation', () => {
  it('with onprogress (the SDK sends a progressToken): ≥3 increasing notifications, then the result', async () => {
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const r = (await client.callTool({ name: 'build', arguments: { seconds: 5, tick_ms: 100 } }, CallToolResultSchema, {
      onprogress: (p) => seen.push(p),
    })) as CallToolResult;
    expect(r.isError ?? false).toBe(false);
    expect(JSON.parse(textOf(r)).data).toEqual({ built: true, ticks: 5 });
    expect(seen.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.progress).toBeGreaterThan(seen[i - 1]!.progress);
    expect(seen.at(-1)).toMatchObject({ progress: 5, total: 5 });
  });

  it('raw: progressToken "p1" is echoed in every notifications/progress on the POST stream; no token → no progress', async () => {
    const { sessionId } = await rawInitialize(server.url);
    const h = postHeaders({ 'mcp-session-id': sessionId! });
    const withToken = await post(
      server.url,
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'build', arguments: { seconds: 4, tick_ms: 50 }, _meta: { progressToken: 'p1' } },
      },
      h,
    );
    expect(withToken.status).toBe(200);
    const notes = withToken.messages.filter((m) => m.method === 'notifications/progress');
    expect(notes.length).toBeGreaterThanOrEqual(3);
    for (const n of notes) expect(n.params.progressToken).toBe('p1');
    expect(notes.map((n) => n.params.progress)).toEqual([1, 2, 3, 4]);
    expect(withToken.messages.at(-1)).toMatchObject({ id: 7, result: { content: [{ type: 'text' }] } });

    const without = await post(
      server.url,
      {
        jsonrpc: '2.0',
        id: 8,
        method: 'tools/call',
        params: { name: 'build', arguments: { seconds: 3, tick_ms: 30 } },
      },
      h,
    );
    expect(without.messages.filter((m) => m.method === 'notifications/progress')).toEqual([]);
    expect(without.messages).toHaveLength(1);
    expect(without.messages[0].id).toBe(8);
  });

  it('a slow call does not hold up pong or ping', async () => {
    const order: string[] = [];
    const slow = call('build', { seconds: 15, tick_ms: 100 }).then((r) => {
      order.push('build');
      return r;
    });
    await sleep(300);
    const pong = await call('pong');
    order.push('pong');
    await client.ping();
    order.push('ping');
    expect(JSON.parse(textOf(pong)).data).toEqual({ pong: true });
    expect(order).toEqual(['pong', 'ping']);
    expect(JSON.parse(textOf(await slow)).data).toEqual({ built: true, ticks: 15 });
    expect(order).toEqual(['pong', 'ping', 'build']);
  });

  it('cancelling via AbortSignal (notifications/cancelled) aborts the handler: the marker file is never written', async () => {
    const marker = join(dir, 'built-cancelled');
    const ac = new AbortController();
    const seen: number[] = [];
    const pending = client.callTool(
      { name: 'build', arguments: { seconds: 10, tick_ms: 100, marker } },
      CallToolResultSchema,
      {
        signal: ac.signal,
        onprogress: (p) => seen.push(p.progress),
      },
    );
    await sleep(450);
    ac.abort('test cancels');
    await expect(pending).rejects.toThrow();
    // wait well past the time the command would have needed to finish (1 s)
    await sleep(1800);
    expect(existsSync(marker)).toBe(false);
    expect(seen.length).toBeLessThan(10);
    // an uncancelled run of the same command does write it (the marker path works)
    const done = join(dir, 'built-done');
    await call('build', { seconds: 2, tick_ms: 50, marker: done });
    expect(existsSync(done)).toBe(true);
  });

  it('cancellation over raw HTTP: after notifications/cancelled no successful result arrives for the request', async () => {
    const { sessionId } = await rawInitialize(server.url);
    const h = postHeaders({ 'mcp-session-id': sessionId! });
    const marker = join(dir, 'built-raw');
    const ac = new AbortController();
    const res = fetch(server.url, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 77,
        method: 'tools/call',
        params: { name: 'build', arguments: { seconds: 10, tick_ms: 100, marker }, _meta: { progressToken: 'p77' } },
      }),
      signal: ac.signal,
    });
    await sleep(400);
    const cancel = await post(
      server.url,
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 77, reason: 'test' } },
      h,
    );
    expect(cancel.status).toBe(202);
    // read whatever the stream still carries for a while: no result for #77
    const body = await Promise.race([res.then((r) => r.text()), sleep(2000).then(() => 'TIMEOUT')]);
    ac.abort();
    if (body !== 'TIMEOUT') {
      const results = body
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => JSON.parse(l.slice(5)))
        .filter((m) => m.id === 77 && m.result && !m.result.isError);
      expect(results).toEqual([]);
    }
    await sleep(200);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('concurrency', () => {
  it('16 parallel calls each get their own arguments back', async () => {
    const calls = Array.from({ length: 16 }, (_, i) =>
      call('echo', { text: `call-${i}-${'ü'.repeat(i)}`, delay_ms: (16 - i) * 5 }).then((r) => [i, r] as const),
    );
    const results = await Promise.all(calls);
    for (const [i, r] of results) {
      expect(r.isError ?? false).toBe(false);
      expect(JSON.parse(textOf(r)).data.text).toBe(`call-${i}-${'ü'.repeat(i)}`);
    }
  });

  it('16 parallel calls spread over 4 sessions stay isolated', async () => {
    const clients = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const c = new Client({ name: 'ax-ts-http-par', version: '0.0.1' });
        await c.connect(new StreamableHTTPClientTransport(new URL(server.url)));
        return c;
      }),
    );
    try {
      const calls = Array.from({ length: 16 }, (_, i) =>
        call('echo', { text: `s${i % 4}-${i}`, delay_ms: (i * 7) % 30 }, clients[i % 4]).then((r) => [i, r] as const),
      );
      for (const [i, r] of await Promise.all(calls)) expect(JSON.parse(textOf(r)).data.text).toBe(`s${i % 4}-${i}`);
    } finally {
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
    }
  });
});
