/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/): reading the caller's `traceparent` and
 * `tracestate`, and writing the ones a run hands to the processes it starts. Parsing only; fresh ids
 * come from ids.ts. Source: W3C Trace Context Level 1 §3.2–3.3; ax-go internal/telemetry (which
 * extracts TRACEPARENT/TRACESTATE from the environment) and internal/mcpserver/trace.go (which
 * reads `_meta.traceparent`/`_meta.tracestate` of a `tools/call`).
 */

/** A caller's trace context, as parsed from a valid `traceparent` (and `tracestate`). */
export interface TraceParent {
  /** 32 lower-hex characters, never all zeros. */
  traceId: string;
  /** The caller's span id (the parent of this run's span): 16 lower-hex characters, never all zeros. */
  parentSpanId: string;
  /** Trace flags as two lower-hex characters (`01` = sampled). */
  flags: string;
  /** The `tracestate` that came with it, when valid; passed on unchanged. */
  traceState?: string;
}

const TRACEPARENT_RE = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
/** One tracestate list member: `key=value` (simple or multi-tenant key), W3C §3.3.1. */
const MEMBER_RE =
  /^(?:[a-z][a-z0-9_\-*/]{0,255}|[a-z0-9][a-z0-9_\-*/]{0,240}@[a-z][a-z0-9_\-*/]{0,13})=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;

/**
 * Parses a `traceparent` header value (`00-<trace-id>-<parent-id>-<flags>`). Per W3C §3.2: version
 * `ff` is invalid, version `00` has exactly four fields, a later version may carry more after a
 * dash; an all-zero trace id or parent id is invalid; hex is lower case.
 * @returns the parsed context, or undefined when the value is absent or invalid (the run then starts
 *   a new trace, as the spec asks of a receiver).
 */
export function parseTraceparent(value: string | undefined, traceState?: string): TraceParent | undefined {
  if (typeof value !== 'string') return undefined;
  const m = TRACEPARENT_RE.exec(value.trim());
  if (!m) return undefined;
  const [, version, traceId, parentSpanId, flags, rest] = m as unknown as [
    string,
    string,
    string,
    string,
    string,
    string | undefined,
  ];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(parentSpanId)) return undefined;
  const state = validTraceState(traceState);
  return state === undefined ? { traceId, parentSpanId, flags } : { traceId, parentSpanId, flags, traceState: state };
}

/**
 * Checks a `tracestate` value (W3C §3.3): at most 32 comma-separated `key=value` members, at most
 * 512 characters in all. @returns the value with blank members dropped, or undefined when invalid.
 */
export function validTraceState(value: string | undefined): string | undefined {
  if (typeof value !== 'string' || value.length > 512) return undefined;
  const members = value
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  if (members.length === 0 || members.length > 32 || !members.every((m) => MEMBER_RE.test(m))) return undefined;
  return members.join(',');
}

/** The `traceparent` of a span: `00-<traceId>-<spanId>-<flags>` (flags default `01`, sampled). */
export function formatTraceparent(traceId: string, spanId: string, flags = '01'): string {
  return `00-${traceId}-${spanId}-${flags}`;
}
