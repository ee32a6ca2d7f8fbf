/**
 * The stdio transport, guarded: while serving, nothing but JSON-RPC reaches the real stdout (stray
 * `console.log` / `process.stdout.write` from handlers or libraries go to stderr, late ones too),
 * handlers get an empty stdin, children never inherit the protocol pipes, and the server exits
 * promptly on stdin EOF, SIGTERM or the run's abort (docs/mcp-server.md#stdio). What a tool call
 * prints is captured into its result (printed.ts).
 */
import { Readable, type Writable } from 'node:stream';
import { callScope, installChildGuard, scopedStdins } from '../isolate/children.ts';
import { JsonLineTransport } from '../base/jsonl.ts';
import { CLIENT_ERROR } from '../base/eras.ts';
import { createServer } from '../protocol/server.ts';
import type { McpModel, McpServerOptions } from '../call/model.ts';
import { keepAlive, shutdownCalls } from '../base/lifecycle.ts';
import { capturePrinted } from '../isolate/printed.ts';
import { serveStdio as serveEras } from '../base/sdk.ts';
import { guardStdout, scopeStdin } from '../../lib/platform/process-patches.ts';

/**
 * `process.stdin` inside a tool call: the call's own empty stream (made on its first read), never
 * the protocol pipe — a handler or library that reads `process.stdin` directly (not `ctx.stdin`)
 * would otherwise consume JSON-RPC bytes and wait forever for an EOF that never comes. Outside
 * calls, undefined: the real stdin.
 */
function emptyStdinPerCall(): () => Readable | undefined {
  const perCall = new WeakMap<object, Readable>();
  return () => {
    const call = callScope.getStore();
    if (!call) return undefined;
    let empty = perCall.get(call);
    if (!empty) {
      empty = Readable.from([]);
      scopedStdins.add(empty);
      perCall.set(call, empty);
    }
    return empty;
  };
}

/** How often a supervised server checks that its supervisor is still there, ms. */
const ORPHAN_POLL_MS = 200;

/** Where the protocol flows: the process's own stdin/stdout, or what the supervisor gave (supervise.ts). */
export interface StdioWire {
  /** The client's bytes. Its end is the client's EOF. */
  input: Readable;
  /** Where JSON-RPC goes; nothing else may reach it. Default: the real stdout, behind the guard. */
  output?: Writable;
  /** Largest message, bytes. Default 10 MiB. */
  maxLineBytes?: number;
  /**
   * Under the supervisor: its pid. An input end while it is gone (we were re-parented) means it was
   * killed and nobody reads the answers: calls are aborted at once instead of drained.
   */
  parentPid?: number;
}

/**
 * Serves the model over stdio until the input ends, SIGTERM arrives or `signal` aborts. At input
 * EOF, calls already received keep running (up to {@link DRAIN_MS}) and are answered; on SIGTERM or
 * abort they are aborted at once and answered `interrupted`. Then their children are killed and it
 * resolves, within the shutdown budget (lifecycle.ts).
 */
/** How long the client may leave the answers unread at stdin EOF before they are given up, ms. */
const STALL_MS = 5000;
/** The same after a stop request (SIGTERM, abort), which must end within the shutdown budget, ms. */
const STOP_STALL_MS = 1000;

/**
 * Ends `output` and resolves once everything written to it has been handed to the kernel (0), or
 * with the number of bytes still queued when the reader took nothing for `stallMs` (a client
 * that stopped reading; as long as it reads, it is waited for). A reader that has gone (the stream
 * fails or closes) ends the wait at once, with 0: there is nobody left to tell.
 */
function drained(output: Writable, stallMs: number): Promise<number> {
  return new Promise((resolve) => {
    let last = output.writableLength;
    let still = 0;
    const done = (lost: number) => {
      clearInterval(watch);
      output.off('finish', onFinish);
      output.off('error', onError);
      output.off('close', onError);
      resolve(lost);
    };
    const onFinish = () => done(0);
    const onError = () => done(0);
    const watch = setInterval(() => {
      const now = output.writableLength;
      still = now < last ? 0 : still + 250;
      last = now;
      if (still >= stallMs) done(now);
    }, 250);
    output.once('finish', onFinish);
    output.once('error', onError);
    output.once('close', onError);
    if (output.writableFinished || output.destroyed) return done(0);
    output.end();
  });
}

export async function serveStdio(
  model: McpModel,
  options: McpServerOptions,
  signal: AbortSignal,
  wire: StdioWire = { input: process.stdin },
): Promise<void> {
  // the process patches in their order (lib/platform/process-patches.ts): the guard, then the
  // capture over it (a call's prints go to its result), then the children
  const { protocolOut, restore } = guardStdout();
  const restoreStdin = scopeStdin(emptyStdinPerCall());
  const releasePrinted = capturePrinted();
  const children = installChildGuard(true);
  const output = wire.output ?? protocolOut;
  const input = wire.input;
  const life = keepAlive(options.log);
  const transport = new JsonLineTransport(input, output, {
    maxLineBytes: wire.maxLineBytes,
    log: options.log,
    hold: life.hold,
  });
  const serverOptions = { ...options, track: life.track };
  let onTerm = () => {};
  let parentWatch: NodeJS.Timeout | undefined;
  const orphaned = () => wire.parentPid !== undefined && process.ppid !== wire.parentPid;
  const stopped = new Promise<'eof' | 'stop'>((resolve) => {
    // the kernel closes a killed supervisor's socket just before it re-parents us: look again shortly after
    const ended = () => setTimeout(() => resolve(orphaned() ? 'stop' : 'eof'), wire.parentPid === undefined ? 0 : 50);
    input.once('end', ended);
    input.once('close', ended);
    input.once('error', ended);
    // an input that ended before we listened (a client that closed stdin at once: its 'end' came
    // while the runtime was still loading) emits nothing more
    if (input.readableEnded || input.destroyed) ended();
    onTerm = () => resolve('stop');
    process.once('SIGTERM', onTerm);
    if (signal.aborted) resolve('stop');
    signal.addEventListener('abort', () => resolve('stop'), { once: true });
    // passed pipes do not end when the supervisor dies (the client still holds them): watch its pid
    if (wire.parentPid !== undefined) parentWatch = setInterval(() => orphaned() && resolve('stop'), ORPHAN_POLL_MS);
    parentWatch?.unref();
  });
  // the connection's first message decides its era: `initialize` (or no `_meta` protocol version)
  // the 2025 era, a 2026-07-28 request the modern one (docs/mcp-server.md#protocol-eras)
  const handle = serveEras(({ era }) => createServer(model, serverOptions, era), {
    transport,
    onerror: (e) => {
      if (CLIENT_ERROR.test(e.message) && !(options.env ?? process.env).AX_DEBUG) return;
      (options.log ?? ((l: string) => process.stderr.write(`${l}\n`)))(`mcp-server: ${e.message}`);
    },
  });
  const why = await stopped;
  clearInterval(parentWatch);
  // a SIGTERM or abort during the drain cuts it short
  let cutNow = () => {};
  const cut = new Promise<void>((r) => (cutNow = r));
  process.on('SIGTERM', cutNow);
  signal.addEventListener('abort', cutNow, { once: true });
  const watch = wire.parentPid === undefined ? undefined : setInterval(() => orphaned() && cutNow(), 100);
  const kill = () => children.killAll();
  await Promise.race([shutdownCalls(life, why === 'eof', kill), cut.then(() => shutdownCalls(life, false, kill))]);
  process.off('SIGTERM', onTerm);
  await new Promise<void>((r) => setImmediate(r)); // the answers just produced are handed to the stream
  if (wire.output) {
    // the relay, or the client's own stdout pipe: every answer is out before the server lets go of
    // it (a slow reader is waited for while it reads, after a stop request only briefly: see drained)
    const output = wire.output;
    if ((output as unknown) !== input) input.destroy();
    const stall = why === 'eof' ? STALL_MS : STOP_STALL_MS;
    const lost = await Promise.race([drained(output, stall), cut.then(() => output.writableLength)]);
    input.destroy();
    output.destroy();
    if (lost > 0)
      (options.log ?? ((l: string) => process.stderr.write(`${l}\n`)))(
        `mcp-server: the client stopped reading; ${lost} bytes of answers were not delivered`,
      );
  }
  process.off('SIGTERM', cutNow);
  signal.removeEventListener('abort', cutNow);
  clearInterval(watch);
  await handle.close().catch(() => {});
  if (input === process.stdin) {
    process.stdin.pause();
    process.stdin.unref?.();
  }
  children.restore();
  restoreStdin();
  releasePrinted();
  life.release();
  // Keep the guard: a late timer's write after shutdown still must not reach the client's pipe.
  void restore;
}
