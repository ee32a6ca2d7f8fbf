/**
 * The trace a run belongs to. A run continues its caller's W3C trace — `TRACEPARENT`/`TRACESTATE`
 * in its environment, or `_meta.traceparent`/`_meta.tracestate` of an MCP `tools/call` — and
 * otherwise starts a new one; either way it has a span of its own, whose ids the envelope and the
 * error line print. Child processes started with `ctx.childEnv()` continue from that span. When
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is set the span is exported (otel.ts, loaded only then) and the
 * export is awaited for at most {@link FLUSH_BOUND_MS}. Source: W3C Trace Context; ax-go
 * internal/telemetry, internal/mcpserver/trace.go.
 */
import { newSpanId, newTraceId } from '../contract/ids.ts';
import { formatTraceparent, parseTraceparent } from '../contract/trace-context.ts';
import { AxError } from '../contract/errors.ts';

/** The trace context of one run. */
export interface RunTrace {
  /** 32 lower-hex: the caller's trace id, or a new one. */
  traceId: string;
  /** 16 lower-hex: this run's own span. */
  spanId: string;
  /** The caller's span, when the run continues a trace. */
  parentSpanId?: string;
  /** Trace flags (`01` sampled, the default for a new trace). */
  flags: string;
  /** The caller's tracestate, passed on unchanged. */
  traceState?: string;
  /** When the run started (epoch ms), the span's start time. */
  startedAt: number;
}

/** Longest a finished run waits for its span export before it returns (ms). */
export const FLUSH_BOUND_MS = 1000;

/**
 * The trace of a new run: from `given` (an MCP call's `_meta`) when it holds a valid traceparent,
 * else from `env.TRACEPARENT`/`env.TRACESTATE` when valid, else a new trace. Invalid values are
 * ignored, as W3C asks of a receiver.
 */
export function startTrace(
  env: Record<string, string | undefined>,
  given?: { traceparent?: string; tracestate?: string },
): RunTrace {
  const parent =
    parseTraceparent(given?.traceparent, given?.tracestate) ?? parseTraceparent(env.TRACEPARENT, env.TRACESTATE);
  const startedAt = Date.now();
  if (!parent) return { traceId: newTraceId(), spanId: newSpanId(), flags: '01', startedAt };
  const t: RunTrace = {
    traceId: parent.traceId,
    spanId: newSpanId(),
    parentSpanId: parent.parentSpanId,
    flags: parent.flags,
    startedAt,
  };
  if (parent.traceState) t.traceState = parent.traceState;
  return t;
}

/**
 * Environment variable: the `traceparent` of the run that started this process, for this process's
 * own run alone. `main()` takes it (and removes it from `process.env`, so nothing the run starts
 * sees it): an `mcp-server` run's server process continues the run's trace with it, while each tool
 * call stays a trace of its own unless `TRACEPARENT` says otherwise (docs/observability.md#traces).
 */
export const RUN_TRACEPARENT_ENV = 'AX_RUN_TRACEPARENT';

/**
 * Every variable the trace of a run reads ({@link startTrace}, {@link tracesUrl}, the export's
 * headers, {@link otelDebug}).
 */
const TRACE_VARIABLES = [
  'TRACEPARENT',
  'TRACESTATE',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_SDK_DISABLED',
  'OTEL_TRACES_EXPORTER',
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
  'AX_OTEL_DEBUG',
] as const;

/**
 * The trace settings of `env` read once, as a plain object that the functions of this module take
 * in place of the environment: a long-running server reads `process.env` (each read a call into the
 * runtime, five per run) once instead of on every call, as OpenTelemetry SDKs read their variables
 * when they start (docs/observability.md#a-servers-trace-settings).
 */
export function traceSettings(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const name of TRACE_VARIABLES) {
    const v = env[name];
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/** This run's span as a `traceparent` value (what a child process receives). */
export function traceparentOf(t: RunTrace): string {
  return formatTraceparent(t.traceId, t.spanId, t.flags);
}

/**
 * The environment for a child process: `base` plus `extra`, with `TRACEPARENT` naming this run's
 * span and `TRACESTATE` the caller's state (removed when there is none), so the child joins the trace.
 */
export function childEnv(
  t: RunTrace,
  base: Record<string, string | undefined>,
  extra: Record<string, string | undefined> = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...base, ...extra })) if (v !== undefined) out[k] = v;
  out.TRACEPARENT = traceparentOf(t);
  if (t.traceState) out.TRACESTATE = t.traceState;
  else delete out.TRACESTATE;
  return out;
}

/** The OTLP/HTTP traces URL from the environment, per the OpenTelemetry spec; undefined = no export. */
export function tracesUrl(env: Record<string, string | undefined>): string | undefined {
  // the endpoints first: without one nothing is exported, and the two switches need not be read
  // (every run and every MCP call asks; each read of process.env is a call into the runtime)
  const signal = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = signal ? undefined : env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!signal && !base) return undefined;
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return undefined;
  if ((env.OTEL_TRACES_EXPORTER ?? '').trim().toLowerCase() === 'none') return undefined;
  return signal || `${base!.replace(/\/+$/, '')}/v1/traces`;
}

/** `OTEL_EXPORTER_OTLP_HEADERS` / `…_TRACES_HEADERS`: `k=v,k2=v2`, values percent-decoded. */
function otlpHeaders(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of [env.OTEL_EXPORTER_OTLP_HEADERS, env.OTEL_EXPORTER_OTLP_TRACES_HEADERS]) {
    for (const pair of (raw ?? '').split(',')) {
      const i = pair.indexOf('=');
      if (i <= 0) continue;
      try {
        out[decodeURIComponent(pair.slice(0, i).trim())] = decodeURIComponent(pair.slice(i + 1).trim());
      } catch {
        /* a malformed pair is skipped */
      }
    }
  }
  return out;
}

/** What ended: for the span's name, status and attributes. */
export interface SpanEnd {
  /** Command path (the span name). */
  name: string;
  program: string;
  version: string;
  exitCode: number;
  /** Error kind when the run failed. */
  errorKind?: string;
  /** The MCP tool name, when the run is a `tools/call`. */
  tool?: string;
  /** The error's message when the run failed (the span status's description). */
  description?: string;
}

/** The span's attributes (ax-ts's, OpenTelemetry's `error.type`, the MCP semantic conventions). */
function spanAttributes(end: SpanEnd): Record<string, string | number | boolean> {
  const attributes: Record<string, string | number | boolean> = {
    'ax.command': end.name,
    'ax.exit_code': end.exitCode,
  };
  if (end.errorKind) attributes['error.type'] = end.errorKind;
  if (end.tool) Object.assign(attributes, { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': end.tool });
  return attributes;
}

/** Whether `AX_OTEL_DEBUG` asks for finished spans on stderr (`1` or `true`), as ax-go's does. */
export function otelDebug(env: Record<string, string | undefined>): boolean {
  return /^(1|true)$/i.test(env.AX_OTEL_DEBUG?.trim() ?? '');
}

/**
 * One finished span as a line of JSON (`{"span":{…}}`) for stderr under `AX_OTEL_DEBUG`
 * (docs/observability.md#seeing-spans-locally-ax_otel_debug): its name, ids, start, duration,
 * status (with the error's description) and attributes.
 */
export function spanLine(t: RunTrace, end: SpanEnd, now = Date.now()): string {
  const span = {
    name: end.name,
    trace_id: t.traceId,
    span_id: t.spanId,
    ...(t.parentSpanId ? { parent_span_id: t.parentSpanId } : {}),
    kind: end.tool ? 'server' : 'internal',
    start: new Date(t.startedAt).toISOString(),
    duration_ms: now - t.startedAt,
    status: end.errorKind
      ? { code: 'error', ...(end.description ? { description: end.description } : {}) }
      : { code: 'ok' },
    attributes: spanAttributes(end),
  };
  return `${JSON.stringify({ span })}\n`;
}

/**
 * Ends the run's span: when an OTLP endpoint is configured in `env`, loads the SDK (first time
 * only), records the span and waits for its export at most {@link FLUSH_BOUND_MS}. Never throws: a
 * collector that is down or slow changes neither the exit code nor any output. The SDK is an
 * optional peer dependency: when it is not installed, `warn` (if given) is called once per process
 * with what to install, and nothing else changes (docs/observability.md#exporting-spans-otlphttp).
 * `end` is a function, called only when a span is exported or shown: a run without tracing builds
 * nothing (an MCP call ends a span each time). With `AX_OTEL_DEBUG` set, `debug` (if given) gets the
 * span as a line ({@link spanLine}), with or without an endpoint.
 * @returns the export's promise (resolves, never rejects), or undefined when nothing is exported.
 */
export function endSpan(
  t: RunTrace,
  env: Record<string, string | undefined>,
  end: () => SpanEnd,
  warn?: (line: MissingSdkWarning) => void,
  debug?: (line: string) => void,
): Promise<void> | undefined {
  const url = tracesUrl(env);
  const shown = debug !== undefined && otelDebug(env);
  if (!url && !shown) return undefined;
  const ended = end();
  if (shown) debug(spanLine(t, ended));
  return url ? exportEnd(t, env, url, ended, warn) : undefined;
}

/** What a run is told, once per process, when spans cannot be exported because the SDK is not installed. */
export interface MissingSdkWarning {
  /** The sentence, naming the package. */
  message: string;
  /** What to install (or unset). */
  fix: string;
  /** The package that could not be loaded. */
  package: string;
}

let warned = false;

async function exportEnd(
  t: RunTrace,
  env: Record<string, string | undefined>,
  url: string,
  end: SpanEnd,
  warn: ((line: MissingSdkWarning) => void) | undefined,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const { exportSpan } = await import('./otel.ts');
    const attributes = spanAttributes(end);
    const flushed = exportSpan(
      {
        url,
        headers: otlpHeaders(env),
        serviceName: end.program,
        serviceVersion: end.version,
        timeoutMs: FLUSH_BOUND_MS,
      },
      {
        name: end.name,
        traceId: t.traceId,
        spanId: t.spanId,
        parentSpanId: t.parentSpanId,
        flags: t.flags,
        traceState: t.traceState,
        start: t.startedAt,
        end: Date.now(),
        kind: end.tool ? 'server' : 'internal',
        attributes,
        error: end.errorKind,
      },
    );
    await Promise.race([flushed, new Promise<void>((r) => (timer = setTimeout(r, FLUSH_BOUND_MS).unref()))]);
  } catch (e) {
    // fail-open: tracing never changes a run's outcome; an SDK that is not installed is said once
    const c = e instanceof AxError ? e.context : undefined;
    if (warn && !warned && c?.reason === 'missing_dependency' && typeof c.package === 'string') {
      warned = true;
      warn({ message: (e as AxError).message, fix: (e as AxError).fix ?? '', package: c.package });
    }
  } finally {
    if (timer) clearTimeout(timer);
  }
}
