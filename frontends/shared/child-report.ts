/**
 * The child's half of a call run in its own process (docs/frontends.md#how-a-call-runs): the marker
 * the server sets in the child's environment, and the one line the child writes on the extra pipe it
 * names when the program's action settles. Light on purpose (node:fs only): a front end's entry
 * imports it, and the child must not load ax-ts's runtime to run the program.
 */
import { closeSync, writeSync } from 'node:fs';

/** The environment variable telling `withAx` in a child "you are one call": its value is the report's fd. */
export const CALL_FD_ENV = 'AX_TS_FRONT_END_CALL_FD';

/** An error as the child reports it: what the server needs to rebuild ax-ts's error. */
export interface ReportedError {
  message: string;
  /** The parser refused the words before any action ran: `validation_error` with this reason. */
  refused?: string;
  /** A numeric `exitCode` the thrown error carried. */
  exitCode?: number;
  /** An ax-ts `AxError` thrown by the action: its fields. */
  ax?: { kind: string; exitCode: number; fix?: string; context?: Record<string, unknown> };
}

/** The one line a child writes: the action's return value, or its error. */
export type Report = { data: unknown } | { error: ReportedError };

/**
 * The report fd of this process when it runs one call for a server, else undefined. The marker is
 * taken out of the environment, so a process the program starts is never taken for a call.
 */
export function takeCallFd(env: Record<string, string | undefined> = process.env): number | undefined {
  const given = env[CALL_FD_ENV];
  if (given === undefined) return undefined;
  delete env[CALL_FD_ENV];
  const fd = Number(given);
  return Number.isInteger(fd) && fd >= 3 ? fd : undefined;
}

/** The errors reported and handed on to the program's own code (see {@link CallReporter.quiet}). */
const reportedErrors = new WeakSet<object>();

/** Writes one call's outcome on its fd, once (later reports are dropped: the first outcome is the call's). */
export class CallReporter {
  private sent = false;
  /** Whether an action of the program has started (a throw from then on is the action's own). */
  started = false;

  /** @param fd the report's fd, from {@link takeCallFd}. */
  constructor(private readonly fd: number) {}

  /** Whether an outcome was written. */
  get done(): boolean {
    return this.sent;
  }

  /** Writes the outcome (a value JSON cannot carry is reported as the action's error). */
  send(report: Report): void {
    if (this.sent) return;
    this.sent = true;
    let line: string;
    try {
      line = JSON.stringify(report);
    } catch (e) {
      line = JSON.stringify({ error: { message: `the action returned a value JSON cannot carry: ${String(e)}` } });
    }
    try {
      writeSync(this.fd, `${line ?? '{"data":null}'}\n`);
      closeSync(this.fd);
    } catch {
      // the server is gone: nothing to tell
    }
  }

  /**
   * Marks a reported error that goes on to the program's own code (which may handle it): if nothing
   * does, the process ends with exit 1 as Node would, but without the crash trace — the call's
   * outcome already carries its message. Any other uncaught error ends it as Node would (its stack,
   * exit 1). @returns the error, to throw.
   */
  quiet(e: unknown): unknown {
    if (e !== null && typeof e === 'object') reportedErrors.add(e);
    if (!this.listening) {
      this.listening = true;
      process.on('uncaughtException', (err: unknown) => {
        if (err === null || typeof err !== 'object' || !reportedErrors.has(err))
          process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
        process.exit(1);
      });
    }
    return e;
  }

  private listening = false;

  /** The action settled with `value`. */
  data(value: unknown): void {
    this.send({ data: value === undefined ? null : value });
  }

  /** The action threw `e` (or the parser refused, `refused` naming the reason). */
  error(e: unknown, refused?: string): void {
    this.send({ error: reportedError(e, refused) });
  }

  /**
   * Watches what an action returns: a value is reported at once, a promise when it settles (the
   * promise itself is given back untouched, so the program's own handling of it is unchanged).
   */
  watch(returned: unknown): void {
    if (returned !== null && typeof (returned as { then?: unknown })?.then === 'function') {
      (returned as Promise<unknown>).then(
        (v) => this.data(v),
        (e: unknown) => this.error(e),
      );
    } else this.data(returned);
  }
}

/** A thrown value as a {@link ReportedError}. */
function reportedError(e: unknown, refused: string | undefined): ReportedError {
  const message = e instanceof Error ? e.message : typeof e === 'string' ? e : String(e);
  const out: ReportedError = { message };
  if (refused) out.refused = refused;
  if (e === null || typeof e !== 'object') return out;
  const o = e as { name?: unknown; kind?: unknown; exitCode?: unknown; fix?: unknown; context?: unknown };
  if (typeof o.exitCode === 'number' && Number.isInteger(o.exitCode)) out.exitCode = o.exitCode;
  if (o.name === 'AxError' && typeof o.kind === 'string' && typeof o.exitCode === 'number') {
    out.ax = {
      kind: o.kind,
      exitCode: o.exitCode,
      ...(typeof o.fix === 'string' ? { fix: o.fix } : {}),
      ...(o.context && typeof o.context === 'object' ? { context: o.context as Record<string, unknown> } : {}),
    };
  }
  return out;
}
