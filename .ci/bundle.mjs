// How an ax-ts program is bundled (issue 14), shared by .ci/build.mjs (dist/bin) and the benchmark
// (test/bench/run.mjs), so that what is measured is what ships:
//   <name>.js        the entry: .ci/loader.cjs with this build's facts (precomputed answers, hash)
//   <name>.main.js   the program, one minified CommonJS file, run by the entry through a V8 code cache
//   chunks/…         what only some runs need, loaded on demand by `require`: the MCP runtime, the
//                    HTTP stack, the --args-json validator (each with its own copy of lib), and the
//                    lazy subtrees a program declares with `load: () => import('./x.ts')` (these share
//                    the entry's lib through a registry: see lazySubtrees below)
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

const HERE = dirname(new URL(import.meta.url).pathname);
export const ROOT = resolve(HERE, '..');

/** esbuild options every CommonJS output of a program shares. */
export const cjsBase = {
  absWorkingDir: ROOT,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  metafile: true,
  // smaller code compiles faster at every start (V8 still scans every byte). No keepNames: nothing
  // reads a function's or class's name at run time, and esbuild's keepNames costs a defineProperty
  // per closure created (~55 µs per MCP call, 1–7 ms of start-up).
  minify: true,
  logLevel: 'warning',
  logOverride: { 'empty-import-meta': 'silent' }, // import.meta.resolve is feature-tested where used
  define: { 'import.meta.url': '__axMetaUrl' },
  banner: { js: 'var __axMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  // import() of a chunk becomes a require: the entry runs through vm.Script, which has no ESM loader
  supported: { 'dynamic-import': false },
  // The observability and config libraries stay external: `require`d from node_modules (runtime
  // dependencies of the package, installed beside it) when a run first needs them — pino for
  // ctx.logger, the OpenTelemetry SDK when OTEL_EXPORTER_OTLP_ENDPOINT is set, jsonc-parser for
  // readConfig/patchConfig. Bundled, they would add ~1 MB that an ordinary run never executes (and
  // the V8 code cache would carry it); pino also resolves worker files at run time and its docs warn
  // against bundling it without a plugin. External, they load exactly as for the ESM library. So
  // does the `redis` client (an optional dependency), required only by the Redis idempotency store.
  external: ['pino', 'jsonc-parser', '@opentelemetry/*', 'redis', '@redis/*'],
};

/** The heavy chunks: source module → output file under chunks/. */
export const heavyChunks = {
  'mcp/runtime.ts': 'chunks/mcp-runtime.js',
  'mcp/http.ts': 'chunks/mcp-http.js',
  'lib/parse/arguments.ts': 'chunks/arguments.js',
};

/**
 * esbuild plugin: a dynamic import of a heavy module, or of a lazy subtree, resolves to its chunk
 * file (relative to the importing output file: programs in the bin directory, chunks in chunks/).
 * `lazy` collects the lazy subtree modules it meets (absolute path → chunk file).
 */
export function chunkPlugin({ inChunk = false, lazy } = {}) {
  return {
    name: 'ax-chunks',
    setup(b) {
      b.onResolve({ filter: /\.ts$/ }, (a) => {
        if (a.kind !== 'dynamic-import') return undefined;
        const abs = resolve(a.resolveDir, a.path);
        const heavy = Object.entries(heavyChunks).find(([src]) => abs === join(ROOT, src));
        const rel = (chunk) => (inChunk ? `./${basename(chunk)}` : `./${chunk}`);
        if (heavy) return { path: rel(heavy[1]), external: true };
        if (!lazy || abs.startsWith(join(ROOT, 'lib/')) || abs.startsWith(join(ROOT, 'mcp/'))) return undefined;
        // a lazy subtree: its own chunk, named after the file and a hash of its path
        const chunk = `chunks/${basename(abs, '.ts')}-${createHash('sha256').update(abs).digest('hex').slice(0, 8)}.js`;
        lazy.set(abs, chunk);
        return { path: rel(chunk), external: true };
      });
    },
  };
}

const LIB_REGISTRY = 'globalThis[Symbol.for("ax-ts.bundle.lib")]';

/**
 * esbuild plugin for a lazy subtree's chunk: its imports of the public API (lib/index.ts) read the
 * entry's copy from a registry instead of bundling another (one Command class, one tree generation).
 */
function sharedLib() {
  return {
    name: 'ax-shared-lib',
    setup(b) {
      b.onResolve({ filter: /(^|\/)lib\/index\.ts$/ }, (a) =>
        resolve(a.resolveDir, a.path) === join(ROOT, 'lib/index.ts')
          ? { path: 'ax-lib', namespace: 'ax-shared-lib' }
          : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'ax-shared-lib' }, () => ({
        contents: `const lib = ${LIB_REGISTRY}; if (!lib) throw new Error('ax-ts: a lazy chunk was loaded outside its program'); module.exports = lib;`,
        loader: 'js',
      }));
    },
  };
}

/** Runs a built program (its entry) with caches and precomputed answers off; stdout, stderr, status. */
function runProgram(entry, args) {
  const env = { PATH: process.env.PATH ?? '', HOME: '/nonexistent', AX_CODE_CACHE: '0', AX_PRECOMPUTED: '0' };
  const r = spawnSync(process.execPath, [entry, ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

/** The version resolveVersion finds from `dir` upwards (mirror of lib/platform/version.ts packageVersionFrom). */
function packageVersion(dir) {
  for (let d = dir, i = 0; i < 64; i++) {
    try {
      const v = JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')).version;
      if (typeof v === 'string' && !['', 'dev', 'unknown', '0.0.0-unknown'].includes(v.trim())) return v;
    } catch {
      /* go on up */
    }
    if (dirname(d) === d) break;
    d = dirname(d);
  }
  return undefined;
}

/**
 * Precomputes a program's bare `--version` (json mode: the envelope with its three ids as
 * placeholders) and `--help` by running the program itself, uncached. Answers only what came out
 * whole and exit 0.
 */
function precompute(entry, mainDir) {
  const answers = {};
  const help = runProgram(entry, ['--help']);
  if (help.status === 0 && help.stderr === '' && Buffer.byteLength(help.stdout) <= 4096) answers.help = help.stdout;
  const v = runProgram(entry, ['--version']);
  if (v.status === 0 && v.stderr === '') {
    const m =
      /^\{"data":(\{.*\}),"meta":\{"trace_id":"[0-9a-f]{32}","span_id":"[0-9a-f]{16}","idempotency_key":"[0-9a-f-]{36}"\}\}\n$/.exec(
        v.stdout,
      );
    if (m) {
      const data = JSON.parse(m[1]);
      answers.version = `{"data":${m[1]},"meta":{"trace_id":"@TRACE_ID@","span_id":"@SPAN_ID@","idempotency_key":"@IDEMPOTENCY_KEY@"}}\n`;
      answers.versionValue = data.version;
      answers.versionFromPackage = packageVersion(mainDir) === data.version;
    }
  }
  return answers;
}

function writeEntry(outDir, name, config) {
  const tpl = readFileSync(join(HERE, 'loader.cjs'), 'utf8');
  const at = tpl.indexOf('/*@CONFIG@*/');
  const end = tpl.indexOf(';', at);
  const entry = join(outDir, `${name}.js`);
  writeFileSync(entry, `${tpl.slice(0, at)}${JSON.stringify(config)}${tpl.slice(end)}`);
  chmodSync(entry, 0o755);
  return entry;
}

/**
 * Builds one program: `<outDir>/<name>.main.js` (the bundle), `<outDir>/<name>.js` (its entry), the
 * chunks of its lazy subtrees under `<outDir>/chunks/`, and `<outDir>/package.json` marking them CommonJS.
 * The heavy chunks are not built here (see buildHeavyChunks).
 * @param {{ entry: string, outDir: string, name: string, precomputeAnswers?: boolean }} o entry
 *   relative to the repository (or absolute); precomputeAnswers: answer a bare --version/--help from
 *   the build (only for a program whose tree and help do not depend on its environment).
 * @returns {Promise<{ metafile: object, entry: string, main: string, chunks: string[] }>}
 */
export async function buildProgram({ entry, outDir, name, precomputeAnswers = false }) {
  mkdirSync(join(outDir, 'chunks'), { recursive: true });
  writeFileSync(join(outDir, 'package.json'), `${JSON.stringify({ type: 'commonjs', private: true }, null, 2)}\n`);
  const lazy = new Map();
  const mainFile = join(outDir, `${name}.main.js`);
  const entryAbs = resolve(ROOT, entry);
  // The program's entry, behind a first module that puts its lib in the registry lazy chunks read.
  const register = {
    name: 'ax-register-lib',
    setup(b) {
      b.onResolve({ filter: /^ax-program-entry$/ }, () => ({ path: 'entry', namespace: 'ax-program' }));
      b.onLoad({ filter: /.*/, namespace: 'ax-program' }, () => ({
        contents: `import ${JSON.stringify(join(HERE, 'register-lib.ts'))};\nimport ${JSON.stringify(entryAbs)};\n`,
        loader: 'ts',
        resolveDir: dirname(entryAbs),
      }));
    },
  };
  const results = [
    await build({ ...cjsBase, entryPoints: [entryAbs], outfile: mainFile, plugins: [chunkPlugin({ lazy })] }),
  ];
  // only a program with lazy subtrees needs the registry (it keeps all of lib in the bundle)
  if (lazy.size)
    results[0] = await build({
      ...cjsBase,
      entryPoints: ['ax-program-entry'],
      outfile: mainFile,
      plugins: [register, chunkPlugin({ lazy })],
    });
  // lazy subtrees, and any they declare in turn
  const built = new Set();
  for (let more = true; more;) {
    more = false;
    for (const [src, chunk] of [...lazy]) {
      if (built.has(src)) continue;
      built.add(src);
      more = true;
      results.push(
        await build({
          ...cjsBase,
          entryPoints: [src],
          outfile: join(outDir, chunk),
          plugins: [sharedLib(), chunkPlugin({ inChunk: true, lazy })],
        }),
      );
    }
  }
  const main = readFileSync(mainFile);
  // the build's content hash covers the bundle and its lazy chunks: everything a tree is made of
  const lazyFiles = [...new Set(lazy.values())].sort();
  const h = createHash('sha256').update(main);
  for (const c of lazyFiles) h.update(readFileSync(join(outDir, c)));
  // whether the program can serve MCP at all (it bundles mountMcpServer): only then does a bare
  // `mcp-server` mean ax-ts's stdio server, which the entry serves in place (loader.cjs serveInPlace)
  const mcp = results.some((r) => Object.keys(r.metafile.inputs).some((f) => /(^|\/)mcp\/index\.[cm]?[jt]s$/.test(f)));
  const config = {
    main: basename(mainFile),
    name,
    hash: h.digest('hex').slice(0, 16),
    size: main.length,
    chunks: lazyFiles,
    mcp,
    answers: null,
  };
  const entryFile = writeEntry(outDir, name, config);
  if (precomputeAnswers) writeEntry(outDir, name, { ...config, answers: precompute(entryFile, outDir) });
  const metafile = { inputs: {}, outputs: {} };
  for (const r of results) {
    Object.assign(metafile.inputs, r.metafile.inputs);
    Object.assign(metafile.outputs, r.metafile.outputs);
  }
  return { metafile, entry: entryFile, main: mainFile, chunks: [...lazy.values()].map((c) => join(outDir, c)) };
}

/** Builds the heavy chunks (MCP runtime, HTTP stack, --args-json validator) into `<outDir>/chunks/`. */
export async function buildHeavyChunks(outDir) {
  mkdirSync(join(outDir, 'chunks'), { recursive: true });
  const results = await Promise.all(
    Object.entries(heavyChunks).map(([src, out]) =>
      build({ ...cjsBase, entryPoints: [src], outfile: join(outDir, out), plugins: [chunkPlugin({ inChunk: true })] }),
    ),
  );
  const metafile = { inputs: {}, outputs: {} };
  for (const r of results) {
    Object.assign(metafile.inputs, r.metafile.inputs);
    Object.assign(metafile.outputs, r.metafile.outputs);
  }
  return metafile;
}
