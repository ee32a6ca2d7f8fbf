/**
 * The key that signs 2026-07-28 `requestState` fails closed (docs/security.md#what-requeststate-protects):
 * `$AX_MCP_STATE_KEY` set but empty or shorter than 32 bytes is refused at start, like a weak token
 * (exit 2, `invalid_state_key`, nothing served), over stdio and HTTP and by `--print-config`; a good
 * key stops at the server: no handler, and no child a handler starts, sees it — over HTTP and over
 * stdio, where the supervisor hands it to the server process.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { connectStdio } from '../helpers/mcp.ts';
import { minimalEnv } from '../helpers/paths.ts';
import { runScript } from '../helpers/spawn.ts';
import { callBody, killAll, post, postHeaders, startServer } from '../fixtures/http-harness.ts';

const HTTP_CLI = fileURLToPath(new URL('../fixtures/http-cli.ts', import.meta.url));
const KEY = 'a-state-key-of-forty-bytes-0123456789abc';
const unseen = { ctx: null, process: null, child: null };
afterAll(() => killAll());

describe('a weak AX_MCP_STATE_KEY is refused at start', () => {
  it.each([
    { what: 'empty', key: '' },
    { what: 'short', key: 'k'.repeat(31) },
  ])(
    '$what: exit 2, invalid_state_key, one error line, nothing served (stdio, HTTP, --print-config)',
    async ({ key }) => {
      for (const args of [
        ['mcp-server'],
        ['mcp-server', '--transport', 'http', '--addr', '127.0.0.1:0'],
        ['mcp-server', '--print-config'],
      ]) {
        const r = await runScript(HTTP_CLI, args, { ...minimalEnv(), AX_MCP_STATE_KEY: key });
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stdout).toBe('');
        const line = JSON.parse(r.stderr.trimEnd().split('\n').pop()!) as Record<string, any>;
        expect(line.error).toMatchObject({ kind: 'validation_error', context: { reason: 'invalid_state_key' } });
        expect(line.error.actionable_fix).toContain('openssl rand -hex 32');
        expect(r.stderr).not.toMatch(/listening on/);
      }
    },
    60_000,
  );
});

describe('a good key stops at the server', () => {
  it('HTTP: neither ctx.env, process.env nor a child of a handler sees it', async () => {
    const server = await startServer(['--stateless'], { env: { AX_MCP_STATE_KEY: KEY } });
    try {
      const r = await post(server.url, callBody(1, 'token-seen', { var: 'AX_MCP_STATE_KEY' }), postHeaders());
      const m = r.messages.find((x) => x.id === 1) as { result: { content: { text: string }[] } };
      expect(JSON.parse(m.result.content[0]!.text).data, r.text).toEqual(unseen);
    } finally {
      await server.stop();
    }
  }, 30_000);

  it('stdio (a supervised server process): no handler sees it', async () => {
    const conn = await connectStdio(['mcp-server'], { AX_MCP_STATE_KEY: KEY }, HTTP_CLI);
    try {
      const r = (await conn.client.callTool({ name: 'token-seen', arguments: { var: 'AX_MCP_STATE_KEY' } })) as {
        content: { text: string }[];
      };
      expect(JSON.parse(r.content[0]!.text).data).toEqual(unseen);
    } finally {
      await conn.close();
    }
  }, 30_000);
});
