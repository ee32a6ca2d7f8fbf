/**
 * Printed output (docs/mcp-server.md#printed-output): what a handler prints with `console.log` or
 * `process.stdout.write` during a tool call reaches the caller as a text item after the result's
 * first, on every MCP path and in both protocol eras — never the protocol stream (stdio), never the
 * server's own stdout (HTTP), never lost (a print after the call was answered goes where a print
 * outside a call goes). Real servers of the cases fixture, real SDK clients.
 */
import { describe, expect, it } from 'vitest';
import { envelopeOf, eraServers, PATHS_BY_ERAS } from '../helpers/eras.ts';
import { CASES_CLI, isJsonRpc, rawStdio } from '../helpers/mcp.ts';

const T = 60_000;
const servers = eraServers(CASES_CLI);

const texts = (r: Record<string, any>) => (r.content as { type: string; text: string }[]).map((c) => c.text);

describe.each(PATHS_BY_ERAS)('printed output over %s, %s era', (path, era) => {
  const connect = () => servers.connect(era, path);

  it(
    'a success carries the result first, then what was printed; a failure the error line, then the prints',
    async () => {
      const c = await connect();
      try {
        const ok = await c.callTool('printer', { mode: 'ok' });
        expect(ok.isError).toBeFalsy();
        expect(envelopeOf(ok).data).toEqual({ mode: 'ok' });
        expect(texts(ok).slice(1)).toEqual(['printed line one\nprinted two\n']);

        const split = await c.callTool('printer', { mode: 'split' });
        expect(texts(split)[1]).toBe('printed line one\ncafé\nprinted two\n');

        const failed = await c.callTool('printer', { mode: 'fail' });
        expect(failed.isError).toBe(true);
        expect(envelopeOf(failed).error.kind).toBe('not_found');
        expect(texts(failed).slice(1)).toEqual(['printed line one\nprinted two\n']);

        // a call that prints nothing has one item, as before
        const quiet = await c.callTool('later');
        expect(texts(quiet)).toHaveLength(1);
      } finally {
        await c.close();
      }
      if (path !== 'stdio') expect(servers.server(path).stdout()).not.toContain('printed line one');
    },
    T,
  );
});

describe('printed output: bounds and late prints', () => {
  it(
    'over the bound, the result keeps the first MiB and says how much went to the server’s own output',
    async () => {
      const c = await servers.connect('modern', 'http');
      try {
        const big = await c.callTool('printer', { mode: 'big' });
        const printed = texts(big)[1]!;
        expect(printed.length).toBeLessThan((1 << 20) + 200);
        expect(printed).toMatch(/\[printed output truncated: \d+ more characters went to the server's own output\]$/);
      } finally {
        await c.close();
      }
    },
    T,
  );

  it(
    'stdio: the prints are in the result, not on stderr; a print after the answer goes to stderr; stdout is pure JSON-RPC',
    async () => {
      const s = rawStdio();
      try {
        await s.init();
        const r = await s.request(2, 'tools/call', { name: 'printer', arguments: {} });
        expect(texts(r.result as Record<string, any>)[1]).toBe('printed line one\nprinted two\n');
        await s.request(3, 'tools/call', { name: 'later', arguments: {} });
        await new Promise((res) => setTimeout(res, 200));
        expect(s.stderr()).not.toContain('printed line one');
        expect(s.stderr()).toContain('late\n');
        for (const line of s.lines) expect(isJsonRpc(JSON.parse(line)), line.slice(0, 200)).toBe(true);
      } finally {
        s.kill();
      }
    },
    T,
  );
});
