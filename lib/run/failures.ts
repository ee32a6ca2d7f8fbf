/**
 * The failures a run can end with besides what its handler throws: a recorded failure replayed
 * (`meta.replayed`), a handler that set `process.exitCode` (`command_failed`), and the fix of an
 * `interrupted` error of a command that changes state, a tool call's stream that outgrew its
 * result (`result_too_large`), and an expired credential's fix and sign-in step (`auth_expired`).
 * Used by run.ts and handler.ts.
 */
import type { Command } from '../tree/command.ts';
import { AxError, toAxError, validationError } from '../contract/errors.ts';
import type { Warning } from '../contract/envelope.ts';
import type { ReplayRecord } from '../store/idempotency.ts';
import { isStream } from './output.ts';
import { replays } from '../tree/flagset.ts';
import type { Invocation } from '../parse/invocation.ts';
import { authorSteps, type ToolVia } from '../schema/next-steps.ts';

/** Errors written from a record (their line carries `meta.replayed: true`). */
const replayedErrors = new WeakSet<AxError>();

/** Whether an error was written from a record (its error line then carries `meta.replayed: true`). */
export function isReplayed(err: AxError): boolean {
  return replayedErrors.has(err);
}

/** The recorded failure as an AxError that prints exactly the recorded `error` object. */
export function replayedError(rec: ReplayRecord): AxError {
  const e = rec.error ?? {};
  const err = new AxError(String(e.kind ?? 'internal_error'), String(e.message ?? ''), { exitCode: rec.exitCode });
  err.toJSON = () => e;
  replayedErrors.add(err);
  return err;
}

/** The warning of a run whose outcome could not be recorded. */
export function unrecorded(label: (n: string) => string): string {
  return (
    `The outcome could not be recorded in the idempotency store: a retry ` +
    `with this ${label('idempotency-key')} would run the command again.`
  );
}

/**
 * A handler that set `process.exitCode` to a non-zero value without throwing (the usual Node way
 * for lint-style commands) failed: the code it set is restored and becomes the run's exit code,
 * with what it returned in `context.data` (nothing is lost). `process.exitCode` is process-wide: of
 * calls that run at the same time in one process (an MCP server), the first to finish while it is
 * set is the one that fails — such commands should throw instead.
 */
export function exitCodeSet(before: typeof process.exitCode, result: unknown): AxError | undefined {
  const now = process.exitCode;
  if (now === before || now === undefined || now === null) return undefined;
  process.exitCode = before;
  const code = Number(now);
  if (!Number.isInteger(code) || code === 0) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(JSON.stringify(result === undefined ? null : result)) as unknown;
  } catch {
    data = undefined; // not encodable as JSON (a stream, a cycle): left out
  }
  return new AxError('command_failed', `the command failed: its handler set process.exitCode to ${code}`, {
    exitCode: code > 0 && code <= 255 ? code : 1,
    context: isStream(result) ? { exit_code_set: code } : { exit_code_set: code, data },
  });
}

/** The `interrupted` error of a command that changes state says how a retry can be safe. */
export function interruptedFix(err: AxError, cmd: Command, replaying: boolean, label: (n: string) => string): AxError {
  // the default fix already says to check the state
  if (cmd.effects === 'read_only' || cmd.effects === 'idempotent' || cmd.replay === false) return err;
  const key = label('idempotency-key');
  const fix = replaying
    ? `It may have changed state before it stopped. Retry only with the same ${key}: if the ` +
      `first call finished its work, the retry replays its outcome instead of running again.`
    : `It may have changed state before it stopped: a retry is safe only with the same ${key}, ` +
      `and this call had none that replays, so check that state before running it again.`;
  return new AxError('interrupted', err.message, {
    exitCode: err.exitCode,
    context: err.context,
    retryable: err.retryable,
    fix,
    cause: err.cause ?? err,
  });
}

/**
 * `--strict` with warnings: `warnings_as_errors` (exit 2), the warnings in `context.warnings`. `ran`
 * says whether the handler had started (then what it did before its warning may stand: the fix
 * says so); a handler's warning stops it where it is raised. `'ended'`: the warning came after the
 * handler had finished (a `--fields` selection that kept data whole): what it did stands. `'went_on'`:
 * the handler caught its warning's throw and then failed otherwise ({@link strictFirst}).
 */
export function strictFailure(
  warnings: readonly Warning[],
  ran: boolean | 'ended' | 'went_on',
  label: (n: string) => string,
): AxError {
  // over MCP --strict is no input: the server applies its own --strict to every call
  const server = !label('strict').startsWith('--');
  const under = server ? "the server's --strict" : label('strict');
  const without = server
    ? 'the server runs every call with --strict (its own setting, not an argument ' +
      'of the call): ask the user to start it without --strict to go on despite them'
    : `or run without ${label('strict')}`;
  return new AxError(
    'warnings_as_errors',
    `${warnings.length === 1 ? 'a warning' : `${warnings.length} warnings`} ` +
      `under ${under}: ${warnings.map((w) => w.message).join('; ')}`,
    {
      fix:
        ran === 'ended'
          ? `The command ran to its end before the warning: what it did stands, so check the state ` +
            `before running it again. Deal with the warnings (context.warnings)${server ? '; ' : ', '}${without}.`
          : ran === 'went_on'
            ? `The command went on after its warning and then failed (context.then); what it did may ` +
              `stand, so check the state. Deal with the warnings (context.warnings)${server ? '; ' : ', '}${without}.`
            : ran
              ? `The command stopped at its warning; what it did before it may stand, so check the ` +
                `state. Deal with the warnings (context.warnings)${server ? '; ' : ', '}${without}.`
              : `Nothing ran. Deal with the warnings (context.warnings)${server ? '; ' : ', '}${without}.`,
      context: { warnings: warnings.map((w) => ({ ...w })), ran: ran !== false },
    },
  );
}

/**
 * The reason a run's signal aborts with when its `--timeout` passes: `timeout` (exit 3, retryable).
 * The fix names an idempotency key only where a retry with one replays ({@link replays}), in the
 * caller's spelling (`label`).
 */
export function timeoutError(ms: number, label: (n: string) => string, cmd: Command): AxError {
  // over MCP --timeout is no input: the server gives every call its own --timeout
  const server = !label('timeout').startsWith('--');
  const flag = server ? "the server's --timeout" : label('timeout');
  const changes = cmd.effects !== 'read_only';
  const key = replays(cmd) ? ` (or retry with the same ${label('idempotency-key')})` : '';
  const longer = server
    ? 'Retry; if it needs longer, ask the user to start the server with ' +
      'a longer --timeout (its own setting, not an argument of the call)'
    : `Retry with a longer ${flag}`;
  return new AxError('timeout', `${JSON.stringify(cmd.commandPath())} did not finish within ${flag} ${ms}ms`, {
    retryable: true,
    fix: `${longer}${changes ? `; it may have changed state before it stopped, so check that first${key}` : ''}.`,
    context: { reason: 'deadline', timeout_ms: ms },
  });
}

/**
 * Most characters of JSON a tool call's stream may deliver into its result (its items' envelope
 * lines, counted as written): 8 MiB (2^23), the order of the stdio server's 10 MiB line limit
 * (docs/mcp-server.md#result-size). Past it the call stops with {@link resultTooLarge}.
 */
export const RESULT_MAX_CHARS = 1 << 23;

/**
 * The failure of a tool call whose stream passed {@link RESULT_MAX_CHARS} with the item after its
 * first `items` (those were delivered).
 */
export function resultTooLarge(items: number): AxError {
  return new AxError(
    'result_too_large',
    `the stream's items passed ${RESULT_MAX_CHARS} characters of JSON, the ` +
      `most one tool result holds; the call was stopped after ${items} items`,
    {
      fix:
        'Ask for fewer items (a narrower query or a smaller limit), or run the ' +
        'command on the CLI, where a stream is written as it comes without a bound.',
      context: { limit_chars: RESULT_MAX_CHARS, items_delivered: items },
    },
  );
}

/**
 * `err` with the steps the run had done (`ctx.step`) as `context.completed_steps`; `err` itself when
 * none were, or when its context already says (docs/contract.md#partial-failure-ctxstep).
 */
export function withCompletedSteps(err: AxError, steps: readonly string[]): AxError {
  if (!steps.length || err.context?.completed_steps !== undefined) return err;
  return withContext(err, { completed_steps: [...steps] });
}

/**
 * A copy of `err` (its stack too) with `extra` added to its context, `fix` as its fix and `next` as
 * its next steps (default: its own).
 */
export function withContext(err: AxError, extra: Record<string, unknown>, fix = err.fix, next = err.next): AxError {
  const copy = new AxError(err.kind, err.message, {
    fix,
    suggestions: err.suggestions,
    context: { ...err.context, ...extra },
    retryable: err.retryable,
    retryAfterSeconds: err.retryAfterSeconds,
    exitCode: err.exitCode,
    cause: err.cause,
    usage: err.usage,
    next,
  });
  copy.stack = err.stack;
  return copy;
}

/**
 * Under `--strict`, a run that warned and then failed otherwise (a handler that caught its warning's
 * throw): `warnings_as_errors`, since the warning came first, with the later error's kind and
 * message in `context.then` (docs/contract.md#warnings-and---strict). Any other failure as it is.
 */
export function strictFirst(
  e: unknown,
  strict: boolean,
  warnings: readonly Warning[],
  label: (n: string) => string,
): unknown {
  if (!strict || !warnings.length) return e;
  const err = toAxError(e);
  if (err.kind === 'warnings_as_errors') return err;
  return withContext(strictFailure(warnings, 'went_on', label), { then: { kind: err.kind, message: err.message } });
}

/** A `--timeout` that is zero or negative: refused like the server's other durations (exit 2). */
export function badTimeout(ms: number, flag: string): AxError {
  return validationError(`${flag} must be a positive duration, got ${ms} ms`, 'invalid_flag_value', {
    context: { flag },
    fix: `Pass a positive ${flag}, e.g. 30s, or leave it out for no deadline.`,
  });
}

/**
 * An `auth_expired` error (docs/contract.md#an-expired-credential-auth_expired) as the caller gets it:
 * with a fix when the thrower gave none and, when the root declares `login`, that command as
 * `next[0]` in this caller's vocabulary (a command line; over MCP its tool call when it is a tool).
 * Any other error, or one that names its own next steps, as it is.
 */
export function withReauth(err: AxError, inv: Invocation, root: Command, base?: Command, via?: ToolVia): AxError {
  if (err.kind !== 'auth_expired' || err.next) return err;
  const login = root.login?.length
    ? authorSteps(inv, root, [{ args: [...root.login], description: 'sign in again' }], base, via)[0]
    : undefined;
  const fix =
    err.fix ??
    (login
      ? 'The credential has expired: sign in again with next[0], then retry the same call.'
      : 'The credential has expired: sign in again (renew the token or session this program uses), ' +
        'then retry the same call.');
  return withContext(err, {}, fix, login ? [login] : undefined);
}
