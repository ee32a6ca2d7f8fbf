/**
 * Raw 2026-07-28 requests for the Tasks extension's tests (test/mcp/tasks*.test.ts): one request on
 * a path with the request's client capabilities in its `_meta`, over stdio or HTTP, and a poll of
 * `tasks/get` until a condition holds.
 */
import { readResponse } from '../fixtures/http-harness.ts';
import { MODERN, type HttpFixture, type McpPath } from './eras.ts';
import type { RawServer } from './mcp.ts';

/** The Tasks extension, as a request declares it. */
export const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

/** Sends requests to the servers of a test file. */
export interface TaskWire {
  /** One request on `path`; the JSON-RPC answer (default capabilities: elicitation and the extension). */
  send(
    path: McpPath,
    method: string,
    params: Record<string, unknown>,
    capabilities?: Record<string, unknown>,
  ): Promise<Record<string, any>>;
  /** Polls tasks/get until `done` holds (or 10 s pass); the last answer. */
  until(path: McpPath, taskId: string, done: (r: Record<string, any>) => boolean): Promise<Record<string, any>>;
}

/** The wire to `stdio()` and `servers` (read at each request: they start in beforeAll). */
export function taskWire(stdio: () => RawServer, servers: Partial<Record<McpPath, HttpFixture>>): TaskWire {
  let nextId = 100;
  const send: TaskWire['send'] = async (path, method, params, capabilities = { elicitation: {}, ...TASKS }) => {
    const id = nextId++;
    const full = {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': capabilities,
      },
    };
    if (path === 'stdio') return stdio().request(id, method, full) as Promise<Record<string, any>>;
    const name = (params.name ?? params.taskId) as string | undefined;
    const res = await fetch(servers[path]!.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': method,
        ...(typeof name === 'string' && /^[\x20-\x7e]*$/.test(name) ? { 'mcp-name': name } : {}),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params: full }),
    });
    return (await readResponse(res)).messages.at(-1) as Record<string, any>;
  };
  const until: TaskWire['until'] = async (path, taskId, done) => {
    const t0 = Date.now();
    for (;;) {
      const r = (await send(path, 'tasks/get', { taskId })).result as Record<string, any>;
      if (done(r) || Date.now() - t0 > 10_000) return r;
      await new Promise((res) => setTimeout(res, 100));
    }
  };
  return { send, until };
}
