/**
 * Asking the client, era by era, on every MCP path (stdio, HTTP with sessions, HTTP --stateless):
 * a 2026-07-28 client is asked through `input_required` results (multi round-trip requests) — the
 * real v2 SDK client fulfils them with its ordinary handlers and retries — and a retry whose
 * `requestState` is tampered, foreign or for another call, or whose answer is not an object, is
 * -32602 with nothing run; a declined confirmation changes nothing. A 2025-era client's malformed
 * answer or error to `elicitation/create` ends the call at once with an error that does not invite
 * a retry. (docs/mcp-server.md#asking-the-client-confirm-elicit-sample)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { envelopeOf, eraServers, MODERN, PATHS, startHttp, type McpPath } from '../helpers/eras.ts';
import { rawStdio, REPO, TSX_LOADER } from '../helpers/mcp.ts';
import { readResponse } from '../fixtures/http-harness.ts';

const CLI = join(REPO, 'test/fixtures/ask-cli.ts');
const dir = mkdtempSync(join(tmpdir(), 'ax-input-required-'));
const ENV = { ASK_DIR: dir, XDG_STATE_HOME: join(dir, 'state') };
const deleted = (): string[] => {
  try {
    return readFileSync(join(dir, 'deleted'), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};
const servers = eraServers(CLI, ENV, () => rmSync(dir, { recursive: true, force: true }));

const ALL = { elicitation: {}, sampling: {}, roots: {} };

async function modern(path: McpPath, capabilities: Record<string, unknown> = ALL) {
  const c = await servers.connect('modern', path, { capabilities });
  return { ...c, client: c.client as ModernClient };
}

describe.each(PATHS)('%s: a 2026-07-28 client is asked through input_required results', { timeout: 30_000 }, (path) => {
  it('ctx.confirm: the SDK client answers the form and retries; accepted, the command runs once', async () => {
    const c = await modern(path);
    const asked: Record<string, any>[] = [];
    c.client.setRequestHandler('elicitation/create', async (r) => {
      asked.push(r.params);
      return { action: 'accept', content: { confirm: true } };
    });
    try {
      const id = `c-${path}`;
      const r = await c.callTool('rm', { id });
      expect(r.isError).toBeFalsy();
      expect(envelopeOf(r).data).toEqual({ deleted: id });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ message: `Delete item ${id}?`, requestedSchema: { required: ['confirm'] } });
      expect(deleted().filter((d) => d === id)).toHaveLength(1);
    } finally {
      await c.close();
    }
  });

  it('ctx.confirm declined: confirmation_required (not retryable), and nothing changed', async () => {
    const c = await modern(path);
    c.client.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
    try {
      const id = `d-${path}`;
      const r = await c.callTool('rm', { id });
      expect(r.isError).toBe(true);
      const error = envelopeOf(r).error;
      expect(error).toMatchObject({ kind: 'confirmation_required', context: { action: 'decline' } });
      expect(error.retryable).toBe(false);
      expect(deleted()).not.toContain(id);
    } finally {
      await c.close();
    }
  });

  it('ctx.elicit, ctx.sample, ctx.roots: each answered by the handler the 2025 era uses', async () => {
    const c = await modern(path);
    c.client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Ada' } }));
    c.client.setRequestHandler('sampling/createMessage', async () => ({
      role: 'assistant',
      content: { type: 'text', text: 'short' },
      model: 'm1',
    }));
    c.client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
    try {
      expect(envelopeOf(await c.callTool('profile')).data).toEqual({ name: 'Ada', age: 30, colour: 'green' });
      expect(envelopeOf(await c.callTool('summarize', { text: 'long' })).data).toEqual({
        summary: 'short',
        model: 'm1',
      });
      expect(envelopeOf(await c.callTool('where')).data).toEqual({ roots: [{ uri: 'file:///work', name: 'work' }] });
    } finally {
      await c.close();
    }
  });

  it('without the capabilities nothing is asked: the errors name the properties, roots are empty', async () => {
    const c = await modern(path, {});
    try {
      expect(envelopeOf(await c.callTool('rm', { id: `n-${path}` })).error.kind).toBe('confirmation_required');
      expect(envelopeOf(await c.callTool('where')).data).toEqual({ roots: [] });
      expect(deleted()).not.toContain(`n-${path}`);
    } finally {
      await c.close();
    }
  });
});

/** A raw 2026-07-28 tools/call over HTTP (JSON or SSE answer), for what an SDK client would not send. */
async function rawCall(url: string, id: number, params: Record<string, unknown>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': params.name as string,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': ALL,
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        },
      },
    }),
  });
  return { status: res.status, message: (await readResponse(res)).messages.at(-1) as Record<string, any> };
}

describe.each(['http', 'http-stateless'] as const)('%s: a retry that cannot be trusted runs nothing', (path) => {
  const url = () => servers.server(path).url;

  it('round one: input_required with the question and a signed requestState; nothing ran', async () => {
    const r = await rawCall(url(), 1, { name: 'rm', arguments: { id: `r1-${path}` } });
    expect(r.message.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { confirm: { method: 'elicitation/create', params: { message: `Delete item r1-${path}?` } } },
      requestState: expect.stringMatching(/^v1\./),
    });
    expect(r.message.result.content).toBeUndefined();
    expect(deleted()).not.toContain(`r1-${path}`);
  });

  it.each([
    {
      what: 'a tampered requestState',
      retry: (state: string) => ({ arguments: { id: 'T' }, requestState: `${state}x` }),
      reason: 'invalid_request_state',
    },
    {
      what: 'a requestState of a call with other arguments',
      retry: (state: string) => ({ arguments: { id: 'other' }, requestState: state }),
      reason: 'request_state_for_another_call',
    },
    {
      what: 'a requestState that is not a string',
      retry: () => ({ arguments: { id: 'T' }, requestState: 7 }),
      reason: 'invalid_request_state',
    },
    {
      what: 'an answer that is not an object',
      retry: (state: string) => ({ arguments: { id: 'T' }, requestState: state, inputResponses: { confirm: 12 } }),
      reason: 'invalid_input_response',
    },
    {
      what: 'an answer that is no elicitation result',
      retry: (state: string) => ({
        arguments: { id: 'T' },
        requestState: state,
        inputResponses: { confirm: { content: { confirm: true } } },
      }),
      reason: 'invalid_input_response',
    },
  ])('$what: -32602, and the command did not run', async ({ retry, reason }) => {
    const first = await rawCall(url(), 2, { name: 'rm', arguments: { id: 'T' } });
    const state = first.message.result.requestState as string;
    const r = await rawCall(url(), 3, {
      name: 'rm',
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      ...retry(state),
    });
    expect(r.message.error).toMatchObject({ code: -32602, data: { reason } });
    expect(deleted()).not.toContain('T');
    expect(deleted()).not.toContain('other');
  });

  it('an accepted answer runs once: the same requestState re-sent gets the first result; other answers are -32602', async () => {
    const id = `once-${path}`;
    const first = await rawCall(url(), 11, { name: 'rm', arguments: { id } });
    const accept = {
      name: 'rm',
      arguments: { id },
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      requestState: first.message.result.requestState,
    };
    const ran = await rawCall(url(), 12, accept);
    expect(envelopeOf(ran.message.result).data).toEqual({ deleted: id });
    for (const n of [13, 14]) {
      const again = await rawCall(url(), n, accept);
      expect(again.message.result).toEqual(ran.message.result); // the first result, the same trace id too
    }
    const other = await rawCall(url(), 15, {
      ...accept,
      inputResponses: { confirm: { action: 'decline' } },
    });
    expect(other.message.error).toMatchObject({ code: -32602, data: { reason: 'request_state_used' } });
    expect(deleted().filter((d) => d === id)).toHaveLength(1);
  });

  it('the state from one replica of the deployment key is honoured by another (AX_MCP_STATE_KEY)', async () => {
    const key = 'k'.repeat(40);
    const [a, b] = await Promise.all([
      startHttp(CLI, ['--stateless'], { ...ENV, AX_MCP_STATE_KEY: key }),
      startHttp(CLI, ['--stateless'], { ...ENV, AX_MCP_STATE_KEY: key }),
    ]);
    try {
      const first = await rawCall(a.url, 4, { name: 'rm', arguments: { id: `x-${path}` } });
      const r = await rawCall(b.url, 5, {
        name: 'rm',
        arguments: { id: `x-${path}` },
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
        requestState: first.message.result.requestState,
      });
      expect(envelopeOf(r.message.result).data).toEqual({ deleted: `x-${path}` });
      // the replicas share the record (the same store): the answer re-sent to the first one runs nothing
      const again = await rawCall(a.url, 7, {
        name: 'rm',
        arguments: { id: `x-${path}` },
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
        requestState: first.message.result.requestState,
      });
      expect(again.message.result).toEqual(r.message.result);
      expect(deleted().filter((d) => d === `x-${path}`)).toHaveLength(1);
      // a server with another key refuses it
      const other = await rawCall(url(), 6, {
        name: 'rm',
        arguments: { id: `x-${path}` },
        requestState: first.message.result.requestState,
      });
      expect(other.message.error).toMatchObject({ code: -32602 });
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  }, 60_000);
});

describe('stdio: the same refusals on a 2026-07-28 connection', { timeout: 30_000 }, () => {
  it('a tampered requestState is -32602 and nothing runs', async () => {
    const raw = rawStdio(['mcp-server'], { cli: CLI, env: ENV });
    try {
      const meta = {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': ALL,
      };
      const first = await raw.request(1, 'tools/call', { name: 'rm', arguments: { id: 'S' }, _meta: meta });
      const state = (first.result as Record<string, any>).requestState as string;
      expect(first.result).toMatchObject({ resultType: 'input_required' });
      const r = await raw.request(2, 'tools/call', {
        name: 'rm',
        arguments: { id: 'S' },
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
        requestState: `${state}x`,
        _meta: meta,
      });
      expect(r.error).toMatchObject({ code: -32602, data: { reason: 'invalid_request_state' } });
      expect(deleted()).not.toContain('S');
      // the accepted answer runs once: sent again, the first result
      const accept = {
        name: 'rm',
        arguments: { id: 'S' },
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
        requestState: state,
        _meta: meta,
      };
      const ran = await raw.request(3, 'tools/call', accept);
      expect(envelopeOf(ran.result as Record<string, any>).data).toEqual({ deleted: 'S' });
      expect((await raw.request(4, 'tools/call', accept)).result).toEqual(ran.result);
      expect(deleted().filter((d) => d === 'S')).toHaveLength(1);
    } finally {
      raw.kill();
      await raw.exited;
    }
  });
});

/** A 2025-era client whose elicitation handler answers with `answer` (or throws it). */
async function legacy(path: 'stdio' | 'http', answer: () => unknown) {
  const client = new LegacyClient({ name: 'legacy', version: '1' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => answer() as never);
  await client.connect(
    path === 'stdio'
      ? new LegacyStdio({
          command: process.execPath,
          args: ['--import', TSX_LOADER, CLI, 'mcp-server'],
          cwd: REPO,
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...ENV },
          stderr: 'ignore',
        })
      : new LegacyHttp(new URL(servers.server('http').url)),
  );
  return client;
}

describe.each(['stdio', 'http'] as const)('%s: a 2025-era client that answers badly', { timeout: 30_000 }, (path) => {
  it('an error of the client (-32000) to a confirmation: confirmation_required, not a retryable interrupted', async () => {
    const client = await legacy(path, () => {
      throw new McpError(-32000, 'the user closed the dialog');
    });
    try {
      const r = await client.callTool({ name: 'rm', arguments: { id: `e-${path}` } });
      const error = envelopeOf(r as Record<string, any>).error;
      expect(error).toMatchObject({ kind: 'confirmation_required', context: { action: 'error' } });
      expect(error.retryable).toBe(false);
      expect(deleted()).not.toContain(`e-${path}`);
    } finally {
      await client.close();
    }
  });
});

describe('stdio: a malformed answer to elicitation/create', { timeout: 30_000 }, () => {
  it('{"result": null} ends the call at once with a validation_error, nothing changed', async () => {
    const raw = rawStdio(['mcp-server'], { cli: CLI, env: ENV });
    try {
      await raw.request(0, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: { elicitation: {} },
        clientInfo: { name: 'raw', version: '1' },
      });
      raw.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      raw.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'rm', arguments: { id: 'N' } } });
      const start = Date.now();
      let ask: Record<string, any> | undefined;
      while (!ask && Date.now() - start < 20_000) {
        ask = raw.lines.map((l) => JSON.parse(l) as Record<string, any>).find((m) => m.method === 'elicitation/create');
        if (!ask) await new Promise((r) => setTimeout(r, 20));
      }
      raw.send({ jsonrpc: '2.0', id: ask!.id, result: null });
      const r = await raw.response(1, 5_000);
      const error = envelopeOf(r.result as Record<string, any>).error;
      expect(error).toMatchObject({ kind: 'validation_error', context: { reason: 'invalid_answer' } });
      expect(deleted()).not.toContain('N');
    } finally {
      raw.kill();
      await raw.exited;
    }
  });
});
