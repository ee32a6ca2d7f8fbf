/**
 * The real process's stdout and stderr for {@link main}: a run's outcome is written on the
 * descriptor when that is safe, so that a run which writes nothing else never makes Node's stream.
 * On a pipe or socket Node builds `process.stdout` as a `net.Socket`: that loads `net` and the pipe
 * bindings, about 3 ms of every start (docs/performance.md: `node -e 'process.stdout.write("x")'` 24.4 ms
 * against 21.3 ms for `fs.writeSync(1, "x")`, stdout a socket).
 *
 * Only the outcome (`WRITE_OUTCOME`: the envelope of a document result, an opaque result, help or
 * version text, the error line — written by the runner once no handler code runs) goes on the
 * descriptor, and only while Node's stream for it has not been made:
 * - Everything written while a handler runs (`ctx.stdout`, stream items, warnings) goes through
 *   Node's stream, which waits for a slow reader without holding up signals, timers or aborts. A
 *   write on the descriptor may wait for the reader (a pipe or socket that is full, or already
 *   holds another writer's output): for the outcome that is what the run would do anyway, since it
 *   waits for its output to reach the reader before it exits, signals or not.
 * - Node's stream on a pipe writes at once only while the pipe has room and queues the rest, so a
 *   write on the descriptor after it could overtake a handler's `console.log` (the reverted
 *   e9ab4f7, docs/performance.md). The moment anyone makes the stream, through `process.stdout`
 *   (which `console` uses too), every later write goes through it, behind whatever it holds.
 * - A non-blocking descriptor that is full (`EAGAIN`) hands the rest to Node's stream.
 * Node's stream is used from the start for a terminal or another character device (its `isTTY` and
 * terminal handling stay Node's), in a worker thread (whose `process.stdout` is a stream to its
 * parent, not fd 1), and when the stream may have been made before `main()` (Node's module for it
 * is loaded: `net` for a pipe or socket, its synchronous file stream for a file). Anything other
 * than a string or a Uint8Array goes to Node's stream, which takes or refuses it as it always did.
 * The descriptor written is fd 1 or fd 2 itself: closing it, or what it was opened for, means what
 * it means to Node's stream (the reader sees EOF; a read-only descriptor fails the write).
 */
import { writeSync } from 'node:fs';
import { stdStat } from '../platform/std-stat.ts';
import { LINE_OPEN, MID_LINE, WRITE_OUTCOME, type OutputStream } from '../contract/envelope.ts';
import { lineUnfinished, noteLineEnd, watchStream, writeStdout } from '../platform/process-patches.ts';

type Name = 'stdout' | 'stderr';

/** Whether Node has loaded one of its own modules (`process.moduleLoadList`; unknown: assume it has). */
function loaded(module: string): boolean {
  return (
    (process as unknown as { moduleLoadList?: string[] }).moduleLoadList?.includes(`NativeModule ${module}`) ?? true
  );
}

/** The real stream and how main() waits for it to flush. */
export interface RealOutput {
  /** What the run writes to. */
  stream: OutputStream;
  /**
   * Calls `then` once everything written so far has been handed to the OS (at once when Node's
   * stream was never made).
   */
  flush(then: () => void): void;
  /**
   * What Node's stream still holds, as two byte counts that fall only as the OS takes its bytes:
   * the stream's `writableLength` and its libuv handle's `writeQueueSize` (this one falls within a
   * large chunk too, as the reader takes part of it). Both 0 while the stream was never made.
   */
  backlog(): [number, number];
  /**
   * From now on the outcome goes through Node's stream too: for `main()`'s exits that must not
   * wait (a second signal, a failed stdout), whose last line may be dropped by the exit but must
   * never hold it up.
   */
  streamOnly(): void;
}

/**
 * The real stdout or stderr for `main()`. `onError` is attached to Node's stream whenever it is
 * made (by this writer or by anyone), and called once for a failed write on the descriptor
 * (EPIPE: the reader has gone); after that the descriptor writer drops what it is given.
 */
export function realOutput(name: Name, onError: (e: NodeJS.ErrnoException) => void): RealOutput {
  const fd = name === 'stdout' ? 1 : 2;
  const w = watchStream(name); // the fourth of the process patches: the getter, watched
  // the seventh: whether a print left a line unfinished (the error line starts a new one)
  const lineEnd = noteLineEnd(name);
  // stdout's unfinished line shows before stderr's next line only where both are one file (a
  // terminal, `2>&1`): the check is answered so
  const midLine = name === 'stderr' ? lineEnd.midLine : () => lineEnd.midLine() && sameFile();
  // and a text rendering on stdout starts a line of its own after either stream's unfinished one
  const lineOpen = () => lineEnd.midLine() || (lineUnfinished('stderr') && sameFile());
  const node = () => process[name];
  // the runner's own writes on stdout go past the json-stdout patch (process-patches.ts, patch 5)
  const through = (chunk: string | Uint8Array): boolean =>
    name === 'stdout' ? writeStdout(chunk) : node().write(chunk);
  const flush = (then: () => void) => (w.made ? node().write('', then) : then());
  const backlog = (): [number, number] => {
    if (!w.made) return [0, 0];
    const s = node() as NodeJS.WriteStream & { _handle?: { writeQueueSize?: unknown } };
    const q = s._handle?.writeQueueSize;
    return [s.writableLength, typeof q === 'number' ? q : 0];
  };
  let kind: 'pipe' | 'file' | undefined;
  try {
    const st = stdStat(fd);
    kind = st.isFIFO() || st.isSocket() ? 'pipe' : st.isFile() ? 'file' : undefined;
  } catch {
    kind = undefined;
  }
  // a stream made before main() (unseen by the watch) loaded Node's module for it
  if (
    kind !== undefined &&
    (loaded(kind === 'file' ? 'internal/fs/sync_write_stream' : 'net') || loaded('internal/process/worker_thread_only'))
  )
    kind = undefined;
  if (kind === undefined || w.made) {
    const s = node();
    s.on('error', onError);
    const stream: OutputStream =
      name === 'stdout'
        ? ({
            isTTY: s.isTTY,
            write: through,
            once: (event: string, listener: () => void) => s.once(event, listener),
            [MID_LINE]: midLine,
            [LINE_OPEN]: lineOpen,
          } as OutputStream)
        : s;
    return { stream, flush, backlog, streamOnly: () => {} };
  }
  w.onMade.push((s) => s.on('error', onError));
  let failed = false;
  let onlyStream = false;
  const stream = {
    isTTY: false,
    write(chunk: string | Uint8Array): boolean {
      return through(chunk);
    },
    [WRITE_OUTCOME](chunk: string | Uint8Array): boolean {
      if (w.made || onlyStream || (typeof chunk !== 'string' && !(chunk instanceof Uint8Array))) return through(chunk);
      if (failed) return true;
      lineEnd.note(chunk);
      const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      let at = 0;
      while (at < buf.length) {
        try {
          at += writeSync(fd, buf, at, buf.length - at);
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          if (code === 'EINTR') continue;
          // a full non-blocking descriptor: Node's stream waits for the reader
          if (code === 'EAGAIN') return through(buf.subarray(at));
          failed = true;
          onError(e as NodeJS.ErrnoException);
          return true;
        }
      }
      return true;
    },
    [MID_LINE]: midLine,
    ...(name === 'stdout' ? { [LINE_OPEN]: lineOpen } : {}),
    /** `drain` and other events are the stream's: there is one only once it is made. */
    once(event: string, listener: () => void): unknown {
      return w.made ? node().once(event, listener) : (queueMicrotask(listener), undefined);
    },
  };
  return { stream, flush, backlog, streamOnly: () => void (onlyStream = true) };
}

/** Whether stdout and stderr are one file (the same terminal, pipe or file: `2>&1`). */
function sameFile(): boolean {
  try {
    const [a, b] = [stdStat(1), stdStat(2)];
    return a.dev === b.dev && a.ino === b.ino;
  } catch {
    return false;
  }
}
