/**
 * A `ctx.actionRequired` stop the client can answer, as a 2026-07-28 `input_required` result
 * (docs/mcp-server.md#2026-07-28-input_required-results): when the stop's one next step is the
 * call itself with a value to fill in, a 2026-07-28 client that declares form elicitation is asked
 * for that value, and its SDK retries the call with the answer, which runs the command with it. A
 * stop whose next step is another tool, a declined form, a client without elicitation and a
 * 2025-era client get the structured `action_required` result with `next` — on every MCP path.
 */
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEra, envelopeOf, PATHS, startHttp, type HttpFixture, type McpPath } from '../helpers/eras.ts';
import { REPO } from '../helpers/spawn.ts';

const CLI = join(REPO, 'test/fixtures/eras-cli.ts');
const servers: Partial<Record<McpPath, HttpFixture>> = {};

beforeAll(async () => {
  const [http, stateless] = await Promise.all([startHttp(CLI), startHttp(CLI, ['--stateless'])]);
  servers.http = http;
  servers['http-stateless'] = stateless;
}, 60_000);
afterAll(async () => {
  await Promise.allSettled(Object.values(servers).map((s) => s.stop()));
});

async function connect(path: McpPath, era: 'legacy' | 'modern', capabilities: Record<string, unknown>) {
  return connectEra(era, path, { cli: CLI, url: servers[path as 'http']?.url, capabilities });
}

const STOP = {
  kind: 'action_required',
  exit_code: 2,
  context: { reason: 'choose_region' },
  next: [{ description: 'deploy there', tool: 'deploy', arguments: { region: '<region>' } }],
};

describe.each(PATHS)('%s', { timeout: 60_000 }, (path) => {
  it('2026-07-28 with form elicitation: the stop is a form for the value; the retry runs the call with it', async () => {
    const c = await connect(path, 'modern', { elicitation: {} });
    const asked: Record<string, any>[] = [];
    (c.client as ModernClient).setRequestHandler('elicitation/create', async (r) => {
      asked.push(r.params);
      return { action: 'accept', content: { region: 'eu' } };
    });
    try {
      const r = await c.callTool('deploy', {});
      expect(r.isError).toBeFalsy();
      expect(envelopeOf(r).data).toEqual({ deployed: 'eu' });
      expect(asked).toEqual([
        {
          message: 'Choose the region to deploy to (deploy there)',
          requestedSchema: {
            type: 'object',
            properties: { region: { type: 'string', description: 'where to deploy' } },
            required: ['region'],
          },
        },
      ]);
    } finally {
      await c.close();
    }
  });

  it('2026-07-28, the form declined: the structured stop with its next step, asked once', async () => {
    const c = await connect(path, 'modern', { elicitation: {} });
    let asked = 0;
    (c.client as ModernClient).setRequestHandler('elicitation/create', async () => {
      asked++;
      return { action: 'decline' };
    });
    try {
      const r = await c.callTool('deploy', {});
      expect(r.isError).toBe(true);
      expect(envelopeOf(r).error).toMatchObject(STOP);
      expect(asked).toBe(1);
    } finally {
      await c.close();
    }
  });

  it('a stop whose next step is another tool stays the structured result, even for a client that can answer forms', async () => {
    const c = await connect(path, 'modern', { elicitation: {} });
    let asked = 0;
    (c.client as ModernClient).setRequestHandler('elicitation/create', async () => {
      asked++;
      return { action: 'cancel' };
    });
    try {
      const r = await c.callTool('gate', {});
      expect(r.isError).toBe(true);
      expect(envelopeOf(r).error).toMatchObject({
        kind: 'action_required',
        next: [{ tool: 'point', arguments: {} }],
      });
      expect(asked).toBe(0);
    } finally {
      await c.close();
    }
  });

  it.each(['modern without elicitation', 'legacy'] as const)('%s: the structured stop', async (who) => {
    const c = await connect(path, who === 'legacy' ? 'legacy' : 'modern', {});
    try {
      const r = await c.callTool('deploy', {});
      expect(r.isError).toBe(true);
      expect(envelopeOf(r).error).toMatchObject(STOP);
    } finally {
      await c.close();
    }
  });
});
