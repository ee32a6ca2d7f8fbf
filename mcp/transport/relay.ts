/**
 * The stdio supervisor's relay socket (docs/mcp-server.md#stdio, docs/security.md): the listening
 * Unix socket the server process connects to when the client's streams cannot be passed. On Linux
 * under Node it is abstract — nothing on disk, but any local user may connect to it (abstract
 * sockets have no file permissions) — elsewhere it lives in a private (0700) temporary directory.
 * So it trusts no connection until it has sent the one-time token, and no stranger can hold it up:
 * - the name carries no part of the token (abstract names are listed in /proc/net/unix);
 * - the token is compared in constant time, and a connection that sends anything else, or more
 *   than one line, is closed;
 * - a connection that has not proved itself within {@link PROVE_WITHIN_MS} is closed, and every
 *   unproven one is closed once the server process is in;
 * - connections are watched from the moment the socket listens, not only once the server process
 *   is told where it is.
 */
import { timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxError } from '../../lib/contract/errors.ts';

/** How long a connection may take to send the token after connecting, ms. */
export const PROVE_WITHIN_MS = 2_000;

/** An open relay socket. */
export interface Relay {
  /** Where the server process connects (an abstract name starts with NUL). */
  readonly path: string;
  /** The one-time token the server process sends as its first line. */
  readonly token: string;
  /** Resolves with the first connection that proves itself; every other one is closed. */
  accepted(): Promise<Socket>;
  /** Stops listening, closes every unproven connection and removes the private directory. */
  close(): void;
}

const hex = (bytes: number) => Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(bytes))).toString('hex');

/**
 * Opens the relay socket.
 * @throws AxError internal_error when it cannot listen.
 */
export async function openRelay(): Promise<Relay> {
  const token = hex(16);
  const abstract = process.platform === 'linux' && !('Bun' in globalThis) && !('Deno' in globalThis);
  const dir = abstract ? undefined : mkdtempSync(join(tmpdir(), 'ax-mcp-'));
  const path = dir ? join(dir, 'wire') : `\0ax-mcp-${process.pid}-${hex(8)}`;
  const listener: Server = createServer({ allowHalfOpen: true, pauseOnConnect: true });
  const pending = new Set<Socket>();
  let resolveAccepted!: (s: Socket) => void;
  const accepted = new Promise<Socket>((r) => (resolveAccepted = r));
  let done = false;
  const expected = Buffer.from(`${token}\n`, 'latin1');
  listener.on('connection', (s: Socket) => {
    if (done) return void s.destroy();
    pending.add(s);
    s.on('error', () => {});
    s.once('close', () => pending.delete(s));
    const timer = setTimeout(() => s.destroy(), PROVE_WITHIN_MS);
    timer.unref();
    let got = Buffer.alloc(0);
    const onData = (c: Buffer) => {
      got = Buffer.concat([got, c]);
      if (got.length < expected.length) return;
      s.off('data', onData);
      clearTimeout(timer);
      if (done || got.length !== expected.length || !timingSafeEqual(got, expected)) return void s.destroy();
      s.pause();
      done = true;
      pending.delete(s);
      for (const other of pending) other.destroy();
      pending.clear();
      resolveAccepted(s);
    };
    s.on('data', onData);
    s.resume();
  });
  const cleanup = () => dir && rmSync(dir, { recursive: true, force: true });
  try {
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(path, () => resolve());
    });
  } catch (e) {
    cleanup();
    throw new AxError(
      'internal_error',
      `mcp-server: cannot open the server socket ${dir ? `in ${dir}` : '(abstract)'}: ${(e as Error).message}`,
      { fix: 'Check that the temporary directory is writable (TMPDIR).' },
    );
  }
  return {
    path,
    token,
    accepted: () => accepted,
    close() {
      done = true;
      listener.close();
      for (const s of pending) s.destroy();
      pending.clear();
      cleanup();
    },
  };
}
