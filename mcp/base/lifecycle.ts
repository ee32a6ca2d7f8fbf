/**
 * What keeps a server alive through misbehaving handlers, and what stops it in bounded time: a stray
 * rejection or a throw from a handler's timer is logged to stderr and the server goes on (Node would
 * otherwise exit); every request not yet answered and every call in flight is known (a small record
 * each, a call's with its AbortController), so both transports shut down by the one budget below
 * (docs/mcp-server.md#toolscall: a handler that throws, rejects late or never settles does not take
 * the server down).
 */
import { describeThrown } from '../../lib/contract/errors.ts';
import { ABORT_GRACE_MS, SHUTDOWN_BUDGET_MS } from '../../lib/run/settle.ts';

/**
 * At stdin EOF (stdio), how long calls already received may keep running before they are aborted,
 * in ms: the shutdown budget less the abort grace and a margin for answering and closing. Calls
 * that finish in time are answered with their result; the rest are aborted and answered
 * `interrupted` within {@link ABORT_GRACE_MS}.
 */
export const DRAIN_MS = SHUTDOWN_BUDGET_MS - ABORT_GRACE_MS - 500;

/** What aborts one call in flight: an AbortController, or a call's {@link CallSignal}. */
export interface Abortable {
  abort(reason: unknown): void;
}

/** What {@link keepAlive} returns. */
export interface Lifecycle {
  /**
   * Registers an in-flight call (what aborts it); returns its unregister function (call it once the
   * call is answered).
   */
  track(call: Abortable): () => void;
  /** Registers a request not yet answered (a transport's view); returns its release function. */
  hold(): () => void;
  /** How many calls are in flight. */
  readonly inflight: number;
  /** Resolves when every call in flight now has been unregistered, or after `ms` (whichever is first). */
  settled(ms: number): Promise<void>;
  /** Aborts every in-flight call (shutdown). */
  abortAll(): void;
  /** Removes the process-level handlers and clears the timers of pending {@link settled} waits. */
  release(): void;
}

/** Installs `unhandledRejection` / `uncaughtException` loggers for the life of the server. */
export function keepAlive(log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Lifecycle {
  // One small record per request or call, no promise (docs/performance.md: two per call before): `settled`
  // waits on the records live when it is called, each counting down its waiters when released.
  interface Waiter {
    left: number;
    done: () => void;
  }
  interface Live {
    ac?: Abortable;
    waiters?: Waiter[];
  }
  const live = new Set<Live>();
  const timers = new Set<NodeJS.Timeout>();
  const onRejection = (reason: unknown) =>
    log(`mcp-server: unhandled rejection (ignored, server continues): ${describeThrown(reason)}`);
  const onException = (err: unknown) =>
    log(`mcp-server: uncaught exception (ignored, server continues): ${describeThrown(err)}`);
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  const enter = (entry: Live) => {
    live.add(entry);
    return () => {
      if (!live.delete(entry)) return;
      for (const w of entry.waiters ?? []) if (--w.left === 0) w.done();
    };
  };
  return {
    track: (ac) => enter({ ac }),
    hold: () => enter({}),
    get inflight() {
      return live.size;
    },
    settled(ms) {
      // A ref'd timer (cleared by release): an unref'd one could leave the event loop empty
      // mid-shutdown, and main() treats an empty loop with the run unsettled as a hung handler.
      return new Promise<void>((resolve) => {
        if (live.size === 0) return resolve();
        const t = setTimeout(() => waiter.done(), ms);
        timers.add(t);
        const waiter: Waiter = {
          left: live.size,
          done: () => {
            clearTimeout(t);
            timers.delete(t);
            resolve();
          },
        };
        for (const entry of live) (entry.waiters ??= []).push(waiter);
      });
    },
    abortAll() {
      for (const entry of live) entry.ac?.abort(new Error('server shutting down'));
    },
    release() {
      for (const t of timers) clearTimeout(t);
      process.off('unhandledRejection', onRejection);
      process.off('uncaughtException', onException);
    },
  };
}

/**
 * The shutdown both transports share, within {@link SHUTDOWN_BUDGET_MS} of the stop request:
 * `drain` (stdin EOF only) lets calls in flight finish for up to {@link DRAIN_MS}; then every call
 * still running is aborted and gets {@link ABORT_GRACE_MS} (+100 ms) to be answered — a handler that
 * ignores the abort is answered `interrupted` by the run's own race — and `killChildren` gets 500 ms.
 */
export async function shutdownCalls(life: Lifecycle, drain: boolean, killChildren: () => Promise<void>): Promise<void> {
  if (drain && life.inflight > 0) await life.settled(DRAIN_MS);
  life.abortAll();
  if (life.inflight > 0) await life.settled(ABORT_GRACE_MS + 100);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([killChildren(), new Promise<void>((r) => (timer = setTimeout(r, 500)))]);
  clearTimeout(timer);
}
