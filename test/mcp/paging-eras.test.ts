/**
 * Paging over MCP in both protocol eras, on every transport (docs/contract.md#paging---limit---cursor):
 * a paged tool lists `limit` and `cursor` (only it), its outputSchema is `{items, pagination}` and
 * its `structuredContent` is the page with its `meta.pagination` (which the SDK clients check against
 * that schema); the envelope's `meta.next[0]` is the tool call of the next page, run as it is; a bad
 * limit or cursor is an isError validation_error. Real SDK clients against the contract fixture
 * (test/fixtures/contract-pages.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { envelopeOf, eraServers, PATHS_BY_ERAS } from '../helpers/eras.ts';

const CONTRACT_CLI = fileURLToPath(new URL('../fixtures/contract-cli.ts', import.meta.url));
const T = 60_000;
const dir = mkdtempSync(join(tmpdir(), 'ax-paging-eras-'));
const ENV = { CONTRACT_LOG: join(dir, 'effects.log'), XDG_STATE_HOME: join(dir, 'state') };
const servers = eraServers(CONTRACT_CLI, ENV, () => rmSync(dir, { recursive: true, force: true }));

type Tool = { name: string; inputSchema: { properties?: Record<string, any> }; outputSchema?: Record<string, any> };

describe.each(PATHS_BY_ERAS)('paging over %s, %s era', (path, era) => {
  it(
    'limit and cursor on the paged tool only; structuredContent {items, pagination} as its outputSchema says; meta.next[0] is the next page',
    async () => {
      const c = await servers.connect(era, path);
      try {
        const tools = (await c.listTools()).tools as Tool[];
        const tool = (n: string) => tools.find((t) => t.name === n)!;
        const props = tool('pages').inputSchema.properties!;
        expect(props.limit).toMatchObject({ anyOf: [{ type: 'integer' }, { type: 'null' }], default: 3 });
        expect(props.cursor).toMatchObject({ anyOf: [{ type: 'string' }, { type: 'null' }] });
        expect(Object.keys(tool('read').inputSchema.properties ?? {})).not.toContain('limit');
        expect(tool('pages').outputSchema).toMatchObject({
          type: 'object',
          required: ['items', 'pagination'],
          properties: { items: { type: 'array' }, pagination: { type: 'object' } },
        });

        const first = await c.callTool('pages', {});
        expect(first.isError).toBeFalsy();
        const env = envelopeOf(first);
        expect(first.structuredContent).toEqual({ items: env.data, pagination: env.meta.pagination });
        expect(env.meta.pagination).toMatchObject({ total: 7, returned: 3, has_more: true });
        const step = env.meta.next[0];
        expect(step).toEqual({
          description: 'the next page',
          tool: 'pages',
          arguments: { cursor: env.meta.pagination.next_cursor },
        });
        const second = await c.callTool(step.tool, step.arguments);
        expect((second.structuredContent as any).items.map((x: { n: number }) => x.n)).toEqual([4, 5, 6]);

        // a handler that pages itself, with no output schema: the page is structured all the same
        const feed = await c.callTool('feed', { name: `${path}-${era}`, limit: 4 });
        expect(feed.structuredContent).toMatchObject({
          items: [{ i: 0 }, { i: 1 }, { i: 2 }, { i: 3 }],
          pagination: { total: 5, returned: 4, has_more: true },
        });

        const bad = await c.callTool('pages', { cursor: 'nope' });
        expect(bad.isError).toBe(true);
        expect(envelopeOf(bad).error).toMatchObject({
          kind: 'validation_error',
          exit_code: 2,
          context: { reason: 'bad_cursor', flag: 'cursor' },
        });
        const big = await c.callTool('pages', { limit: 6 });
        expect(envelopeOf(big).error.context).toMatchObject({ reason: 'bad_limit', flag: 'limit', max: 5 });
      } finally {
        await c.close();
      }
    },
    T,
  );
});
