/**
 * Clients of newer protocol revisions probe first — a draft revision's `server/discover`, sent with
 * that revision in `MCP-Protocol-Version` — and fall back to `initialize` when the server speaks an
 * older one. This server speaks the revisions of its SDK (2025-11-25 and earlier): a probe gets a
 * clean JSON-RPC error, -32022 (the draft's UnsupportedProtocolVersion) with `data.supported`
 * listing only those revisions, which such clients read as "use initialize". Nothing is logged.
 * Source: MCP draft SEP-2575 (server/discover), the TypeScript SDK's probe classifier.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { readBoundedBody } from './http-guard.ts';

/** JSON-RPC code of the draft's UnsupportedProtocolVersion error. */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** An error a request handler throws to answer with exactly this JSON-RPC `code`, `message` and `data` (no SDK prefix). */
export function rpcError(code: number, message: string, data?: unknown): Error & { code: number; data?: unknown } {
  return Object.assign(new Error(message), { code, ...(data !== undefined ? { data } : {}) });
}

/** The probe's answer (stdio, or HTTP once a request reaches a server): -32022 with the supported revisions. */
export function discoverError(requested?: string): Error & { code: number; data?: unknown } {
  return rpcError(
    UNSUPPORTED_PROTOCOL_VERSION,
    `Unsupported protocol version${requested ? ` ${requested}` : ''}: this server speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}; send initialize`,
    {
      supported: [...SUPPORTED_PROTOCOL_VERSIONS],
      ...(requested ? { requested } : {}),
    },
  );
}

/**
 * HTTP: a POST whose `MCP-Protocol-Version` names a revision this server does not speak is answered
 * here — 400 with a JSON-RPC error carrying the request's id, code -32022 and `data.supported` —
 * instead of by the SDK (which answers with id null and reports it as an error on stderr).
 * @returns whether the request was answered.
 */
export async function answerNewerRevision(
  req: IncomingMessage,
  res: ServerResponse,
  maxBodyBytes: number,
): Promise<boolean> {
  const requested = req.headers['mcp-protocol-version'];
  if (req.method !== 'POST' || typeof requested !== 'string' || SUPPORTED_PROTOCOL_VERSIONS.includes(requested))
    return false;
  const raw = await readBoundedBody(req, res, maxBodyBytes);
  if (raw === undefined) return true; // 413, answered
  const body = raw.toString('utf8');
  let id: unknown = null;
  try {
    const msg = JSON.parse(body) as unknown;
    if (msg && typeof msg === 'object' && !Array.isArray(msg)) {
      const i = (msg as Record<string, unknown>).id;
      if (typeof i === 'string' || typeof i === 'number') id = i;
    }
  } catch {
    /* not JSON: answered with id null */
  }
  const e = discoverError(requested);
  const text = JSON.stringify({ jsonrpc: '2.0', id, error: { code: e.code, message: e.message, data: e.data } });
  res.writeHead(400, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
  return true;
}

/** Errors the transport reports after it has already answered the client (a client's mistake, not the server's): not logged by default. */
export const CLIENT_ERROR =
  /^(Bad Request|Not Acceptable|Unsupported Media Type|Parse error|Invalid Request|Payload Too Large|Method not allowed|Conflict|Session not found|Invalid event ID)/;
