/**
 * The HTTP perimeter, before a request reaches the MCP transport: one `Host` header naming an
 * allowed host, an allowed `Origin`, a bearer token when one is configured (constant-time compare),
 * and a body read here (bounded) so an empty batch or a JSON-RPC id already in flight in the session
 * is refused with a JSON-RPC error. Every refusal carries a JSON-RPC body, including those Node's
 * HTTP parser would answer with an empty 400 (`clientError`). Sources: RFC 9112 §3.2 (exactly one
 * Host), RFC 6750 §3 (`WWW-Authenticate: Bearer`), JSON-RPC 2.0 §6 (an empty batch is one Invalid
 * Request); MCP 2025-06-18 Streamable HTTP (DNS-rebinding protection, request ids unique per session).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

type Id = string | number;

/** Writes a JSON-RPC error response with an HTTP status (nothing when headers have gone out). */
export function jsonError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  id: Id | null = null,
): void {
  if (res.headersSent) return;
  writeJsonError(res, status, code, message, headers, id);
  res.end();
}

/** The head and the whole body of {@link jsonError}, leaving the response open (its length is in `Content-Length`). */
function writeJsonError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string>,
  id: Id | null,
): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id });
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
  });
  res.write(body);
}

/**
 * Answers a request Node's parser refused (bad header bytes, oversized headers) with a JSON-RPC
 * body instead of Node's empty 400, then closes the connection. For `server.on('clientError')`.
 */
export function onClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || err.code === 'ECONNRESET') return void socket.destroy();
  const [status, text] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout']
        : [400, 'Bad Request'];
  const why =
    status === 408
      ? 'the request did not arrive in time'
      : `the request could not be parsed as HTTP/1.1 (${err.code ?? 'invalid request'})`;
  const body = JSON.stringify({
    jsonrpc: '2.0',
    error: {
      code: -32600,
      message: `${text}: ${why}`,
    },
    id: null,
  });
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** The host name of a Host header value (`[::1]:8080` → `::1`); undefined when it is not `host[:port]`. */
export function hostnameOf(hostHeader: string): string | undefined {
  const h = hostHeader.trim().toLowerCase();
  const m = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9.-]+))(?::(\d{1,5}))?$/.exec(h);
  return m ? (m[1] ?? m[2]) : undefined;
}

/**
 * Express middleware: 400 for several Host headers, 403 for a Host or Origin whose host is not allowed
 * (DNS rebinding).
 */
export function hostOriginGuard(allowed: string[]) {
  const ok = new Set(allowed.map((h) => h.toLowerCase()));
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    let hosts = 0;
    for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === 'host') hosts++;
    if (hosts > 1)
      return jsonError(res, 400, -32600, 'Bad Request: more than one Host header (RFC 9112 §3.2 allows exactly one)');
    const host = req.headers.host;
    const name = host === undefined ? undefined : hostnameOf(host);
    if (!name || !ok.has(name))
      return jsonError(res, 403, -32000, `Forbidden: Host ${JSON.stringify(host ?? '')} is not allowed`);
    const origin = req.headers.origin;
    if (origin !== undefined) {
      let oh: string | undefined;
      try {
        oh = new URL(origin).hostname.replace(/^\[|\]$/g, '').toLowerCase();
      } catch {
        oh = undefined;
      }
      if (!oh || !ok.has(oh))
        return jsonError(res, 403, -32000, `Forbidden: Origin ${JSON.stringify(origin)} is not allowed`);
    }
    next();
  };
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * Express middleware: with a token, every request needs `Authorization: Bearer <token>` (compared
 * in constant time, as SHA-256 digests of equal length); otherwise 401 with `WWW-Authenticate:
 * Bearer` and a JSON-RPC body. Without a token, a pass-through.
 */
export function bearerGuard(token: string | undefined) {
  const want = token === undefined ? undefined : digest(token);
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    if (!want) return next();
    const auth = req.headers.authorization;
    const m = typeof auth === 'string' ? /^Bearer[ ]+(\S+)\s*$/i.exec(auth) : null;
    if (!m)
      return jsonError(
        res,
        401,
        -32001,
        'Unauthorized: send Authorization: Bearer <token> (the server was started with a token)',
        { 'www-authenticate': 'Bearer realm="mcp"' },
      );
    if (!timingSafeEqual(digest(m[1]!), want)) {
      return jsonError(res, 401, -32001, 'Unauthorized: the bearer token is not valid', {
        'www-authenticate': 'Bearer realm="mcp", error="invalid_token"',
      });
    }
    next();
  };
}

/**
 * How a refused body is still read after its 413 went out, before the connection is cut: at most
 * this many more bytes, for at most this long. Cutting at once would reset a connection the client
 * is still writing on, and a client that writes its whole body before it reads (undici's `fetch`)
 * then sees EPIPE or ECONNRESET instead of the 413. nginx's "lingering close" does the same.
 */
export const LINGER = { bytes: 64 * 1024 * 1024, ms: 5_000 } as const;

/** Why a body read failed when the client went away before the body's end (nobody is left to answer). */
export class ClientGone extends Error {
  override readonly name = 'ClientGone';
}

/**
 * Reads a request body of at most `max` bytes. Past `max` — or at once when `Content-Length` declares
 * more — it answers 413 itself (a JSON-RPC error, id null, `Connection: close`), keeps reading and
 * discarding the rest within {@link LINGER} so the client can read that answer, and resolves undefined.
 * @throws ClientGone (rejects) when the connection fails or closes before the body's end.
 */
export function readBoundedBody(req: IncomingMessage, res: ServerResponse, max: number): Promise<Buffer | undefined> {
  // a declared length over the limit is answered at once, not after the bytes have arrived
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) {
    refuseTooLarge(req, res, max);
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onFail);
      req.off('close', onClose);
    };
    const onData = (c: Buffer): void => {
      size += c.length;
      if (size <= max) return void chunks.push(c);
      stop();
      refuseTooLarge(req, res, max);
      resolve(undefined);
    };
    const onEnd = (): void => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onFail = (e?: Error): void => {
      stop();
      reject(
        new ClientGone(`the client went away before the request body ended${e ? ` (${e.message})` : ''}`, { cause: e }),
      );
    };
    const onClose = (): void => onFail();
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onFail);
    req.once('close', onClose);
  });
}

/**
 * Sends the 413 in full (its length is in `Content-Length`, so the client has all of it) but ends the
 * response, which closes the connection, only once the request's body has been read to its end —
 * or cut when {@link LINGER}'s bytes or time run out first.
 */
function refuseTooLarge(req: IncomingMessage, res: ServerResponse, max: number): void {
  if (!res.headersSent)
    writeJsonError(
      res,
      413,
      -32000,
      `Payload Too Large: Request body must not exceed ${max} bytes`,
      { connection: 'close' },
      null,
    );
  let left: number = LINGER.bytes;
  const done = (): void => {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', done);
    req.off('error', done);
    req.off('close', done);
    res.end();
  };
  const cut = (): void => {
    done();
    req.socket.destroy();
  };
  const onData = (c: Buffer): void => {
    left -= c.length;
    if (left < 0) cut();
  };
  const timer = setTimeout(cut, LINGER.ms);
  timer.unref();
  req.on('data', onData);
  req.once('end', done);
  req.once('error', done);
  req.once('close', done);
}

/** The outcome of {@link readJsonBody}: the parsed body, or undefined once a refusal was sent. */
export type BodyResult = { body: unknown } | undefined;

/**
 * Reads a JSON POST body of at most `max` bytes ({@link readBoundedBody}) and parses it, answering
 * itself (and resolving undefined) when it is too large (413), not JSON (400 -32700) or an empty
 * batch (400 -32600). The messages are the SDK transport's own, so a body read here is refused the
 * same way.
 */
export async function readJsonBody(req: IncomingMessage, res: ServerResponse, max: number): Promise<BodyResult> {
  const raw = await readBoundedBody(req, res, max);
  if (raw === undefined) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    jsonError(res, 400, -32700, 'Parse error: Invalid JSON');
    return undefined;
  }
  if (Array.isArray(body) && body.length === 0) {
    jsonError(res, 400, -32600, 'Invalid Request: an empty batch (JSON-RPC 2.0 §6)');
    return undefined;
  }
  return { body };
}

/** The ids of the requests (not notifications or responses) in a body: one message or a batch. */
export function requestIds(body: unknown): Id[] {
  const list = Array.isArray(body) ? body : [body];
  const ids: Id[] = [];
  for (const m of list) {
    if (m === null || typeof m !== 'object') continue;
    const o = m as Record<string, unknown>;
    if (typeof o.method === 'string' && (typeof o.id === 'string' || typeof o.id === 'number')) ids.push(o.id);
  }
  return ids;
}

/**
 * The JSON-RPC ids in flight in one session: {@link claim} refuses (400, -32600, with the id) a
 * request whose id is already in flight there — the SDK would map both to one stream and the first
 * would never be answered — and frees the ids when the POST's response has closed.
 */
export class InflightIds {
  private readonly ids = new Set<string>();

  /** Takes the body's request ids for the life of `res`; false (answered) when one is taken. */
  claim(body: unknown, res: ServerResponse): boolean {
    const ids = requestIds(body);
    const keys = ids.map((id) => `${typeof id}:${String(id)}`);
    const seen = new Set<string>();
    for (const [i, k] of keys.entries()) {
      if (this.ids.has(k) || seen.has(k)) {
        jsonError(
          res,
          400,
          -32600,
          `Invalid Request: a request with id ${JSON.stringify(ids[i])} ` +
            `is already in flight in this session; use a new id`,
          {},
          ids[i]!,
        );
        return false;
      }
      seen.add(k);
    }
    for (const k of keys) this.ids.add(k);
    res.once('close', () => {
      for (const k of keys) this.ids.delete(k);
    });
    return true;
  }
}

/** Whether a content type is JSON (`application/json`, with parameters), as the SDK requires. */
export function isJsonType(ct: string | undefined): boolean {
  return typeof ct === 'string' && /^application\/json\s*(;|$)/i.test(ct.trim());
}
