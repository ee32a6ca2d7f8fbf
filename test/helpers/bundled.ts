/**
 * A test fixture bundled as users ship a program (.ci/bundle.mjs `buildProgram`: entry, bundle,
 * lazy chunks), with the heavy chunks (MCP runtime, `--args-json` validator) copied from dist/bin as
 * shipped. Requires `npm run build` (npm test runs it first).
 */
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './mcp.ts';

/**
 * Bundles `fixture` (a path from the repository root) as program `name` into `dir` (default: a new
 * temporary directory named after `prefix`). @returns the entry file and the directory.
 */
export async function bundledFixture(
  fixture: string,
  name: string,
  opts: { prefix?: string; dir?: string } = {},
): Promise<{ entry: string; dir: string }> {
  const { buildProgram } = (await import('../../.ci/bundle.mjs')) as {
    buildProgram(o: { entry: string; outDir: string; name: string }): Promise<{ entry: string }>;
  };
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), opts.prefix ?? 'ax-bundled-'));
  cpSync(join(REPO, 'dist/bin/chunks'), join(dir, 'chunks'), { recursive: true });
  return { entry: (await buildProgram({ entry: fixture, outDir: dir, name })).entry, dir };
}
