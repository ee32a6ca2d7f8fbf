/**
 * Resumable HTTP streams: a client whose SSE stream drops mid-call reconnects with Last-Event-ID and
 * loses no progress notification and not the result (the per-session event store), through a real
 * TCP proxy that cuts the connection; and the event store's own bounds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { EventStore as SdkEventStore } from '@modelcontextprotocol/server';
import { MemoryEventStore, type EventStore } from '../../mcp/index.ts';
import { envelopeOf, REPO, TSX_LOADER } from '../helpers/mcp.ts';
import {
  callBody,
  killAll,
  PROTOCOL_VERSION,
  post,
  postHeaders,
  rawInitialize,
  startServer,
} from '../fixtures/http-harness.ts';

// ax-ts declares EventStore itself (a program's type-check needs no SDK): the SDK must take it as its
// own, and it must describe the SDK's; `npm run typecheck` fails otherwise
export const eventStoreMatchesSdk: [
  EventStore extends SdkEventStore ? true : never,
  SdkEventStore extends EventStore ? true : never,
] = [true, true];

const CLI = `${REPO}/test/fixtures/ask-cli.ts`;
const cleanup: (() => void)[] = [];
afterAll(() => cleanup.forEach((f) => f()));

/** A TCP proxy to `port` that can cut every connection open now; records what clients sent. */
async function proxy(port: number): Promise<{ url: (path: string) => string; cut(): void; sent: string[] }> {
  const open = new Set<Socket>();
  const sent: string[] = [];
  const server: Server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    open.add(client);
    client.on('data', (c) => sent.push(c.toString('latin1')));
    client.pipe(upstream).pipe(client);
    const end = () => {
      open.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(() => server.close());
  const p = (server.address() as { port: number }).port;
  return { url: (path) => `http://127.0.0.1:${p}${path}`, cut: () => [...open].forEach((s) => s.destroy()), sent };
}

describe('resumable streams (stateful HTTP)', () => {
  it('a stream cut mid-call is resumed with Last-Event-ID: every progress and the result arrive', async () => {
    const proc: ChildProcess = spawn(
      process.execPath,
      ['--import', TSX_LOADER, CLI, 'mcp-server', '--transport', 'http', '--addr', '127.0.0.1:0'],
      { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    cleanup.push(() => proc.kill('SIGKILL'));
    let err = '';
    const port = await new Promise<number>((resolve) =>
      proc.stderr!.setEncoding('utf8').on('data', (c: string) => {
        err += c;
        const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(err);
        if (m) resolve(Number(m[1]));
      }),
    );
    const px = await proxy(port);
    const client = new Client({ name: 'resume', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(px.url('/mcp')), {
        reconnectionOptions: {
          initialReconnectionDelay: 50,
          maxReconnectionDelay: 400,
          reconnectionDelayGrowFactor: 1.5,
          maxRetries: 10,
        },
      }),
    );
    const progress: number[] = [];
    let cuts = 0;
    const r = await client.callTool({ name: 'slow', arguments: {} }, undefined, {
      onprogress: (p) => {
        progress.push(p.progress);
        if (p.progress === 2 && cuts++ === 0) px.cut(); // the POST's SSE stream drops after step 2
      },
      timeout: 20_000,
    });
    expect(cuts).toBe(1);
    expect(progress).toEqual([1, 2, 3, 4, 5]);
    expect(envelopeOf(r as { content?: unknown }).data).toEqual({ steps: 5 });
    // the client came back with a GET carrying the id of the last event it had seen
    expect(px.sent.some((t) => t.startsWith('GET /mcp') && /\r\nlast-event-id: \S+/i.test(t))).toBe(true);
    await client.close();
    expect(err.trim().split('\n')).toHaveLength(1); // nothing logged but the listening line
  }, 30_000);
});

describe('one event store shared by every session (an author plugging in one store)', () => {
  afterAll(killAll);
  it("a session cannot resume another session's stream: its Last-Event-ID is refused, nothing replayed", async () => {
    const server = await startServer([], { env: { HTTPCLI_SERVE: '{"sharedEvents":true}' } });
    try {
      const a = await rawInitialize(server.url);
      const ha = postHeaders({ 'mcp-session-id': a.sessionId! });
      const call = await post(server.url, callBody(3, 'echo', { text: 'secret-of-a' }), ha);
      expect(call.text).toContain('secret-of-a');
      const ids = [...call.text.matchAll(/^id: ?(.+)$/gm)].map((m) => m[1]!.trim());
      expect(ids.length).toBeGreaterThan(0);
      // ids are not small integers one could count through
      for (const id of ids) expect(id).not.toMatch(/^\d+$/);
      const b = await rawInitialize(server.url);
      for (const id of [ids[0]!, '1', '0']) {
        const res = await fetch(server.url, {
          headers: {
            accept: 'text/event-stream',
            'mcp-session-id': b.sessionId!,
            'mcp-protocol-version': PROTOCOL_VERSION,
            'last-event-id': id,
          },
          signal: AbortSignal.timeout(5_000),
        });
        expect(res.status, `Last-Event-ID ${id}`).toBe(400);
        expect(await res.text()).not.toContain('secret-of-a');
      }
    } finally {
      await server.stop();
    }
  }, 30_000);
});

describe('MemoryEventStore', () => {
  const msg = (n: number) => ({
    jsonrpc: '2.0' as const,
    method: 'notifications/progress',
    params: { progressToken: 1, progress: n },
  });

  it('replays what came after an id, on that stream only, skipping priming events', async () => {
    const s = new MemoryEventStore();
    const prime = await s.storeEvent('a', {} as never);
    await s.storeEvent('a', msg(1));
    await s.storeEvent('b', msg(99));
    const two = await s.storeEvent('a', msg(2));
    await s.storeEvent('a', msg(3));
    const got: unknown[] = [];
    expect(
      await s.replayEventsAfter(prime, {
        send: async (_id, m) => void got.push((m as unknown as { params: { progress: number } }).params.progress),
      }),
    ).toBe('a');
    expect(got).toEqual([1, 2, 3]);
    got.length = 0;
    await s.replayEventsAfter(two, {
      send: async (_id, m) => void got.push((m as unknown as { params: { progress: number } }).params.progress),
    });
    expect(got).toEqual([3]);
    expect(await s.getStreamIdForEventId(two)).toBe('a');
  });

  it('keeps at most maxEvents (oldest dropped) and nothing older than ttlMs', async () => {
    const s = new MemoryEventStore({ maxEvents: 3 });
    const first = await s.storeEvent('a', msg(1));
    for (let i = 2; i <= 5; i++) await s.storeEvent('a', msg(i));
    expect(s.size).toBe(3);
    expect(await s.getStreamIdForEventId(first)).toBeUndefined();
    const old = new MemoryEventStore({ ttlMs: 30 });
    await old.storeEvent('a', msg(1));
    await new Promise((r) => setTimeout(r, 60));
    await old.storeEvent('a', msg(2));
    expect(old.size).toBe(1);
  });
});
