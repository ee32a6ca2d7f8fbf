/**
 * A client of a newer protocol revision probes first with that revision's `server/discover`: the
 * server answers with a clean JSON-RPC error (-32022, the request's id, `data.supported` listing the
 * revisions it speaks), writes nothing on stderr, and the same client can then `initialize` as
 * usual — over stdio and over HTTP, stateful and stateless.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { rawStdio, REPO, TSX_LOADER } from '../helpers/mcp.ts';

const CLI = `${REPO}/test/fixtures/ask-cli.ts`;
const DRAFT = '2026-07-28';
const procs: ChildProcess[] = [];
afterAll(() => {
  for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
});

describe('server/discover before initialize', () => {
  it('stdio: -32022 with the supported revisions, nothing on stderr, initialize still works', async () => {
    const s = rawStdio(['mcp-server'], { cli: CLI });
    try {
      const r = await s.request(1, 'server/discover', { _meta: { 'io.modelcontextprotocol/protocolVersion': DRAFT } });
      expect(r).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32022,
          message: expect.stringContaining('send initialize'),
          data: { supported: SUPPORTED_PROTOCOL_VERSIONS },
        },
      });
      const other = await s.request(2, 'no/such/method');
      expect(other).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found' } });
      const init = await s.init();
      expect((init.result as { protocolVersion: string }).protocolVersion).toBe('2025-06-18');
      await new Promise((r) => setTimeout(r, 100));
      expect(s.stderr()).toBe('');
    } finally {
      s.kill('SIGTERM');
      await s.exited;
    }
  });

  it.each([[[]], [['--stateless']]] as const)(
    'HTTP %j: 400 with a JSON-RPC body for the request id; stderr has only the listening line',
    async (flags) => {
      const proc = spawn(
        process.execPath,
        ['--import', TSX_LOADER, CLI, 'mcp-server', '--transport', 'http', '--addr', '127.0.0.1:0', ...flags],
        { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      procs.push(proc);
      let err = '';
      const url = await new Promise<string>((resolve) =>
        proc.stderr!.setEncoding('utf8').on('data', (c: string) => {
          err += c;
          const m = /listening on (\S+)/.exec(err);
          if (m) resolve(m[1]!);
        }),
      );
      const post = (body: object, version: string) =>
        fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': version,
          },
          body: JSON.stringify(body),
        });
      const r = await post({ jsonrpc: '2.0', id: 'probe-1', method: 'server/discover', params: {} }, DRAFT);
      expect(r.status).toBe(400);
      expect(r.headers.get('content-type')).toBe('application/json');
      expect(await r.json()).toEqual({
        jsonrpc: '2.0',
        id: 'probe-1',
        error: {
          code: -32022,
          message: expect.stringContaining(`Unsupported protocol version ${DRAFT}`),
          data: { supported: SUPPORTED_PROTOCOL_VERSIONS, requested: DRAFT },
        },
      });
      // the fallback: a 2025 initialize is answered as ever
      const init = await post(
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        },
        '2025-11-25',
      );
      expect(init.status).toBe(200);
      expect(await init.text()).toContain('"protocolVersion":"2025-11-25"');
      // a client's other mistakes are answered, and not logged either
      const bad = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: '{}',
      });
      expect(bad.status).toBe(406);
      await new Promise((res) => setTimeout(res, 100));
      expect(err.trim().split('\n')).toEqual([expect.stringMatching(/^mcp-server: listening on /)]);
      proc.kill('SIGTERM');
    },
  );
});
