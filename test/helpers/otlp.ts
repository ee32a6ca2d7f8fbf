/**
 * A small OTLP/HTTP collector for the tracing tests: a real HTTP server on a free loopback port
 * that records every JSON body POSTed to /v1/traces (the OpenTelemetry JS exporter's default
 * encoding) and flattens it into spans. `hang: true` makes it accept requests and never answer.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One received span, flattened from resourceSpans[].scopeSpans[].spans[]. */
export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  kind: number;
  status?: { code?: number; message?: string };
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

/** A running collector. */
export interface Collector {
  /** Base endpoint, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string;
  spans: ReceivedSpan[];
  /** Paths of the requests received. */
  paths: string[];
  /** Resolves once `n` spans have arrived (rejects after `ms`). */
  waitFor(n: number, ms?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

function attrs(list: { key: string; value: Record<string, unknown> }[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of list ?? []) {
    const v = a.value;
    out[a.key] = v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue));
  }
  return out;
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let s = '';
    req.setEncoding('utf8').on('data', (c: string) => (s += c));
    req.on('end', () => resolve(s));
  });
}

/** Starts a collector on 127.0.0.1:0. */
export async function startCollector(opts: { hang?: boolean } = {}): Promise<Collector> {
  const spans: ReceivedSpan[] = [];
  const paths: string[] = [];
  const waiters = new Set<() => void>();
  const held: import('node:http').ServerResponse[] = [];
  const server: Server = createServer(async (req, res) => {
    paths.push(req.url ?? '');
    const text = await body(req);
    if (opts.hang) {
      held.push(res);
      return;
    }
    try {
      const doc = JSON.parse(text) as { resourceSpans?: any[] };
      for (const rs of doc.resourceSpans ?? []) {
        const resource = attrs(rs.resource?.attributes);
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({
              name: s.name,
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId || undefined,
              kind: s.kind,
              status: s.status,
              attributes: attrs(s.attributes),
              resource,
            });
          }
        }
      }
    } catch {
      /* not JSON: recorded by path only */
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    for (const w of [...waiters]) w();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    paths,
    waitFor: (n, ms = 10_000) =>
      new Promise((resolve, reject) => {
        if (spans.length >= n) return resolve(spans);
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`collector got ${spans.length} span(s), wanted ${n}: ${JSON.stringify(spans)}`));
        }, ms);
        const check = () => {
          if (spans.length >= n) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve(spans);
          }
        };
        waiters.add(check);
      }),
    close: () =>
      new Promise<void>((r) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A loopback port nothing listens on (bound, then released). */
export async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
