/**
 * Span export with the OpenTelemetry JS SDK over OTLP/HTTP (JSON), loaded only when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set: trace.ts imports
 * this module dynamically, so an ordinary run never loads the SDK. One provider per process and
 * endpoint; each span is exported as soon as it ends (SimpleSpanProcessor). The span's ids are the
 * ones the run already printed (its envelope's trace_id/span_id), handed to the SDK through its
 * IdGenerator. Source: OpenTelemetry specification (OTLP exporter environment variables, W3C
 * propagation); ax-go internal/telemetry (OTLP HTTP exporter, fail-open, bounded shutdown).
 */
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  createTraceState,
  trace,
  type Context,
} from '@opentelemetry/api';
import { BasicTracerProvider, SimpleSpanProcessor, type IdGenerator } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';

/** What one finished span needs. */
export interface SpanRecord {
  /** Span name: the command path (`tasks add`). */
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  /** Trace flags of the caller (`01` sampled); a caller that did not sample gets no exported span. */
  flags: string;
  traceState?: string;
  /** Epoch milliseconds. */
  start: number;
  end: number;
  kind: 'internal' | 'server';
  attributes: Record<string, string | number | boolean>;
  /** The error kind, when the run failed (span status ERROR). */
  error?: string;
}

/** Where and as whom spans are exported. */
export interface ExportTarget {
  /** Full traces URL (`…/v1/traces`). */
  url: string;
  headers: Record<string, string>;
  serviceName: string;
  serviceVersion: string;
  /** Per-request timeout of the exporter, ms. */
  timeoutMs: number;
}

/** Hands the SDK the ids the run already uses, one span at a time (spans start synchronously). */
class GivenIds implements IdGenerator {
  next?: { traceId: string; spanId: string };
  generateTraceId(): string {
    return this.next?.traceId ?? '';
  }
  generateSpanId(): string {
    return this.next?.spanId ?? '';
  }
}

interface Installed {
  provider: BasicTracerProvider;
  ids: GivenIds;
}
const providers = new Map<string, Installed>();

function providerFor(t: ExportTarget): Installed {
  const key = JSON.stringify([t.url, t.headers, t.serviceName, t.serviceVersion]);
  let p = providers.get(key);
  if (!p) {
    const ids = new GivenIds();
    const exporter = new OTLPTraceExporter({ url: t.url, headers: t.headers, timeoutMillis: t.timeoutMs });
    const provider = new BasicTracerProvider({
      idGenerator: ids,
      resource: resourceFromAttributes({ 'service.name': t.serviceName, 'service.version': t.serviceVersion }),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    p = { provider, ids };
    providers.set(key, p);
  }
  return p;
}

/**
 * Records one finished span and starts its export. @returns a promise that settles when every span
 * exported so far has been sent or has failed (never rejects: export is fail-open).
 */
export function exportSpan(t: ExportTarget, s: SpanRecord): Promise<void> {
  const { provider, ids } = providerFor(t);
  let parent: Context = ROOT_CONTEXT;
  if (s.parentSpanId) {
    parent = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: s.traceId,
      spanId: s.parentSpanId,
      traceFlags: parseInt(s.flags, 16) & TraceFlags.SAMPLED ? TraceFlags.SAMPLED : TraceFlags.NONE,
      isRemote: true,
      ...(s.traceState ? { traceState: createTraceState(s.traceState) } : {}),
    });
  }
  ids.next = { traceId: s.traceId, spanId: s.spanId };
  const span = provider
    .getTracer('ax-ts')
    .startSpan(
      s.name,
      { kind: s.kind === 'server' ? SpanKind.SERVER : SpanKind.INTERNAL, startTime: s.start, attributes: s.attributes },
      parent,
    );
  ids.next = undefined;
  if (s.error) span.setStatus({ code: SpanStatusCode.ERROR, message: s.error });
  span.end(s.end);
  return provider.forceFlush().catch(() => {});
}
