/**
 * How a stdio server keeps the protocol pipe out of reach of handlers, libraries and their children
 * (docs/mcp-server.md#stdio). Node has no `dup2`. A program built with `ax-ts build` gets there in
 * its entry, before anything else runs (lib/build/in-place.ts: the client's streams on descriptors of
 * their own, fd 0 /dev/null, fd 1 stderr), and this module only takes that wire ({@link takeWire}).
 * Otherwise the protocol pipe is kept out of the process that runs them: the `mcp-server` process
 * (the supervisor) starts the program again, the way it was started (lib/platform/relaunch.ts), as
 * the server process, with fd 0 = /dev/null, fd 1 = its stderr and a Node IPC channel, and gives it
 * the client's streams over that channel in one of two ways:
 * - **passed** (stdin and stdout are pipes or sockets, as every MCP client spawns its server): the
 *   two pipe handles themselves; they arrive in the server process as new descriptors opened
 *   close-on-exec (its children never inherit them), and the channel is closed at once. The server
 *   then reads and writes the client's pipes itself: no byte is relayed.
 * - **relayed** (a terminal, a file, anything else): the name of a Unix socket (abstract on Linux,
 *   so nothing is left on disk; elsewhere in a private 0700 temporary directory: ./relay.ts) and a
 *   one-time token; the server process connects, proves itself with the
 *   token and speaks JSON-RPC on that socket, which libuv opens close-on-exec; the supervisor relays
 *   bytes (it parses nothing).
 * The server process knows it is one by `AX_MCP_WIRE=ipc` together with the IPC channel its parent
 * made: the variable alone (a user's environment) changes nothing. Either way `fs.writeSync(1)`,
 * `fs.createWriteStream('', {fd: 1})`, `/dev/stdout`, a child spawned through a `child_process`
 * function captured before the server started, and `process.stdout.end()` all land on stderr. The
 * supervisor forwards SIGTERM/SIGINT as SIGTERM and exits when the server does; the server stops
 * when the supervisor is gone (it watches its parent pid). Start-up cost: one more program start
 * (docs/performance.md).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection, Socket } from 'node:net';
import { AxError } from '../../lib/contract/errors.ts';
import { relaunchCommand } from '../../lib/platform/relaunch.ts';
import { inPlaceWire, type InPlaceWire } from '../../lib/build/stdio-wire.ts';
import { openRelay } from './relay.ts';
import { RUN_TRACEPARENT_ENV } from '../../lib/observe/trace.ts';

/**
 * Environment variable that tells the server process its wire comes over the IPC channel (read and
 * removed by the server process; honoured only together with that channel).
 */
export const WIRE_ENV = 'AX_MCP_WIRE';
/** {@link WIRE_ENV}'s value. */
export const PASSED = 'ipc';
/** How long the server process waits for the wire before giving up, ms. */
const PASS_WAIT_MS = 10_000;

/** Whether this process is a supervisor's server process: {@link WIRE_ENV} together with an IPC channel. */
export function supervisedServer(): boolean {
  return process.env[WIRE_ENV] === PASSED && typeof process.send === 'function';
}

/**
 * Whether this process can start the program again as the server: it runs a script, a single
 * executable or a bun-compiled binary — not `node -e` or a REPL.
 */
export function canSupervise(): boolean {
  return relaunchCommand([]) !== undefined;
}

/** The client's streams as the server process holds them (see {@link takeWire}). */
export interface Wire {
  /** The client's bytes; its end is the client's EOF. */
  input: Socket;
  /** Where JSON-RPC goes (the same socket as `input` when relayed). */
  output: Socket;
  /**
   * The supervisor's pid: when it changes, the supervisor is gone. Undefined when this process is
   * the one the client started, serving in place ({@link servedInPlace}).
   */
  parentPid: number | undefined;
}

/**
 * Whether this process serves stdio in place: the built program's entry (lib/build/in-place.ts) has
 * given the client's stdin and stdout descriptors of their own, opened close-on-exec, and made fd 0
 * /dev/null and fd 1 stderr, so no supervisor is needed (and none must start: its fd 0 and 1 are no
 * longer the client's). True until the wire is taken, and after.
 */
export function servedInPlace(): boolean {
  return inPlaceWire() !== undefined;
}

/** Takes the in-place wire (see {@link servedInPlace}). @throws AxError internal_error when it cannot be had. */
async function takeInPlace(record: InPlaceWire): Promise<Wire> {
  if (record.taken)
    throw new AxError('internal_error', "mcp-server: the client's pipes already serve a server in this process", {
      fix: 'Start one stdio server per process.',
    });
  record.taken = true;
  let got: Awaited<ReturnType<InPlaceWire['take']>>;
  try {
    got = await record.take();
  } catch (e) {
    throw new AxError(
      'internal_error',
      `mcp-server: the client's pipes could not be taken in place: ${(e as Error).message}`,
      { fix: 'Start mcp-server again; if it fails again, set AX_MCP_IN_PLACE=0.' },
    );
  }
  return pipeWire(got.input, got.output, undefined);
}

/**
 * The client's stdin and stdout, given as descriptors or raw pipe handles, as the two one-way
 * sockets of a {@link Wire}; their errors mean the client has gone (seen as the end of input).
 */
function pipeWire(input: number | object, output: number | object, parentPid: number | undefined): Wire {
  const open = (x: number | object, readable: boolean) =>
    new Socket({
      ...(typeof x === 'number' ? { fd: x } : { handle: x }),
      readable,
      writable: !readable,
    } as ConstructorParameters<typeof Socket>[0]);
  const wire = { input: open(input, true), output: open(output, false), parentPid };
  wire.input.on('error', () => {}); // a client gone: seen as the end of input
  wire.output.on('error', () => {}); // nobody reads the answers any more: nothing to tell
  return wire;
}

/**
 * In the server process: takes the wire — the one the built program's entry set up in place, or
 * the one its supervisor sends over the IPC channel (which is then closed): the passed pipes, or a
 * connection to the supervisor's socket. {@link WIRE_ENV} is removed from the environment, so
 * handlers and children never see it. Undefined when this process serves neither way.
 * @throws AxError internal_error when the wire does not arrive or the socket cannot be reached.
 */
export async function takeWire(env?: Record<string, string | undefined>): Promise<Wire | undefined> {
  const inPlace = inPlaceWire();
  if (inPlace) return takeInPlace(inPlace);
  const wire = process.env[WIRE_ENV];
  delete process.env[WIRE_ENV];
  if (env && env !== process.env) delete env[WIRE_ENV];
  if (wire !== PASSED || typeof process.send !== 'function') return undefined;
  const got = await receiveWire();
  if ('input' in got) return got;
  const parentPid = process.ppid;
  const socket = await new Promise<Socket>((resolve, reject) => {
    const s = createConnection({ path: got.path, allowHalfOpen: true });
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  }).catch((e: unknown) => {
    throw new AxError(
      'internal_error',
      `mcp-server: cannot reach the supervisor's socket ${got.path}: ${(e as Error).message}`,
      { fix: 'Start mcp-server again.' },
    );
  });
  socket.on('error', () => {}); // the supervisor died: seen as the end of input
  socket.write(`${got.token}\n`);
  return { input: socket, output: socket, parentPid };
}

/**
 * What the supervisor sends over the IPC channel: the client's stdin and stdout pipes (as a
 * {@link Wire}), or the relay's socket path and token; then the channel is closed.
 */
function receiveWire(): Promise<Wire | { path: string; token: string }> {
  const parentPid = process.ppid;
  return new Promise((resolve, reject) => {
    const got: { in?: object; out?: object } = {};
    const timer = setTimeout(() => done(new Error(`it did not arrive within ${PASS_WAIT_MS} ms`)), PASS_WAIT_MS);
    const onMessage = (m: unknown, handle: unknown) => {
      const msg = m as { ax?: unknown; path?: unknown; token?: unknown } | null;
      if (msg?.ax === 'relay' && typeof msg.path === 'string' && typeof msg.token === 'string')
        return done(undefined, { path: msg.path, token: msg.token });
      if ((msg?.ax === 'in' || msg?.ax === 'out') && handle) got[msg.ax] = handle as object;
      if (got.in && got.out) done();
    };
    const onGone = () => done(new Error('the supervisor closed the channel first'));
    const done = (e?: Error, relay?: { path: string; token: string }) => {
      clearTimeout(timer);
      process.off('message', onMessage);
      process.off('disconnect', onGone);
      // its descriptor is not close-on-exec (children must not inherit it): closed once Node has
      // acknowledged the handles it is delivering (a disconnect inside 'message' breaks that)
      setImmediate(() => process.connected && process.disconnect());
      if (e)
        return reject(
          new AxError(
            'internal_error',
            `mcp-server: the supervisor's wire did not reach the server process: ${e.message}`,
            {
              fix: 'Start mcp-server again.',
            },
          ),
        );
      // handles received over IPC are opened close-on-exec: a handler's children never inherit them
      resolve(relay ?? pipeWire(got.in!, got.out!, parentPid));
    };
    process.on('message', onMessage);
    process.once('disconnect', onGone);
    process.send!({ ax: 'ready' });
  });
}

/** The pipe handle (libuv `uv_pipe_t`: a pipe, FIFO or Unix socket) behind a std stream, if it has one. */
function pipeHandle(stream: NodeJS.ReadStream | NodeJS.WriteStream): object | undefined {
  if ((stream as { isTTY?: boolean }).isTTY) return undefined;
  const h = (stream as unknown as { _handle?: { constructor?: { name?: string } } })._handle;
  return h && h.constructor?.name === 'Pipe' ? h : undefined;
}

/**
 * In the `mcp-server` process: starts the server process and hands it the client's stdin and stdout
 * (passed when both are pipes, relayed otherwise: see the module comment) until it exits. Resolves
 * when it has exited with 0; SIGTERM/SIGINT (`signal`) are passed on as SIGTERM, so it answers its
 * calls and exits within the shutdown budget. `traceparent` (this run's span) is the parent of the
 * server process's own run span, so the two are one trace.
 * @throws AxError internal_error when the server process fails to start or exits with another code.
 */
export async function superviseStdio(signal: AbortSignal, traceparent?: string): Promise<void> {
  const stdinPipe = pipeHandle(process.stdin);
  const stdoutPipe = pipeHandle(process.stdout);
  const pass = stdinPipe !== undefined && stdoutPipe !== undefined;
  const again = relaunchCommand(process.argv.slice(2));
  if (!again)
    throw new AxError('internal_error', 'mcp-server: this program cannot be started again as the server process', {
      fix: 'Run the program from a script or a binary (not node -e).',
    });
  const relay = pass ? undefined : await openRelay();
  const child: ChildProcess = spawn(again.command, again.args, {
    stdio: ['ignore', 2, 'inherit', 'ipc'],
    // the server process's own run continues this run's trace; its tool calls do not (trace.ts)
    env: { ...process.env, ...(traceparent ? { [RUN_TRACEPARENT_ENV]: traceparent } : {}), [WIRE_ENV]: PASSED },
    detached: true, // its own process group: a terminal's Ctrl-C reaches it once, through us, as SIGTERM
  });
  const exited = new Promise<{ code: number | null; sig: NodeJS.Signals | null }>((resolve) => {
    // gone already
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, sig: child.signalCode });
    child.once('exit', (code, sig) => resolve({ code, sig }));
    child.once('error', () => resolve({ code: null, sig: null }));
  });
  let forwarded = false;
  const forward = () => {
    if (forwarded) return;
    forwarded = true;
    try {
      child.kill('SIGTERM');
    } catch {
      /* gone */
    }
  };
  signal.addEventListener('abort', forward, { once: true });
  let connected: boolean;
  let socket: Socket | undefined;
  // the server process asks for its wire once it listens for it (a message sent before would be lost)
  const ready = await readyOrExit(child, exited);
  if (!ready) {
    connected = false;
    relay?.close();
  } else if (pass) {
    connected = await passPipes(child, stdinPipe, stdoutPipe, exited);
  } else {
    try {
      child.send({ ax: 'relay', path: relay!.path, token: relay!.token }, () => child.connected && child.disconnect());
    } catch {
      /* gone: seen below */
    }
    socket = await Promise.race([relay!.accepted(), exited.then(() => undefined)]);
    relay!.close();
    connected = socket !== undefined;
    if (socket) {
      // the relay: bytes only, in both directions; stdin's end is passed on as the socket's end
      process.stdin.pipe(socket);
      socket.pipe(process.stdout, { end: false });
      socket.on('error', () => {});
    }
  }
  const { code, sig } = await exited;
  if (socket) {
    // everything it wrote has been relayed once its side has ended
    await new Promise<void>((r) => {
      if (socket.readableEnded || socket.destroyed) return r();
      socket.once('end', () => r());
      socket.once('close', () => r());
    });
    process.stdin.unpipe(socket);
    socket.destroy();
  }
  if (!pass) {
    process.stdin.pause();
    process.stdin.unref?.();
  }
  signal.removeEventListener('abort', forward);
  if (code === 0 || (forwarded && sig === 'SIGTERM')) return;
  const what = sig ? `was killed by ${sig}` : code === null ? 'could not be started' : `exited with code ${code}`;
  throw new AxError(
    'internal_error',
    `mcp-server: the server process ${what}${connected ? '' : ' before it connected'}`,
    {
      fix: 'See the lines above on stderr for the cause; then start mcp-server again.',
      context: { exit_code: code, signal: sig },
    },
  );
}

/** Whether the server process said it is ready for its wire (true) or exited first (false). */
function readyOrExit(child: ChildProcess, exited: Promise<unknown>): Promise<boolean> {
  return Promise.race([
    new Promise<boolean>((resolve) => {
      const onMessage = (m: unknown) => {
        if ((m as { ax?: unknown } | null)?.ax !== 'ready') return;
        child.off('message', onMessage);
        resolve(true);
      };
      child.on('message', onMessage);
    }),
    exited.then(() => false),
  ]);
}

/**
 * Sends the stdin and stdout pipe handles to the server process over its IPC channel and lets go
 * of the channel. Resolves true once both have been received, false when it exited first.
 */
async function passPipes(
  child: ChildProcess,
  stdin: object,
  stdout: object,
  exited: Promise<unknown>,
): Promise<boolean> {
  const send = (which: 'in' | 'out', handle: object) =>
    new Promise<boolean>((resolve) => {
      try {
        // a raw handle ('net.Native'): this process keeps its own descriptor, and never reads or writes it
        child.send({ ax: which }, handle as never, (e) => resolve(!e));
      } catch {
        resolve(false);
      }
    });
  const sent = await Promise.race([
    (async () => (await send('in', stdin)) && (await send('out', stdout)))(),
    exited.then(() => false),
  ]);
  // Bun's channel has no unref (nor ref): it then keeps this process alive until the server exits, as it does anyway
  (child.channel as { unref?: () => void } | null | undefined)?.unref?.();
  child.on('error', () => {}); // a late send error once it is gone
  return sent;
}
