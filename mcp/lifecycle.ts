/**
 * What keeps a server alive through misbehaving handlers: a stray rejection or a throw from a
 * handler's timer is logged to stderr and the server goes on (Node would otherwise exit), and every
 * in-flight call's AbortController is known so shutdown can abort them. Case B15.
 */
import { describeThrown } from '../lib/contract/errors.ts';

/** What {@link keepAlive} returns. */
export interface Lifecycle {
  /** Registers an in-flight call; returns its unregister function. */
  track(ac: AbortController): () => void;
  /** Aborts every in-flight call (shutdown). */
  abortAll(): void;
  /** Removes the process-level handlers. */
  release(): void;
}

/** Installs `unhandledRejection` / `uncaughtException` loggers for the life of the server. */
export function keepAlive(log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Lifecycle {
  const calls = new Set<AbortController>();
  const onRejection = (reason: unknown) => log(`mcp-server: unhandled rejection (ignored, server continues): ${describeThrown(reason)}`);
  const onException = (err: unknown) => log(`mcp-server: uncaught exception (ignored, server continues): ${describeThrown(err)}`);
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return {
    track(ac) {
      calls.add(ac);
      return () => calls.delete(ac);
    },
    abortAll() {
      for (const ac of calls) ac.abort(new Error('server shutting down'));
    },
    release() {
      process.off('unhandledRejection', onRejection);
      process.off('uncaughtException', onException);
    },
  };
}
