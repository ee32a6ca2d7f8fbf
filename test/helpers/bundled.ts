/**
 * A test fixture built as users ship a program: `buildProgram` of `ax-ts/build` (entry, bundle,
 * chunks), without precomputed answers or a schema manifest unless asked for.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProgram, type BuildResult } from '../../lib/build/index.ts';
import { REPO } from './mcp.ts';

/**
 * Builds `fixture` (a path from the repository root) as program `name` into `dir` (default: a new
 * temporary directory named after `prefix`). @returns the entry file, the directory and the build.
 */
export async function bundledFixture(
  fixture: string,
  name: string,
  opts: { prefix?: string; dir?: string; precompute?: boolean; version?: string } = {},
): Promise<{ entry: string; dir: string; build: BuildResult }> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), opts.prefix ?? 'ax-bundled-'));
  const build = await buildProgram({
    entry: fixture,
    cwd: REPO,
    outDir: dir,
    name,
    precompute: opts.precompute ?? false,
    version: opts.version,
  });
  return { entry: build.entry, dir, build };
}
