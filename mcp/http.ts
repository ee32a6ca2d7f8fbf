/**
 * Streamable HTTP on express at `/mcp`: Host and Origin checked against the allowed (loopback)
 * names, every error a JSON-RPC body (never an HTML page or an empty 500), stateful sessions with an
 * idle timeout or a stateless mode for replicas, graceful shutdown. Source: SPEC §8; MCP transport
 * "Streamable HTTP" (2025-06-18); cases B20, B21.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import express from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { installChildGuard } from './children.ts';
import { answerNewerRevision } from './revisions.ts';
import { MemoryEventStore, type EventStore } from './events.ts';
import {
  bearerGuard,
  ClientGone,
  hostOriginGuard,
  InflightIds,
  isJsonType,
  jsonError,
  onClientError,
  readJsonBody,
} from './http-guard.ts';
import { keepAlive, shutdownCalls } from './lifecycle.ts';
import { createServer, type McpModel, type McpServerOptions } from './server.ts';

/** Settings of the HTTP transport. */
export interface HttpSettings {
  /** Address to bind (already validated). */
  host: string;
  /** Port; 0 picks a free one (the chosen one is announced on stderr). */
  port: number;
  /** One server per request, no session ids (for several replicas behind a load balancer). */
  stateless: boolean;
  /** Idle time (no POST in flight) after which a session is closed, in ms. */
  sessionIdleMs: number;
  /** Largest accepted POST body, in bytes (413 with a JSON-RPC error beyond). */
  maxBodyBytes: number;
  /** Most sessions kept at once; a new initialize beyond it gets 503 (JSON-RPC body, Retry-After). */
  maxSessions: number;
  /** Host names accepted in Host and Origin (loopback names plus the bound host). */
  allowedHosts: string[];
  /**
   * Stateful sessions: makes each session's event store (resumable streams), or `false` for none.
   * Default: a {@link MemoryEventStore} per session. Stateless mode has no streams to resume.
   */
  eventStore?: false | (() => EventStore);
  /** The bearer token every request must carry (`Authorization: Bearer …`); none when undefined. */
  token?: string;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  close: () => Promise<void>;
  lastSeen: number;
  /** POSTs still being answered: a session with one in flight is not idle (a long call is not cut off). */
  inflight: number;
  /** JSON-RPC ids in flight (a duplicate is refused). */
  ids: InflightIds;
}

/**
 * Serves the model until `signal` aborts or SIGTERM arrives, then shuts down gracefully: in-flight
 * calls are aborted and still answered (`interrupted`) before their streams close.
 * @param announce receives the URL once listening.
 */
export async function serveHttp(
  model: McpModel,
  options: McpServerOptions,
  settings: HttpSettings,
  signal: AbortSignal,
  announce: (url: string) => void,
): Promise<void> {
  const life = keepAlive(options.log);
  const children = installChildGuard(false);
  const serverOptions = { ...options, track: life.track };
  const sessions = new Map<string, Session>();
  const transportOptions = { maxRequestBodySize: settings.maxBodyBytes };

  const app = express();
  app.disable('x-powered-by');
  app.use(hostOriginGuard(settings.allowedHosts));
  app.use(bearerGuard(settings.token));

  app.all('/mcp', async (req, res) => {
    try {
      if (await answerNewerRevision(req, res, settings.maxBodyBytes)) return; // a newer revision's probe: -32022, quietly
      if (settings.stateless) {
        // No session: no standalone GET stream to offer (it would hold a server open that never speaks) and nothing to DELETE.
        if (req.method !== 'POST')
          return jsonError(res, 405, -32000, 'Method not allowed: stateless server, use POST', { allow: 'POST' });
        const server = createServer(model, serverOptions);
        const transport = new StreamableHTTPServerTransport({ ...transportOptions, sessionIdGenerator: undefined });
        res.on('close', () => {
          void transport.close().catch(() => {});
          void server.close().catch(() => {});
        });
        await server.connect(transport);
        const read =
          req.method === 'POST' && isJsonType(req.headers['content-type'])
            ? await readJsonBody(req, res, settings.maxBodyBytes)
            : { body: undefined };
        if (!read) return;
        await transport.handleRequest(req, res, read.body);
        return;
      }
      const sid = req.headers['mcp-session-id'];
      if (typeof sid === 'string') {
        const s = sessions.get(sid);
        if (!s) return jsonError(res, 404, -32001, 'Session not found: initialize a new session');
        s.lastSeen = Date.now();
        let body: unknown;
        if (req.method === 'POST') {
          s.inflight += 1;
          res.once('close', () => {
            s.inflight -= 1;
            s.lastSeen = Date.now();
          });
          if (isJsonType(req.headers['content-type'])) {
            const read = await readJsonBody(req, res, settings.maxBodyBytes);
            if (!read || !s.ids.claim(read.body, res)) return;
            body = read.body;
          }
        }
        await s.transport.handleRequest(req, res, body);
        return;
      }
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
      const server = createServer(model, serverOptions);
      let session: Session | undefined;
      const transport = new StreamableHTTPServerTransport({
        ...transportOptions,
        ...(settings.eventStore === false
          ? {}
          : { eventStore: (settings.eventStore ?? (() => new MemoryEventStore()))() }),
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
      const read = isJsonType(req.headers['content-type'])
        ? await readJsonBody(req, res, settings.maxBodyBytes)
        : { body: undefined };
      if (read) await transport.handleRequest(req, res, read.body);
      if (!session) {
        // not an initialize request: nothing to keep
        await Promise.allSettled([transport.close(), server.close()]);
      }
    } catch (e) {
      // a client that hung up mid-body is the client's doing, like the refusals the transport does not log
      if (e instanceof ClientGone && !(options.env ?? process.env).AX_DEBUG) return;
      (options.log ?? ((l) => process.stderr.write(`${l}\n`)))(`mcp-server: request failed: ${(e as Error).message}`);
      jsonError(res, 500, -32603, 'Internal error');
    }
  });
  app.use((_req, res) => jsonError(res, 404, -32601, 'Not found: the MCP endpoint is /mcp'));
  app.use((err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    void _next;
    jsonError(res, 500, -32603, `Internal error: ${(err as Error)?.message ?? 'unknown'}`);
  });

  // Listen for the stop request before the URL is announced: a SIGTERM sent as soon as the URL
  // appears must find the handler in place (else Node's default action kills the process).
  let onSigterm = () => {};
  const stopped = new Promise<void>((resolve) => {
    onSigterm = () => resolve();
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
    process.once('SIGTERM', onSigterm);
  });

  const httpServer = await new Promise<import('node:http').Server>((resolve, reject) => {
    // requireHostHeader: false lets a request without Host reach the guard, which answers 403 with a
    // JSON-RPC body (Node's own refusal is an empty 400).
    const s = createHttpServer({ requireHostHeader: false }, app);
    s.on('clientError', onClientError);
    s.once('error', reject);
    s.listen(settings.port, settings.host, () => {
      s.off('error', reject);
      resolve(s);
    });
  }).catch((e: unknown) => {
    process.off('SIGTERM', onSigterm);
    children.restore();
    life.release();
    throw e;
  });
  const addr = httpServer.address() as AddressInfo;
  const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  announce(`http://${shownHost}:${addr.port}/mcp`);

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, s] of sessions) {
        if (s.inflight === 0 && now - s.lastSeen > settings.sessionIdleMs) {
          sessions.delete(id);
          void s.close();
        }
      }
    },
    Math.max(50, Math.min(settings.sessionIdleMs / 2, 60_000)),
  );
  sweep.unref();

  await stopped;
  process.off('SIGTERM', onSigterm);
  clearInterval(sweep);
  // Bounded waits on ref'd timers (cleared at the end): an unref'd one could leave the event loop
  // empty mid-shutdown, and main() treats an empty loop with the run unsettled as a hung handler.
  const timers = new Set<NodeJS.Timeout>();
  const delay = (ms: number) =>
    new Promise<void>((r) => {
      const t = setTimeout(() => {
        timers.delete(t);
        r();
      }, ms);
      timers.add(t);
    });
  const closed = new Promise<void>((r) => httpServer.close(() => r()));
  // abort every call, give it the abort grace (a handler that ignores it is answered `interrupted`
  // by the run's race), kill children: all within the shutdown budget the run gives this command
  await shutdownCalls(life, false, () => children.killAll());
  await delay(20); // the results just produced are written to their streams
  await Promise.allSettled([...sessions.values()].map((s) => s.close()));
  // ended streams finish writing; connections still open after a moment are cut
  await Promise.race([closed, delay(250)]);
  httpServer.closeAllConnections();
  for (const t of timers) clearTimeout(t);
  children.restore();
  life.release();
}
