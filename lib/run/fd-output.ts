/**
 * The real process's stdout and stderr for {@link main}, written on the descriptor for as long as
 * that is safe, so that a run which never needs Node's stream never makes one. On a pipe or socket
 * Node builds `process.stdout` as a `net.Socket`: that loads `net` and the pipe bindings, about 3 ms
 * of every start (issue 14: `node -e 'process.stdout.write("x")'` 24.4 ms against 21.3 ms for
 * `fs.writeSync(1, "x")`, stdout a socket).
 *
 * The descriptor is written while nothing else in the process can have output queued for it:
 * - Node's stream for it has not been made. Node's stream on a pipe writes at once only while the
 *   pipe has room and queues the rest, so a write on the descriptor after it could overtake a
 *   handler's `console.log` (the reverted e9ab4f7, docs/performance.md). The moment anyone makes
 *   the stream, through `process.stdout` (which `console` uses too), every later write goes through
 *   it, behind whatever it holds.
 * - Little has been written: at most {@link FD_BUDGET_BYTES} on a pipe or socket, a size an empty
 *   pipe always takes, so a write on the descriptor (a blocking one, as a shell or Node gives a
 *   child) does not wait for the reader. Past that, or when a non-blocking descriptor is full
 *   (`EAGAIN`), the rest goes through Node's stream, which waits for the reader without blocking
 *   signals or timers. A regular file never blocks: it is written on the descriptor throughout.
 * A terminal or another character device gets Node's stream from the start (its `isTTY` and
 * terminal handling stay Node's); so does a pipe or socket when `net` was loaded before `main()`
 * (the stream may exist already).
 */
import { fstatSync, writeSync } from 'node:fs';
import type { OutputStream } from '../contract/envelope.ts';

/**
 * Most bytes written on a pipe or socket descriptor before Node's stream takes over: 16 KiB, what
 * an empty pipe takes without waiting on Linux (64 KiB) and macOS (16 KiB). An envelope of a few
 * kilobytes, the common case, never needs the stream.
 */
export const FD_BUDGET_BYTES = 16 * 1024;

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
  let kind: 'pipe' | 'file' | undefined;
  try {
    const st = fstatSync(fd);
    kind = st.isFIFO() || st.isSocket() ? 'pipe' : st.isFile() ? 'file' : undefined;
  } catch {
    kind = undefined;
  }
  // a pipe or socket stream needs `net`: when it is loaded already, the stream may exist (unseen)
  // (`process.moduleLoadList` is Node's list of its own modules loaded so far; unknown: assume loaded)
  if (kind === 'pipe' && ((process as unknown as { moduleLoadList?: string[] }).moduleLoadList?.includes('NativeModule net') ?? true)) kind = undefined;
  if (kind === undefined || w.made) {
    const s = node();
    s.on('error', onError);
    return { stream: s, flush };
  }
  w.onMade.push((s) => s.on('error', onError));
  let sent = 0;
  let failed = false;
  const budget = kind === 'file' ? Infinity : FD_BUDGET_BYTES;
  const stream = {
    isTTY: false,
    write(chunk: string | Uint8Array): boolean {
      if (w.made) return node().write(chunk);
      if (failed || chunk.length === 0) return true;
      const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      if (sent + buf.length > budget) return node().write(buf);
      let at = 0;
      while (at < buf.length) {
        try {
          at += writeSync(fd, buf, at, buf.length - at);
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          if (code === 'EINTR') continue;
          if (code === 'EAGAIN') {
            sent = budget; // full: Node's stream waits for the reader from here on
            return node().write(buf.subarray(at));
          }
          failed = true;
          onError(e as NodeJS.ErrnoException);
          return true;
        }
      }
      sent += buf.length;
      return true;
    },
    /** `drain` and other events are the stream's: there is one only once it is made. */
    once(event: string, listener: () => void): unknown {
      return w.made ? node().once(event, listener) : (queueMicrotask(listener), undefined);
    },
  };
  return { stream, flush };
}
