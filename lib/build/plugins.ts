/**
 * The esbuild plugins of `ax-ts build` (docs/shipping.md#what-a-build-writes): which dynamic imports
 * become chunks of their own, told apart by the package a module belongs to — ax-ts's own modules
 * whether ax-ts is this checkout or an installed package in any layout (npm, pnpm's store, yarn,
 * bun), and the program's own modules (its lazy subtrees).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import type { Plugin } from 'esbuild';

/** The package a file belongs to: its name and directory; undefined outside any package. */
export interface PackageOf {
  name: string | undefined;
  dir: string;
}

const packages = new Map<string, PackageOf | undefined>();

/** The nearest package.json above `file` (cached per directory). */
export function packageOf(file: string): PackageOf | undefined {
  const dir = dirname(file);
  if (packages.has(dir)) return packages.get(dir);
  let found: PackageOf | undefined;
  try {
    const name = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name;
    found = { name: typeof name === 'string' ? name : undefined, dir };
  } catch {
    found = dirname(dir) === dir ? undefined : packageOf(dir);
  }
  packages.set(dir, found);
  return found;
}

/**
 * The module of ax-ts a file is (`lib/parse/arguments`, `mcp/serve/runtime`: its path in the package,
 * without `dist/` and extension; `chunks/chunk-X`, `core`, `store`, `tools` for the shared code of the
 * published package, `vendor/jsonc-parser` for a package published inside it), or undefined when
 * the file is not part of ax-ts's library (`lib/`, `mcp/`, `golden/`, `frontends/` of the package
 * named `ax-ts`, and its built `dist/`).
 */
export function axTsModule(file: string): string | undefined {
  const pkg = packageOf(file);
  if (pkg?.name !== 'ax-ts') return undefined;
  const rel = relative(pkg.dir, file).split(sep).join('/');
  const built = rel.startsWith('dist/');
  const mod = rel.replace(/^dist\//, '');
  // the checkout's own tests and demo are programs like any other
  if (
    !/^(lib|mcp|golden|frontends)\//.test(mod) &&
    !(built && /^(chunks\/[^/]+\.js|(core|store|tools)\.js|vendor\/[^/]+\.cjs)$/.test(mod))
  )
    return undefined;
  return mod.slice(0, -extname(mod).length || undefined);
}

/**
 * The heavy parts of ax-ts, each a chunk of its own loaded only by the runs that need it: the MCP
 * runtime (the SDK, Ajv for tool arguments) by `mcp-server`, the HTTP stack (express) by
 * `--transport http`, the argument validator (Ajv) by `--args-json`, the OpenTelemetry exporter by
 * runs with an OTLP endpoint. Keyed by ax-ts module; the value is the chunk's file name.
 */
export const HEAVY_MODULES: Readonly<Record<string, string>> = {
  'mcp/serve/runtime': 'mcp-runtime.js',
  'mcp/transport/http': 'mcp-http.js',
  'lib/parse/arguments': 'arguments.js',
  'lib/observe/otel': 'otel.js',
  // the published package's copy of jsonc-parser (what `require('jsonc-parser')` is there)
  'vendor/jsonc-parser': 'jsonc-parser.js',
};

/** Packages ax-ts requires only for some runs (the logger, the JSONC parser, the Redis client): a chunk each. */
export const HEAVY_PACKAGES: Readonly<Record<string, string>> = {
  pino: 'pino.js',
  'jsonc-parser': 'jsonc-parser.js',
  redis: 'redis.js',
};

/**
 * The ESM build of the package whose main file is `main`, when its package.json names one
 * (`module`): a UMD main file (jsonc-parser's) hides its require()s from the bundler.
 */
function esmEntry(main: string): string | undefined {
  const pkg = packageOf(main);
  if (!pkg) return undefined;
  try {
    const m = (JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8')) as { module?: unknown }).module;
    return typeof m === 'string' ? join(pkg.dir, m) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The mark of a resolution one of these plugins asks esbuild for (to learn where a path leads): the
 * plugins let it through to esbuild's own resolver. One mark for all of them, so that two plugins
 * in one build never ask each other in turn, forever.
 */
const RESOLVING = 'ax-ts-build-resolving';

/** A chunk to build: what it is made from, and its file under `chunks/`. */
export interface ChunkJob {
  /** Absolute path of the module the chunk is built from. */
  source: string;
  /** File name under chunks/. */
  file: string;
  /** A lazy subtree of the program (shares the entry's copy of ax-ts) rather than a heavy part. */
  lazy: boolean;
}

/**
 * The chunk plugin: a dynamic import of a heavy module of ax-ts, a `require`/import of a heavy
 * package from ax-ts's code, or a dynamic import of one of the program's own modules (a lazy
 * subtree) resolves to its chunk file, as an external path relative to the importing output
 * (`./chunks/x.js` from the bundle, `./x.js` from a chunk). Each chunk met is added to `jobs`.
 */
export function chunkPlugin(jobs: Map<string, ChunkJob>, inChunk: boolean): Plugin {
  const out = (file: string) => (inChunk ? `./${file}` : `./chunks/${file}`);
  const add = (source: string, file: string, lazy: boolean) => {
    if (!jobs.has(source)) jobs.set(source, { source, file, lazy });
    return { path: out(jobs.get(source)!.file), external: true };
  };
  return {
    name: 'ax-ts-chunks',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (a) => {
        if (a.pluginData === RESOLVING) return undefined;
        const isPackage = Object.hasOwn(HEAVY_PACKAGES, a.path);
        if (a.kind !== 'dynamic-import' && a.kind !== 'require-call' && !isPackage) return undefined;
        const importerAxTs = a.importer ? axTsModule(a.importer) : undefined;
        if (isPackage && importerAxTs === undefined) return undefined; // the program's own use of the package
        const r = await b.resolve(a.path, {
          kind: a.kind,
          importer: a.importer,
          resolveDir: a.resolveDir,
          pluginData: RESOLVING,
        });
        if (r.errors.length > 0 || r.external || !r.path) return undefined;
        if (isPackage) return add(esmEntry(r.path) ?? r.path, HEAVY_PACKAGES[a.path]!, false);
        const mod = axTsModule(r.path);
        if (mod !== undefined)
          return Object.hasOwn(HEAVY_MODULES, mod) ? add(r.path, HEAVY_MODULES[mod]!, false) : undefined;
        if (a.kind === 'require-call') return undefined; // a lazy subtree is an import()
        if (packageOf(r.path)?.name !== undefined && r.path.includes(`${sep}node_modules${sep}`)) return undefined;
        // a lazy subtree of the program: its own chunk, named after the file and a hash of its path
        const hash = createHash('sha256').update(r.path).digest('hex').slice(0, 8);
        return add(r.path, `${basename(r.path, extname(r.path))}-${hash}.js`, true);
      });
    },
  };
}

/** How a lazy chunk reaches the entry's copy of ax-ts's public API. */
export const LIB_REGISTRY = 'globalThis[Symbol.for("ax-ts.bundle.lib")]';

/**
 * For a lazy subtree's chunk: its imports of ax-ts's public API read the entry's copy from a
 * registry instead of bundling another (one `Command` class, one tree generation).
 */
export function sharedLibPlugin(): Plugin {
  return {
    name: 'ax-ts-shared-lib',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (a) => {
        if (a.pluginData === RESOLVING || a.kind === 'entry-point') return undefined;
        const r = await b.resolve(a.path, {
          kind: a.kind,
          importer: a.importer,
          resolveDir: a.resolveDir,
          pluginData: RESOLVING,
        });
        if (r.errors.length > 0 || !r.path || axTsModule(r.path) !== 'lib/index') return undefined;
        return { path: 'ax-ts-lib', namespace: 'ax-ts-shared-lib' };
      });
      b.onLoad({ filter: /.*/, namespace: 'ax-ts-shared-lib' }, () => ({
        contents:
          `const lib = ${LIB_REGISTRY}; if (!lib) throw new Error('ax-ts: a ` +
          `lazy chunk was loaded outside its program'); module.exports = lib;`,
        loader: 'js',
      }));
    },
  };
}

/**
 * For the bundle of a program with lazy subtrees: a first module that puts the program's copy of
 * ax-ts's public API in the registry its lazy chunks read, then the program's entry.
 * `libIndex`: ax-ts's public API module as the program resolves it.
 */
export function registerLibPlugin(entry: string, libIndex: string): Plugin {
  return {
    name: 'ax-ts-register-lib',
    setup(b) {
      b.onResolve({ filter: /^ax-ts-program-entry$/ }, () => ({ path: 'entry', namespace: 'ax-ts-program' }));
      b.onLoad({ filter: /.*/, namespace: 'ax-ts-program' }, () => ({
        contents:
          `import * as lib from ${JSON.stringify(libIndex)};\n${LIB_REGISTRY} = lib;\n` +
          `require(${JSON.stringify(entry)});\n`,
        loader: 'js',
        resolveDir: dirname(entry),
      }));
    },
  };
}
