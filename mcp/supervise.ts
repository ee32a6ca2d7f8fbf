/**
 * How a stdio server keeps the protocol pipe out of reach of handlers, libraries and their children.
 * Node has no `dup2`. A bundled program's entry gets there before anything else runs (.ci/loader.cjs
 * serveInPlace: the client's streams on descriptors of their own, fd 0 /dev/null, fd 1 stderr), and
 * this module only hands that wire over ({@link servedInPlace}, {@link takeWire}). Otherwise the
 * protocol pipe is kept out of the process that runs them: the `mcp-server` process (the supervisor)
 * re-executes the program with fd 0 = /dev/null and fd 1 = its stderr, and gives that server process
 * the client's streams in one of two ways:
 * - **passed** (stdin and stdout are pipes or sockets, as every MCP client spawns its server): the
 *   supervisor sends the two pipe handles over a Node IPC channel; they arrive in the server process
 *   as new descriptors opened close-on-exec (its children never inherit them), and the channel is
 *   closed at once. The server then reads and writes the client's pipes itself: no byte is relayed,
 *   so a call costs no more CPU or latency than in one process (docs/performance.md).
 * - **relayed** (a terminal, a file, anything else): the server process connects back over a Unix
 *   socket in a private (0700) temporary directory, proves itself with a one-time token, and speaks
 *   JSON-RPC on that socket, which libuv opens close-on-exec; the supervisor relays bytes (it parses
 *   nothing).
 * Either way `fs.writeSync(1)`, `fs.createWriteStream('', {fd: 1})`, `/dev/stdout`, a child spawned
 * through a `child_process` function captured before the server started, and `process.stdout.end()`
 * all land on stderr. The supervisor forwards SIGTERM/SIGINT as SIGTERM and exits when the server
 * does; the server stops when the supervisor is gone (it watches its parent pid). Start-up cost: one
 * more Node start (docs/performance.md), a few milliseconds less for a bundled program: for a bare
 * `mcp-server` over pipes its entry (.ci/loader.cjs) starts the server process at once, beside this
 * one, and {@link superviseStdio} adopts it instead of spawning another; it runs the program when
 * told `go` ({@link startEarlyServer}) and reports nothing before the pipes reach it (runtime.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxError } from '../lib/contract/errors.ts';

/**
 * Environment variable naming the supervisor's socket, or {@link PASSED} when the client's pipes come
 * over the IPC channel (read and removed by the server process).
 */
export const WIRE_ENV = 'AX_MCP_WIRE';
/** {@link WIRE_ENV}'s value when the pipes are passed, not relayed. */
export const PASSED = 'ipc';
/** How long the server process waits for the passed pipes before giving up, ms. */
const PASS_WAIT_MS = 10_000;
/** Environment variable with the one-time token the server process sends first. */
export const WIRE_TOKEN_ENV = 'AX_MCP_WIRE_TOKEN';

/** Node options not to repeat in the server process (a debugger port cannot be taken twice). */
const SKIP_EXEC_ARG = /^--(inspect|inspect-brk|inspect-port|debug-port)(=|$)/;

/**
 * Whether this process can re-execute itself as the server: it runs a script (`process.argv[1]`),
 * not `node -e` or a REPL.
 */
export function canSupervise(): boolean {
  return (
    typeof process.argv[1] === 'string' &&
    process.argv[1] !== '' &&
    !process.execArgv.some((a) => a === '-e' || a === '--eval' || a === '-p' || a === '--print')
  );
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

/** Where the bundled entry keeps the wire it set up to serve in place (.ci/loader.cjs serveInPlace). */
const IN_PLACE = Symbol.for('ax-ts.stdio-in-place');

/** The entry's record: `take()` gives the client's stdin and stdout, as descriptors or raw pipe handles. */
interface InPlace {
  take(): Promise<{ input: number | object; output: number | object }>;
  /** Set here once taken: the streams serve one server. */
  taken?: boolean;
}

/**
 * Whether this process serves stdio in place: the bundled entry (.ci/loader.cjs serveInPlace) has
 * given the client's stdin and stdout descriptors of their own, opened close-on-exec, and made fd 0
 * /dev/null and fd 1 stderr, so no supervisor is needed (and none must start: its fd 0 and 1 are no
 * longer the client's). True until the wire is taken, and after.
 */
export function servedInPlace(): boolean {
  return (globalThis as Record<symbol, unknown>)[IN_PLACE] !== undefined;
}

/** Takes the in-place wire (see {@link servedInPlace}). @throws AxError internal_error when it cannot be had. */
async function takeInPlace(record: InPlace): Promise<Wire> {
  if (record.taken)
    throw new AxError('internal_error', "mcp-server: the client's pipes already serve a server in this process", {
      fix: 'Start one stdio server per process.',
    });
  record.taken = true;
  let got: Awaited<ReturnType<InPlace['take']>>;
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
 * In the server process: takes the wire from the environment (removing it, so handlers and children
 * never see it) — the passed pipes from the IPC channel (which is then closed), or a connection to
 * the supervisor's socket. Undefined when this process is not a supervised server.
 * @throws AxError internal_error when the pipes do not arrive or the socket cannot be reached.
 */
export async function takeWire(env?: Record<string, string | undefined>): Promise<Wire | undefined> {
  const inPlace = (globalThis as Record<symbol, unknown>)[IN_PLACE] as InPlace | undefined;
  if (inPlace) return takeInPlace(inPlace);
  const path = process.env[WIRE_ENV];
  const token = process.env[WIRE_TOKEN_ENV];
  delete process.env[WIRE_ENV];
  delete process.env[WIRE_TOKEN_ENV];
  if (env && env !== process.env) {
    delete env[WIRE_ENV];
    delete env[WIRE_TOKEN_ENV];
  }
  if (path === PASSED && typeof process.send === 'function') return receivePipes();
  if (!path || !token) return undefined;
  const parentPid = process.ppid;
  const socket = await new Promise<Socket>((resolve, reject) => {
    const s = createConnection({ path, allowHalfOpen: true });
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  }).catch((e: unknown) => {
    throw new AxError(
      'internal_error',
      `mcp-server: cannot reach the supervisor's socket ${path}: ${(e as Error).message}`,
      { fix: 'Start mcp-server again.' },
    );
  });
  socket.on('error', () => {}); // the supervisor died: seen as the end of input
  socket.write(`${token}\n`);
  return { input: socket, output: socket, parentPid };
}

/** The client's stdin and stdout pipes, sent by the supervisor; then the IPC channel is closed. */
function receivePipes(): Promise<Wire> {
  const parentPid = process.ppid;
  return new Promise<Wire>((resolve, reject) => {
    const got: { in?: object; out?: object } = {};
    const timer = setTimeout(() => done(new Error(`they did not arrive within ${PASS_WAIT_MS} ms`)), PASS_WAIT_MS);
    const onMessage = (m: unknown, handle: unknown) => {
      const which = (m as { ax?: unknown } | null)?.ax;
      if ((which === 'in' || which === 'out') && handle) got[which] = handle as object;
      if (got.in && got.out) done();
    };
    const onGone = () => done(new Error('the supervisor closed the channel first'));
    const done = (e?: Error) => {
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
            `mcp-server: the client's pipes were not passed to the server process: ${e.message}`,
            { fix: 'Start mcp-server again.' },
          ),
        );
      // handles received over IPC are opened close-on-exec: a handler's children never inherit them
      resolve(pipeWire(got.in!, got.out!, parentPid));
    };
    // a server process the entry started early (.ci/loader.cjs) may have received them already
    const early = (globalThis as Record<symbol, unknown>)[EARLY_WIRE] as
      { queue: [unknown, unknown][]; stop: () => void } | undefined;
    if (early) {
      delete (globalThis as Record<symbol, unknown>)[EARLY_WIRE];
      early.stop();
    }
    process.on('message', onMessage);
    process.once('disconnect', onGone);
    for (const [m, handle] of early?.queue ?? []) onMessage(m, handle);
  });
}

/** Where the entry keeps the server process it started early (.ci/loader.cjs earlyServer). */
const EARLY_SERVER = Symbol.for('ax-ts.early-server');
/** Where the early server process's entry keeps the messages that came with its `go` (holdUntilAdopted). */
const EARLY_WIRE = Symbol.for('ax-ts.early-wire');

/** The entry's record of the server process it started early: the process, and how to kill it unseen. */
interface EarlyServer {
  child: ChildProcess;
  drop(): void;
  /** Whether it was told `go`. */
  started?: boolean;
}

/** The early server process's record, if the entry started one and nobody has taken or dropped it. */
function earlyServer(): EarlyServer | undefined {
  return (globalThis as Record<symbol, unknown>)[EARLY_SERVER] as EarlyServer | undefined;
}

/** The server process the entry started early, taken (no one else can adopt it); undefined if none. */
function takeEarlyServer(): ChildProcess | undefined {
  const early = earlyServer();
  if (!early) return undefined;
  delete (globalThis as Record<symbol, unknown>)[EARLY_SERVER];
  // the entry let go of it until now; from here it keeps this process alive, like one spawned here
  early.child.ref();
  (early.child.channel as { ref?: () => void } | null | undefined)?.ref?.();
  return early.child;
}

/**
 * Lets the server process the entry started early run the program now, in parallel with this
 * supervisor's start-up checks: it can get no further than waiting for the client's pipes (runtime.ts
 * takes the wire before it reports any check), which only {@link superviseStdio} sends, once the
 * checks have passed; otherwise it is killed unseen when this process exits.
 */
export function startEarlyServer(): void {
  const early = earlyServer();
  if (!early || early.started) return;
  early.started = true;
  try {
    early.child.send({ ax: 'go' });
  } catch {
    /* gone: superviseStdio sees it */
  }
}

/**
 * Kills the server process the entry started early, unseen (it has reported nothing: before it has
 * the client's pipes it cannot): for a `mcp-server` that does not supervise (in-process, HTTP) or
 * supervises through a relay.
 */
export function dropEarlyServer(): void {
  earlyServer()?.drop();
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
 * calls and exits within the shutdown budget.
 * @throws AxError internal_error when the server process fails to start or exits with another code.
 */
export async function superviseStdio(signal: AbortSignal): Promise<void> {
  const stdinPipe = pipeHandle(process.stdin);
  const stdoutPipe = pipeHandle(process.stdout);
  const pass = stdinPipe !== undefined && stdoutPipe !== undefined;
  let relay: Awaited<ReturnType<typeof openRelay>> | undefined;
  const wireEnv: Record<string, string> = { [WIRE_ENV]: PASSED };
  if (!pass) {
    dropEarlyServer();
    relay = await openRelay();
    wireEnv[WIRE_ENV] = relay.path;
    wireEnv[WIRE_TOKEN_ENV] = relay.token;
  }
  // passed pipes: the server process the entry started alongside this one (.ci/loader.cjs), started
  // the same way as here, when there is one (told `go` by now, or here)
  if (pass) startEarlyServer();
  const early = pass ? takeEarlyServer() : undefined;
  const args = [...process.execArgv.filter((a) => !SKIP_EXEC_ARG.test(a)), process.argv[1]!, ...process.argv.slice(2)];
  const child: ChildProcess =
    early ??
    spawn(process.execPath, args, {
      stdio: ['ignore', 2, 'inherit', ...(pass ? (['ipc'] as const) : [])],
      env: { ...process.env, ...wireEnv },
      detached: true, // its own process group: a terminal's Ctrl-C reaches it once, through us, as SIGTERM
    });
  const exited = new Promise<{ code: number | null; sig: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, sig: child.signalCode }); // an early one that is gone already
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
  if (pass) {
    connected = await passPipes(child, stdinPipe, stdoutPipe, exited);
  } else {
    socket = await Promise.race([accept(relay!.listener, relay!.token), exited.then(() => undefined)]);
    relay!.listener.close();
    relay!.cleanup();
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
  child.channel?.unref();
  child.on('error', () => {}); // a late send error once it is gone
  return sent;
}

/** The listening socket of the relayed mode, in a private (0700) temporary directory. */
async function openRelay(): Promise<{
  listener: import('node:net').Server;
  path: string;
  token: string;
  cleanup: () => void;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'ax-mcp-')); // mode 0700: only this user can reach the socket
  const path = join(dir, 'wire');
  const token = Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(16))).toString('hex');
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  const listener = createServer({ allowHalfOpen: true, pauseOnConnect: true });
  try {
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(path, () => resolve());
    });
  } catch (e) {
    cleanup();
    throw new AxError(
      'internal_error',
      `mcp-server: cannot open the server socket in ${dir}: ${(e as Error).message}`,
      { fix: 'Check that the temporary directory is writable (TMPDIR).' },
    );
  }
  return { listener, path, token, cleanup };
}

/** Resolves with the first connection that sends the token as its first line. */
function accept(listener: import('node:net').Server, token: string): Promise<Socket> {
  return new Promise((resolve) => {
    listener.on('connection', (s: Socket) => {
      s.on('error', () => {});
      s.resume();
      let got = '';
      const onData = (c: Buffer) => {
        got += c.toString('latin1');
        const nl = got.indexOf('\n');
        if (nl < 0) {
          if (got.length > 64) s.destroy();
          return;
        }
        s.off('data', onData);
        if (got.slice(0, nl) !== token || got.length > nl + 1) return void s.destroy();
        s.pause();
        resolve(s);
      };
      s.on('data', onData);
    });
  });
}
