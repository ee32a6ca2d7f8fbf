/**
 * The error catalogue's fixed part: the exit-code table and the kinds ax-ts itself emits, with the
 * set of them that are the contract's own refusals. Authors extend the catalogue with `defineError`
 * (errors.ts), which re-exports everything here.
 *
 * Source: docs/contract.md#exit-codes. The catalogue is what `__schema` lists under `errors`.
 */

/**
 * The fixed exit-code table (docs/contract.md). Usage errors are 2 (beyond ax-go, which gives Cobra
 * usage errors 1).
 */
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
  /**
   * Some items of a per-item run (`ctx.eachItem`) failed: `context.results` has each item's outcome.
   * 23 as rsync's "partial transfer due to error".
   */
  partial: 23,
  /** Hung up: SIGHUP (the terminal was closed), 128 + 1. */
  hangup: 129,
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
      'The invocation was wrong: unknown command or flag, bad value, ' +
      'missing flag or argument, bad mode. Nothing was attempted.',
  },
  {
    kind: 'invalid_schema_declaration',
    exitCode: 2,
    description:
      'A prompt or resource declaration in the command tree is ' +
      'invalid (an author error, raised when the tree is built).',
  },
  {
    kind: 'confirmation_required',
    exitCode: 2,
    description:
      'A confirmation gate was reached and nobody could be asked (no terminal, json mode, ' +
      'an agent or CI), or the user said no; nothing was changed. When nobody could be ' +
      "asked, next names the same call with --yes (to be run only with the user's consent).",
  },
  {
    kind: 'action_required',
    exitCode: 2,
    description:
      'The command stopped before changing anything because something else must happen first ' +
      '(ctx.actionRequired); context.reason says what, and next lists the runnable next steps.',
  },
  {
    kind: 'warnings_as_errors',
    exitCode: 2,
    description:
      'The run was given --strict and produced warnings; nothing was ' +
      'printed on stdout. context.warnings lists them ({code, message}).',
  },
  {
    kind: 'config_invalid',
    exitCode: 2,
    description:
      'A config file is missing, unreadable, not valid JSONC, or holds a value of the wrong ' +
      'type for a flag (context names the path, and the line and column of a syntax error).',
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
      'A config patch is not a valid RFC 6902 JSON Patch for the file (bad ' +
      'pointer, missing target, failed test); the file was not changed.',
  },
  {
    kind: 'input_required',
    exitCode: 2,
    description:
      'A command asked for a form of input (ctx.elicit) where nobody can be ' +
      'asked (no terminal, no MCP elicitation); nothing was changed. The fix ' +
      'names the flags or properties to pass, and next the call with them.',
  },
  {
    kind: 'declined',
    exitCode: 2,
    description:
      'The user declined or cancelled what the command asked through ' +
      'the MCP client (an elicitation form); nothing was changed.',
  },
  {
    kind: 'sampling_unavailable',
    exitCode: 2,
    description:
      'A command asked a language model (ctx.sample) and the run ' +
      'has no MCP client that offers sampling; nothing was changed.',
  },
  {
    kind: 'dry_run_unsupported',
    exitCode: 2,
    description:
      'A dry run was asked of a command that cannot preview (it declares no dry run and ' +
      'is not read-only); nothing was run. Leave the dry run out to carry the command out.',
  },
  {
    kind: 'network_error',
    exitCode: 3,
    description:
      'A network operation failed: a connection refused, reset or timed out, a name that did not resolve, or ' +
      'a server certificate not trusted (that one not retryable); context names the code and any proxy in use.',
    retryable: true,
  },
  { kind: 'timeout', exitCode: 3, description: 'The operation did not finish in time.', retryable: true },
  { kind: 'auth_error', exitCode: 4, description: 'Authentication or authorization failed.' },
  {
    kind: 'auth_expired',
    exitCode: 4,
    description:
      'A credential that was valid has expired (a token, a session, a short-lived key): sign in again, then ' +
      "retry the same call; next[0] is the program's sign-in command when it declares one.",
    retryable: true,
  },
  {
    kind: 'partial_failure',
    exitCode: 23,
    description:
      'A command that answers per item (ctx.eachItem) had items that failed: context.results has every ' +
      "item's outcome, in order, so what succeeded is known.",
  },
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
      'Another call with the same idempotency key and arguments is still running; ' +
      'nothing was run. Retry after retry_after_seconds to get its outcome.',
    retryable: true,
  },
  {
    kind: 'idempotency_store_unavailable',
    exitCode: 1,
    description:
      'An idempotency key was given but its store cannot be used (no state directory, no ' +
      'permission, a shared store that did not answer: that one is retryable); nothing was run.',
    retryable: false,
  },
  {
    kind: 'command_failed',
    exitCode: 1,
    description:
      'The handler reported failure by setting process.exitCode instead of ' +
      'throwing; exit_code is the code it set and context.data what it returned.',
  },
  {
    kind: 'result_too_large',
    exitCode: 1,
    description:
      "A tool call's stream delivered more than one result can hold " +
      '(context.limit_chars characters of JSON); the call was stopped there.',
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
