/**
 * The stdio transport, guarded: while serving, nothing but JSON-RPC reaches the real stdout (stray
 * `console.log` / `process.stdout.write` from handlers or libraries go to stderr, late ones too),
 * handlers get an empty stdin, children never inherit the protocol pipes, and the server exits
 * promptly on stdin EOF, SIGTERM or the run's abort. Cases B01, B02, B15, B17, B27.
 */
import { Readable, type Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { callScope, installChildGuard, scopedStdins } from './children.ts';
import { createServer, type McpModel, type McpServerOptions } from './server.ts';
import { keepAlive } from './lifecycle.ts';

/** Redirects `process.stdout.write` to stderr; returns the real stdout for the transport and an undo. */
export function guardStdout(): { protocolOut: Writable; restore: () => void } {
  const real = process.stdout;
  const realWrite = real.write;
  const toStderr = ((chunk: unknown, encoding?: unknown, cb?: unknown) =>
    (process.stderr.write as (...a: unknown[]) => boolean)(chunk, encoding, cb)) as typeof real.write;
  real.write = toStderr;
  const protocolOut = {
    write: (chunk: string | Uint8Array) => realWrite.call(real, chunk),
    once: (event: string, listener: () => void) => real.once(event, listener),
  } as unknown as Writable;
  return { protocolOut, restore: () => void (real.write = realWrite) };
}

/**
 * Makes `process.stdin`, read from inside a tool call, an empty stream (one per call) instead of
 * the protocol pipe: a handler or library that reads `process.stdin` directly (not `ctx.stdin`)
 * would otherwise consume JSON-RPC bytes and wait forever for an EOF that never comes (B02).
 * Outside calls, `process.stdin` is the real one. @returns the undo.
 */
export function guardStdin(): () => void {
  const real = process.stdin;
  const own = Object.getOwnPropertyDescriptor(process, 'stdin');
  const perCall = new WeakMap<AbortSignal, Readable>();
  Object.defineProperty(process, 'stdin', {
    configurable: true,
    enumerable: own?.enumerable ?? true,
    get() {
      const call = callScope.getStore();
      if (!call) return real;
      let empty = perCall.get(call);
      if (!empty) {
        empty = Readable.from([]);
        scopedStdins.add(empty);
        perCall.set(call, empty);
      }
      return empty;
    },
  });
  return () => {
    if (own) Object.defineProperty(process, 'stdin', own);
    else Object.defineProperty(process, 'stdin', { configurable: true, enumerable: true, writable: true, value: real });
  };
}

/**
 * Serves the model over stdio until stdin ends, SIGTERM arrives or `signal` aborts; then aborts
 * in-flight calls, kills their children and resolves.
 */
export async function serveStdio(model: McpModel, options: McpServerOptions, signal: AbortSignal): Promise<void> {
  const { protocolOut, restore } = guardStdout();
  const children = installChildGuard(true);
  const transport = new StdioServerTransport(process.stdin, protocolOut);
  const restoreStdin = guardStdin();
  const life = keepAlive(options.log);
  const server = createServer(model, { ...options, track: life.track });
  const stopped = new Promise<string>((resolve) => {
    process.stdin.once('end', () => resolve('stdin closed'));
    process.stdin.once('close', () => resolve('stdin closed'));
    process.stdin.once('error', () => resolve('stdin error'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
    if (signal.aborted) resolve('aborted');
    signal.addEventListener('abort', () => resolve('aborted'), { once: true });
    server.onclose = () => resolve('transport closed');
  });
  await server.connect(transport);
  await stopped;
  life.abortAll();
  await Promise.race([children.killAll(), new Promise((r) => setTimeout(r, 1500).unref())]);
  await server.close().catch(() => {});
  process.stdin.pause();
  process.stdin.unref?.();
  children.restore();
  restoreStdin();
  life.release();
  // Keep the guard: a late timer's write after shutdown still must not reach the client's pipe.
  void restore;
}
