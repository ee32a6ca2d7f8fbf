/**
 * The error half of the ax-ts contract: the {@link AxError} class every failure is turned into,
 * the fixed exit-code table and the error catalogue authors extend with {@link defineError}.
 *
 * Source: docs/contract.md#exit-codes. The catalogue is what `__schema` lists under `errors`.
 *
 * Layer `lib/contract/` (the lowest): the rules of the machine contract every other layer speaks —
 * error kinds, the error catalogue and exit codes (errors.ts), output modes (mode.ts), the envelope
 * and error lines (envelope.ts), trace ids and idempotency keys (ids.ts). Pure data and small
 * functions; it imports nothing of ax-ts.
 */

/** The fixed exit-code table (docs/contract.md). Usage errors are 2 (beyond ax-go, which gives Cobra usage errors 1). */
export const ExitCode = {
  /** The command succeeded. */
  success: 0,
  /** Internal failure: any unclassified error, including a crash in a handler. */
  internal: 1,
  /** Validation or usage: unknown command or flag, bad value, missing flag or argument, bad mode. */
  validation: 2,
  /** A network failure or a timeout. */
  network: 3,
  /** Authentication or permission failure. */
  auth: 4,
  /** Interrupted by SIGINT. */
  interrupted: 130,
  /** The reader of stdout went away (`… | head -1`): 128 + SIGPIPE, as a shell reports it. */
  stdoutClosed: 141,
  /** Terminated by SIGTERM: 128 + 15. */
  terminated: 143,
} as const;

/** One entry of the error catalogue, as listed by `__schema` (`errors`). */
export interface ErrorKindSpec {
  /** Stable machine name, `^[a-z][a-z0-9_]*$`. */
  kind: string;
  /** Exit code the process ends with for this kind, 1–255 (never 0). */
  exitCode: number;
  /** One sentence saying when this kind is used. */
  description: string;
  /** Whether retrying the same call may succeed. Default false. */
  retryable?: boolean;
}

/** Kinds ax-ts itself emits. Authors add theirs with {@link defineError}. */
export const BUILTIN_ERRORS: readonly ErrorKindSpec[] = [
  {
    kind: 'internal_error',
    exitCode: 1,
    description: 'The program failed in a way it does not model (including a crash in a handler).',
  },
  {
    kind: 'validation_error',
    exitCode: 2,
    description:
      'The invocation was wrong: unknown command or flag, bad value, missing flag or argument, bad mode. Nothing was attempted.',
  },
  {
    kind: 'invalid_schema_declaration',
    exitCode: 2,
    description:
      'A prompt or resource declaration in the command tree is invalid (an author error, raised when the tree is built).',
  },
  {
    kind: 'confirmation_required',
    exitCode: 2,
    description:
      "A confirmation gate was reached and nobody could be asked (no terminal, json mode, an agent or CI), or the user said no; nothing was changed. When nobody could be asked, next names the same call with --yes (to be run only with the user's consent).",
  },
  {
    kind: 'action_required',
    exitCode: 2,
    description:
      'The command stopped before changing anything because something else must happen first (ctx.actionRequired); context.reason says what, and next lists the runnable next steps.',
  },
  {
    kind: 'warnings_as_errors',
    exitCode: 2,
    description:
      'The run was given --strict and produced warnings; nothing was printed on stdout. context.warnings lists them ({code, message}).',
  },
  {
    kind: 'config_invalid',
    exitCode: 2,
    description:
      'A config file is missing, unreadable, not valid JSONC, or holds a value of the wrong type for a flag (context names the path, and the line and column of a syntax error).',
  },
  {
    kind: 'config_too_large',
    exitCode: 2,
    description: 'A config file is larger than the size cap (1 MiB unless the program sets another); nothing was read.',
  },
  {
    kind: 'config_patch_invalid',
    exitCode: 2,
    description:
      'A config patch is not a valid RFC 6902 JSON Patch for the file (bad pointer, missing target, failed test); the file was not changed.',
  },
  {
    kind: 'input_required',
    exitCode: 2,
    description:
      'A command asked for a form of input (ctx.elicit) where nobody can be asked (no terminal, no MCP elicitation); nothing was changed. The fix names the flags or properties to pass, and next the call with them.',
  },
  {
    kind: 'declined',
    exitCode: 2,
    description:
      'The user declined or cancelled what the command asked through the MCP client (an elicitation form); nothing was changed.',
  },
  {
    kind: 'sampling_unavailable',
    exitCode: 2,
    description:
      'A command asked a language model (ctx.sample) and the run has no MCP client that offers sampling; nothing was changed.',
  },
  {
    kind: 'dry_run_unsupported',
    exitCode: 2,
    description:
      'A dry run was asked of a command that cannot preview (it declares no dry run and is not read-only); nothing was run. Leave the dry run out to carry the command out.',
  },
  { kind: 'network_error', exitCode: 3, description: 'A network operation failed.', retryable: true },
  { kind: 'timeout', exitCode: 3, description: 'The operation did not finish in time.', retryable: true },
  { kind: 'auth_error', exitCode: 4, description: 'Authentication or authorization failed.' },
  {
    kind: 'interrupted',
    exitCode: 130,
    description: 'The run was interrupted (SIGINT or cancellation) before it finished.',
    retryable: true,
  },
  {
    kind: 'idempotency_conflict',
    exitCode: 2,
    description:
      'The idempotency key was already used with different arguments; nothing was run. Use a new key for a new call.',
    retryable: false,
  },
  {
    kind: 'idempotency_in_progress',
    exitCode: 2,
    description:
      'Another call with the same idempotency key and arguments is still running; nothing was run. Retry after retry_after_seconds to get its outcome.',
    retryable: true,
  },
  {
    kind: 'idempotency_store_unavailable',
    exitCode: 1,
    description:
      'An idempotency key was given but its store cannot be used (no state directory, no permission, a shared store that did not answer: that one is retryable); nothing was run.',
    retryable: false,
  },
  {
    kind: 'command_failed',
    exitCode: 1,
    description:
      'The handler reported failure by setting process.exitCode instead of throwing; exit_code is the code it set and context.data what it returned.',
  },
  {
    kind: 'result_too_large',
    exitCode: 1,
    description:
      "A tool call's stream delivered more than one result can hold (context.limit_chars characters of JSON); the call was stopped there.",
  },
];

/**
 * The contract's own refusals (docs/contract.md#idempotency-keys-and-replayed-retries): failures
 * that say the call as given was not carried out and how to amend it — a bad value, a warning
 * under `--strict`, a stop (a confirmation, a form, an action required, a declined form, no
 * sampling). An idempotency key never records one of them, so the amended call (the fix, a `next[]`
 * step) run with the same key runs instead of replaying the refusal.
 */
export const CONTRACT_REFUSALS: ReadonlySet<string> = new Set([
  'validation_error',
  'dry_run_unsupported',
  'warnings_as_errors',
  'confirmation_required',
  'input_required',
  'action_required',
  'declined',
  'sampling_unavailable',
]);

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
  if (thrown instanceof Error && thrown.name === 'AbortError') {
    return new AxError('interrupted', 'the run was cancelled before it finished', { cause: thrown });
  }
  return new AxError('internal_error', describeThrown(thrown), {
    cause: thrown,
    fix: 'This is a bug in the program or an unexpected condition; retry, and report it with the trace_id if it persists.',
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
