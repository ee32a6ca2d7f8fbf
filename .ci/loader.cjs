#!/usr/bin/env node
// The entry of an ax-ts program bundle, written by .ci/bundle.mjs from .ci/loader.cjs (issue 14). It
// (1) answers a bare `--version` / `--help` from answers precomputed at build time by the program
// itself, when the build asked for them and nothing they depend on has changed, and otherwise
// (2) runs the real bundle (CONFIG.main, next to this file) through a V8 code cache: vm.Script with
// `cachedData` kept per user under $XDG_CACHE_HOME/ax-ts/v8 (else ~/.cache/ax-ts/v8), keyed by the
// Node version, the architecture, the bundle's content hash and its size and mtime; written
// atomically (temporary file + rename) after a run that exits 0 when there was no usable cache;
// ignored when missing, unreadable, rejected by V8 or unwritable. Neither changes a byte of output
// or the exit code (test/start-caches.test.ts compares them with the uncached path).
//   AX_CODE_CACHE=0    run the bundle without the code cache (neither read nor written)
//   AX_PRECOMPUTED=0   never answer from the precomputed answers
'use strict';
const CONFIG = /*@CONFIG@*/ { main: 'main.js', hash: '', size: 0, name: 'program', answers: null };
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

/** Answers a bare `--version` or `--help` from the precomputed answers; false when it may not. */
function precomputed() {
  const a = CONFIG.answers;
  const args = process.argv.slice(2);
  if (!a || args.length !== 1 || env.AX_PRECOMPUTED === '0' || (env.AGENT_MODE ?? '').trim() !== '') return false;
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
  return writeOut(a.version.replace('@TRACE_ID@', h.slice(0, 32)).replace('@SPAN_ID@', h.slice(32, 48)).replace('@IDEMPOTENCY_KEY@', uuid));
}

/** FNV-1a, 32 bits, as 8 hex digits: a short, stable name for a directory. */
function fnv(s) {
  let x = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) x = Math.imul(x ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return x.toString(16).padStart(8, '0');
}

/** Runs the bundle, through the code cache unless it is off or unusable. */
function run() {
  const path = require('path');
  const vm = require('vm');
  const file = path.join(__dirname, CONFIG.main);
  const src = fs.readFileSync(file, 'utf8');
  let cacheFile;
  let cached;
  if (env.AX_CODE_CACHE !== '0') {
    try {
      const xdg = env.XDG_CACHE_HOME;
      const base = xdg && path.isAbsolute(xdg) ? xdg : env.HOME ? path.join(env.HOME, '.cache') : undefined;
      if (base) {
        const st = fs.statSync(file);
        const dir = path.join(base, 'ax-ts', 'v8');
        const prefix = `${CONFIG.name}-${fnv(__dirname)}-`;
        cacheFile = { dir, prefix, file: path.join(dir, `${prefix}${process.version}-${process.arch}-${CONFIG.hash}-${st.size}-${Math.floor(st.mtimeMs)}.bin`) };
        cached = fs.readFileSync(cacheFile.file);
      }
    } catch {
      cached = undefined; // no cache yet, or unreadable: compile from source
    }
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${src}\n})`, { filename: file, cachedData: cached });
  if (cacheFile && (cached === undefined || script.cachedDataRejected === true)) {
    process.once('exit', (code) => {
      if (code !== 0) return; // only a successful run's compiled code is worth keeping
      try {
        const data = script.createCachedData();
        fs.mkdirSync(cacheFile.dir, { recursive: true, mode: 0o700 });
        const tmp = `${cacheFile.file}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, data, { mode: 0o600 });
        fs.renameSync(tmp, cacheFile.file);
        for (const n of fs.readdirSync(cacheFile.dir)) {
          // older caches of this same installation (another build, another Node) are dead weight
          if (n.startsWith(cacheFile.prefix) && n.endsWith('.bin') && path.join(cacheFile.dir, n) !== cacheFile.file) fs.rmSync(path.join(cacheFile.dir, n), { force: true });
        }
      } catch {
        /* unwritable: run uncached next time too */
      }
    });
  }
  const m = { exports: {}, id: file, filename: file, loaded: false, children: [], paths: module.paths };
  script.runInThisContext().call(m.exports, m.exports, require, m, file, __dirname);
}

if (!precomputed()) run();
