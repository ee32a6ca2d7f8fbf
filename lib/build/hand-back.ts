/**
 * The hand-back helper of serving in place (in-place.ts): sockets cannot be opened again by path,
 * so a short-lived second copy of the program inherits the client's two sockets and sends them back
 * over a Node IPC channel, where they arrive as new descriptors opened close-on-exec. The copy is
 * started the way the program was (lib/platform/relaunch.ts: a script again through Node, a single
 * executable or bun-compiled binary as itself), with `AX_MCP_HAND_BACK=1`, which is honoured only
 * together with the IPC channel its parent made: set in a user's environment it changes nothing
 * (isHandBackHelper removes it).
 * Compiled into the entry (entry.ts): Node built-ins only.
 */
import { relaunchCommand } from '../platform/relaunch.ts';
import type { WireEnds } from './stdio-wire.ts';

/** The variable that makes the entry a hand-back helper (with an IPC channel only). */
const HAND_BACK_ENV = 'AX_MCP_HAND_BACK';

/** A promise of the client's streams that the helper hands back, and how to start counting its time. */
export type HandedBack = Promise<WireEnds> & { ref?: () => void };

/**
 * Whether this process is a hand-back helper: the variable is set and its parent gave it an IPC
 * channel. When it is not, the variable is removed from the environment: a copy of it left in a
 * user's environment must not reach a process the program starts with an IPC channel of its own
 * (the supervisor's server process).
 */
export function isHandBackHelper(): boolean {
  if (process.env[HAND_BACK_ENV] === '1' && typeof process.send === 'function') return true;
  delete process.env[HAND_BACK_ENV];
  return false;
}

/**
 * Starts the helper and returns a promise of the client's stdin and stdout as raw pipe handles.
 * Until taken (the promise's `ref`), the helper keeps nothing of this process alive.
 * @throws Error when the helper cannot be spawned (no way to start the program again).
 */
export function handedBack(): HandedBack {
  const again = relaunchCommand([]);
  if (!again) throw new Error('this program cannot be started again');
  // the client's streams at fds 4 and 5 of the helper; its own fd 0-2 are /dev/null, so whatever
  // else runs in it (a NODE_OPTIONS preload) cannot write into the protocol
  const helper = process.getBuiltinModule('node:child_process').spawn(again.command, again.args, {
    stdio: ['ignore', 'ignore', 'ignore', 'ipc', 0, 1],
    env: { ...process.env, [HAND_BACK_ENV]: '1' },
  });
  const got: { in?: object; out?: object } = {};
  let timer: NodeJS.Timeout | undefined;
  let fail: (e?: string) => void = () => {};
  const wire: HandedBack = new Promise<WireEnds>((resolve, reject) => {
    const done = (e?: string) => {
      clearTimeout(timer);
      helper.off('message', onMessage);
      // closed once Node has acknowledged the handles it is delivering (a disconnect inside 'message' breaks that)
      setImmediate(() => helper.connected && helper.disconnect());
      if (e) reject(new Error(`the helper process ${e}`));
      else resolve({ input: got.in!, output: got.out! });
    };
    const onMessage = (m: unknown, handle: unknown) => {
      const which = (m as { ax?: unknown } | null)?.ax;
      if ((which === 'in' || which === 'out') && handle) got[which] = handle as object;
      if (got.in && got.out) done();
    };
    helper.on('message', onMessage);
    helper.once('exit', (code, sig) => done(`exited (${sig ?? code}) before it handed the pipes back`));
    helper.once('error', (err) => done(`could not be started: ${err.message}`));
    fail = done;
  });
  helper.unref();
  (helper.channel as { unref?: () => void } | null | undefined)?.unref?.();
  // counted from the take: until then this process may be too busy (a slow start) to acknowledge
  // the first handle, which the helper waits for before it sends the second
  wire.ref = () => {
    helper.ref();
    (helper.channel as { ref?: () => void } | null | undefined)?.ref?.();
    if (!got.in || !got.out)
      timer ??= setTimeout(() => fail('did not hand the pipes back within 10 s of the server being ready'), 10_000);
  };
  return wire;
}

/**
 * The helper itself: sends its fds 4 and 5 (the client's stdin and stdout, inherited) back to the
 * process that started it, as raw pipe handles over the IPC channel, one at a time, and exits when
 * that process lets go of the channel or is gone. Reads and writes nothing of them.
 */
export function handBack(): void {
  delete process.env[HAND_BACK_ENV];
  const parent = process.ppid;
  process.once('disconnect', () => process.exit(0));
  // a channel that closes while a handle waits for its acknowledgement emits no 'disconnect'
  setInterval(() => (!process.connected || process.ppid !== parent) && process.exit(0), 20);
  const { Socket } = process.getBuiltinModule('node:net');
  // fds 4 and 5 as handles that neither read nor write: nothing of the client's bytes is taken here
  const handle = (fd: number) =>
    (new Socket({ fd, readable: false, writable: false }) as unknown as { _handle: object })._handle;
  try {
    const [input, output] = [handle(4), handle(5)];
    process.send!({ ax: 'in' }, input as never, undefined, (e) =>
      e ? process.exit(1) : process.send!({ ax: 'out' }, output as never, undefined, (e2) => e2 && process.exit(1)),
    );
  } catch {
    process.exit(1);
  }
}
