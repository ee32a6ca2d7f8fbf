/**
 * Serving stdio in place (docs/mcp-server.md#stdio): a bare `mcp-server` over pipes or sockets —
 * how every MCP client starts a stdio server — is served by the very process the client started,
 * with the protocol out of reach of everything else that runs in it. Node has no dup2, but a
 * descriptor closed and opened again takes the lowest free number, and this runs before any of the
 * program (it is the entry's first act), so nothing else can take one in between:
 * 1. the client's two streams get descriptors of their own, opened close-on-exec: pipes and FIFOs
 *    are opened again through /proc/self/fd; sockets cannot be, so the hand-back helper
 *    (hand-back.ts) inherits them and sends them back over an IPC channel;
 * 2. fd 0 becomes /dev/null, and fd 1 stderr: opened again through /proc/self/fd/2 when stderr is a
 *    pipe or a character device (a terminal, /dev/null); when it is a socket, fd 1 is a socketpair
 *    to a `cat` that copies its bytes to stderr. Where neither is possible it is not served in
 *    place, and the program's `mcp-server` uses the supervisor (mcp/supervise.ts).
 * So console.log, fs.writeSync(1), /dev/stdout, children with inherited stdio all land on stderr,
 * and the program runs once. `mcp-server` takes the wire from the record (stdio-wire.ts); a run
 * that never serves (a failed check, an unknown command) leaves it untaken and exits as usual.
 * Node only: Bun and Deno run a built program too, but their process objects neither hand
 * descriptors over an IPC channel nor reuse a closed number as Node's libuv does, so there the
 * supervisor serves. Compiled into the entry (entry.ts): Node built-ins only.
 */
import { closeSync, constants, existsSync, openSync, statSync, writeSync, type BigIntStats } from 'node:fs';
import { stdStat } from '../platform/std-stat.ts';
import { handedBack, type HandedBack } from './hand-back.ts';
import { IN_PLACE, type InPlaceWire, type WireEnds } from './stdio-wire.ts';

/** Where the `cat` that relays fd 1 to a socket stderr is kept alive (its stream holds fd 1). */
const RELAY = Symbol.for('ax-ts.stdio-relay');

/**
 * The fstat of fd 0 and fd 1 when this is a bare `mcp-server` (not a server process a supervisor
 * started) whose stdin and stdout are pipes or sockets; else undefined.
 */
function barePipedServer(): [BigIntStats, BigIntStats] | undefined {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0] !== 'mcp-server') return undefined;
  try {
    const std: [BigIntStats, BigIntStats] = [stdStat(0), stdStat(1)];
    return std.every((s) => s.isFIFO() || s.isSocket()) ? std : undefined;
  } catch {
    return undefined;
  }
}

/** Puts a socketpair to a `cat` copying to stderr on the free fd 1; false when that cannot be done. */
function relayOnFd1(cat: string): boolean {
  const { spawn } = process.getBuiltinModule('node:child_process');
  const devNull = statSync('/dev/null', { bigint: true }).rdev;
  const devNullOnFd1 = () => {
    try {
      const st = stdStat(1);
      return st.isCharacterDevice() && st.rdev === devNull;
    } catch {
      return false;
    }
  };
  // the parent end of the socketpair libuv makes for the child's stdin takes the lowest free number
  const tryRelay = () => {
    const relay = spawn(cat, [], { stdio: ['pipe', 2, 'ignore'], detached: true });
    relay.on('error', () => {});
    relay.stdin?.on('error', () => {}); // never written through this stream; writes to fd 1 see their own errors
    if ((relay.stdin as unknown as { _handle?: { fd?: number } } | null)?._handle?.fd === 1) {
      relay.unref();
      (relay.stdin as unknown as { unref?: () => void } | null)?.unref?.();
      (globalThis as Record<symbol, unknown>)[RELAY] = relay;
      return true;
    }
    relay.stdin?.destroy();
    relay.kill();
    return false;
  };
  // Node's first spawn in a process opens /dev/null on a closed fd 0-2 before it makes its pipes
  // (when the client's streams were sockets, the helper's spawn came first): fd 1 is that /dev/null
  // now, and the next spawn's pipe takes fd 1 once it is closed again
  if (tryRelay()) return true;
  if (!devNullOnFd1()) return false;
  closeSync(1);
  if (tryRelay()) return true;
  if (devNullOnFd1()) closeSync(1);
  return false;
}

/**
 * Serves in place when this is a bare `mcp-server` over pipes or sockets of a program that mounts
 * it (`mcp`), `AX_MCP_IN_PLACE` is not `0` and stderr allows it (see the module comment).
 * @returns true when this process now serves in place (its fd 0 and 1 are no longer the client's).
 */
export function serveInPlace(mcp: boolean): boolean {
  if (process.versions.bun !== undefined || process.versions.deno !== undefined) return false; // Node only
  const std = barePipedServer();
  if (!std || !mcp || process.env.AX_MCP_IN_PLACE === '0') return false;
  const [i, o] = std;
  let e: BigIntStats;
  try {
    e = stdStat(2);
  } catch {
    return false;
  }
  // stderr on the client's own stdin or stdout pipe (`2<&0`, `2>&1`): a second open of it would write
  // into the protocol; the supervisor keeps what such a client asked for
  if ((e.dev === i.dev && e.ino === i.ino) || (e.dev === o.dev && e.ino === o.ino)) return false;
  const reopen = e.isFIFO() || e.isCharacterDevice();
  const cat = !reopen && e.isSocket() ? ['/bin/cat', '/usr/bin/cat'].find((p) => existsSync(p)) : undefined;
  if (!reopen && !cat) return false;
  const { O_RDONLY, O_WRONLY, O_NONBLOCK } = constants;
  const opened: number[] = [];
  const open = (path: string, flags: number) => {
    const fd = openSync(path, flags);
    opened.push(fd);
    return fd;
  };
  let wire: HandedBack;
  try {
    // proves that step 2 can open it, without waiting: a named FIFO whose reader has gone gives ENXIO
    if (reopen) open('/proc/self/fd/2', O_WRONLY | O_NONBLOCK);
    wire =
      i.isFIFO() && o.isFIFO()
        ? Promise.resolve<WireEnds>({
            input: open('/proc/self/fd/0', O_RDONLY | O_NONBLOCK),
            output: open('/proc/self/fd/1', O_WRONLY | O_NONBLOCK),
          })
        : handedBack();
  } catch {
    for (const fd of opened) closeSync(fd);
    return false;
  }
  if (reopen) closeSync(opened[0]!); // the probe
  // from here on the client's fd 0 and 1 are held elsewhere (the descriptors above, or the helper)
  const fail = (what: string): never => {
    writeSync(2, `mcp-server: cannot take the client's pipes in place (${what}); start it with AX_MCP_IN_PLACE=0\n`);
    process.exit(1);
  };
  closeSync(0);
  if (openSync('/dev/null', 'r') !== 0) fail('fd 0 was taken');
  closeSync(1);
  if (reopen) {
    if (openSync('/proc/self/fd/2', 'w') !== 1) fail('fd 1 was taken');
  } else if (!relayOnFd1(cat!)) {
    // not where it was expected (another libuv): stray bytes go to /dev/null instead, still off the
    // protocol (a read-only /dev/null left on fd 1 would fail every write: one opened for writing)
    let free = false;
    try {
      stdStat(1);
    } catch {
      free = true;
    }
    if (!free || openSync('/dev/null', 'w') !== 1) fail('fd 1 was taken');
  }
  wire.catch(() => {}); // seen by whoever takes it
  const record: InPlaceWire = { take: () => (wire.ref?.(), wire) };
  (globalThis as Record<symbol, unknown>)[IN_PLACE] = record;
  return true;
}
