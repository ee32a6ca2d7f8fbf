/**
 * The stdio transport, guarded: while serving, nothing but JSON-RPC reaches the real stdout (stray
 * `console.log` / `process.stdout.write` from handlers or libraries go to stderr, late ones too),
 * handlers get an empty stdin, children never inherit the protocol pipes, and the server exits
 * promptly on stdin EOF, SIGTERM or the run's abort. Cases B01, B02, B15, B17, B27.
 */
import type { Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { installChildGuard } from './children.ts';
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
 * Serves the model over stdio until stdin ends, SIGTERM arrives or `signal` aborts; then aborts
 * in-flight calls, kills their children and resolves.
 */
export async function serveStdio(model: McpModel, options: McpServerOptions, signal: AbortSignal): Promise<void> {
  const { protocolOut, restore } = guardStdout();
  const children = installChildGuard(true);
  const life = keepAlive(options.log);
  const server = createServer(model, { ...options, track: life.track });
  const transport = new StdioServerTransport(process.stdin, protocolOut);
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
  life.release();
  // Keep the guard: a late timer's write after shutdown still must not reach the client's pipe.
  void restore;
}
