/**
 * The real process's stdout and stderr for {@link main}, without `process.stdout`/`process.stderr`
 * when it can: on a pipe or socket Node builds those as `net.Socket`s, which loads `net`, the stream
 * machinery and the pipe bindings — about 3 ms of every start (issue 14: `node -e
 * 'process.stdout.write("x")'` 24.4 ms against 21.3 ms for `fs.writeSync(1, "x")`, stdout a socket).
 * A pipe, socket or regular file gets a synchronous writer on the descriptor instead, which is what
 * `process.stdout` is on Linux for those anyway (blocking writes), so output written through either
 * keeps its order. A character device (a terminal, /dev/null) keeps Node's stream: its `isTTY` and
 * terminal handling stay Node's.
 */
import { fstatSync, writeSync } from 'node:fs';
import type { OutputStream } from '../contract/envelope.ts';

/** One shared cell to sleep on while a non-blocking descriptor is full. */
let sleeper: Int32Array | undefined;

/**
 * A write-only {@link OutputStream} on `fd` when it is a pipe, socket or regular file, else undefined
 * (a character device, a closed descriptor: use Node's stream). `write` writes every byte before it
 * returns (waiting out EAGAIN on a non-blocking descriptor, 1 ms at a time) and always returns true;
 * a failed write calls `onError` once with the errno error (EPIPE: the reader has gone) and the
 * writer then drops what it is given.
 */
export function fdOutput(fd: 1 | 2, onError: (e: NodeJS.ErrnoException) => void): OutputStream | undefined {
  try {
    const st = fstatSync(fd);
    if (!(st.isFIFO() || st.isSocket() || st.isFile())) return undefined;
  } catch {
    return undefined;
  }
  let failed = false;
  return {
    isTTY: false,
    write(chunk: string | Uint8Array): boolean {
      if (failed || chunk.length === 0) return true;
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      let at = 0;
      while (at < buf.length) {
        try {
          at += writeSync(fd, buf, at, buf.length - at);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
            Atomics.wait((sleeper ??= new Int32Array(new SharedArrayBuffer(4))), 0, 0, 1); // full: let the reader catch up
            continue;
          }
          failed = true;
          onError(e as NodeJS.ErrnoException);
          return true;
        }
      }
      return true;
    },
  };
}
