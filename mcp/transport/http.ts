/**
 * Streamable HTTP on express at `/mcp`, for both protocol eras (docs/mcp-server.md#protocol-eras):
 * Host and Origin checked against the allowed (loopback) names, a bearer token when one is set,
 * bodies read here under a limit, every error a JSON-RPC body (never an HTML page or an empty 500);
 * then each request goes by what it carries — a 2026-07-28 request (the protocol version in its
 * `_meta`) to the SDK's stateless per-request handler, anything else to the 2025-era sessions (or,
 * with `--stateless`, a server per request) — and a graceful shutdown. Sources: MCP 2025-11-25 and
 * 2026-07-28 transports, "Streamable HTTP".
 */
import type { AddressInfo } from 'node:net';
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import express from 'express';
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import { classifyInboundRequest, createMcpHandler } from '../base/sdk.ts';
import { installChildGuard } from '../isolate/children.ts';
import { malformedResponse } from '../base/jsonl.ts';
import { CLIENT_ERROR } from '../base/eras.ts';
import type { EventStore } from './events.ts';
import {
  bearerGuard,
  ClientGone,
  hostOriginGuard,
  isJsonType,
  jsonError,
  onClientError,
  readJsonBody,
} from './http-guard.ts';
import { servedSkill, wellKnownIndex, type ServedSkill } from '../protocol/skills.ts';
import { legacySessions } from './http-sessions.ts';
import { keepAlive, shutdownCalls } from '../base/lifecycle.ts';
import { sendWebResponse, toWebRequest } from './node-web.ts';
import { capturePrinted } from '../isolate/printed.ts';
import { capConnections } from './http-cap.ts';
import { createServer } from '../protocol/server.ts';
import type { McpModel, McpServerOptions } from '../call/model.ts';

/** Settings of the HTTP transport. */
export interface HttpSettings {
  /** Address to bind (already validated). */
  host: string;
  /** Port; 0 picks a free one (the chosen one is announced on stderr). */
  port: number;
  /** 2025 era: one server per request, no session ids (for several replicas behind a load balancer). */
  stateless: boolean;
  /** Idle time (no POST in flight) after which a 2025-era session is closed, in ms. */
  sessionIdleMs: number;
  /** Largest accepted POST body, in bytes (413 with a JSON-RPC error beyond). */
  maxBodyBytes: number;
  /** Most 2025-era sessions kept at once; a new initialize beyond it gets 503 (JSON-RPC body, Retry-After). */
  maxSessions: number;
  /** Host names accepted in Host and Origin (loopback names plus the bound host). */
  allowedHosts: string[];
  /**
   * 2025-era stateful sessions: makes each session's event store (resumable streams), or `false`
   * for none. Default: a MemoryEventStore per session. Stateless serving has no streams to resume.
   */
  eventStore?: false | (() => EventStore);
  /** The bearer token every request must carry (`Authorization: Bearer …`); none when undefined. */
  token?: string;
  /** Connection bounds; see {@link HTTP_BOUNDS} for each default. */
  bounds?: Partial<HttpBounds>;
}

/** How long a client may hold a connection without finishing its request, and how many it may hold. */
export interface HttpBounds {
  /** Time to receive a request's headers, ms; then 408 and the connection closes. */
  headersTimeoutMs: number;
  /** Time to receive a whole request (headers and body), ms; then 408 and the connection closes. */
  requestTimeoutMs: number;
  /**
   * Most connections open at once; a connection beyond it evicts the oldest one that is waiting for
   * its request (stalled or idle), or is closed unanswered when every one is being served.
   */
  maxConnections: number;
}

/**
 * The defaults of {@link HttpBounds}: headers within 10 s, a whole request within 30 s (4 MiB, the
 * default body limit, at 140 KB/s), 1024 connections (docs/mcp-server.md#held-connections). A
 * response that streams for minutes (a long call's SSE) is not bounded by them: they end once the
 * request has been received.
 */
export const HTTP_BOUNDS: HttpBounds = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, maxConnections: 1024 };

/**
 * Whether a request is a 2026-07-28 one, or a malformed attempt at one (which the modern handler
 * answers with the revision's error). A body that is no JSON-RPC at all claims no revision: the
 * 2025-era transport answers it, as it always has.
 */
function isModern(req: IncomingMessage, body: unknown): boolean {
  const header = (name: string) => {
    const v = req.headers[name];
    return typeof v === 'string' ? v : undefined;
  };
  const route = classifyInboundRequest({
    httpMethod: req.method ?? 'GET',
    protocolVersionHeader: header('mcp-protocol-version'),
    mcpMethodHeader: header('mcp-method'),
    mcpNameHeader: header('mcp-name'),
    ...(body !== undefined ? { body } : {}),
  });
  if (route.kind !== 'reject') return route.kind === 'modern';
  return route.rung !== 'jsonrpc-shape' || route.cell === 'batch-with-modern-element';
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
  // the process patches in their order (lib/platform/process-patches.ts): the capture (a call's
  // prints go to its result, not the server's stdout), then the children
  const releasePrinted = capturePrinted();
  const children = installChildGuard(false);
  const serverOptions = { ...options, track: life.track };
  const log = options.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const quiet = () => !(options.env ?? process.env).AX_DEBUG;
  const legacy = legacySessions(model, serverOptions, settings);
  const modern: McpHttpHandler = createMcpHandler(() => createServer(model, serverOptions, 'modern'), {
    legacy: 'reject',
    maxRequestBodySize: settings.maxBodyBytes,
    // a client's mistake answered with its JSON-RPC error is not the server's: no line unless AX_DEBUG
    onerror: (e) => void (CLIENT_ERROR.test(e.message) && quiet() ? undefined : log(`mcp-server: ${e.message}`)),
  });

  const app = express();
  app.disable('x-powered-by');
  app.use(hostOriginGuard(settings.allowedHosts));
  app.use(bearerGuard(settings.token));

  app.all('/mcp', async (req, res) => {
    try {
      let body: unknown;
      if (req.method === 'POST' && isJsonType(req.headers['content-type'])) {
        const read = await readJsonBody(req, res, settings.maxBodyBytes);
        if (!read) return;
        body = read.body;
      }
      if (isModern(req, body))
        return await sendWebResponse(res, await modern.fetch(toWebRequest(req, res), { parsedBody: body }));
      await legacy.handle(req, res, malformedResponse(body) ?? body); // a bad answer fails its request at once
    } catch (e) {
      // a client that hung up mid-body is the client's doing, like the refusals the transport does not log
      if (e instanceof ClientGone && quiet()) return;
      log(`mcp-server: request failed: ${(e as Error).message}`);
      jsonError(res, 500, -32603, 'Internal error');
    }
  });
  if (options.skills !== false) serveWellKnownSkills(app, () => servedSkill(model, options.version));
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

  const httpServer = await listen(app, settings).catch((e: unknown) => {
    process.off('SIGTERM', onSigterm);
    children.restore();
    releasePrinted();
    life.release();
    throw e;
  });
  const addr = httpServer.address() as AddressInfo;
  const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  announce(`http://${shownHost}:${addr.port}/mcp`);

  const sweep = setInterval(() => legacy.sweep(), Math.max(50, Math.min(settings.sessionIdleMs / 2, 60_000)));
  sweep.unref();

  await stopped;
  process.off('SIGTERM', onSigterm);
  clearInterval(sweep);
  // Bounded waits on ref'd timers (cleared at the end): an unref'd one could leave the event loop
  // empty mid-shutdown, and main() treats an empty loop with the run unsettled as a hung handler.
  const { delay, clearDelays } = boundedDelays();
  const closed = new Promise<void>((r) => httpServer.close(() => r()));
  // abort every call, give it the abort grace (a handler that ignores it is answered `interrupted`
  // by the run's race), kill children: all within the shutdown budget the run gives this command
  await shutdownCalls(life, false, () => children.killAll());
  await delay(20); // the results just produced are written to their streams
  await Promise.allSettled([legacy.closeAll(), modern.close()]);
  // ended streams finish writing; connections still open after a moment are cut
  await Promise.race([closed, delay(250)]);
  httpServer.closeAllConnections();
  clearDelays();
  children.restore();
  releasePrinted();
  life.release();
}

/** Starts the HTTP server on the settings' address, bounded as {@link HTTP_BOUNDS} and the settings say. */
function listen(app: express.Express, settings: HttpSettings): Promise<import('node:http').Server> {
  return new Promise<import('node:http').Server>((resolve, reject) => {
    // requireHostHeader: false lets a request without Host reach the guard, which answers 403 with a
    // JSON-RPC body (Node's own refusal is an empty 400).
    const bounds = { ...HTTP_BOUNDS, ...settings.bounds };
    const s = createHttpServer(
      {
        requireHostHeader: false,
        headersTimeout: bounds.headersTimeoutMs,
        requestTimeout: bounds.requestTimeoutMs,
        // how often Node looks for connections past those times (its default, 30 s, would double them)
        connectionsCheckingInterval: Math.max(100, Math.min(1_000, bounds.headersTimeoutMs / 4)),
      },
      app,
    );
    capConnections(s, bounds.maxConnections);
    s.on('clientError', onClientError);
    s.once('error', reject);
    s.listen(settings.port, settings.host, () => {
      s.off('error', reject);
      resolve(s);
    });
  });
}

/** Waits on ref'd timers, all cleared at once by `clearDelays`. */
function boundedDelays(): { delay: (ms: number) => Promise<void>; clearDelays: () => void } {
  const timers = new Set<NodeJS.Timeout>();
  const delay = (ms: number) =>
    new Promise<void>((r) => {
      const t = setTimeout(() => {
        timers.delete(t);
        r();
      }, ms);
      timers.add(t);
    });
  return { delay, clearDelays: () => timers.forEach((t) => clearTimeout(t)) };
}

/**
 * The program's skill at the Agent Skills well-known URIs (GET and HEAD, behind the same Host,
 * Origin and token checks as `/mcp`): `/.well-known/agent-skills/index.json` and each file under
 * `/.well-known/agent-skills/<name>/` (docs/mcp-server.md#skills).
 */
function serveWellKnownSkills(app: express.Express, skill: () => ServedSkill): void {
  const BASE = '/.well-known/agent-skills/';
  app.use((req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.path.startsWith(BASE)) return next();
    const s = skill();
    const rest = req.path.slice(BASE.length);
    const file = s.files.find((f) => rest === `${s.name}/${f.path}`);
    if (rest !== 'index.json' && !file) return void res.status(404).type('text/plain').send('Not found\n');
    res.setHeader('Cache-Control', 'no-cache');
    if (file) return void res.status(200).type('text/markdown; charset=utf-8').send(file.text);
    res
      .status(200)
      .type('application/json')
      .send(`${JSON.stringify(wellKnownIndex(s))}\n`);
  });
}
