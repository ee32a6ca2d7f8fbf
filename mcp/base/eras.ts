/**
 * The two protocol eras one server speaks, and what differs between them outside the SDK: the
 * 2025 era (revisions 2024-10-07 … 2025-11-25: an `initialize` handshake, sessions) and the modern
 * era (2026-07-28: no handshake, the client's version and capabilities in every request's `_meta`,
 * `server/discover`, cacheable results). A client's era is fixed by what it sends first: over
 * HTTP per request, over stdio per connection (docs/mcp-server.md#protocol-eras).
 * Sources: MCP 2025-11-25 and 2026-07-28 specifications ("Versioning", "Caching", "Resources").
 */
import type { Transport } from '@modelcontextprotocol/server';

/**
 * An era's name, as the SDK gives it: `legacy`, the 2025 era (initialize, sessions); `modern`,
 * 2026-07-28 (stateless, per-request `_meta`). What each era does is its `Era` (mcp/call/era.ts).
 */
export type EraName = 'legacy' | 'modern';

/** MCP log levels, lowest first (RFC 5424 severities). */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** The modern revision served. */
export const MODERN_REVISION = '2026-07-28';

/** `_meta` key of the modern era's per-request log level (absent: no `notifications/message` for that request). */
export const LOG_LEVEL_META_KEY = 'io.modelcontextprotocol/logLevel';

/** `_meta` key of the modern era's per-request client capabilities. */
export const CLIENT_CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';

/**
 * How long a modern client may keep a cacheable result (`ttlMs`), ms: one hour. Everything
 * cacheable here — `server/discover`, the tool, prompt, resource and template lists, and
 * `resources/read` of a declared resource (static content) — comes from the command tree, which
 * does not change while the server runs; a restarted server (a new version of the program) may
 * answer differently, so the hint is bounded rather than endless, and a client that meets an
 * unknown tool before the hour is out re-fetches, as the specification allows.
 */
export const CACHE_TTL_MS = 60 * 60_000;

/**
 * The cache hints of every cacheable modern result: {@link CACHE_TTL_MS}, and `public` — no result
 * depends on who asks (one bearer token grants every tool alike; nothing is filtered per caller).
 */
export const CACHE_HINTS = Object.fromEntries(
  ['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read'].map(
    (m) => [m, { ttlMs: CACHE_TTL_MS, cacheScope: 'public' as const }],
  ),
) as Record<
  'server/discover' | 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list' | 'resources/read',
  { ttlMs: number; cacheScope: 'public' }
>;

/** An error a request handler throws to answer with exactly this JSON-RPC `code`, `message` and `data`. */
export function rpcError(code: number, message: string, data?: unknown): Error & { code: number; data?: unknown } {
  return Object.assign(new Error(message), { code, ...(data !== undefined ? { data } : {}) });
}

/** The message of an unknown resource's error (`resources/read`), in both eras. */
export const RESOURCE_NOT_FOUND = 'Resource not found: ';

/**
 * A 2025-era connection's transport, answering an unknown resource with the 2025-11-25 revision's
 * code, -32002, where the SDK now writes -32602 for every era (the 2026-07-28 revision's code).
 * Everything else passes through untouched.
 */
export function legacyWire(transport: Transport): Transport {
  const send: Transport['send'] = (message, options) => {
    const error = (message as { error?: { code?: number; message?: string } }).error;
    if (error?.code === -32602 && error.message?.startsWith(RESOURCE_NOT_FOUND))
      message = { ...message, error: { ...error, code: -32002 } } as typeof message;
    return transport.send(message, options);
  };
  return new Proxy(transport, {
    get: (target, key) => (key === 'send' ? send : Reflect.get(target, key, target)),
    set: (target, key, value) => Reflect.set(target, key, value, target),
  });
}

/**
 * Errors the transport reports after it has already answered the client (a client's mistake, not the
 * server's): not logged by default.
 */
export const CLIENT_ERROR =
  /^(Bad Request|Not Acceptable|Unsupported Media Type|Parse error|Invalid Request|Payload Too Large|Method not allowed|Conflict|Session not found|Invalid event ID|Rejected inbound request|Rejected 2025-era request|Unsupported protocol version|Missing required client capability)/;
