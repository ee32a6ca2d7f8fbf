/**
 * Every process-wide patch ax-ts makes, in one module (docs/architecture.md#io): no other file of
 * `lib/`, `mcp/` or `frontends/` assigns to `process.stdout`, `process.stderr`, `process.stdin` or
 * `node:child_process`.
 * The module patches nothing by itself: each patch is installed by the one that needs it and
 * restored by it, and what a patch does with what it catches (the policy) is that one's. The
 * patches, in the order they are installed, each over the one before:
 *
 * 1. **the stdio guard** (an MCP server on stdio, {@link guardStdout}, {@link scopeStdin}): `process.stdout.write` and
 *    `process.stdout.end` write to stderr, and `process.stdin` read inside a tool call is that
 *    call's own empty stream, so nothing but JSON-RPC reaches the protocol pipe;
 * 2. **printed-output capture** (every MCP server, {@link routeWrite}): `process.stdout.write` routed
 *    into the call a write is made for, the rest passed on to what was there (the guard, or the
 *    real write); a front end's call routes `process.stderr.write` the same way;
 * 3. **children** (every MCP server, {@link patchChildProcess}): `node:child_process`'s `spawn`,
 *    `fork`, `exec`, `execFile` and their synchronous forms, tied to the call that starts them;
 * 4. **fd output** (`main()`, {@link watchStream}): Node's lazy `process.stdout` and
 *    `process.stderr` getters, the same getters that also note when the stream is made;
 * 5. **listeners** (every MCP server, {@link routeListeners}): `EventEmitter.prototype`'s
 *    `on`/`addListener`, `prependListener` and `emit`, so a listener runs in the async context it
 *    was added in, whoever emits (installed with the capture, restored with it).
 * 6. **json stdout** (`main()`, {@link divertStdout}): once Node's `process.stdout` is made, its
 *    `write` goes to stderr while a json-mode run's stdout holds only JSON lines; the runner's own
 *    lines go past it ({@link writeStdout}).
 * 7. **line end** (`main()`, {@link noteLineEnd}): once Node's `process.stderr` (and
 *    `process.stdout`) is made, its `write` notes whether the chunk ended a line, so the runner's
 *    error and warning lines start on their own line.
 * 8. **proxy from the environment** (`main()`, {@link useEnvProxy}): when `HTTPS_PROXY`/`HTTP_PROXY`
 *    is set, Node's own proxy support for `fetch()` and `http(s).request()` turned on, as curl
 *    follows them (`NODE_USE_ENV_PROXY=0` keeps it off).
 *
 * A server restores them in the reverse order (children, then the capture); the stdio guard stays
 * after the server has stopped, since a late timer's write must still not reach the client's pipe.
 * Node built-ins only, loaded when a patch is installed: a program that patches nothing pays nothing.
 */
import type { Readable, Writable } from 'node:stream';
import {
  PROXY_URL_VARIABLES,
  PROXY_VARIABLES,
  proxyUse,
  redactProxyUrl,
  withProxySchemes,
  type ProxyUse,
} from './env-proxy.ts';

/** `process.stdout.write`'s type (the same for stderr). */
export type Write = typeof process.stdout.write;

/**
 * Patch 1, the stdio guard, on stdout: redirects `process.stdout.write` (so `console.log`) to stderr
 * and makes `process.stdout.end()` a write to stderr that ends nothing (a handler must not be able
 * to close the protocol pipe or make the next write fail). @returns the real stdout for the
 * transport alone, and the undo.
 */
export function guardStdout(): { protocolOut: Writable; restore: () => void } {
  const real = process.stdout;
  const realWrite = real.write;
  const realEnd = real.end;
  const toStderr = ((chunk: unknown, encoding?: unknown, cb?: unknown) =>
    (process.stderr.write as (...a: unknown[]) => boolean)(chunk, encoding, cb)) as typeof real.write;
  real.write = toStderr;
  real.end = ((chunk?: unknown, encoding?: unknown, cb?: unknown) => {
    const done = [chunk, encoding, cb].find((a) => typeof a === 'function') as (() => void) | undefined;
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') process.stderr.write(chunk as string);
    if (done) queueMicrotask(done);
    return real;
  }) as typeof real.end;
  const protocolOut = {
    write: (chunk: string | Uint8Array) => realWrite.call(real, chunk),
    once: (event: string, listener: () => void) => real.once(event, listener),
    get destroyed() {
      return real.destroyed;
    },
    get writableEnded() {
      return false;
    },
  } as unknown as Writable;
  return {
    protocolOut,
    restore: () => {
      real.write = realWrite;
      real.end = realEnd;
    },
  };
}

/**
 * Patch 1, the stdio guard, on stdin: `process.stdin` read while `stdinFor()` gives a stream (a
 * tool call's own empty one) is that stream instead of the protocol pipe, the real stdin otherwise.
 * @returns the undo.
 */
export function scopeStdin(stdinFor: () => Readable | undefined): () => void {
  const real = process.stdin;
  const own = Object.getOwnPropertyDescriptor(process, 'stdin');
  Object.defineProperty(process, 'stdin', {
    configurable: true,
    enumerable: own?.enumerable ?? true,
    get: () => stdinFor() ?? real,
  });
  return () => {
    if (own) Object.defineProperty(process, 'stdin', own);
    else Object.defineProperty(process, 'stdin', { configurable: true, enumerable: true, writable: true, value: real });
  };
}

/** One routing of a stream's `write`, shared by every install of the same router. */
interface Route {
  users: number;
  through: Write;
  ours: Write;
}

const routes = new Map<string, Route>();

/**
 * Patch 2, printed-output capture: puts `router(through)` in place of `process[name].write`, where
 * `through` is what was there (it takes what the router does not keep). Installs of one `key` share
 * one patch (counted: one per server of the process). @returns the release, which takes the patch
 * off when the last install lets go — unless something patched over it since, in which case it
 * stays (taking it off would also take off the later patch).
 */
export function routeWrite(name: 'stdout' | 'stderr', key: string, router: (through: Write) => Write): () => void {
  const id = `${name}:${key}`;
  let route = routes.get(id);
  if (!route) {
    const stream = process[name];
    const through = stream.write;
    route = { users: 0, through, ours: router(through) };
    routes.set(id, route);
    stream.write = route.ours;
  }
  const mine = route;
  return counted(mine, () => {
    const stream = process[name];
    if (stream.write === mine.ours) stream.write = mine.through;
    routes.delete(id);
  });
}

/** Counts one more user of `route`; @returns its release (once only), which calls `last` when no user is left. */
function counted(route: { users: number }, last: () => void): () => void {
  route.users++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--route.users === 0) last();
  };
}

/** The functions of `node:child_process` a server ties to its calls. */
export const CHILD_PROCESS_FUNCTIONS = [
  'spawn',
  'fork',
  'exec',
  'execFile',
  'spawnSync',
  'execSync',
  'execFileSync',
] as const;

/** Those functions, by name (loosely typed: a patch passes its arguments on). */
export type ChildProcessFunctions = Record<(typeof CHILD_PROCESS_FUNCTIONS)[number], (...a: unknown[]) => unknown>;

/**
 * Patch 3, children: replaces {@link CHILD_PROCESS_FUNCTIONS} on `node:child_process` (for ESM
 * importers too, `syncBuiltinESMExports`) with what `wrap` makes of the originals.
 * @returns the undo.
 */
export function patchChildProcess(wrap: (originals: ChildProcessFunctions) => ChildProcessFunctions): () => void {
  const cp = process.getBuiltinModule('node:child_process') as unknown as ChildProcessFunctions;
  const { syncBuiltinESMExports } = process.getBuiltinModule('node:module');
  const originals = Object.fromEntries(CHILD_PROCESS_FUNCTIONS.map((n) => [n, cp[n]])) as ChildProcessFunctions;
  Object.assign(cp, wrap(originals));
  syncBuiltinESMExports();
  return () => {
    Object.assign(cp, originals);
    syncBuiltinESMExports();
  };
}

/** Whether `process.stdout` / `process.stderr` has been made, and who to tell when it is. */
export interface StreamWatch {
  made: boolean;
  onMade: ((s: NodeJS.WriteStream) => void)[];
}

const watches = new Map<'stdout' | 'stderr', StreamWatch>();

/**
 * Patch 4, fd output: watches Node's lazy `process[name]` getter (defined configurable by Node's
 * bootstrap): the same getter, which also notes that the stream now exists and tells the writers.
 * Installed once per process, never restored; no behaviour of the stream changes. A property that
 * is not a configurable getter any more (someone replaced it) counts as made.
 */
export function watchStream(name: 'stdout' | 'stderr'): StreamWatch {
  let w = watches.get(name);
  if (w) return w;
  w = { made: false, onMade: [] };
  watches.set(name, w);
  const desc = Object.getOwnPropertyDescriptor(process, name);
  if (!desc?.get || !desc.configurable) {
    w.made = true;
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

/** The `EventEmitter.prototype` methods {@link routeListeners} routes. */
export interface EmitterMethods {
  on: (this: object, type: string | symbol, listener: (...a: unknown[]) => unknown) => unknown;
  prependListener: (this: object, type: string | symbol, listener: (...a: unknown[]) => unknown) => unknown;
  emit: (this: object, type: string | symbol, ...args: unknown[]) => boolean;
}

let listenerRoute: { users: number; originals: EmitterMethods; ours: EmitterMethods } | undefined;

/**
 * Patch 5, listeners: replaces `EventEmitter.prototype`'s `on` (and its alias `addListener`),
 * `prependListener` and `emit` with what `router` makes of the originals (`once` and
 * `prependOnceListener` go through them); one install serves every server of the process (counted).
 * @returns the release, which restores the originals when the last user lets go, unless something
 * patched over them since.
 */
export function routeListeners(router: (originals: EmitterMethods) => EmitterMethods): () => void {
  const { EventEmitter } = process.getBuiltinModule('node:events');
  const proto = EventEmitter.prototype as unknown as Record<string, unknown>;
  if (!listenerRoute) {
    const originals = { on: proto.on, prependListener: proto.prependListener, emit: proto.emit } as EmitterMethods;
    const ours = router(originals);
    listenerRoute = { users: 0, originals, ours };
    proto.on = proto.addListener = ours.on;
    proto.prependListener = ours.prependListener;
    proto.emit = ours.emit;
  }
  const mine = listenerRoute;
  return counted(mine, () => {
    if (proto.emit === mine.ours.emit) {
      proto.on = proto.addListener = mine.originals.on;
      proto.prependListener = mine.originals.prependListener;
      proto.emit = mine.originals.emit;
    }
    listenerRoute = undefined;
  });
}

/** The real `process.stdout.write`, bound to the stream, once patch 6 holds the stream's `write`. */
let stdoutThrough: ((chunk: string | Uint8Array) => boolean) | undefined;

/**
 * Patch 6, json stdout (docs/contract.md#success-envelope): once Node's `process.stdout` is made (now,
 * or later by whoever first reads it: `console.log` does), its `write` — so `console.log` and a
 * library's `process.stdout.write` — goes to `process.stderr` whenever `diverted()` holds, and to
 * stdout otherwise. The runner's own lines reach stdout through {@link writeStdout}. Installed once
 * per process (`main()`), never restored: a late timer's print must not land among the JSON lines either.
 */
export function divertStdout(diverted: () => boolean): void {
  const w = watchStream('stdout');
  const patch = (s: NodeJS.WriteStream) => {
    if (stdoutThrough) return;
    const real = s.write as (...a: unknown[]) => boolean;
    stdoutThrough = (chunk) => real.call(s, chunk);
    s.write = function (this: unknown, ...a: unknown[]): boolean {
      return diverted() ? (process.stderr.write as (...b: unknown[]) => boolean)(...a) : real.apply(s, a);
    } as Write;
  };
  if (w.made) patch(process.stdout);
  else w.onMade.push(patch);
}

/** Whether the last chunk written on each stream left a line unfinished (patch 7). */
const midLine = { stdout: false, stderr: false };

/** Notes where a chunk written on a stream leaves the line (empty chunks and other values change nothing). */
function noteChunk(name: 'stdout' | 'stderr', chunk: unknown): void {
  if (typeof chunk === 'string') {
    if (chunk.length) midLine[name] = chunk.charCodeAt(chunk.length - 1) !== 10;
  } else if (chunk instanceof Uint8Array && chunk.length) midLine[name] = chunk[chunk.length - 1] !== 10;
}

/** Whether the last chunk written on `name` left a line unfinished (false before patch 7 is installed on it). */
export function lineUnfinished(name: 'stdout' | 'stderr'): boolean {
  return midLine[name];
}

/** The stream key of the check (lib/contract/envelope.ts `MID_LINE`, the same registered symbol). */
const MID_LINE = Symbol.for('ax-ts.mid-line');

/**
 * Patch 7, line end (docs/contract.md#error-line): once Node's `process.stderr` or `process.stdout`
 * is made (now, or later by whoever first reads it), its `write` notes whether each chunk ended a
 * line, passes the call on unchanged, and the stream answers the check under `MID_LINE`. Installed
 * once per stream and process (`main()`), never restored.
 * @returns the check (true while the last chunk written on the stream left a line unfinished; false
 *   before anything was written) and `note`, for a chunk the caller wrote on the descriptor past the stream.
 */
export function noteLineEnd(name: 'stdout' | 'stderr' = 'stderr'): {
  midLine: () => boolean;
  note: (chunk: string | Uint8Array) => void;
} {
  const w = watchStream(name);
  const check = () => midLine[name];
  const patch = (s: NodeJS.WriteStream) => {
    const held = s as unknown as Record<symbol, unknown>;
    if (held[MID_LINE]) return;
    held[MID_LINE] = check;
    const real = s.write as (...a: unknown[]) => boolean;
    s.write = function (this: unknown, chunk: unknown): boolean {
      noteChunk(name, chunk);
      // eslint-disable-next-line prefer-rest-params -- the call passed on exactly as made
      return Reflect.apply(real, s, arguments) as boolean;
    } as Write;
  };
  if (w.made) patch(process[name]);
  else w.onMade.push(patch);
  return { midLine: check, note: (chunk) => noteChunk(name, chunk) };
}

/** Writes on the real stdout, past {@link divertStdout} when it holds the stream. */
export function writeStdout(chunk: string | Uint8Array): boolean {
  const s = process.stdout; // made now if it was not: patch 6, if installed, holds it from here on
  return stdoutThrough ? stdoutThrough(chunk) : s.write(chunk);
}

/** Whether {@link useEnvProxy} has turned Node's proxy support on in this process. */
let proxyOn = false;
/** Why Node's proxy support refused the environment's proxy, if it did (its URLs redacted). */
let proxyRefusal: string | undefined;
/** The proxy variables {@link useEnvProxy} gave Node's proxy support (set ones only). */
let proxyGiven: Record<string, string> | undefined;

/**
 * Patch 8, proxy from the environment (`main()`, docs/contract.md#proxies): when `HTTPS_PROXY` or
 * `HTTP_PROXY` (or the lowercase forms) is set and Node follows neither of itself, Node's own proxy
 * support for `fetch()` and `http(s).request()` is turned on (`http.setGlobalProxyFromEnv`), so a
 * handler's requests go where curl's would, `NO_PROXY` included; a URL without a scheme is an
 * `http://` one, as curl reads it. A URL Node cannot use (`socks4://`, one that does not parse)
 * leaves the proxy off rather than failing every run: {@link envProxyRefusal} says why, and doctor
 * reports it. `NODE_USE_ENV_PROXY=0` keeps it off; Bun, Deno and `NODE_USE_ENV_PROXY=1` need
 * nothing. Installed once per process, never restored (a process's proxy does not change while it runs).
 * @returns who follows the variables (./env-proxy.ts {@link ProxyUse}).
 */
export function useEnvProxy(env: Readonly<Record<string, string | undefined>> = process.env): ProxyUse {
  const use = proxyUse(env);
  if (use === 'ax-ts' && !proxyOn) {
    proxyOn = true;
    const http = process.getBuiltinModule('node:http') as { setGlobalProxyFromEnv: (e?: object) => unknown };
    const given = withProxySchemes(env);
    proxyGiven = Object.fromEntries(PROXY_VARIABLES.flatMap((n) => (given[n] ? [[n, given[n]]] : [])));
    try {
      http.setGlobalProxyFromEnv(given);
    } catch (e) {
      // Node's message may be the URL itself, password and all
      const said = e instanceof Error ? e.message : String(e);
      const urls = PROXY_URL_VARIABLES.flatMap((n) => given[n] ?? []);
      proxyRefusal = urls.reduce((m, u) => m.split(u).join(redactProxyUrl(u)), said);
    }
  }
  return use;
}

/**
 * What a Node process this one starts to run a call (a front end's program: frontends/shared/child-call.ts)
 * needs in its environment to follow the proxy as this process does: `NODE_USE_ENV_PROXY=1` and the
 * proxy variables as {@link useEnvProxy} gave them to Node (schemes added); nothing when this process
 * does not follow them by ax-ts's doing.
 */
export function envProxyForChild(): Record<string, string> | undefined {
  return proxyGiven && !proxyRefusal ? { ...proxyGiven, NODE_USE_ENV_PROXY: '1' } : undefined;
}

/**
 * Why Node's proxy support refused the proxy {@link useEnvProxy} was given (a URL it cannot use),
 * or undefined when it took it or was not asked.
 */
export function envProxyRefusal(): string | undefined {
  return proxyRefusal;
}
