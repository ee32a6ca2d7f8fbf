/**
 * Runs a built program's bundle, and the chunks it requires (`./chunks/…`), through the code cache
 * (code-cache.ts). Compiled into the entry (entry.ts): Node built-ins only.
 *
 * A bare `__schema [--as=X]` that no manifest answered is one pass over the whole tree that ends
 * the process: V8's optimizing compiler (TurboFan) would compile the walk's hot functions on a
 * background thread for longer than the walk runs, and the process waits for those compile jobs
 * before it exits (docs/performance.md). So that run turns it off (`--no-turbofan`, set before any
 * of the program is compiled) and keeps its code cache under a variant of its own, since V8 rejects
 * a cache made under other flags (`AX_SCHEMA_NO_OPT=0`: leave V8's flags alone).
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Script } from 'node:vm';
import { schemaShape } from './answers.ts';
import { cacheSite, readCache, writeCaches } from './code-cache.ts';
import type { BuildFacts } from './facts.ts';

/** A CommonJS module record, as Node's own `require` keeps them. */
interface ModuleRecord {
  exports: unknown;
  id: string;
  filename: string;
  loaded: boolean;
  children: unknown[];
  paths: string[];
}

type ModuleFn = (exports: unknown, require: NodeJS.Require, module: ModuleRecord, file: string, dir: string) => void;

/**
 * Runs the bundle `facts.main` beside the entry (`dir`). `nodeRequire` and `paths`: the entry's own
 * `require` and module paths (what everything but a chunk is required through).
 */
export function runBundle(facts: BuildFacts, dir: string, nodeRequire: NodeJS.Require, paths: string[]): void {
  const vm = process.getBuiltinModule('node:vm');
  const noOpt = schemaShape(process.argv.slice(2)) !== undefined && process.env.AX_SCHEMA_NO_OPT !== '0';
  if (noOpt) process.getBuiltinModule('node:v8').setFlagsFromString('--no-turbofan'); // `--no-opt` is its alias
  const file = join(dir, facts.main);
  const site = cacheSite(facts.name, facts.hash, file, noOpt ? '-noopt' : '');
  const stale: [string, Script][] = []; // [tag, script] to write at exit
  /** Compiles one script (through its cache file when there is a usable one) and returns its module function. */
  const compile = (scriptFile: string, tag: string): ModuleFn => {
    let src = readFileSync(scriptFile, 'utf8');
    if (src.startsWith('#!')) src = `//${src.slice(2)}`; // a shebang is no statement inside the wrapper
    const data = site && readCache(site, tag);
    const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${src}\n})`, {
      filename: scriptFile,
      cachedData: data,
    });
    if (site && (data === undefined || script.cachedDataRejected === true)) stale.push([tag, script]);
    return script.runInThisContext() as ModuleFn;
  };
  const chunkDir = join(dir, 'chunks');
  const chunks = new Map<string, ModuleRecord>();
  /** `require` for a script: its chunks through the cache, everything else as Node resolves it. */
  const requireFrom = (from: string): NodeJS.Require => {
    const r = ((id: string) => {
      const target = id.startsWith('./') || id.startsWith('../') ? join(from, id) : undefined;
      if (!target || dirname(target) !== chunkDir || !target.endsWith('.js')) return nodeRequire(id);
      let m = chunks.get(target);
      if (m) return m.exports;
      m = { exports: {}, id: target, filename: target, loaded: false, children: [], paths };
      chunks.set(target, m);
      (nodeRequire.cache as Record<string, unknown>)[target] = m; // one module per file, whoever asks for it
      compile(target, `.${basename(target, '.js')}`).call(
        m.exports,
        m.exports,
        requireFrom(chunkDir),
        m,
        target,
        chunkDir,
      );
      m.loaded = true;
      return m.exports;
    }) as NodeJS.Require;
    r.resolve = nodeRequire.resolve;
    r.cache = nodeRequire.cache;
    return r;
  };
  if (site) {
    process.once('exit', (code) => {
      if (code !== 0 || stale.length === 0) return; // only a successful run's compiled code is worth keeping
      try {
        writeCaches(
          site,
          stale.map(([tag, script]) => [tag, script.createCachedData()]),
        );
      } catch {
        /* unwritable: run uncached next time too */
      }
    });
  }
  const m: ModuleRecord = { exports: {}, id: file, filename: file, loaded: false, children: [], paths };
  compile(file, '').call(m.exports, m.exports, requireFrom(dir), m, file, dir);
}
