/**
 * The error half of the ax-ts contract: the {@link AxError} class every failure is turned into,
 * the fixed exit-code table and the error catalogue authors extend with {@link defineError}.
 *
 * Source: docs/contract.md#exit-codes. The catalogue is what `__schema` lists under `errors`.
 *
 * Layer `lib/contract/` (the lowest): the rules of the machine contract every other layer speaks —
 * error kinds, the error catalogue and exit codes (errors.ts, its fixed part in error-kinds.ts),
 * output modes (mode.ts), the envelope
 * and error lines (envelope.ts), trace ids and idempotency keys (ids.ts). Pure data and small
 * functions; it imports nothing of ax-ts.
 */

import { BUILTIN_ERRORS, ExitCode, type ErrorKindSpec } from './error-kinds.ts';
import { networkContext, networkFailure, networkFix } from './network.ts';

export { BUILTIN_ERRORS, CONTRACT_REFUSALS, ExitCode, type ErrorKindSpec } from './error-kinds.ts';

/** What a kind (and a warning code or a stop reason) must match. */
export const KIND_RE = /^[a-z][a-z0-9_]*$/;
/**
 * The catalogue lives on a process-wide registry (not module state) so that a second copy of this
 * module — a lazily loaded bundle chunk such as the MCP runtime — sees the kinds authors defined.
 */
const REGISTRY = Symbol.for('ax-ts.error-catalogue');
const catalogue: Map<string, ErrorKindSpec> = ((globalThis as Record<symbol, unknown>)[REGISTRY] ??= new Map<
  string,
  ErrorKindSpec
>(BUILTIN_ERRORS.map((e) => [e.kind, e]))) as Map<string, ErrorKindSpec>;
/** Brand that makes `instanceof AxError` hold across copies of this module (see {@link AxError}). */
const BRAND = Symbol.for('ax-ts.AxError');

/**
 * Marks an error the person has already been told, in the program's own words on their terminal (a
 * front-ended program run for a person: docs/frontends.md#what-does-not-map): in human mode the run
 * writes no line of its own for it and exits with its code; json mode and MCP report it as ever.
 * Shared across copies of this module, like {@link BRAND}.
 */
export const ALREADY_SHOWN: unique symbol = Symbol.for('ax-ts.error-already-shown');

/**
 * Declares an error kind of the author's own, with its exit code, so that {@link AxError}s of that
 * kind exit with it and `__schema` lists it. Declaring the same kind again with the same exit code is
 * a no-op; with a different one it throws.
 *
 * @param spec kind (`^[a-z][a-z0-9_]*$`), exitCode (integer 1–255, not 130 unless kind is
 *   `interrupted`), description, retryable (default false).
 * @returns a factory `(message, options?) => AxError` of that kind.
 * @throws TypeError on a bad kind or exit code, or on a redefinition with a different exit code.
 */
export function defineError(spec: ErrorKindSpec): (message: string, options?: AxErrorOptions) => AxError {
  if (!KIND_RE.test(spec.kind))
    throw new TypeError(`defineError: kind ${JSON.stringify(spec.kind)} must match ^[a-z][a-z0-9_]*$`);
  if (!Number.isInteger(spec.exitCode) || spec.exitCode < 1 || spec.exitCode > 255) {
    throw new TypeError(
      `defineError: exitCode for ${spec.kind} must be an integer from 1 to 255 (0 is success), got ${spec.exitCode}`,
    );
  }
  if (spec.exitCode === 130 && spec.kind !== 'interrupted') {
    throw new TypeError(
      `defineError: exit code 130 is reserved for interrupted (SIGINT); choose another for ${spec.kind}`,
    );
  }
  const prior = catalogue.get(spec.kind);
  if (prior && prior.exitCode !== spec.exitCode) {
    throw new TypeError(`defineError: kind ${spec.kind} is already defined with exit code ${prior.exitCode}`);
  }
  if (!prior) catalogue.set(spec.kind, { ...spec });
  return (message, options) => new AxError(spec.kind, message, options);
}

/** The whole error catalogue (built-in kinds then authors' kinds), sorted by kind. */
export function errorCatalogue(): ErrorKindSpec[] {
  return [...catalogue.values()].sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
}

/** Exit code of a kind in the catalogue; 1 for an unknown kind. */
export function exitCodeForKind(kind: string): number {
  return catalogue.get(kind)?.exitCode ?? ExitCode.internal;
}

/**
 * One runnable next step of a stop (`error.next[]`, docs/contract.md "Stops and next steps"): what
 * to run instead of the call that stopped. On the command line and `--args-json` it is a command
 * line (`command`, `argv`: the program's name first, the caller's own mode flags such as
 * `--format json` carried); over MCP a tool call (`tool`, `arguments`). A word of the form
 * `<name>` is a value the caller must fill in.
 */
export interface NextStep {
  /** What the step does, in a few words. */
  description?: string;
  /** The command line as one string, each word quoted for a POSIX shell where it needs it. */
  command?: string;
  /** The same command line as words (no quoting). */
  argv?: string[];
  /** The MCP tool to call (over MCP, and for `--args-json`). */
  tool?: string;
  /** That tool's arguments (the `--args-json` object). */
  arguments?: Record<string, unknown>;
}

/** Options of an {@link AxError}. */
export interface AxErrorOptions {
  /** One sentence telling the caller what to do differently (`actionable_fix`). */
  fix?: string;
  /** Candidate corrections ("did you mean"), most likely first. */
  suggestions?: string[];
  /** Machine-readable details (`context`), e.g. `{reason: 'unknown_flag', flag: '--lmit'}`. */
  context?: Record<string, unknown>;
  /** Overrides the catalogue's retryable flag. */
  retryable?: boolean;
  /** Seconds the caller should wait before retrying. */
  retryAfterSeconds?: number;
  /** Overrides the kind's exit code (rarely right: prefer {@link defineError}). */
  exitCode?: number;
  /** The underlying error. */
  cause?: unknown;
  /** For usage errors: the command path whose usage line human mode prints. */
  usage?: string;
  /** The runnable next steps of a stop (`error.next`); see {@link NextStep}. */
  next?: NextStep[];
}

/**
 * A structured failure: what the contract prints as the one JSON error line on stderr
 * (`{"error":{kind,message,exit_code,…},"meta":{…}}`) and the exit code the process ends with.
 * Throw it (or one made by a {@link defineError} factory) from a handler.
 */
export class AxError extends Error {
  /** `instanceof AxError` is true for an AxError made by any copy of ax-ts loaded in the process. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
  /** Stable machine name of the failure, e.g. `validation_error`. */
  readonly kind: string;
  /** Process exit code, from the catalogue unless overridden. */
  readonly exitCode: number;
  /** What to do differently, if known. */
  readonly fix?: string;
  /** "Did you mean" candidates. */
  readonly suggestions?: string[];
  /** Machine-readable details. */
  readonly context?: Record<string, unknown>;
  /** Whether retrying may succeed: the option, else the catalogue's, else false. */
  readonly retryable: boolean;
  /** Seconds to wait before a retry. */
  readonly retryAfterSeconds?: number;
  /** Usage line printed in human mode for usage errors. */
  usage?: string;
  /** The runnable next steps of a stop (`error.next`), when there are any. */
  readonly next?: NextStep[];

  /**
   * @param kind error kind; should be in the catalogue (built-in or {@link defineError}), else it exits 1.
   * @param message one readable sentence, without a trailing period requirement.
   */
  constructor(kind: string, message: string, options: AxErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    Object.defineProperty(this, BRAND, { value: true });
    this.name = 'AxError';
    this.kind = KIND_RE.test(kind) ? kind : 'internal_error';
    this.exitCode = options.exitCode ?? exitCodeForKind(this.kind);
    if (this.exitCode === 0) this.exitCode = ExitCode.internal; // an error can never exit 0
    this.fix = options.fix;
    this.suggestions = options.suggestions?.length ? options.suggestions : undefined;
    this.context = options.context;
    // every error line says whether a retry may succeed: the catalogue's answer, false when it has none
    this.retryable = options.retryable ?? catalogue.get(this.kind)?.retryable ?? false;
    // a wait that is not a positive finite number of seconds tells the caller nothing: dropped
    const after = options.retryAfterSeconds;
    this.retryAfterSeconds = typeof after === 'number' && Number.isFinite(after) && after > 0 ? after : undefined;
    this.usage = options.usage;
    this.next = options.next?.length ? options.next : undefined;
  }

  /** The `error` object of the error line, keys in contract order, absent fields left out. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { kind: this.kind, message: this.message, exit_code: this.exitCode };
    out.retryable = this.retryable;
    if (this.fix) out.actionable_fix = this.fix;
    if (this.suggestions) out.suggestions = this.suggestions;
    if (this.context && Object.keys(this.context).length) out.context = this.context;
    if (this.retryAfterSeconds !== undefined) out.retry_after_seconds = this.retryAfterSeconds;
    if (this.next) out.next = this.next;
    return out;
  }
}

/** A `validation_error` (exit 2) with a stable `context.reason`. */
export function validationError(message: string, reason: string, options: AxErrorOptions = {}): AxError {
  return new AxError('validation_error', message, { ...options, context: { reason, ...options.context } });
}

/** How many `cause` links {@link toAxError} follows (a cycle or an absurd chain stops there). */
const MAX_CAUSE_DEPTH = 16;

/**
 * Turns anything thrown into an {@link AxError}, in this order:
 * - an AxError passes through;
 * - an AxError anywhere in the `cause` chain (`new Error('load config', { cause: axErr })`) gives its
 *   kind, exit code, fix, context and retry fields, with the outer messages in front of its own;
 * - a `TimeoutError` (from `AbortSignal.timeout()`, `fetch`), itself or in the chain, becomes a
 *   retryable `timeout` (exit 3);
 * - a network failure (a connection refused, reset or timed out, a name that does not resolve, an
 *   untrusted server certificate: ./network.ts), itself or in the chain, becomes `network_error`
 *   (exit 3), its code and peer in `context`, retryable unless it is the certificate;
 * - an `AbortError` becomes `interrupted`;
 * - anything else becomes `internal_error` with a readable message (plain objects are JSON-encoded,
 *   never `[object Object]`). Stacks never reach stdout.
 */
export function toAxError(thrown: unknown): AxError {
  if (thrown instanceof AxError) return thrown;
  const chain: unknown[] = [thrown];
  for (
    let c = thrown;
    chain.length <= MAX_CAUSE_DEPTH && c instanceof Error && c.cause !== undefined && !chain.includes(c.cause);
  ) {
    c = c.cause;
    chain.push(c);
  }
  const inner = chain.find((c): c is AxError => c instanceof AxError);
  if (inner) {
    const outer = chain
      .slice(0, chain.indexOf(inner))
      .map((c) => describeThrown(c))
      .filter((m) => m && m !== inner.message);
    return new AxError(inner.kind, [...outer, inner.message].join(': '), {
      cause: thrown,
      exitCode: inner.exitCode,
      fix: inner.fix,
      suggestions: inner.suggestions,
      context: inner.context,
      retryable: inner.retryable,
      retryAfterSeconds: inner.retryAfterSeconds,
      usage: inner.usage,
      next: inner.next,
    });
  }
  const timedOut = chain.find((c) => c instanceof Error && c.name === 'TimeoutError');
  if (timedOut) {
    return new AxError('timeout', describeThrown(thrown) || 'the operation timed out', {
      cause: thrown,
      retryable: true,
      fix: 'Retry later, or allow more time if the command has a timeout setting.',
    });
  }
  const net = networkFailure(chain);
  if (net) {
    // `fetch failed` says nothing alone: the cause's own words follow it
    const words = [...new Set([describeThrown(thrown), net.error.message].filter(Boolean))].join(': ');
    return new AxError('network_error', words, {
      cause: thrown,
      retryable: net.retryable,
      fix: networkFix(net),
      context: networkContext(net),
    });
  }
  if (thrown instanceof Error && thrown.name === 'AbortError') {
    return new AxError('interrupted', 'the run was cancelled before it finished', { cause: thrown });
  }
  return new AxError('internal_error', describeThrown(thrown), {
    cause: thrown,
    fix:
      'This is a bug in the program or an unexpected condition; ' +
      'retry, and report it with the trace_id if it persists.',
  });
}

/** A readable one-line description of any thrown value. */
export function describeThrown(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message || thrown.name;
  if (typeof thrown === 'string') return thrown;
  try {
    const json = JSON.stringify(thrown);
    if (json !== undefined) return `non-Error value thrown: ${json}`;
  } catch {
    /* fall through */
  }
  return `non-Error value thrown: ${String(thrown)}`;
}
