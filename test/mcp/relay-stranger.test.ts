/**
 * The stdio relay's abstract socket has no file permissions (docs/security.md#what-the-stdio-relay-trusts):
 * another local user can connect to it. Such a stranger — connecting first, holding its connection
 * open, sending a wrong token — must neither block the server nor take the client's connection.
 * Run as another user (`nobody` through runuser), so this needs root on Linux, as `.ci/run` is.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASES_CLI, TSX_LOADER } from '../helpers/mcp.ts';

const root = process.platform === 'linux' && process.getuid?.() === 0;

// Watches /proc/net/unix for the relay's abstract name; on each new one opens a connection that says
// nothing, one that sends a wrong token and one that sends a long line; reports what happened to them.
const STRANGER = `
const net = require('node:net'), fs = require('node:fs');
const seen = new Set(), events = [];
const report = () => { process.stdout.write(JSON.stringify(events) + '\\n'); process.exit(0); };
process.on('SIGTERM', report);
const poll = setInterval(() => {
  for (const line of fs.readFileSync('/proc/net/unix', 'utf8').split('\\n')) {
    const name = line.split(' ').pop();
    if (!name || !name.startsWith('@ax-mcp-') || seen.has(name)) continue;
    seen.add(name);
    for (const [kind, send] of [['silent', ''], ['wrong', '0'.repeat(32) + '\\n'], ['long', 'x'.repeat(4096)]]) {
      const s = net.createConnection({ path: '\\0' + name.slice(1) });
      const t0 = Date.now();
      s.on('connect', () => { events.push({ name, kind, ev: 'connect' }); if (send) s.write(send); });
      s.on('data', () => events.push({ name, kind, ev: 'data' }));
      s.on('error', (e) => events.push({ name, kind, ev: 'error', code: e.code }));
      s.on('close', () => events.push({ name, kind, ev: 'close', ms: Date.now() - t0 }));
    }
  }
}, 1);
process.stdout.write('watching\\n');
`;

describe.skipIf(!root)('the stdio relay socket, reached by another local user', () => {
  it('a stranger connecting first (silent, wrong token, long line) is closed; the client is served', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ax-relay-'));
    const stranger = spawn('runuser', ['-u', 'nobody', '--', process.execPath, '-e', STRANGER], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      stranger.stdout.on('data', (c: Buffer) => (out += c.toString()));
      await new Promise<void>((resolve, reject) => {
        stranger.stdout.on('data', () => out.includes('watching') && resolve());
        stranger.once('exit', (code) => reject(new Error(`the stranger exited (${code}) before watching`)));
      });
      // stdin a TCP socket (not a pipe: the relayed mode) that stays open until the test ends it
      const tcp = createServer();
      await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
      const client = createConnection((tcp.address() as AddressInfo).port, '127.0.0.1');
      const [peer] = await Promise.all([
        new Promise<Socket>((r) => tcp.once('connection', r)),
        new Promise((r) => client.once('connect', r)),
      ]);
      tcp.close();
      const server = spawn(process.execPath, ['--import', TSX_LOADER, CASES_CLI, 'mcp-server'], {
        stdio: [client, 'pipe', 'pipe'],
        env: { ...process.env, YC_DIR: dir },
      });
      client.destroy();
      const init = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } };
      for (const m of [
        { jsonrpc: '2.0', id: 1, method: 'initialize', params: init },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
      ])
        peer.write(`${JSON.stringify(m)}\n`);
      // the server stays up well past the stranger's deadline, so a connection left open would show
      setTimeout(() => peer.end(), 6_000);
      let stdout = '';
      let stderr = '';
      server.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      server.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const code = await new Promise<number | null>((r) => server.once('exit', r));
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const ids = stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { id: number; result?: object }).id);
      expect(ids).toEqual([1, 2]);
      stranger.kill('SIGTERM');
      await new Promise((r) => stranger.once('exit', r));
      const events = JSON.parse(out.slice(out.indexOf('\n') + 1).trim()) as {
        name: string;
        kind: string;
        ev: string;
        ms?: number;
      }[];
      // every relay it found (other tests' servers may run at the same time: each must hold too)
      const names = [...new Set(events.map((e) => e.name))];
      expect(names.length).toBeGreaterThan(0);
      for (const name of names)
        for (const kind of ['silent', 'wrong', 'long']) {
          const mine = events.filter((e) => e.name === name && e.kind === kind);
          // it got in before the server process (so the test proves something), saw no byte, and was closed…
          expect(mine.map((e) => e.ev)).toEqual(['connect', 'close']);
          // …by the relay (at once or at its deadline), not by the supervisor's exit 6 s later
          expect(mine[1]!.ms).toBeLessThan(4_000);
        }
    } finally {
      stranger.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
