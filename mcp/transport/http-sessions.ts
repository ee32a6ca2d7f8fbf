/**
 * Streamable HTTP for 2025-era clients (revisions up to 2025-11-25): sessions opened by
 * `initialize` (`Mcp-Session-Id`), each with its own server and event store, closed on `DELETE` or
 * after an idle time; or, stateless (`--stateless`), a fresh server for every POST. The SDK's
 * web-standard transport does the protocol work; this module keeps the sessions and their limits.
 * Source: MCP 2025-11-25 transports, "Streamable HTTP" (session management, resumability).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '../base/sdk.ts';
import { MemoryEventStore, sessionBound, type EventStore } from './events.ts';
import { InflightIds, jsonError } from './http-guard.ts';
import { sendWebResponse, toWebRequest } from './node-web.ts';
import { createServer } from '../protocol/server.ts';
import type { McpModel, McpServerOptions } from '../call/model.ts';

/** Settings of the 2025-era HTTP sessions. */
export interface SessionSettings {
  /** One server per request, no session ids (for several replicas behind a load balancer). */
  stateless: boolean;
  /** Idle time (no POST in flight) after which a session is closed, in ms. */
  sessionIdleMs: number;
  /** Largest accepted POST body, in bytes. */
  maxBodyBytes: number;
  /** Most sessions kept at once; a new initialize beyond it gets 503 (JSON-RPC body, Retry-After). */
  maxSessions: number;
  /**
   * Makes each session's event store (resumable streams), or `false` for none. Default: a
   * {@link MemoryEventStore} per session.
   */
  eventStore?: false | (() => EventStore);
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  close: () => Promise<void>;
  lastSeen: number;
  /** POSTs still being answered: a session with one in flight is not idle (a long call is not cut off). */
  inflight: number;
  /** JSON-RPC ids in flight (a duplicate is refused). */
  ids: InflightIds;
}

/** What {@link legacySessions} returns: the request handler, the idle sweep and the shutdown. */
export interface LegacySessions {
  /** Answers one 2025-era request whose body (a POST with a JSON content type) was read as `body`. */
  handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void>;
  /** Closes the sessions idle longer than the idle time. */
  sweep(): void;
  /** Closes every session (shutdown). */
  closeAll(): Promise<void>;
}

/** The 2025-era half of the HTTP server (see the module comment). */
export function legacySessions(model: McpModel, options: McpServerOptions, settings: SessionSettings): LegacySessions {
  const sessions = new Map<string, Session>();
  const base = { maxRequestBodySize: settings.maxBodyBytes };

  /** Runs one request through `transport` and writes its answer. */
  const serve = async (
    transport: WebStandardStreamableHTTPServerTransport,
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
  ): Promise<void> => {
    const response = await transport.handleRequest(
      toWebRequest(req, res),
      body === undefined ? {} : { parsedBody: body },
    );
    await sendWebResponse(res, response);
  };

  const stateless = async (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    // No session: no standalone GET stream to offer (it would hold a server open that never speaks)
    // and nothing to DELETE.
    if (req.method !== 'POST')
      return jsonError(res, 405, -32000, 'Method not allowed: stateless server, use POST', { allow: 'POST' });
    const server = createServer(model, options, 'legacy');
    const transport = new WebStandardStreamableHTTPServerTransport({ ...base, sessionIdGenerator: undefined });
    res.once('close', () => {
      void transport.close().catch(() => {});
      void server.close().catch(() => {});
    });
    await server.connect(transport);
    await serve(transport, req, res, body);
  };

  const open = async (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    if (req.method !== 'POST') return jsonError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    if (sessions.size >= settings.maxSessions) {
      return jsonError(
        res,
        503,
        -32000,
        `Too many sessions (${settings.maxSessions}): close one (DELETE /mcp) or retry after idle sessions expire`,
        { 'retry-after': '30' },
      );
    }
    const server = createServer(model, options, 'legacy');
    let session: Session | undefined;
    const transport = new WebStandardStreamableHTTPServerTransport({
      ...base,
      ...(settings.eventStore === false
        ? {}
        : { eventStore: sessionBound((settings.eventStore ?? (() => new MemoryEventStore()))()) }),
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        session = {
          transport,
          lastSeen: Date.now(),
          inflight: 0,
          ids: new InflightIds(),
          close: async () => void (await Promise.allSettled([transport.close(), server.close()])),
        };
        sessions.set(id, session);
      },
      onsessionclosed: (id) => void sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await serve(transport, req, res, body);
    // not an initialize request: nothing to keep
    if (!session) await Promise.allSettled([transport.close(), server.close()]);
  };

  return {
    async handle(req, res, body) {
      if (settings.stateless) return stateless(req, res, body);
      const sid = req.headers['mcp-session-id'];
      if (typeof sid !== 'string') return open(req, res, body);
      const s = sessions.get(sid);
      if (!s) return jsonError(res, 404, -32001, 'Session not found: initialize a new session');
      s.lastSeen = Date.now();
      if (req.method === 'POST') {
        s.inflight += 1;
        res.once('close', () => {
          s.inflight -= 1;
          s.lastSeen = Date.now();
        });
        if (body !== undefined && !s.ids.claim(body, res)) return;
      }
      await serve(s.transport, req, res, body);
    },
    sweep() {
      const now = Date.now();
      for (const [id, s] of sessions) {
        if (s.inflight === 0 && now - s.lastSeen > settings.sessionIdleMs) {
          sessions.delete(id);
          void s.close();
        }
      }
    },
    async closeAll() {
      await Promise.allSettled([...sessions.values()].map((s) => s.close()));
    },
  };
}
