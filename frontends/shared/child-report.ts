/**
 * The child's half of a call run in its own process (docs/frontends.md#how-a-call-runs): the marker
 * the server sets in the child's environment, and the one line the child writes on the extra pipe it
 * names when the program's action settles. Light on purpose (node:fs only): a front end's entry
 * imports it, and the child must not load ax-ts's runtime to run the program.
 */
import { closeSync, writeSync } from 'node:fs';

/** The environment variable telling `withAx` in a child "you are one call": its value is the report's fd. */
export const CALL_FD_ENV = 'AX_TS_FRONT_END_CALL_FD';

/** An ax-ts `AxError`'s fields, as a child reports them. */
export interface ReportedAx {
  kind: string;
  exitCode: number;
  fix?: string;
  suggestions?: string[];
  context?: Record<string, unknown>;
  retryable?: boolean;
  retryAfterSeconds?: number;
  usage?: string;
  next?: unknown[];
}

/** One error of a thrown value's cause chain: what the server needs to rebuild it. */
export interface ReportedLink {
  /** Its `name` (`TimeoutError`, `AbortError`…: what ax-ts reads a thrown error's meaning from). */
  name?: string;
  message: string;
  /** A numeric `exitCode` it carried. */
  exitCode?: number;
  /**
   * A system or network error's own fields — `code` (`ECONNREFUSED`, `UND_ERR_SOCKET`…), `syscall`,
   * `hostname`, `address`, `port` — that ax-ts reads a network failure from (docs/contract.md#network-failures).
   */
  errno?: Record<string, string | number>;
  /** An ax-ts `AxError`: its fields. */
  ax?: ReportedAx;
}

/** An error as the child reports it: what the server needs to rebuild ax-ts's error. */
export interface ReportedError {
  message: string;
  /** The parser refused the words before any action ran: `validation_error` with this reason. */
  refused?: string;
  /** A numeric `exitCode` the thrown error carried. */
  exitCode?: number;
  /** An ax-ts `AxError` thrown by the action: its fields. */
  ax?: ReportedAx;
  /** The thrown value and its causes, outermost first (at most 8): rebuilt by the server. */
  chain?: ReportedLink[];
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

/**
 * Writes one call's outcome on its fd, once — but for an error after a value was reported (a
 * `postAction` hook that throws once the action has returned), which is written as a second line
 * and is the call's outcome, as the same throw is in-process. Any later report is dropped.
 */
export class CallReporter {
  private sent = false;
  /** The value reported was data (an error may still follow it). */
  private sentData = false;
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
    const after = this.sent && this.sentData && 'error' in report;
    if (this.sent && !after) return;
    this.sent = true;
    this.sentData = !after && 'data' in report;
    let line: string;
    try {
      line = JSON.stringify(report);
    } catch (e) {
      line = JSON.stringify({ error: { message: `the action returned a value JSON cannot carry: ${String(e)}` } });
    }
    try {
      writeSync(this.fd, `${line ?? '{"data":null}'}\n`);
      // after a value the fd stays open for an error that may follow it; it closes at exit
      if (!this.sentData) closeSync(this.fd);
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

/**
 * One thrown value as a {@link ReportedLink}: its name, message, `exitCode`, errno fields and, for an
 * AxError, its fields.
 */
function linkOf(e: unknown): ReportedLink {
  const message = e instanceof Error ? e.message : typeof e === 'string' ? e : String(e);
  if (e === null || typeof e !== 'object') return { message };
  const o = e as Record<string, unknown>;
  const link: ReportedLink = { message };
  if (typeof o.name === 'string') link.name = o.name;
  if (typeof o.exitCode === 'number' && Number.isInteger(o.exitCode)) link.exitCode = o.exitCode;
  if (typeof o.code === 'string' && o.name !== 'AxError') {
    const errno: Record<string, string | number> = { code: o.code };
    for (const k of ['syscall', 'hostname', 'address', 'port'])
      if (typeof o[k] === 'string' || typeof o[k] === 'number') errno[k] = o[k];
    link.errno = errno;
  }
  if (o.name === 'AxError' && typeof o.kind === 'string' && typeof o.exitCode === 'number') {
    const ax: ReportedAx = { kind: o.kind, exitCode: o.exitCode };
    for (const k of ['fix', 'usage'] as const) if (typeof o[k] === 'string') ax[k] = o[k];
    if (typeof o.retryable === 'boolean') ax.retryable = o.retryable;
    if (typeof o.retryAfterSeconds === 'number') ax.retryAfterSeconds = o.retryAfterSeconds;
    if (Array.isArray(o.suggestions)) ax.suggestions = o.suggestions as string[];
    if (Array.isArray(o.next)) ax.next = o.next as unknown[];
    if (o.context && typeof o.context === 'object') ax.context = o.context as Record<string, unknown>;
    link.ax = ax;
  }
  return link;
}

/** A thrown value as a {@link ReportedError}: the value itself, and its cause chain for the server to rebuild. */
function reportedError(e: unknown, refused: string | undefined): ReportedError {
  const first = linkOf(e);
  const out: ReportedError = { message: first.message };
  if (refused) out.refused = refused;
  if (first.exitCode !== undefined) out.exitCode = first.exitCode;
  if (first.ax) out.ax = first.ax;
  const chain = [first];
  for (let c = (e as { cause?: unknown } | null)?.cause; c !== undefined && chain.length < 8;) {
    chain.push(linkOf(c));
    c = c !== null && typeof c === 'object' ? (c as { cause?: unknown }).cause : undefined;
  }
  out.chain = chain;
  return out;
}
