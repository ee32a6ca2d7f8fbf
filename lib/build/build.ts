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
import { vcsRevision } from '../platform/revision.ts';
import { buildSingleFile } from './single-file.ts';
import { loadEsbuild, run } from './bundler.ts';
import { buildFailed } from './errors.ts';
import { entryText, type BuildFacts } from './facts.ts';
import { writeSchemaManifest, type ManifestResult } from './manifest.ts';
import type { BuildOptions, BuildResult } from './options.ts';

export type { BuildOptions, BuildResult } from './options.ts';
import { axTsModule, chunkPlugin, registerLibPlugin, sharedLibPlugin, type ChunkJob } from './plugins.ts';
import { precompute } from './precompute.ts';
import { entryForCommonJs, entryPlugin } from './top-level-await.ts';

/**
 * The compiled entry (entry.ts): compiled here when ax-ts runs from its sources; in the published
 * package, the copy its build compiled (`dist/lib/build/entry.cjs`, found from the chunk this code is in).
 */
async function entryCode(es: typeof esbuild): Promise<string> {
  const url: unknown = import.meta.url;
  const here = typeof url === 'string' && url.startsWith('file:') ? dirname(fileURLToPath(url)) : undefined;
  if (here && existsSync(join(here, 'entry.ts'))) {
    const compiled = await run(es, {
      entryPoints: [join(here, 'entry.ts')],
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node22',
      minify: true,
      write: false,
    });
    return compiled.outputFiles![0]!.text;
  }
  for (let d = here; d && dirname(d) !== d; d = dirname(d)) {
    const f = join(d, 'lib/build/entry.cjs');
    if (existsSync(f)) return readFileSync(f, 'utf8');
  }
  throw new AxError(
    'internal_error',
    `ax-ts build: the program entry's code is missing (looked above ${here ?? 'an unknown module'})`,
    {
      fix: 'Reinstall ax-ts.',
    },
  );
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
 *   not a file name), the entry is missing or the output directory is another package's;
 *   build_failed (exit 1) when esbuild is missing, bundling fails, or the built
 *   program fails to answer `__schema` for the manifest.
 */
export async function buildProgram(options: BuildOptions): Promise<BuildResult> {
  const cwd = options.cwd ?? process.cwd();
  for (const key of ['entry', 'outDir', 'name', 'version', 'revision', 'cwd'] as const) {
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
  const revision = options.revision ?? vcsRevision(dirname(entry));
  const es = await loadEsbuild();
  const entryAwait = entryPlugin(entry, await entryForCommonJs(es, entry));
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
      ...(revision !== undefined ? { AX_PROGRAM_REVISION: JSON.stringify(revision) } : {}),
    },
    banner: { js: 'var __axMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
    // import() of a chunk becomes a require: the entry runs the bundle through vm.Script, which has no ESM loader
    supported: { 'dynamic-import': false },
    plugins: [entryAwait],
  };
  if (options.singleFile === true)
    return buildSingleFile(es, base, { entry, outDir, name, version, revision, metafile: options.metafile === true });
  prepareOutDir(outDir);
  const jobs = new Map<string, ChunkJob>();
  const mainFile = join(outDir, `${name}.main.js`);
  const results = [
    await run(es, {
      ...base,
      entryPoints: [entry],
      outfile: mainFile,
      plugins: [entryAwait, chunkPlugin(jobs, false)],
    }),
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
        plugins: [entryAwait, registerLibPlugin(entry, libIndex), chunkPlugin(jobs, false)],
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
  const code = await entryCode(es);
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
    revision,
    precomputed: answered,
    manifest,
    metafile,
  };
}
