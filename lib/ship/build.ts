/**
 * `buildProgram`: a program built with ax-ts, bundled as it should ship (docs/shipping.md):
 *   <name>.js       the entry (entry.ts compiled, with this build's facts): precomputed answers,
 *                   the schema manifest, serving stdio in place, the V8 code cache
 *   <name>.main.js  the program, one minified CommonJS file
 *   chunks/…        what only some runs need, loaded on demand: ax-ts's heavy parts (plugins.ts)
 *                   and the program's lazy subtrees
 *   <name>.schema/  the schema manifest
 * esbuild does the bundling: an optional peer dependency of ax-ts, needed at build time only.
 */
import type * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxError } from '../contract/errors.ts';
import { packageVersionFrom } from '../platform/version.ts';
import { buildFailed } from './errors.ts';
import { entryText, type BuildFacts } from './facts.ts';
import { writeSchemaManifest, type ManifestResult } from './manifest.ts';
import { axTsModule, chunkPlugin, registerLibPlugin, sharedLibPlugin, type ChunkJob } from './plugins.ts';
import { precompute } from './precompute.ts';

/** Options of {@link buildProgram}. */
export interface BuildOptions {
  /** The program's entry module: TypeScript or JavaScript, ESM or CommonJS, with or without a shebang. */
  entry: string;
  /** Where the program goes (created if missing). Default `dist/bin` under `cwd`. */
  outDir?: string;
  /** The program's name: the entry file is `<name>.js`. Default: the entry's file name without extension. */
  name?: string;
  /**
   * The version embedded in the program (what `resolveVersion` returns in it, without reading any
   * file). Default: the nearest package.json above the entry with a real version; none found: the
   * program resolves its version at run time, as unbundled.
   */
  version?: string;
  /**
   * Precompute the answers to a bare `--help` and `--version`, and write the schema manifest
   * (docs/shipping.md#precomputed-answers). Only for a program whose tree, help and schema do not
   * depend on its environment (answers that differ between two environments are dropped
   * either way). Default true.
   */
  precompute?: boolean;
  /** Also write esbuild's metafile of every output to `<outDir>/<name>.meta.json` (for bundle analysis). Default false. */
  metafile?: boolean;
  /** Directory relative paths are resolved against. Default `process.cwd()`. */
  cwd?: string;
}

/** What {@link buildProgram} wrote. */
export interface BuildResult {
  /** The entry file to run (`node <entry>`, or directly: it starts with `#!/usr/bin/env node`). */
  entry: string;
  /** The bundle. */
  main: string;
  /** Every chunk, heavy parts and lazy subtrees. */
  chunks: string[];
  /** The lazy subtrees' chunks. */
  lazyChunks: string[];
  /** The embedded version, if any. */
  version: string | undefined;
  /** Which answers were precomputed (`help`, `version`). */
  precomputed: string[];
  /** The schema manifest written, if any. */
  manifest: ManifestResult | undefined;
  /** esbuild's metafile of every output (inputs and outputs, merged). */
  metafile: esbuild.Metafile;
}

/** esbuild, or build_failed naming the package to install. */
async function loadEsbuild(): Promise<typeof esbuild> {
  try {
    return await import('esbuild');
  } catch (e) {
    throw buildFailed(`ax-ts build needs the esbuild package, which could not be loaded: ${(e as Error).message}`, {
      fix: 'Install it next to ax-ts: npm install --save-dev esbuild',
      context: { reason: 'missing_dependency', package: 'esbuild' },
    });
  }
}

/** The compiled entry source: entry.ts here, entry.js in the published package. */
function entrySource(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const f of ['entry.ts', 'entry.js']) if (existsSync(join(here, f))) return join(here, f);
  throw new AxError('internal_error', `ax-ts build: the program entry's source is missing beside ${here}`, {
    fix: 'Reinstall ax-ts.',
  });
}

/** Runs one esbuild build; its errors become build_failed. */
async function run(es: typeof esbuild, options: esbuild.BuildOptions): Promise<esbuild.BuildResult> {
  try {
    return await es.build({ ...options, logLevel: 'silent' });
  } catch (e) {
    const errors = ((e as { errors?: esbuild.Message[] }).errors ?? []).map(
      (m) => `${m.location ? `${m.location.file}:${m.location.line}: ` : ''}${m.text}`,
    );
    throw buildFailed(`the program could not be bundled: ${errors[0] ?? (e as Error).message}`, {
      fix: 'Fix the error in the program (or install the package it names), then build again.',
      context: { reason: 'bundle_failed', errors },
    });
  }
}

/** A directory for the program's files: `outDir` must not hold another package.json than the build's own. */
function prepareOutDir(outDir: string): void {
  mkdirSync(join(outDir, 'chunks'), { recursive: true });
  const pkg = join(outDir, 'package.json');
  const ours = `${JSON.stringify({ type: 'commonjs', private: true }, null, 2)}\n`;
  if (existsSync(pkg) && readFileSync(pkg, 'utf8') !== ours)
    throw new AxError('validation_error', `${outDir} holds a package.json of its own`, {
      fix: 'Build into a directory of its own (--out-dir): the build marks it CommonJS with a package.json.',
      context: { reason: 'out_dir_taken', out_dir: outDir },
    });
  writeFileSync(pkg, ours);
}

/**
 * Builds a program (see the module comment).
 * @throws AxError validation_error (exit 2) when an option is not a non-empty string (or the name
 *   not a file name), the entry is missing or the output directory is another package's; build_failed (exit 1) when esbuild is missing, bundling fails, or the built
 *   program fails to answer `__schema` for the manifest.
 */
export async function buildProgram(options: BuildOptions): Promise<BuildResult> {
  const cwd = options.cwd ?? process.cwd();
  for (const key of ['entry', 'outDir', 'name', 'version', 'cwd'] as const) {
    const v: unknown = options[key];
    if ((v !== undefined || key === 'entry') && (typeof v !== 'string' || v.trim() === ''))
      throw new AxError('validation_error', `buildProgram: ${key} must be a non-empty string`, {
        fix: `Pass ${key} as a string${key === 'entry' ? ", the program's entry module (e.g. src/cli.ts)" : ' or leave it out'}.`,
        context: { reason: 'invalid_option', option: key },
      });
  }
  if (options.name !== undefined && !/^[A-Za-z0-9._-]+$/.test(options.name))
    throw new AxError('validation_error', `the name ${JSON.stringify(options.name)} is not a file name`, {
      fix: 'Pass a name of letters, digits, dots, dashes and underscores (it names <name>.js).',
      context: { reason: 'invalid_option', option: 'name' },
    });
  const entry = resolve(cwd, options.entry);
  if (!existsSync(entry) || !statSync(entry).isFile())
    throw new AxError('validation_error', `the entry ${JSON.stringify(options.entry)} is not a file`, {
      fix: "Pass the program's entry module, e.g. src/cli.ts.",
      context: { reason: 'missing_entry', entry },
    });
  const outDir = resolve(cwd, options.outDir ?? 'dist/bin');
  const name = options.name ?? basename(entry, extname(entry));
  const version = options.version ?? packageVersionFrom(entry);
  const es = await loadEsbuild();
  prepareOutDir(outDir);
  const base: esbuild.BuildOptions = {
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    metafile: true,
    // smaller code compiles faster at every start; no keepNames: nothing reads a function's name,
    // and it costs a defineProperty per closure (docs/performance.md)
    minify: true,
    define: {
      'import.meta.url': '__axMetaUrl',
      ...(version !== undefined ? { AX_PROGRAM_VERSION: JSON.stringify(version) } : {}),
    },
    banner: { js: 'var __axMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
    // import() of a chunk becomes a require: the entry runs the bundle through vm.Script, which has no ESM loader
    supported: { 'dynamic-import': false },
  };
  const jobs = new Map<string, ChunkJob>();
  const mainFile = join(outDir, `${name}.main.js`);
  const results = [
    await run(es, { ...base, entryPoints: [entry], outfile: mainFile, plugins: [chunkPlugin(jobs, false)] }),
  ];
  // a program with lazy subtrees puts its copy of ax-ts's public API where their chunks find it
  if ([...jobs.values()].some((j) => j.lazy)) {
    const libIndex = Object.keys(results[0]!.metafile!.inputs)
      .map((f) => resolve(f))
      .find((f) => axTsModule(f) === 'lib/index');
    if (libIndex) {
      jobs.clear();
      results[0] = await run(es, {
        ...base,
        entryPoints: ['ax-ts-program-entry'],
        outfile: mainFile,
        plugins: [registerLibPlugin(entry, libIndex), chunkPlugin(jobs, false)],
      });
    }
  }
  const built = new Set<string>();
  for (let more = true; more;) {
    more = false;
    for (const job of [...jobs.values()]) {
      if (built.has(job.source)) continue;
      built.add(job.source);
      more = true;
      results.push(
        await run(es, {
          ...base,
          entryPoints: [job.source],
          outfile: join(outDir, 'chunks', job.file),
          plugins: [...(job.lazy ? [sharedLibPlugin()] : []), chunkPlugin(jobs, true)],
        }),
      );
    }
  }
  const lazyChunks = [...jobs.values()]
    .filter((j) => j.lazy)
    .map((j) => `chunks/${j.file}`)
    .sort();
  // the build's content hash covers the bundle and its lazy chunks: everything a tree is made of
  const main = readFileSync(mainFile);
  const h = createHash('sha256').update(main);
  for (const c of lazyChunks) h.update(readFileSync(join(outDir, c)));
  const metafile: esbuild.Metafile = { inputs: {}, outputs: {} };
  for (const r of results) {
    Object.assign(metafile.inputs, r.metafile!.inputs);
    Object.assign(metafile.outputs, r.metafile!.outputs);
  }
  if (options.metafile) writeFileSync(join(outDir, `${name}.meta.json`), JSON.stringify(metafile));
  const facts: BuildFacts = {
    main: basename(mainFile),
    name,
    hash: h.digest('hex').slice(0, 16),
    size: main.length,
    chunks: lazyChunks,
    // a bare `mcp-server` means ax-ts's stdio server only when the program mounts it
    mcp: Object.keys(metafile.inputs).some((f) => axTsModule(resolve(f)) === 'mcp/index'),
    version: version ?? '',
    answers: null,
  };
  const compiled = await run(es, {
    entryPoints: [entrySource()],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    write: false,
  });
  const code = compiled.outputFiles![0]!.text;
  const entryFile = join(outDir, `${name}.js`);
  const writeEntry = (f: BuildFacts) => {
    writeFileSync(entryFile, entryText(f, code));
    chmodSync(entryFile, 0o755);
  };
  writeEntry(facts);
  let manifest: ManifestResult | undefined;
  let answered: string[] = [];
  if (options.precompute !== false) {
    const answers = precompute(entryFile);
    answered = Object.keys(answers);
    writeEntry({ ...facts, answers });
    // the manifest only for a program whose help does not depend on its environment
    if (answers.help !== undefined) {
      try {
        manifest = await writeSchemaManifest(entryFile);
      } catch (e) {
        throw buildFailed(`the built program did not answer __schema: ${(e as Error).message}`, {
          fix: 'Run the built program with __schema to see why; build with --precompute=false to skip the manifest.',
          context: { reason: 'program_failed', entry: entryFile },
        });
      }
    }
  }
  return {
    entry: entryFile,
    main: mainFile,
    chunks: [...jobs.values()].map((j) => join(outDir, 'chunks', j.file)),
    lazyChunks: lazyChunks.map((c) => join(outDir, c)),
    version,
    precomputed: answered,
    manifest,
    metafile,
  };
}
