/**
 * Held connections (docs/mcp-server.md#held-connections): a client that never finishes its headers or
 * its body is answered 408 and cut once the bound passes; a body whose Content-Length is over the
 * limit gets its 413 at once, before any byte of it; a cap on open connections; and while many
 * clients stall, another is served as usual.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { callBody, killAll, post, postHeaders, startServer } from '../fixtures/http-harness.ts';

afterAll(killAll);

/** A raw connection that records what the server sends and when it closes. */
async function raw(
  port: number,
  send: string,
): Promise<{ socket: Socket; got: () => string; closed: Promise<number>; answered: Promise<number> }> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((r, j) => socket.once('connect', r).once('error', j));
  let got = '';
  socket.setEncoding('latin1').on('data', (c: string) => (got += c));
  const started = Date.now();
  const closed = new Promise<number>((r) => socket.once('close', () => r(Date.now() - started)));
  const answered = new Promise<number>((r) => socket.once('data', () => r(Date.now() - started)));
  socket.on('error', () => {});
  if (send) socket.write(send);
  return { socket, got: () => got, closed, answered };
}

const HEAD = 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n';
const JSON_HEAD = `${HEAD}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n`;

describe('held connections', () => {
  it('a Content-Length over --max-body is answered 413 at once, before the body is sent', async () => {
    const server = await startServer(['--max-body', '1000']);
    try {
      const c = await raw(server.port, `${JSON_HEAD}Content-Length: 100000000\r\n\r\n`);
      // liveness, not speed: the answer comes before any byte of the body (the old code waited for them)
      expect(await c.answered).toBeLessThan(3_000);
      expect(c.got()).toMatch(/^HTTP\/1\.1 413 /);
      expect(c.got()).toContain('Payload Too Large: Request body must not exceed 1000 bytes');
      // the connection closes once the linger (5 s) passes without the body
      expect(await c.closed).toBeLessThan(8_000);
    } finally {
      await server.stop();
    }
  }, 30_000);

  it('stalled clients (headers never ended, a body never sent) get 408 and are cut; meanwhile another client is served', async () => {
    const server = await startServer(['--stateless'], {
      env: { HTTPCLI_SERVE: JSON.stringify({ headersTimeoutMs: 1_500, requestTimeoutMs: 3_000 }) },
    });
    try {
      expect((await post(server.url, callBody(0, 'pong'), postHeaders())).status).toBe(200); // warm
      const stalled = await Promise.all([
        ...Array.from({ length: 25 }, () => raw(server.port, HEAD)),
        ...Array.from({ length: 25 }, () => raw(server.port, `${JSON_HEAD}Content-Length: 100\r\n\r\n{"jsonrpc"`)),
      ]);
      const t0 = performance.now();
      const ok = await post(server.url, callBody(1, 'pong'), postHeaders());
      const servedMs = performance.now() - t0;
      expect(ok.status).toBe(200);
      expect(ok.text).toContain('pong');
      // liveness, not speed: the 51st client is not queued behind the 50 stalled ones
      expect(servedMs).toBeLessThan(1_500);
      console.log(`held connections: 50 stalled, the 51st served in ${servedMs.toFixed(1)} ms`);
      const closedAfter = await Promise.all(stalled.map((c) => c.closed));
      for (const [i, c] of stalled.entries()) expect(c.got(), `client ${i}`).toMatch(/^HTTP\/1\.1 408 /);
      expect(Math.max(...closedAfter)).toBeLessThan(8_000);
    } finally {
      await server.stop();
    }
  }, 40_000);

  it('past maxConnections a new connection is closed unanswered; once the held ones are cut, clients are served again', async () => {
    const server = await startServer(['--stateless'], {
      env: { HTTPCLI_SERVE: JSON.stringify({ maxConnections: 4, headersTimeoutMs: 1_500 }) },
    });
    try {
      const held = await Promise.all(Array.from({ length: 4 }, () => raw(server.port, HEAD)));
      const extra = await raw(server.port, '');
      await extra.closed;
      expect(extra.got()).toBe('');
      await Promise.all(held.map((c) => c.closed));
      const ok = await post(server.url, callBody(1, 'pong'), postHeaders());
      expect(ok.status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 30_000);

  it('serve() refuses a bound that is not a positive integer (exit 2, invalid_flag_value)', async () => {
    await expect(
      startServer([], { env: { HTTPCLI_SERVE: JSON.stringify({ requestTimeoutMs: 0 }) }, timeoutMs: 10_000 }),
    ).rejects.toThrow(/requestTimeoutMs must be a positive integer/);
  }, 30_000);
});
