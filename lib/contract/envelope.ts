/**
 * The envelope lines of the contract: the success envelope, the error line and its MCP twin, and the
 * human rendering of an error. Source: docs/contract.md; ax-go contract/ (json.go, error.go).
 */
import type { AxError, NextStep } from './errors.ts';

/**
 * @internal The key of an output's optional way of writing a run's outcome — the envelope or
 * rendering of a document result, an opaque result, help and version text, the error line — which
 * the runner writes once no handler code runs any more; without it, `write`. `main()`'s real stdout
 * and stderr write it on the descriptor (lib/run/fd-output.ts). A registered symbol, so that every
 * copy of lib in a bundle agrees on it; not part of the public API.
 */
export const WRITE_OUTCOME: unique symbol = Symbol.for('ax-ts.write-outcome');

/**
 * The key of a stream's line-end check: a stream that has one answers whether the last chunk
 * written on it, by the runner or by anyone else (a handler's `process.stderr.write`, a library's
 * print diverted there), left a line unfinished, so that the runner's own line starts on a line of
 * its own (an error line glued after a print without a newline would not be the last line as JSON).
 * `main()`'s real stderr has one (lib/run/fd-output.ts). A registered symbol; not public API.
 */
export const MID_LINE: unique symbol = Symbol.for('ax-ts.mid-line');

/**
 * The key of a stream's check before a text rendering of a result is written on it: whether the
 * stream's next chunk would land after a line left unfinished, by the last chunk on this stream (a
 * handler's `process.stdout.write('partial')`) or on the other standard stream where both are one
 * file (a terminal, `2>&1`), so that the rendering starts on a line of its own. `main()`'s real
 * stdout has one (lib/run/fd-output.ts). A registered symbol; not public API.
 */
export const LINE_OPEN: unique symbol = Symbol.for('ax-ts.line-open');

/** Writes `chunk` as a run's outcome on `s`: through its {@link WRITE_OUTCOME} when it has one, else `write`. */
export function putOutcome(s: OutputStream, chunk: string | Uint8Array): unknown {
  const outcome = s[WRITE_OUTCOME];
  return outcome ? outcome.call(s, chunk) : s.write(chunk);
}

/** Where a command writes: anything with `write(string)`; `isTTY` tells whether a person is watching. */
export interface OutputStream {
  /** Text, or bytes (an opaque command's binary output). */
  write(chunk: string | Uint8Array): unknown;
  isTTY?: boolean;
  /** @internal see {@link WRITE_OUTCOME}. */
  [WRITE_OUTCOME]?(chunk: string | Uint8Array): unknown;
  /** @internal see {@link MID_LINE}. */
  [MID_LINE]?(): boolean;
  /** @internal see {@link LINE_OPEN}. */
  [LINE_OPEN]?(): boolean;
}

/**
 * One warning of a run (`meta.warnings[]`), ax-go's shape: a stable machine code
 * (`^[a-z][a-z0-9_]*$`: `deprecated_flag`, `deprecated_command`, `replay_not_recorded`, `unknown_fields`, an author's
 * own, `warning` when `ctx.warn` was given none) and one readable sentence, which is also the line
 * written on stderr. `--strict` turns any of them into the failure `warnings_as_errors`.
 */
export interface Warning {
  code: string;
  message: string;
}

/** Version of the envelope lines, success and error alike (`meta.schema_version`). */
export const ERROR_SCHEMA_VERSION = '1.0.0';

/**
 * The outcome every line's `meta` states (docs/contract.md#success-envelope): the envelope's
 * version, whether the run succeeded, its exit code, and how long the run had taken when the line
 * was written (whole milliseconds). On stdout too, so that `cmd | jq` can tell a failure.
 */
export interface OutcomeMeta {
  schema_version: string;
  ok: boolean;
  exit_code: number;
  duration_ms: number;
}

/** Whole milliseconds since `startedAt` (epoch ms), never negative (a clock stepped back reads 0). */
export function durationSince(startedAt: number, now = Date.now()): number {
  return Math.max(0, Math.round(now - startedAt));
}

/** The {@link OutcomeMeta} of a success line written now, for a run that started at `startedAt`. */
export function successOutcome(startedAt: number): OutcomeMeta {
  return { schema_version: ERROR_SCHEMA_VERSION, ok: true, exit_code: 0, duration_ms: durationSince(startedAt) };
}

/** `meta.pagination` of a paged answer (docs/contract.md#paging---limit---cursor). */
export interface Pagination {
  /** How many items the whole list has, when known. */
  total?: number;
  /** Items on this page (the length of `data`). */
  returned: number;
  /** Whether this answer is less than the whole list: pages come before it or after it. */
  truncated: boolean;
  /** Whether a next page exists (then `next_cursor` fetches it). */
  has_more: boolean;
  /** The cursor of the next page (`--cursor`, MCP `cursor`), or null on the last page. */
  next_cursor: string | null;
}

/** The `meta` object of a success envelope. */
export interface SuccessMeta extends OutcomeMeta {
  trace_id: string;
  span_id: string;
  idempotency_key: string;
  dry_run?: true;
  /** Deprecation notices and `ctx.warn` warnings, when any. */
  warnings?: Warning[];
  /** Whether the run changed anything, when the handler said (`ctx.setChanged`); false in a dry run. */
  changed?: boolean;
  /** What a dry run would have done (`ctx.guard`/`ctx.perform` descriptions). */
  would?: string[];
  /** Where each flag with an env or config source got its value (keyed by flag label). */
  provenance?: Record<string, unknown>;
  /**
   * URIs of the declared resources the handler attached (`ctx.attach`); over MCP their content
   * follows the text item.
   */
  attached?: string[];
  /** This outcome was recorded by an earlier call with the same idempotency key and arguments. */
  replayed?: true;
  /**
   * A paged command's page (docs/contract.md#paging---limit---cursor): `{total?, returned,
   * truncated, has_more, next_cursor}`.
   */
  pagination?: Pagination;
  /** The runnable next steps of a success: on a page with more after it, the call that fetches the next page. */
  next?: NextStep[];
}

/**
 * One success envelope line: `{"data":…,"meta":{…}}\n`. `undefined` data is written as null.
 * Inside the payload JSON's own rules apply: a member whose value is a function, a Symbol or
 * `undefined` is left out, and such an array element is `null` (docs/contract.md#envelope).
 * @throws TypeError when the payload cannot be encoded as JSON (cycles, BigInt), or has no JSON
 * text at all (a function or a Symbol, or a `toJSON` that returns one): the line always has `data`.
 */
export function successLine(data: unknown, meta: SuccessMeta): string {
  const text = JSON.stringify(data === undefined ? null : data) as string | undefined;
  if (text === undefined)
    throw new TypeError(
      `the handler's result is ${describeValue(data)}, which JSON cannot encode (return a JSON value)`,
    );
  return `{"data":${text},"meta":${JSON.stringify(meta)}}\n`;
}

/** `a function (name)`, `a Symbol (Symbol(s))`, or the type of what a payload was. */
function describeValue(v: unknown): string {
  if (typeof v === 'function') return v.name ? `a function (${v.name})` : 'a function';
  if (typeof v === 'symbol') return `a Symbol (${v.toString()})`;
  return `a value of type ${typeof v} whose toJSON returned nothing JSON can encode`;
}

/** The `meta` object of the error line, as a failure's writer gives it. */
export interface ErrorMeta {
  trace_id: string;
  tool: string;
  version: string;
  /** When the run (or the call) started, epoch ms: the line's `duration_ms` is measured from it. */
  startedAt: number;
  /** The failure was recorded by an earlier call with the same idempotency key and arguments. */
  replayed?: true;
}

/**
 * The error line's object, `{error, meta}`: `error` is {@link AxError.toJSON}; `meta` is the run's
 * {@link ErrorMeta} with `schema_version` (and `replayed` last, when set). The CLI prints it as its
 * error line; an MCP `isError` result carries it; the in-process invoke returns it.
 */
export type ErrorEnvelope = {
  error: Record<string, unknown>;
  meta: Omit<ErrorMeta, 'replayed' | 'startedAt'> & OutcomeMeta & { replayed?: true };
};

/**
 * The {@link ErrorEnvelope} of a failure: `meta` is `trace_id`, `tool`, `version`, then the
 * outcome (`schema_version`, `ok: false`, `exit_code` — the error's — and `duration_ms`), and
 * `replayed` last when set.
 */
export function errorEnvelope(err: AxError, meta: ErrorMeta): ErrorEnvelope {
  const { replayed, startedAt, ...rest } = meta;
  return {
    error: err.toJSON(),
    meta: {
      ...rest,
      schema_version: ERROR_SCHEMA_VERSION,
      ok: false,
      exit_code: err.exitCode,
      duration_ms: durationSince(startedAt),
      ...(replayed ? { replayed } : {}),
    },
  };
}

/**
 * The error line: `{"error":{kind,message,exit_code,…},"meta":{trace_id,tool,version,schema_version,ok,exit_code,
 * duration_ms}}\n`.
 */
export function errorLine(err: AxError, meta: ErrorMeta): string {
  return `${JSON.stringify(errorEnvelope(err, meta))}\n`;
}

/**
 * Human-mode rendering of an error (Cobra-like): `Error: message`, the "did you mean" block, the fix,
 * a stop's reason and `next:` block (one runnable command line per step, its description after `#`),
 * for usage errors the usage line of
 * the command and a pointer to its `--help`.
 */
export function humanError(err: AxError, usageLine?: string, traceId?: string): string {
  let s = `Error: ${err.message}\n`;
  // a failure that came after the reported one (--strict: the handler went on after its warning)
  const then = err.context?.then as { kind?: unknown; message?: unknown } | undefined;
  if (then && typeof then.message === 'string') s += `Then: ${then.message} (${String(then.kind)})\n`;
  // a stop says why: its reason code
  if (err.next && typeof err.context?.reason === 'string') s += `Reason: ${err.context.reason}\n`;
  const suggested = Boolean(err.suggestions?.length);
  if (suggested) s += `\nDid you mean this?\n${err.suggestions!.map((x) => `\t${x}\n`).join('')}\n`;
  if (usageLine) s += `Usage: ${usageLine}\n`;
  // the fix is printed unless it only repeats the suggestion block above
  const fix =
    suggested && err.fix?.startsWith('Did you mean') ? err.fix.replace(/^Did you mean [^?]*\?\s*/, '') : err.fix;
  if (fix) s += `Fix: ${fix}\n`;
  if (err.next) {
    // each step says what it does, after a `#`: the line stays one a person can paste into a shell
    const line = (n: NextStep) => n.command ?? `${n.tool} ${JSON.stringify(n.arguments ?? {})}`;
    const width = Math.max(...err.next.map((n) => line(n).length));
    s += `next:\n${err.next
      .map((n) => `  ${n.description ? `${line(n).padEnd(width)}  # ${oneLine(n.description)}` : line(n)}\n`)
      .join('')}`;
  }
  if (err.usage && !fix?.includes('--help')) s += `Run '${err.usage} --help' for usage.\n`;
  if (traceId) s += `Trace id: ${traceId}\n`;
  return s;
}

/**
 * Text safe for a terminal: control characters from data (ESC sequences that could recolour or
 * rewrite the screen) are shown as `\u001b`-style escapes instead of being sent to the terminal.
 */
export function visible(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A description on one line (a step's, after `#`: a newline would end the comment). */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
