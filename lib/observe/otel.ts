/**
 * Span export with the OpenTelemetry JS SDK over OTLP/HTTP (JSON), loaded only when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set: trace.ts imports
 * this module dynamically, so an ordinary run never loads the SDK. One provider per process and
 * endpoint; each span is exported as soon as it ends (SimpleSpanProcessor). The span's ids are the
 * ones the run already printed (its envelope's trace_id/span_id), handed to the SDK through its
 * IdGenerator. Source: OpenTelemetry specification (OTLP exporter environment variables, W3C
 * propagation); ax-go internal/telemetry (OTLP HTTP exporter, fail-open, bounded shutdown).
 */
import type { Context } from '@opentelemetry/api';
import type { BasicTracerProvider, IdGenerator } from '@opentelemetry/sdk-trace-base';
import { AxError } from '../contract/errors.ts';

/**
 * The packages span export needs: optional peer dependencies of ax-ts, installed by a program that
 * exports traces (docs/observability.md#exporting-spans-otlphttp). Each is imported on first use; a bundler bundles
 * those that are installed and leaves the others to fail, when used, with {@link missingSdk}.
 */
export const OTEL_PACKAGES = [
  '@opentelemetry/api',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/resources',
] as const;

/** The error of a span export whose SDK is not installed: `context.package` names what is missing. */
export function missingSdk(pkg: string, cause: unknown): AxError {
  return new AxError(
    'internal_error',
    `OTEL_EXPORTER_OTLP_ENDPOINT is set, but the OpenTelemetry SDK is not installed: ${pkg} could not be loaded`,
    {
      cause,
      fix: `Install it beside ax-ts: npm install ${OTEL_PACKAGES.join(' ')}; or unset OTEL_EXPORTER_OTLP_ENDPOINT.`,
      context: { reason: 'missing_dependency', package: pkg },
    },
  );
}

interface Sdk {
  api: typeof import('@opentelemetry/api');
  base: typeof import('@opentelemetry/sdk-trace-base');
  exporter: typeof import('@opentelemetry/exporter-trace-otlp-http');
  resources: typeof import('@opentelemetry/resources');
}

let loading: Promise<Sdk> | undefined;
/**
 * The SDK, imported on first use (the literal specifiers let a bundler see each package).
 * @throws AxError from {@link missingSdk} when a package is not installed.
 */
export function loadSdk(): Promise<Sdk> {
  const fail = (pkg: string) => (e: unknown) => {
    throw missingSdk(pkg, e);
  };
  loading ??= Promise.all([
    import('@opentelemetry/api').catch(fail('@opentelemetry/api')),
    import('@opentelemetry/sdk-trace-base').catch(fail('@opentelemetry/sdk-trace-base')),
    import('@opentelemetry/exporter-trace-otlp-http').catch(fail('@opentelemetry/exporter-trace-otlp-http')),
    import('@opentelemetry/resources').catch(fail('@opentelemetry/resources')),
  ]).then(([api, base, exporter, resources]) => ({ api, base, exporter, resources }));
  return loading;
}

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

function providerFor(sdk: Sdk, t: ExportTarget): Installed {
  const key = JSON.stringify([t.url, t.headers, t.serviceName, t.serviceVersion]);
  let p = providers.get(key);
  if (!p) {
    const ids = new GivenIds();
    const exporter = new sdk.exporter.OTLPTraceExporter({ url: t.url, headers: t.headers, timeoutMillis: t.timeoutMs });
    const provider = new sdk.base.BasicTracerProvider({
      idGenerator: ids,
      resource: sdk.resources.resourceFromAttributes({
        'service.name': t.serviceName,
        'service.version': t.serviceVersion,
      }),
      spanProcessors: [new sdk.base.SimpleSpanProcessor(exporter)],
    });
    p = { provider, ids };
    providers.set(key, p);
  }
  return p;
}

/**
 * Records one finished span and starts its export. @returns a promise that settles when every span
 * exported so far has been sent or has failed (export is fail-open).
 * @throws AxError from {@link missingSdk} (rejected) when the SDK is not installed.
 */
export async function exportSpan(t: ExportTarget, s: SpanRecord): Promise<void> {
  const sdk = await loadSdk();
  const { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, createTraceState, trace } = sdk.api;
  const { provider, ids } = providerFor(sdk, t);
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
