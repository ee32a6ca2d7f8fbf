/**
 * `ax-ts build --single-file`: the program as ONE CommonJS file, `<outDir>/<name>.cjs`, holding the
 * program and everything it loads — what a single executable application (Node SEA) embeds, what
 * `bun build --compile` takes, or one file to copy (docs/shipping.md#one-file). Every dynamic
 * import is inlined (a SEA's `require` loads only Node's built-ins, and nothing lies beside the
 * binary); a package that is not installed and that ax-ts loads only on demand (the Redis client,
 * the OpenTelemetry SDK) stays an import that fails, when used, with the error naming it. There is
 * no entry of its own: no precomputed answers, no code cache, stdio served by the supervisor.
 */
import type * as esbuild from 'esbuild';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './bundler.ts';
import type { BuildResult } from './options.ts';

/** What a single-file build needs from `buildProgram`'s options, resolved. */
export interface SingleFileJob {
  entry: string;
  outDir: string;
  name: string;
  version: string | undefined;
  revision: string | undefined;
  metafile: boolean;
}

/** Builds `<outDir>/<name>.cjs` with `base` (the build's esbuild options: define, banner, minify). */
export async function buildSingleFile(
  es: typeof esbuild,
  base: esbuild.BuildOptions,
  job: SingleFileJob,
): Promise<BuildResult> {
  mkdirSync(job.outDir, { recursive: true });
  const file = join(job.outDir, `${job.name}.cjs`);
  const r = await run(es, {
    ...base,
    entryPoints: [job.entry],
    outfile: file,
    banner: { js: `#!/usr/bin/env node\n${String(base.banner?.js ?? '')}` },
  });
  // esbuild keeps the entry's own shebang too: one is enough
  const text = readFileSync(file, 'utf8');
  const second = text.indexOf('\n#!');
  if (second !== -1) writeFileSync(file, text.slice(0, second + 1) + text.slice(text.indexOf('\n', second + 1) + 1));
  chmodSync(file, 0o755);
  if (job.metafile) writeFileSync(join(job.outDir, `${job.name}.meta.json`), JSON.stringify(r.metafile));
  return {
    entry: file,
    main: file,
    chunks: [],
    lazyChunks: [],
    version: job.version,
    revision: job.revision,
    precomputed: [],
    manifest: undefined,
    metafile: r.metafile!,
  };
}
