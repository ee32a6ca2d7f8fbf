/**
 * The seam between Node's HTTP server and the SDK's web-standard serving entries (its Streamable
 * HTTP transport and its 2026-07-28 handler take a `Request` and answer a `Response`): a request
 * whose body this server has already read (bounded, parsed, checked) becomes a body-less `Request`
 * (the parsed body travels beside it), and a `Response` is written back — an SSE body chunk by
 * chunk, as the SDK produces it, with back-pressure, and cancelled when the client goes away, so the
 * SDK sees the stream close (which the 2026-07-28 revision reads as the client's cancellation).
 * Source: the Fetch standard's `Request`/`Response`; Node's `http` module.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A web `Request` for `req` without its body (already read by the caller, who passes the parsed
 * body to the SDK as `parsedBody`); its `signal` aborts when the client closes the connection
 * before the answer is complete.
 */
export function toWebRequest(req: IncomingMessage, res: ServerResponse): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  // the host is only a base for the URL: Host and Origin were checked before (http-guard.ts)
  return new Request(`http://localhost${req.url ?? '/'}`, { method: req.method, headers, signal: gone.signal });
}

/** Resolves when `res` can take more bytes, or has closed. */
function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

/**
 * Writes `response` to `res`: status and headers, then the body as it comes (SSE streams flush their
 * head at once). Resolves when the body has ended or the client has gone away (the body is then
 * cancelled).
 */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const head: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    head[name] = value;
  });
  if (!res.headersSent) res.writeHead(response.status, head);
  const body = response.body;
  if (!body) return void res.end();
  if ((head['content-type'] ?? '').startsWith('text/event-stream')) res.flushHeaders();
  const reader = body.getReader();
  let closed = false;
  const onClose = (): void => {
    closed = true;
    void reader.cancel().catch(() => {});
  };
  res.once('close', onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || closed) break;
      if (!res.write(value)) await drainOrClose(res);
    }
  } catch {
    // the producer failed or was cancelled: what was written stands, the response ends here
  } finally {
    res.off('close', onClose);
    if (!closed) res.end();
  }
}
