/**
 * stdio (docs/mcp-server.md#stdio): JSON-RPC ids identify requests, so a request that reuses the id
 * of one still in flight is answered -32600 (Invalid Request, saying the id is in use) and not run;
 * the request in flight is answered once, as if the duplicate never came. In both protocol eras.
 * A real server of the native fixture, driven byte by byte.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { MODERN } from '../helpers/eras.ts';
import { rawStdio, REPO, type RawMessage } from '../helpers/mcp.ts';

const CLI = join(REPO, 'test/fixtures/native-cli.ts');
const dir = mkdtempSync(join(tmpdir(), 'ax-dup-id-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

describe.each(['legacy', 'modern'] as const)('a duplicate id in flight, %s era', (era) => {
  it('is refused with -32600 and not run; the first request is answered once', async () => {
    const ran = join(dir, era);
    const s = rawStdio(['mcp-server'], { cli: CLI, env: { NATIVE_DIR: ran } });
    try {
      const meta = era === 'modern' ? { _meta: META } : {};
      if (era === 'legacy') await s.init();
      mkdirSync(ran);
      const call = (tag: string) => ({
        jsonrpc: '2.0',
        id: 'dup',
        method: 'tools/call',
        params: { name: 'slow', arguments: { tag, ms: 800 }, ...meta },
      });
      /** Every line answering 'dup' so far, in order, once there are `n` of them (or 5 s have passed). */
      const answers = async (n: number): Promise<RawMessage[]> => {
        const all = () => s.lines.map((l) => JSON.parse(l) as RawMessage).filter((m) => m.id === 'dup');
        for (const until = Date.now() + 5000; all().length < n && Date.now() < until;) await sleep(50);
        return all();
      };
      s.send(call('first'));
      s.send(call('second'));
      await answers(2);
      await sleep(500); // a third answer, had the duplicate been run, would have come by now
      const got = await answers(2);
      expect(got).toHaveLength(2);
      expect(got[0]!.error).toMatchObject({ code: -32600 });
      expect((got[0]!.error as { message: string }).message).toMatch(
        /the id "dup" is in use by a request still in flight; this request was not run/,
      );
      const text = (m: RawMessage) => (m.result as { content: { text: string }[] }).content[0]!.text;
      expect(JSON.parse(text(got[1]!)).data).toEqual({ tag: 'first' });
      expect(readFileSync(join(ran, 'ran'), 'utf8')).toBe('first\n');
      // once answered, the id is free again
      s.send(call('third'));
      const third = (await answers(3))[2];
      expect(third && JSON.parse(text(third)).data).toEqual({ tag: 'third' });
    } finally {
      s.kill();
    }
  }, 60_000);
});
