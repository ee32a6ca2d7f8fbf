/**
 * Printed output of a tool call: what a handler, or a library it calls, writes to `process.stdout`
 * (`console.log`, `process.stdout.write`) while the call runs is captured for that call and given
 * to the caller as a text item of its result (docs/mcp-server.md#printed-output), never written to
 * the protocol stream (stdio) or the server's own stdout (HTTP).
 *
 * `process.stdout` is one object shared by every call, so the capture is one patch of its `write`
 * (lib/platform/process-patches.ts, the second of the process patches), installed while a server
 * serves, that routes each write by the call it is made for (the call's AsyncLocalStorage scope,
 * children.ts): a write outside any call, or from a call already answered (a late timer), goes where
 * it went before — stderr under the stdio guard, the real stdout under HTTP (docs/architecture.md#io).
 *
 * A timer or a socket's callback keeps the async context it was made in, but a listener runs in
 * the context of whoever emits: a listener one call adds to an emitter every call shares (a
 * library's bus, a pooled socket) would print into the result of the call that fires it. So, with
 * the capture, a listener added inside a call runs in that call's context whoever emits (the
 * listeners patch): what it prints belongs to the call that added it, and once that call is
 * answered goes to the server's own output.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { StringDecoder } from 'node:string_decoder';
import { callScope } from './children.ts';
import { routeListeners, routeWrite, type EmitterMethods, type Write } from '../../lib/platform/process-patches.ts';

/** Most printed characters a result carries; the rest goes where an uncaptured write goes, and the item says so. */
export const PRINTED_MAX_CHARS = 1 << 20;

interface Capture {
  /** Made on the call's first print: most calls print nothing. */
  decoder: StringDecoder | undefined;
  parts: string[];
  chars: number;
  /** Characters past {@link PRINTED_MAX_CHARS}, written through instead. */
  overflow: number;
}

const captures = new WeakMap<object, Capture>();

/**
 * What `process.stdout.write` is while a server serves: a write of a capturing call is kept, the rest
 * goes `through`.
 */
function printedWrite(through: Write): Write {
  return function (this: unknown, chunk: unknown, encoding?: unknown, cb?: unknown): boolean {
    const call = callScope.getStore();
    const capture = call && captures.get(call);
    if (!capture || (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)))
      return (through as (...a: unknown[]) => boolean).call(process.stdout, chunk, encoding, cb);
    const enc = typeof encoding === 'string' ? (encoding as BufferEncoding) : undefined;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, enc) : Buffer.from(chunk);
    const text = (capture.decoder ??= new StringDecoder('utf8')).write(bytes);
    keep(capture, text, through);
    const done = [encoding, cb].find((a) => typeof a === 'function') as (() => void) | undefined;
    if (done) process.nextTick(done);
    return true;
  } as Write;
}

/**
 * Installs the capture on `process.stdout.write` (over whatever is there: the stdio guard, or the
 * real write); one install serves every server of the process (counted). @returns the release,
 * which takes the patch off when the last server lets go — unless something patched over it since,
 * in which case it stays (taking it off would also take off the later patch).
 */
export function capturePrinted(): () => void {
  const releaseWrite = routeWrite('stdout', 'printed', printedWrite);
  const releaseListeners = routeListeners(callListeners);
  return () => {
    releaseListeners();
    releaseWrite();
  };
}

/** The async context each listener added inside a call was added in (by the function given to `on`). */
const origins = new WeakMap<object, <R>(fn: () => R) => R>();
/** Emitters that hold such a listener: only their emits take the slower path. */
const marked = new WeakSet<object>();

/**
 * The listeners patch's policy: a listener added inside a call remembers that call's context, and
 * an emitter holding one runs each of its listeners in the context it was added in.
 */
function callListeners(originals: EmitterMethods): EmitterMethods {
  const remember = (emitter: object, listener: unknown) => {
    if (typeof listener !== 'function' || callScope.getStore() === undefined) return;
    origins.set(listener, AsyncLocalStorage.snapshot());
    marked.add(emitter);
  };
  return {
    on(type, listener) {
      remember(this, listener);
      return originals.on.call(this, type, listener);
    },
    prependListener(type, listener) {
      remember(this, listener);
      return originals.prependListener.call(this, type, listener);
    },
    emit(type) {
      // the common case, an emitter without a call's listener: Node's emit, arguments as given
      // eslint-disable-next-line prefer-rest-params -- a rest parameter costs every emit of the process an array
      if (!marked.has(this)) return Reflect.apply(originals.emit, this, arguments) as boolean;
      // eslint-disable-next-line prefer-rest-params
      const args = Array.prototype.slice.call(arguments, 1) as unknown[];
      const listeners = (this as { rawListeners(t: string | symbol): ((...a: unknown[]) => unknown)[] }).rawListeners(
        type,
      );
      // no listener (an unhandled 'error' throws): Node's own emit
      if (listeners.length === 0 || !listeners.some((l) => origins.has(l)))
        return originals.emit.call(this, type, ...args);
      for (const l of listeners) {
        const run = origins.get(l);
        if (run) run(() => l.apply(this, args));
        else l.apply(this, args);
      }
      return true;
    },
  };
}

/** Adds `text` to the capture, up to its bound; what is past it is written through at once. */
function keep(capture: Capture, text: string, through: Write): void {
  const room = PRINTED_MAX_CHARS - capture.chars;
  if (text.length <= room) {
    capture.parts.push(text);
    capture.chars += text.length;
    return;
  }
  if (room > 0) capture.parts.push(text.slice(0, room));
  capture.chars = PRINTED_MAX_CHARS;
  capture.overflow += text.length - Math.max(room, 0);
  through.call(process.stdout, text.slice(Math.max(room, 0)));
}

/**
 * Starts capturing for `call` (the object the call's scope holds). @returns the take: what the
 * call printed so far, as text (an incomplete UTF-8 sequence at the end decoded as U+FFFD), after
 * which the call's later writes are no longer captured but written through (a second take gives '').
 */
export function collectPrinted(call: object): () => string {
  const capture: Capture = { decoder: undefined, parts: [], chars: 0, overflow: 0 };
  captures.set(call, capture);
  let taken = false;
  return () => {
    if (taken) return '';
    taken = true;
    captures.delete(call);
    if (capture.decoder === undefined) return ''; // nothing printed
    const text = capture.parts.join('') + capture.decoder.end();
    if (capture.overflow === 0) return text;
    return `${text}\n[printed output truncated: ${capture.overflow} more characters went to the server's own output]`;
  };
}
