/**
 * A tool call's result is bounded (docs/mcp-server.md#result-size): a stream that never ends is
 * stopped once its items pass 8 MiB of JSON, with `result_too_large` naming the limit — on every MCP
 * path and in both protocol eras; the server's answer stays bounded instead of growing until the
 * timeout or out of memory. Real servers of the native fixture, real SDK clients.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envelopeOf, eraServers, PATHS_BY_ERAS } from '../helpers/eras.ts';
import { REPO } from '../helpers/mcp.ts';

const NATIVE_CLI = join(REPO, 'test/fixtures/native-cli.ts');
const T = 60_000;
const LIMIT = 1 << 23;
const servers = eraServers(NATIVE_CLI);

describe.each(PATHS_BY_ERAS)('result size over %s, %s era', (path, era) => {
  it(
    'a stream that never ends stops at the bound with result_too_large, the limit in context',
    async () => {
      const c = await servers.connect(era, path);
      try {
        const r = await c.callTool('forever');
        expect(r.isError).toBe(true);
        const { error } = envelopeOf(r);
        expect(error.kind).toBe('result_too_large');
        expect(error.exit_code).toBe(1);
        expect(error.context).toMatchObject({ limit_chars: LIMIT });
        expect(error.context.items_delivered).toBeGreaterThan(1000);
        expect(error.message).toContain(String(LIMIT));
        // what was delivered before the stop is there, bounded by the limit
        const delivered = (r.content as { text: string }[])[1]!.text;
        expect(delivered.length).toBeLessThanOrEqual(LIMIT);
        expect(delivered.length).toBeGreaterThan(LIMIT - 4096);
        // the server still answers
        expect(envelopeOf(await c.callTool('limited', { limit: 3 })).data).toEqual({ limit: 3 });
      } finally {
        await c.close();
      }
    },
    T,
  );
});
