/**
 * The machine contract's small pieces: mode detection, the success envelope, the error line,
 * trace ids and idempotency keys. Source: SPEC §2; ax-go contract/ (mode.go, json.go, error.go).
 */
import { validationError, type AxError } from './errors.ts';
import type { Mode } from './context.ts';

/** The precedence string surfaced verbatim as `mode_detection` in `__schema`. */
export const MODE_DETECTION = '--format flag > AGENT_MODE env > TTY detection';

/** Version of the error envelope (`meta.schema_version`). */
export const ERROR_SCHEMA_VERSION = '1.0.0';

const FORMAT_VALUES: Record<string, Mode> = { json: 'json', agent: 'json', machine: 'json', human: 'human', text: 'human' };
const AGENT_MODE_VALUES: Record<string, Mode> = {
  ...FORMAT_VALUES,
  '1': 'json',
  true: 'json',
  yes: 'json',
  on: 'json',
  '0': 'human',
  false: 'human',
  no: 'human',
  off: 'human',
};

/**
 * Detects the output mode: `--format` > `AGENT_MODE` > stdout TTY (TTY → human, else json).
 * Values are trimmed and case-insensitive; blank counts as absent.
 * @param format value of the injected `--format` flag, undefined when not given or shadowed.
 * @throws AxError `validation_error` (exit 2, reason `invalid_mode`) for a value outside the table.
 */
export function detectMode(format: string | undefined, agentMode: string | undefined, stdoutIsTTY: boolean): Mode {
  const f = format?.trim().toLowerCase();
  if (f) {
    const m = FORMAT_VALUES[f];
    if (!m) {
      throw validationError(`invalid value ${JSON.stringify(format)} for --format: expected json or text`, 'invalid_mode', {
        context: { flag: '--format', value: format, accepted: Object.keys(FORMAT_VALUES) },
        fix: 'Pass --format json (for machines) or --format text (for people).',
      });
    }
    return m;
  }
  const a = agentMode?.trim().toLowerCase();
  if (a) {
    const m = AGENT_MODE_VALUES[a];
    if (!m) {
      throw validationError(`invalid value ${JSON.stringify(agentMode)} for AGENT_MODE: expected json|agent|machine|1|true|yes|on or human|text|0|false|no|off`, 'invalid_mode', {
        context: { env: 'AGENT_MODE', value: agentMode, accepted: Object.keys(AGENT_MODE_VALUES) },
        fix: 'Set AGENT_MODE=1 for JSON output, AGENT_MODE=0 for text, or unset it.',
      });
    }
    return m;
  }
  return stdoutIsTTY ? 'human' : 'json';
}

/** A fresh W3C trace id: 32 lower-hex characters. */
export function newTraceId(): string {
  return hex(16);
}

/**
 * `n` random bytes as lower hex, from the global Web Crypto (no `node:crypto` import: loading that
 * module costs ~2 ms of start-up for hkdf/keys this never uses).
 */
function hex(n: number): string {
  if (poolAt + n > pool.length) {
    globalThis.crypto.getRandomValues(pool); // one system call per 4 KiB of ids, not one per id
    poolAt = 0;
  }
  let s = '';
  for (let i = poolAt; i < poolAt + n; i++) s += HEX[pool[i]!]!;
  poolAt += n;
  return s;
}
const pool = new Uint8Array(4096);
let poolAt = pool.length;
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** A fresh span id: 16 lower-hex characters. */
export function newSpanId(): string {
  return hex(8);
}

/** A fresh idempotency key: a UUID v4 (used when `--idempotency-key` is absent or empty). */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/** The `meta` object of a success envelope. */
export interface SuccessMeta {
  trace_id: string;
  span_id: string;
  idempotency_key: string;
  dry_run?: true;
  /** Deprecation notices and `ctx.warn` messages, when any. */
  warnings?: string[];
  /** What a dry run would have done (`ctx.guard`/`ctx.perform` descriptions). */
  would?: string[];
}

/**
 * One success envelope line: `{"data":…,"meta":{…}}\n`. `undefined` data is written as null.
 * @throws TypeError when the payload cannot be encoded as JSON (cycles, BigInt).
 */
export function successLine(data: unknown, meta: SuccessMeta): string {
  return `${JSON.stringify({ data: data === undefined ? null : data, meta })}\n`;
}

/** The `meta` object of the error line. */
export interface ErrorMeta {
  trace_id: string;
  tool: string;
  version: string;
}

/** The error line: `{"error":{kind,message,exit_code,…},"meta":{trace_id,tool,version,schema_version}}\n`. */
export function errorLine(err: AxError, meta: ErrorMeta): string {
  return `${JSON.stringify({ error: err.toJSON(), meta: { ...meta, schema_version: ERROR_SCHEMA_VERSION } })}\n`;
}

/** The error object an MCP `isError` result carries (same shape as the CLI error line). */
export function errorEnvelope(err: AxError, meta: ErrorMeta): Record<string, unknown> {
  return { error: err.toJSON(), meta: { ...meta, schema_version: ERROR_SCHEMA_VERSION } };
}

/**
 * Human-mode rendering of an error (Cobra-like): `Error: message`, the "did you mean" block, the fix,
 * for usage errors the usage line of the command and a pointer to its `--help`.
 */
export function humanError(err: AxError, usageLine?: string, traceId?: string): string {
  let s = `Error: ${err.message}\n`;
  const suggested = Boolean(err.suggestions?.length);
  if (suggested) s += `\nDid you mean this?\n${err.suggestions!.map((x) => `\t${x}\n`).join('')}\n`;
  if (usageLine) s += `Usage: ${usageLine}\n`;
  // the fix is printed unless it only repeats the suggestion block above
  const fix = suggested && err.fix?.startsWith('Did you mean') ? err.fix.replace(/^Did you mean [^?]*\?\s*/, '') : err.fix;
  if (fix) s += `Fix: ${fix}\n`;
  if (err.usage && !fix?.includes('--help')) s += `Run '${err.usage} --help' for usage.\n`;
  if (traceId) s += `Trace id: ${traceId}\n`;
  return s;
}

