/**
 * The real process's stdout and stderr for {@link main}, written on the descriptor for as long as
 * that is safe, so that a run which never needs Node's stream never makes one. On a pipe or socket
 * Node builds `process.stdout` as a `net.Socket`: that loads `net` and the pipe bindings, about 3 ms
 * of every start (issue 14: `node -e 'process.stdout.write("x")'` 24.4 ms against 21.3 ms for
 * `fs.writeSync(1, "x")`, stdout a socket).
 *
 * The descriptor is written while nothing else in the process can have output queued for it, and
 * while a write cannot wait for the reader (a write that waits would hold up signals, timers and
 * aborts, which Node's stream never does):
 * - Node's stream for it has not been made. Node's stream on a pipe writes at once only while the
 *   pipe has room and queues the rest, so a write on the descriptor after it could overtake a
 *   handler's `console.log` (the reverted e9ab4f7, docs/performance.md). The moment anyone makes
 *   the stream, through `process.stdout` (which `console` uses too), every later write goes through
 *   it, behind whatever it holds.
 * - A pipe is written through a descriptor of its own opened non-blocking (`/proc/self/fd/N`, a new
 *   open file description: the pipe's other users keep their flags): a full pipe answers `EAGAIN`
 *   and the rest goes through Node's stream, which waits for the reader without blocking anything.
 * - A socket cannot be reopened: its own descriptor is written, blocking, for at most
 *   {@link FD_BUDGET_BYTES} in at most {@link FD_BUDGET_WRITES} writes, what an empty socket of the
 *   default size always takes (Linux counts a unix socket's queue in buffers, one per write, not in
 *   bytes); then Node's stream takes over. A socket that already holds unread data from another
 *   writer can still make one of those writes wait for its reader.
 * - A regular file never waits: it is written on the descriptor throughout.
 * Node's stream is used from the start for a terminal or another character device (its `isTTY`
 * and terminal handling stay Node's), in a worker thread (whose `process.stdout` is a stream to
 * its parent, not fd 1), when `/proc` cannot reopen a pipe, and when the stream may have been made
 * before `main()` (Node's module for it is loaded: `net` for a pipe or socket, its synchronous file
 * stream for a file). Anything other than a string or a Uint8Array goes to Node's stream, which
 * takes or refuses it as it always did.
 */
import { closeSync, constants, fstatSync, openSync, writeSync } from 'node:fs';
import type { OutputStream } from '../contract/envelope.ts';

/** Most bytes written on a socket's descriptor before Node's stream takes over: 16 KiB (an envelope of a few kilobytes, the common case, never needs the stream). */
export const FD_BUDGET_BYTES = 16 * 1024;

/** Most writes on a socket's descriptor before Node's stream takes over: 32 (a default unix socket takes about 278 small writes). */
export const FD_BUDGET_WRITES = 32;

/** Whether Node has loaded one of its own modules (`process.moduleLoadList`; unknown: assume it has). */
function loaded(module: string): boolean {
  return (process as unknown as { moduleLoadList?: string[] }).moduleLoadList?.includes(`NativeModule ${module}`) ?? true;
}

type Name = 'stdout' | 'stderr';

/** Whether `process.stdout` / `process.stderr` has been made, and who to tell when it is. */
interface Watch {
  made: boolean;
  /** Not watchable (the property is not Node's lazy getter any more): treat as made. */
  unknown: boolean;
  onMade: ((s: NodeJS.WriteStream) => void)[];
}

const watches = new Map<Name, Watch>();

/**
 * Watches Node's lazy `process[name]` getter (defined configurable by Node's bootstrap): the same
 * getter, which also notes that the stream now exists and tells the writers. Installed once per
 * process; no behaviour of the stream changes.
 */
function watch(name: Name): Watch {
  let w = watches.get(name);
  if (w) return w;
  w = { made: false, unknown: false, onMade: [] };
  watches.set(name, w);
  const desc = Object.getOwnPropertyDescriptor(process, name);
  if (!desc?.get || !desc.configurable) {
    w.unknown = w.made = true;
    return w;
  }
  const get = desc.get;
  const state = w;
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: desc.enumerable ?? true,
    get() {
      const s = get.call(process) as NodeJS.WriteStream;
      if (!state.made) {
        state.made = true;
        for (const f of state.onMade.splice(0)) f(s);
      }
      return s;
    },
  });
  return w;
}

/** The real stream and how main() waits for it to flush. */
export interface RealOutput {
  /** What the run writes to. */
  stream: OutputStream;
  /** Calls `then` once everything written so far has been handed to the OS (at once when Node's stream was never made). */
  flush(then: () => void): void;
}

/**
 * The real stdout or stderr for `main()`. `onError` is attached to Node's stream whenever it is
 * made (by this writer or by anyone), and called once for a failed write on the descriptor
 * (EPIPE: the reader has gone); after that the descriptor writer drops what it is given.
 */
export function realOutput(name: Name, onError: (e: NodeJS.ErrnoException) => void): RealOutput {
  const fd = name === 'stdout' ? 1 : 2;
  const w = watch(name);
  const node = () => process[name];
  const flush = (then: () => void) => (w.made ? node().write('', then) : then());
  let kind: 'pipe' | 'socket' | 'file' | undefined;
  try {
    const st = fstatSync(fd);
    kind = st.isFIFO() ? 'pipe' : st.isSocket() ? 'socket' : st.isFile() ? 'file' : undefined;
  } catch {
    kind = undefined;
  }
  // a stream made before main() (unseen by the watch) loaded Node's module for it
  if (kind !== undefined && (loaded(kind === 'file' ? 'internal/fs/sync_write_stream' : 'net') || loaded('internal/process/worker_thread_only'))) kind = undefined;
  let target = fd; // the descriptor written: for a pipe, one of its own, non-blocking
  if (kind === 'pipe') {
    try {
      target = openSync(`/proc/self/fd/${fd}`, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch {
      kind = undefined; // no /proc, or the reader has gone (ENXIO): Node's stream says so
    }
  }
  if (kind === undefined || w.made) {
    const s = node();
    s.on('error', onError);
    return { stream: s, flush };
  }
  let sent = 0;
  let writes = 0;
  let failed = false;
  const capped = kind === 'socket';
  let own = target !== fd; // a descriptor of our own, still open
  const closeOwn = () => {
    if (!own) return;
    own = false; // once: its number may be reused as soon as it is closed
    try {
      closeSync(target);
    } catch {
      /* closed already */
    }
  };
  /** From here on everything goes through Node's stream (made now, if no one has made it). */
  const handOver = (chunk: unknown): boolean => node().write(chunk as string);
  w.onMade.push((s) => {
    s.on('error', onError);
    closeOwn(); // not written on again: the stream has it
  });
  const stream = {
    isTTY: false,
    write(chunk: string | Uint8Array): boolean {
      if (w.made) return node().write(chunk);
      if (failed) return true;
      if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) return handOver(chunk);
      const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      if (buf.length === 0) return true;
      if (capped && (sent + buf.length > FD_BUDGET_BYTES || writes >= FD_BUDGET_WRITES)) return handOver(buf);
      let at = 0;
      while (at < buf.length) {
        try {
          at += writeSync(target, buf, at, buf.length - at);
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          if (code === 'EINTR') continue;
          if (code === 'EAGAIN') return handOver(buf.subarray(at)); // full: Node's stream waits for the reader
          failed = true;
          onError(e as NodeJS.ErrnoException);
          return true;
        }
      }
      sent += buf.length;
      writes += 1;
      return true;
    },
    /** `drain` and other events are the stream's: there is one only once it is made. */
    once(event: string, listener: () => void): unknown {
      return w.made ? node().once(event, listener) : (queueMicrotask(listener), undefined);
    },
  };
  return { stream, flush };
}
