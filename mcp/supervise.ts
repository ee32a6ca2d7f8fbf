/**
 * The stdio supervisor: Node has no `dup2`, so the only way to make the protocol pipe unreachable
 * from handlers, libraries and their children is to keep it out of the process that runs them. The
 * `mcp-server` process (the supervisor) holds the client's stdin and stdout and re-executes the
 * program with fd 0 = /dev/null and fd 1 = its stderr; that server process connects back over a Unix
 * socket in a private (0700) temporary directory, proves itself with a one-time token, and speaks
 * JSON-RPC on that socket, which libuv opens close-on-exec (its children never inherit it). So
 * `fs.writeSync(1)`, `fs.createWriteStream('', {fd: 1})`, `/dev/stdout`, a child spawned through a
 * `child_process` function captured before the server started, and `process.stdout.end()` all land
 * on stderr. The supervisor relays bytes (it parses nothing), forwards SIGTERM/SIGINT as SIGTERM, and
 * exits when the server does. Start-up cost: one more Node start (docs/performance.md).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxError } from '../lib/contract/errors.ts';

/** Environment variable naming the supervisor's socket (read and removed by the server process). */
export const WIRE_ENV = 'AX_MCP_WIRE';
/** Environment variable with the one-time token the server process sends first. */
export const WIRE_TOKEN_ENV = 'AX_MCP_WIRE_TOKEN';

/** Node options not to repeat in the server process (a debugger port cannot be taken twice). */
const SKIP_EXEC_ARG = /^--(inspect|inspect-brk|inspect-port|debug-port)(=|$)/;

/**
 * Whether this process can re-execute itself as the server: it runs a script (`process.argv[1]`),
 * not `node -e` or a REPL.
 */
export function canSupervise(): boolean {
  return typeof process.argv[1] === 'string' && process.argv[1] !== '' && !process.execArgv.some((a) => a === '-e' || a === '--eval' || a === '-p' || a === '--print');
}

/**
 * In the server process: takes the wire from the environment (removing it, so handlers and children
 * never see it) and connects. Undefined when this process is not a supervised server.
 * @throws AxError internal_error when the socket cannot be reached.
 */
export async function takeWire(env?: Record<string, string | undefined>): Promise<{ socket: Socket; parentPid: number } | undefined> {
  const path = process.env[WIRE_ENV];
  const token = process.env[WIRE_TOKEN_ENV];
  delete process.env[WIRE_ENV];
  delete process.env[WIRE_TOKEN_ENV];
  if (env && env !== process.env) {
    delete env[WIRE_ENV];
    delete env[WIRE_TOKEN_ENV];
  }
  if (!path || !token) return undefined;
  const parentPid = process.ppid;
  const socket = await new Promise<Socket>((resolve, reject) => {
    const s = createConnection({ path, allowHalfOpen: true });
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  }).catch((e: unknown) => {
    throw new AxError('internal_error', `mcp-server: cannot reach the supervisor's socket ${path}: ${(e as Error).message}`, { fix: 'Start mcp-server again.' });
  });
  socket.on('error', () => {}); // the supervisor died: seen as the end of input
  socket.write(`${token}\n`);
  return { socket, parentPid };
}

/**
 * In the `mcp-server` process: starts the server process and relays the client's stdin and stdout
 * to it until it exits. Resolves when it has exited with 0; SIGTERM/SIGINT (`signal`) are passed on
 * as SIGTERM, so it answers its calls and exits within the shutdown budget.
 * @throws AxError internal_error when the server process fails to start or exits with another code.
 */
export async function superviseStdio(signal: AbortSignal): Promise<void> {
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
    throw new AxError('internal_error', `mcp-server: cannot open the server socket in ${dir}: ${(e as Error).message}`, { fix: 'Check that the temporary directory is writable (TMPDIR).' });
  }
  const args = [...process.execArgv.filter((a) => !SKIP_EXEC_ARG.test(a)), process.argv[1]!, ...process.argv.slice(2)];
  const child: ChildProcess = spawn(process.execPath, args, {
    stdio: ['ignore', 2, 'inherit'],
    env: { ...process.env, [WIRE_ENV]: path, [WIRE_TOKEN_ENV]: token },
    detached: true, // its own process group: a terminal's Ctrl-C reaches it once, through us, as SIGTERM
  });
  const exited = new Promise<{ code: number | null; sig: NodeJS.Signals | null }>((resolve) => {
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
  const socket = await Promise.race([accept(listener, token), exited.then(() => undefined)]);
  listener.close();
  cleanup();
  if (socket) {
    // the relay: bytes only, in both directions; stdin's end is passed on as the socket's end
    process.stdin.pipe(socket);
    socket.pipe(process.stdout, { end: false });
    socket.on('error', () => {});
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
  process.stdin.pause();
  process.stdin.unref?.();
  signal.removeEventListener('abort', forward);
  if (code === 0 || (forwarded && sig === 'SIGTERM')) return;
  const what = sig ? `was killed by ${sig}` : code === null ? 'could not be started' : `exited with code ${code}`;
  throw new AxError('internal_error', `mcp-server: the server process ${what}${socket ? '' : ' before it connected'}`, {
    fix: 'See the lines above on stderr for the cause; then start mcp-server again.',
    context: { exit_code: code, signal: sig },
  });
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
