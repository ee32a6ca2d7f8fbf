/**
 * Life of the HTTP server process (docs/mcp-server.md): graceful shutdown on SIGTERM and SIGINT (prompt exit,
 * port closed, in-flight calls aborted), and fail-closed startup — a non-loopback bind without
 * `--allow-non-loopback` or an unparsable address exits 2 with a `validation_error` line before
 * any socket opens.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  initializeBody,
  killAll,
  portOpen,
  post,
  postHeaders,
  runFixture,
  startServer,
} from '../fixtures/http-harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'ax-http-life-'));

afterAll(() => {
  killAll();
  rmSync(dir, { recursive: true, force: true });
});

/** A port that was free a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function lastJsonLine(stderr: string): any {
  const lines = stderr.trimEnd().split('\n');
  return JSON.parse(lines.at(-1)!);
}

/**
 * Exit codes of a graceful stop: SIGTERM ends the server normally (0); SIGINT is an interruption of
 * the `mcp-server` run like any other (docs/contract.md: 130, with an `interrupted` error line), after the
 * same graceful shutdown.
 */
const EXIT = { SIGTERM: 0, SIGINT: 130 } as const;

describe('graceful shutdown', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} on an idle server: exits ${EXIT[signal]} within 2 s and the port is closed`, async () => {
      const server = await startServer();
      expect(await portOpen(server.port)).toBe(true);
      const t0 = Date.now();
      const { code, signal: killedBy } = await server.stop(signal);
      const took = Date.now() - t0;
      expect(killedBy).toBeNull();
      expect(code).toBe(EXIT[signal]);
      expect(took).toBeLessThan(2000);
      expect(await portOpen(server.port)).toBe(false);
      if (signal === 'SIGINT') expect(lastJsonLine(server.stderr()).error.kind).toBe('interrupted');
      else expect(server.stderr()).not.toMatch(/"error"/);
    }, 30_000);

    it(`${signal} with a connected client and a call in flight: exits within 2 s, the call is aborted`, async () => {
      const server = await startServer();
      const client = new Client({ name: 'ax-ts-http-life', version: '0.0.1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      const marker = join(dir, `built-${signal}`);
      const pending = client.callTool({ name: 'build', arguments: { seconds: 30, tick_ms: 100, marker } }).then(
        (r) => ({ ok: true as const, r }),
        (e: unknown) => ({ ok: false as const, e }),
      );
      await new Promise((r) => setTimeout(r, 300));
      const t0 = Date.now();
      const { code, signal: killedBy } = await server.stop(signal);
      const took = Date.now() - t0;
      expect(killedBy).toBeNull();
      expect(code).toBe(EXIT[signal]);
      expect(took).toBeLessThan(2000);
      expect(await portOpen(server.port)).toBe(false);
      // the aborted call still answered before the stream closed: an `interrupted` error result,
      // so the client does not wait for its request timeout
      const outcome = await pending;
      expect(outcome.ok).toBe(true);
      const r = (outcome as { r: { isError?: boolean; content: { text: string }[] } }).r;
      expect(r.isError).toBe(true);
      expect(JSON.parse(r.content[0]!.text).error.kind).toBe('interrupted');
      expect(existsSync(marker)).toBe(false);
      await client.close().catch(() => {});
    }, 30_000);
  }
});

describe('fail-closed startup', () => {
  it('--addr 0.0.0.0:PORT without --allow-non-loopback → exit 2, validation_error line on stderr, nothing listening', async () => {
    const port = await freePort();
    const r = await runFixture(['mcp-server', '--transport', 'http', '--addr', `0.0.0.0:${port}`]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(/listening/);
    const line = lastJsonLine(r.stderr);
    expect(line.error.kind).toBe('validation_error');
    expect(line.error.exit_code).toBe(2);
    expect(line.error.message).toMatch(/loopback/);
    expect(line.error.actionable_fix).toMatch(/--allow-non-loopback/);
    expect(await portOpen(port)).toBe(false);
  }, 30_000);

  for (const addr of ['nonsense', '127.0.0.1:99999', 'localhost', '127.0.0.1:port']) {
    it(`--addr ${addr} → exit 2 validation_error`, async () => {
      const r = await runFixture(['mcp-server', '--transport', 'http', '--addr', addr]);
      expect(r.code).toBe(2);
      expect(r.stderr).not.toMatch(/listening/);
      const line = lastJsonLine(r.stderr);
      expect(line.error.kind).toBe('validation_error');
      expect(line.error.message).toContain(addr);
    }, 30_000);
  }

  it('an address already in use → a clean error line, not a crash', async () => {
    const first = await startServer();
    try {
      const r = await runFixture(['mcp-server', '--transport', 'http', '--addr', `127.0.0.1:${first.port}`]);
      expect(r.code).toBe(3);
      const line = lastJsonLine(r.stderr);
      expect(line.error.kind).toBe('network_error');
      expect(line.error.message).toMatch(/cannot listen/);
      expect(line.error.context.code).toBe('EADDRINUSE');
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    } finally {
      await first.stop();
    }
  }, 30_000);

  it('with --allow-non-loopback and a token, 0.0.0.0 starts and answers on loopback', async () => {
    const token = 'a-token-of-enough-length-0123456789';
    const server = await startServer(['--allow-non-loopback'], { addr: '0.0.0.0:0', env: { AX_MCP_TOKEN: token } });
    try {
      expect(server.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/mcp$/);
      const url = `http://127.0.0.1:${server.port}/mcp`;
      const r = await post(url, initializeBody(), postHeaders({ authorization: `Bearer ${token}` }));
      expect(r.status).toBe(200);
      expect(r.messages[0].result.serverInfo.name).toBe('httpcli');
    } finally {
      const { code } = await server.stop();
      expect(code).toBe(0);
    }
  }, 30_000);
});
