/**
 * The options and the result of `buildProgram` (build.ts), apart so that each way of building
 * (single-file.ts among them) can name them (docs/shipping.md).
 */
import type * as esbuild from 'esbuild';
import type { ManifestResult } from './manifest.ts';

/** Options of `buildProgram`. */
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
  /**
   * The version-control revision embedded in the program, what `resolveVersion` falls back to when
   * it has no version (docs/shipping.md#the-version). Default: the commit of the Git work tree the
   * entry is in, `-dirty` appended when `git status --porcelain` lists anything; none outside one.
   */
  revision?: string;
  /**
   * Write the program as ONE CommonJS file, `<outDir>/<name>.cjs`, holding the program and
   * everything it loads: no entry of its own, no chunks, no precomputed answers, no code cache. For
   * a single executable application (Node SEA) or `bun build --compile`, or to copy one file
   * (docs/shipping.md#one-file). Default false.
   */
  singleFile?: boolean;
  /**
   * Also write esbuild's metafile of every output to `<outDir>/<name>.meta.json` (for bundle
   * analysis). Default false.
   */
  metafile?: boolean;
  /** Directory relative paths are resolved against. Default `process.cwd()`. */
  cwd?: string;
}

/** What `buildProgram` wrote. */
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
  /** The embedded version-control revision, if any. */
  revision: string | undefined;
  /** Which answers were precomputed (`help`, `version`). */
  precomputed: string[];
  /** The schema manifest written, if any. */
  manifest: ManifestResult | undefined;
  /** esbuild's metafile of every output (inputs and outputs, merged). */
  metafile: esbuild.Metafile;
}
