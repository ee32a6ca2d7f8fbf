#!/usr/bin/env node
// The entry of an ax-ts program bundle, written by .ci/bundle.mjs from .ci/loader.cjs (issue 14). It
// (1) answers a bare `--version` / `--help` from answers precomputed at build time by the program
// itself, and a bare `__schema [--as=X]` from a schema manifest (`ax-ts schema-manifest`), when
// they were made from this build and nothing they depend on has changed, and otherwise
// (2) runs the real bundle (CONFIG.main, next to this file) and the chunks it requires through a V8
// code cache: vm.Script with `cachedData` kept per user under $XDG_CACHE_HOME/ax-ts/v8 (else
// ~/.cache/ax-ts/v8), one file per script, keyed by the Node version, the architecture, the
// bundle's content hash and its size and mtime; written atomically (temporary file + rename) after
// a run that exits 0 for each script that had no usable cache;
// ignored when missing, unreadable, rejected by V8 or unwritable. Neither changes a byte of output
// or the exit code (test/run/start-caches.test.ts compares them with the uncached path). For a bare
// `mcp-server` over pipes it (3) serves in place: it moves the client's streams off fd 0 and 1
// before anything else runs (serveInPlace()).
// One file past the ~400-line rule on purpose: it is each program's entry, the first code of every
// start, and a second file would cost every start a read and a compile.
//   AX_CODE_CACHE=0    run the bundle without the code cache (neither read nor written)
//   AX_PRECOMPUTED=0   never answer from the precomputed answers or a schema manifest
//   AX_SCHEMA_NO_OPT=0 a bare `__schema` keeps V8's optimizing compiler on (see run())
//   AX_MCP_IN_PLACE=0  a bare `mcp-server` over pipes is served by a server process of its own (the
//                      supervisor of mcp/supervise.ts), not by this process (see serveInPlace())
//   AX_MCP_EARLY=0     that server process is started by the program, not here (see earlyServer())
'use strict';
const CONFIG = /*@CONFIG@*/ { main: 'main.js', hash: '', size: 0, name: 'program', mcp: false, answers: null };
const fs = require('fs');
const env = process.env;

/** Random bytes from the OS CSPRNG (/dev/urandom; Web Crypto where it is missing). */
function random(n) {
  const b = Buffer.allocUnsafe(n);
  try {
    const fd = fs.openSync('/dev/urandom', 'r');
    try {
      if (fs.readSync(fd, b, 0, n, null) === n) return b;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    /* fall back below */
  }
  globalThis.crypto.getRandomValues(b);
  return b;
}

/** The version the program resolves from package.json: the nearest one above the bundle with a real version. */
function packageVersion() {
  const path = require('path');
  let dir = __dirname;
  for (let i = 0; i < 64; i++) {
    try {
      const v = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
      if (typeof v === 'string' && !['', 'dev', 'unknown', '0.0.0-unknown'].includes(v.trim())) return v;
    } catch {
      /* missing or unreadable: go on up, as resolveVersion does */
    }
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}

/** Writes the whole text to fd 1 or returns false (nothing written: let the real program answer). */
function writeOut(text) {
  const buf = Buffer.from(text);
  try {
    if (buf.length > 4096) return false; // only pipe-atomic sizes: all or nothing
    return fs.writeSync(1, buf) === buf.length;
  } catch (e) {
    if (e && e.code === 'EPIPE') process.exit(141); // the reader has gone, as main() reports it
    return false;
  }
}

/** Writes all of `buf` to fd 1 (waiting out EAGAIN); false only if nothing could be written. */
function writeAll(buf) {
  let at = 0;
  let waits = 0;
  while (at < buf.length) {
    try {
      at += fs.writeSync(1, buf, at, buf.length - at);
      waits = 0;
    } catch (e) {
      if (e && e.code === 'EPIPE') process.exit(141);
      if (e && e.code === 'EAGAIN' && waits++ < 6000) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5); // a non-blocking pipe is full: let the reader catch up
        continue;
      }
      if (at === 0) return false;
      process.stderr.write(`cannot write to stdout: ${e && e.message}\n`);
      process.exit(1);
    }
  }
  return true;
}

/** The shape a bare `__schema [--as=X | --as X]` asks for, else undefined. */
function schemaShape(args) {
  if (args[0] !== '__schema') return undefined;
  if (args.length === 1) return 'ax';
  if (args.length === 2 && args[1].startsWith('--as=')) return args[1].slice(5);
  if (args.length === 3 && args[1] === '--as') return args[2];
  return undefined;
}

/**
 * Answers `__schema` from the schema manifest `ax-ts schema-manifest` wrote beside this file
 * (<name>.schema/), when it was made from this very build and no file of the program has changed
 * since (the build's content hash, and the size and mtime of the bundle and of each lazy chunk), and
 * the version it printed is still the one package.json gives.
 */
function fromManifest(shape) {
  const path = require('path');
  const dir = path.join(__dirname, `${CONFIG.name}.schema`);
  let index;
  try {
    index = JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8'));
  } catch {
    return false;
  }
  if (
    index.format !== 'ax-ts/schema-manifest/1' ||
    index.hash !== CONFIG.hash ||
    !index.docs ||
    !Object.hasOwn(index.docs, shape)
  )
    return false;
  if (!index.files || !index.files[CONFIG.main]) return false;
  for (const [f, sig] of Object.entries(index.files)) {
    try {
      const st = fs.statSync(path.join(__dirname, f));
      if (st.size !== sig.size || st.mtimeMs !== sig.mtimeMs) return false;
    } catch {
      return false;
    }
  }
  if (index.versionFromPackage && packageVersion() !== index.version) return false;
  let buf;
  try {
    buf = fs.readFileSync(path.join(dir, `${shape}.out`));
  } catch {
    return false;
  }
  if (buf.length !== index.docs[shape]) return false; // a half-written document
  return writeAll(buf);
}

/** Answers a bare `--version`, `--help` or `__schema` from what was computed ahead; false when it may not. */
function precomputed() {
  const a = CONFIG.answers;
  const args = process.argv.slice(2);
  if (env.AX_PRECOMPUTED === '0' || (env.AGENT_MODE ?? '').trim() !== '') return false;
  const shape = schemaShape(args);
  if (shape !== undefined) return fromManifest(shape);
  if (!a || args.length !== 1) return false;
  let st;
  try {
    st = fs.statSync(require('path').join(__dirname, CONFIG.main));
  } catch {
    return false;
  }
  if (st.size !== CONFIG.size) return false; // the bundle is not the one the answers came from
  if (a.help !== undefined && (args[0] === '--help' || args[0] === '-h')) return writeOut(a.help);
  if (args[0] !== '--version' || a.version === undefined) return false;
  if (a.versionFromPackage && packageVersion() !== a.versionValue) return false;
  // json mode only (stdout a pipe, file or socket); a terminal or a character device: the real program
  let out;
  try {
    out = fs.fstatSync(1);
  } catch {
    return false;
  }
  if (!(out.isFIFO() || out.isFile() || out.isSocket())) return false;
  const r = random(40); // 16 bytes trace id, 8 span id, 16 UUID
  r[30] = (r[30] & 0x0f) | 0x40; // UUID v4: version nibble
  r[32] = (r[32] & 0x3f) | 0x80; // and variant bits
  const h = r.toString('hex');
  const uuid = `${h.slice(48, 56)}-${h.slice(56, 60)}-${h.slice(60, 64)}-${h.slice(64, 68)}-${h.slice(68, 80)}`;
  return writeOut(
    a.version
      .replace('@TRACE_ID@', h.slice(0, 32))
      .replace('@SPAN_ID@', h.slice(32, 48))
      .replace('@IDEMPOTENCY_KEY@', uuid),
  );
}

/** FNV-1a, 32 bits, as 8 hex digits: a short, stable name for a directory. */
function fnv(s) {
  let x = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) x = Math.imul(x ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return x.toString(16).padStart(8, '0');
}

/**
 * Runs the bundle, and the chunks it requires (`./chunks/…`), through the code cache unless it is
 * off or unusable: one cache file per script, all named after the bundle's key.
 *
 * A bare `__schema [--as=X]` that no manifest answered is one pass over the whole tree that ends
 * the process: V8's optimizing compiler (TurboFan) compiles the walk's hot functions on a
 * background thread for longer than the walk runs, and the process then waits for those compile
 * jobs before it exits (issue 14: about a third of the CPU time of `__schema` on 1,000 commands). So that
 * run turns it off (`--no-turbofan`, set before any of the program is compiled; the interpreter
 * and the baseline compiler still run), and keeps its code cache under a key of its own, since V8 rejects
 * a cache made under other flags (`AX_SCHEMA_NO_OPT=0`: leave V8's flags alone).
 */
function run() {
  const path = require('path');
  const vm = require('vm');
  const noOpt = schemaShape(process.argv.slice(2)) !== undefined && env.AX_SCHEMA_NO_OPT !== '0';
  if (noOpt) require('v8').setFlagsFromString('--no-turbofan'); // `--no-opt` is its alias
  const file = path.join(__dirname, CONFIG.main);
  let cache; // { dir, prefix, key }
  if (env.AX_CODE_CACHE !== '0') {
    try {
      const xdg = env.XDG_CACHE_HOME;
      const base = xdg && path.isAbsolute(xdg) ? xdg : env.HOME ? path.join(env.HOME, '.cache') : undefined;
      if (base) {
        const st = fs.statSync(file);
        const prefix = `${CONFIG.name}-${fnv(__dirname)}-`;
        cache = {
          dir: path.join(base, 'ax-ts', 'v8'),
          prefix,
          key: `${prefix}${process.version}-${process.arch}-${CONFIG.hash}-${st.size}-${Math.floor(st.mtimeMs)}`,
        };
      }
    } catch {
      cache = undefined;
    }
  }
  const stale = []; // [cache file, script] to write at exit
  /** Compiles one script (through its cache file when there is one) and returns its module function. */
  const compile = (scriptFile, tag) => {
    const src = fs.readFileSync(scriptFile, 'utf8');
    let data;
    const cacheFile = cache && path.join(cache.dir, `${cache.key}${noOpt ? '-noopt' : ''}${tag}.bin`);
    if (cacheFile) {
      try {
        data = fs.readFileSync(cacheFile);
      } catch {
        data = undefined; // no cache yet, or unreadable: compile from source
      }
    }
    const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${src}\n})`, {
      filename: scriptFile,
      cachedData: data,
    });
    if (cacheFile && (data === undefined || script.cachedDataRejected === true)) stale.push([cacheFile, script]);
    return script.runInThisContext();
  };
  const chunkDir = path.join(__dirname, 'chunks');
  const chunks = new Map(); // chunk file → module
  /** `require` for a script: its chunks through the cache, everything else as Node resolves it. */
  const requireFrom = (dir) => {
    const r = (id) => {
      const target = id.startsWith('./') || id.startsWith('../') ? path.join(dir, id) : undefined;
      if (!target || path.dirname(target) !== chunkDir || !target.endsWith('.js')) return require(id);
      let m = chunks.get(target);
      if (m) return m.exports;
      m = { exports: {}, id: target, filename: target, loaded: false, children: [], paths: module.paths };
      chunks.set(target, m);
      require.cache[target] = m; // one module per file, whoever asks for it
      compile(target, `.${path.basename(target, '.js')}`).call(
        m.exports,
        m.exports,
        requireFrom(chunkDir),
        m,
        target,
        chunkDir,
      );
      m.loaded = true;
      return m.exports;
    };
    r.resolve = require.resolve;
    r.cache = require.cache;
    return r;
  };
  if (cache) {
    process.once('exit', (code) => {
      if (code !== 0 || stale.length === 0) return; // only a successful run's compiled code is worth keeping
      try {
        fs.mkdirSync(cache.dir, { recursive: true, mode: 0o700 });
        for (const [cacheFile, script] of stale) {
          const tmp = `${cacheFile}.${process.pid}.tmp`;
          fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
          fs.renameSync(tmp, cacheFile);
        }
        for (const n of fs.readdirSync(cache.dir)) {
          // caches of this same installation under another key (another build, another Node) are dead weight
          if (n.startsWith(cache.prefix) && !n.startsWith(cache.key) && n.endsWith('.bin'))
            fs.rmSync(path.join(cache.dir, n), { force: true });
        }
      } catch {
        /* unwritable: run uncached next time too */
      }
    });
  }
  const m = { exports: {}, id: file, filename: file, loaded: false, children: [], paths: module.paths };
  const program = compile(file, '');
  const runProgram = () => program.call(m.exports, m.exports, requireFrom(__dirname), m, file, __dirname);
  // an early server process also loads the MCP runtime while it waits: module code only, which
  // prints nothing (a failure is left for the program to meet when it requires it)
  const preload = () => {
    const runtime = path.join(chunkDir, 'mcp-runtime.js');
    if (!fs.existsSync(runtime)) return;
    try {
      requireFrom(__dirname)('./chunks/mcp-runtime.js');
    } catch {
      chunks.delete(runtime);
      delete require.cache[runtime];
    }
  };
  if (!holdUntilAdopted(runProgram, preload)) runProgram();
}

/**
 * The fstat of fd 0 and fd 1 when this is a bare `mcp-server` of a script (not `node -e`, not a
 * server process a supervisor started) whose stdin and stdout are pipes or sockets — how every MCP
 * client starts a stdio server; else undefined.
 */
function barePipedServer() {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0] !== 'mcp-server' || env.AX_MCP_WIRE) return undefined;
  if (process.execArgv.some((a) => a === '-e' || a === '--eval' || a === '-p' || a === '--print')) return undefined;
  try {
    const std = [fs.fstatSync(0), fs.fstatSync(1)];
    return std.every((s) => s.isFIFO() || s.isSocket()) ? std : undefined;
  } catch {
    return undefined;
  }
}

/** The global record through which mcp/supervise.ts takes the wire serveInPlace() set up. */
const IN_PLACE = Symbol.for('ax-ts.stdio-in-place');

/**
 * A bare `mcp-server` over pipes or sockets (how every MCP client starts a stdio server) is served
 * by this very process, with the protocol out of reach of everything else that runs in it (issue
 * 14: the supervisor's second Node start was most of the start-up cost over a plain SDK server).
 * Node has no dup2, but a descriptor closed and opened again takes the lowest free number, and at
 * this point nothing else in the process opens descriptors (this is the first code that runs), so:
 * 1. the client's two streams get descriptors of their own: kernel pipes are opened again through
 *    /proc/self/fd; sockets (what Node's `spawn` gives a child) cannot be, so a short-lived helper
 *    process (this entry, handBack()) inherits them and sends them back over an IPC channel. Both
 *    ways they are new descriptors opened close-on-exec: no child of this process inherits them.
 * 2. fd 0 becomes /dev/null, and fd 1 stderr: opened again through /proc/self/fd/2 when stderr is a
 *    pipe or a character device (a terminal, /dev/null); when it is a socket, fd 1 is a socketpair
 *    to a `cat` that copies its bytes to stderr. Where neither is possible (the full list: the
 *    stdio section of docs/mcp-server.md) it is not served in place: the supervisor does it.
 * So console.log, fs.writeSync(1), /dev/stdout, children with inherited stdio all land on stderr,
 * as under the supervisor, and the program runs once. mcp/supervise.ts (takeWire) takes the wire;
 * a run that never serves (a failed check, an unknown command) leaves it untaken and exits as usual.
 * @returns true when this process now serves in place (its fd 0 and 1 are no longer the client's).
 */
function serveInPlace() {
  const std = barePipedServer();
  if (!std || !CONFIG.mcp || env.AX_MCP_IN_PLACE === '0') return false;
  const [i, o] = std;
  let e;
  try {
    e = fs.fstatSync(2);
  } catch {
    return false;
  }
  // stderr on the client's own stdin or stdout pipe (`2<&0`, `2>&1`): a second open of it would write
  // into the protocol; the supervisor keeps what such a client asked for
  if ((e.dev === i.dev && e.ino === i.ino) || (e.dev === o.dev && e.ino === o.ino)) return false;
  const reopen = e.isFIFO() || e.isCharacterDevice();
  const cat = !reopen && e.isSocket() ? ['/bin/cat', '/usr/bin/cat'].find((p) => fs.existsSync(p)) : undefined;
  if (!reopen && !cat) return false;
  const { O_RDONLY, O_WRONLY, O_NONBLOCK } = fs.constants;
  const opened = [];
  const open = (path, flags) => {
    const fd = fs.openSync(path, flags);
    opened.push(fd);
    return fd;
  };
  let wire;
  try {
    // proves that step 2 can open it, without waiting: a named FIFO whose reader has gone gives ENXIO
    if (reopen) open('/proc/self/fd/2', O_WRONLY | O_NONBLOCK);
    wire =
      i.isFIFO() && o.isFIFO()
        ? Promise.resolve({
            input: open('/proc/self/fd/0', O_RDONLY | O_NONBLOCK),
            output: open('/proc/self/fd/1', O_WRONLY | O_NONBLOCK),
          })
        : handedBack();
  } catch {
    for (const fd of opened) fs.closeSync(fd);
    return false;
  }
  if (reopen) fs.closeSync(opened[0]); // the probe
  // from here on the client's fd 0 and 1 are held elsewhere (the descriptors above, or the helper)
  const fail = (what) => {
    fs.writeSync(2, `mcp-server: cannot take the client's pipes in place (${what}); start it with AX_MCP_IN_PLACE=0\n`);
    process.exit(1);
  };
  fs.closeSync(0);
  if (fs.openSync('/dev/null', 'r') !== 0) fail('fd 0 was taken');
  fs.closeSync(1);
  if (reopen) {
    if (fs.openSync('/proc/self/fd/2', 'w') !== 1) fail('fd 1 was taken');
  } else {
    // the parent end of the socketpair libuv makes for the child's stdin takes the lowest free number
    const relayOnFd1 = () => {
      const relay = require('child_process').spawn(cat, [], { stdio: ['pipe', 2, 'ignore'], detached: true });
      relay.on('error', () => {});
      relay.stdin?.on('error', () => {}); // never written through this stream; writes to fd 1 see their own errors
      if (relay.stdin?._handle?.fd === 1) {
        relay.unref();
        relay.stdin.unref?.();
        globalThis[Symbol.for('ax-ts.stdio-relay')] = relay; // the stream holds fd 1: keep it alive
        return true;
      }
      relay.stdin?.destroy();
      relay.kill();
      return false;
    };
    // Node's first spawn in a process opens /dev/null on a closed fd 0-2 before it makes its pipes
    // (when the client's streams were sockets, the helper's spawn came first): fd 1 is that /dev/null
    // now, and the next spawn's pipe takes fd 1 once it is closed again
    let devNull;
    const devNullOnFd1 = () => {
      try {
        const st = fs.fstatSync(1);
        return st.isCharacterDevice() && st.rdev === (devNull ??= fs.statSync('/dev/null').rdev);
      } catch {
        return false;
      }
    };
    let relayed = relayOnFd1();
    if (!relayed && devNullOnFd1()) {
      fs.closeSync(1);
      relayed = relayOnFd1();
    }
    if (!relayed) {
      // not where it was expected (another libuv): stray bytes go to /dev/null instead, still off the
      // protocol (a read-only /dev/null left on fd 1 would fail every write: one opened for writing)
      if (devNullOnFd1()) fs.closeSync(1);
      let free = false;
      try {
        fs.fstatSync(1);
      } catch {
        free = true;
      }
      if (!free || fs.openSync('/dev/null', 'w') !== 1) fail('fd 1 was taken');
    }
  }
  wire.catch(() => {}); // seen by whoever takes it
  globalThis[IN_PLACE] = { take: () => (wire.ref?.(), wire) };
  return true;
}

/**
 * Starts the helper that hands the client's stdin and stdout back (handBack()) and returns a promise
 * of them as raw pipe handles, `{input, output}`. Until taken (the promise's `ref`), the helper keeps
 * nothing of this process alive. @throws when the helper cannot be spawned.
 */
function handedBack() {
  // the client's streams at fds 4 and 5 of the helper; its own fd 0-2 are /dev/null, so whatever
  // else runs in it (a NODE_OPTIONS preload) cannot write into the protocol
  const helper = require('child_process').spawn(process.execPath, [process.argv[1]], {
    stdio: ['ignore', 'ignore', 'ignore', 'ipc', 0, 1],
    env: { ...env, AX_MCP_HAND_BACK: '1' },
  });
  const got = {};
  let timer;
  let fail;
  const wire = new Promise((resolve, reject) => {
    const done = (e) => {
      clearTimeout(timer);
      helper.off('message', onMessage);
      // closed once Node has acknowledged the handles it is delivering (a disconnect inside 'message' breaks that)
      setImmediate(() => helper.connected && helper.disconnect());
      if (e) reject(new Error(`the helper process ${e}`));
      else resolve({ input: got.in, output: got.out });
    };
    const onMessage = (m, handle) => {
      if (m && (m.ax === 'in' || m.ax === 'out') && handle) got[m.ax] = handle;
      if (got.in && got.out) done();
    };
    helper.on('message', onMessage);
    helper.once('exit', (code, sig) => done(`exited (${sig ?? code}) before it handed the pipes back`));
    helper.once('error', (err) => done(`could not be started: ${err.message}`));
    fail = done;
  });
  helper.unref();
  helper.channel?.unref();
  // counted from the take: until then this process may be too busy (a slow start) to acknowledge
  // the first handle, which the helper waits for before it sends the second
  wire.ref = () => {
    helper.ref();
    helper.channel?.ref();
    if (!got.in || !got.out)
      timer ??= setTimeout(() => fail('did not hand the pipes back within 10 s of the server being ready'), 10_000);
  };
  return wire;
}

/**
 * The helper of serveInPlace(): sends its fds 4 and 5 (the client's stdin and stdout, inherited)
 * back to the process that started it, as raw pipe handles over the IPC channel, one at a time, and
 * exits when that process lets go of the channel or is gone. Reads and writes nothing of them.
 */
function handBack() {
  delete env.AX_MCP_HAND_BACK;
  const parent = process.ppid;
  process.once('disconnect', () => process.exit(0));
  // a channel that closes while a handle waits for its acknowledgement emits no 'disconnect'
  setInterval(() => (!process.connected || process.ppid !== parent) && process.exit(0), 20);
  // fds 4 and 5 (handedBack's stdio), as handles that neither read nor write: nothing of the
  // client's bytes is taken here
  const handle = (fd) => new (require('net').Socket)({ fd, readable: false, writable: false })._handle;
  try {
    const [input, output] = [handle(4), handle(5)];
    process.send({ ax: 'in' }, input, (e) =>
      e ? process.exit(1) : process.send({ ax: 'out' }, output, (e2) => e2 && process.exit(1)),
    );
  } catch {
    process.exit(1);
  }
}

/**
 * A bare `mcp-server` over pipes (how every MCP client starts a stdio server) becomes a supervisor
 * that re-executes the program as the server process (mcp/supervise.ts). That process is started
 * here, before this one compiles and runs the program, so its start overlaps the supervisor's run
 * of the program as far as `mcp-server` (issue 14: 3–7 ms of spawn → initialize; the supervisor's
 * own Node start cannot be overlapped). It is started exactly as superviseStdio would start it, and it waits: its entry
 * (holdUntilAdopted) compiles the program and loads the MCP runtime, and runs the program only when
 * this process has run it as far as `mcp-server` (a `go` message, mcp/supervise.ts
 * startEarlyServer); even then it reports nothing before it has the client's pipes (mcp/runtime.ts),
 * which superviseStdio passes only once the start-up checks have passed. So a supervisor that fails
 * a check, is not a supervisor after all (isolateStdio false, HTTP, no mcp-server command) or exits
 * for any reason leaves no trace of it: it is killed unseen (at once by the program, else when this
 * process exits). Until adopted it keeps nothing of this process alive.
 */
function earlyServer() {
  if (!barePipedServer() || env.AX_MCP_EARLY === '0') return; // otherwise relayed, not passed: the program starts it
  const args = process.argv.slice(2);
  // the Node options superviseStdio passes on (its SKIP_EXEC_ARG: a debugger port cannot be taken twice)
  const execArgs = process.execArgv.filter((a) => !/^--(inspect|inspect-brk|inspect-port|debug-port)(=|$)/.test(a));
  let child;
  try {
    child = require('child_process').spawn(process.execPath, [...execArgs, process.argv[1], ...args], {
      stdio: ['ignore', 2, 'inherit', 'ipc'],
      env: { ...env, AX_MCP_WIRE: 'ipc', AX_MCP_EARLY: '1' },
      detached: true,
    });
  } catch {
    return;
  }
  const key = Symbol.for('ax-ts.early-server');
  const drop = () => {
    if (globalThis[key]?.child !== child) return; // adopted (or already dropped)
    delete globalThis[key];
    try {
      child.kill('SIGKILL');
    } catch {
      /* gone */
    }
  };
  child.on('error', drop); // could not be started: the program starts its own
  // until it is adopted it must not keep this process alive (a failed check exits at once)
  child.unref();
  child.channel?.unref();
  globalThis[key] = { child, drop };
  process.once('exit', drop);
}

/**
 * In a server process started by earlyServer: compile the program and load the MCP runtime now
 * (`preload`), run the program once the supervisor says `go`, and exit silently if it goes away
 * first. Every other message (the client's pipes) is kept for the program (supervise.ts receivePipes).
 * @returns true when this process is such a server (the program then runs later).
 */
function holdUntilAdopted(runProgram, preload) {
  if (env.AX_MCP_EARLY !== '1' || typeof process.send !== 'function') return false;
  delete env.AX_MCP_EARLY;
  const queue = [];
  let started = false;
  const onMessage = (m, handle) => {
    if (!started && m && m.ax === 'go') {
      started = true;
      process.off('disconnect', onGone);
      runProgram();
    } else queue.push([m, handle]);
  };
  const onGone = () => process.exit(0); // the supervisor went away (or dropped us) before adopting us
  process.on('message', onMessage);
  process.once('disconnect', onGone);
  globalThis[Symbol.for('ax-ts.early-wire')] = { queue, stop: () => process.off('message', onMessage) };
  preload();
  return true;
}

if (env.AX_MCP_HAND_BACK === '1') handBack();
else if (!precomputed()) {
  if (!serveInPlace()) earlyServer();
  run();
}
