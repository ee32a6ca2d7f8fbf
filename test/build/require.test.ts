/**
 * `require('ax-ts')`: bm (test/bench/projects/bm) as a CommonJS project, compiled by tsc into
 * `require()` calls of ax-ts, ax-ts/config and ax-ts/mcp (docs/shipping.md#commonjs), against
 * `npm pack` of this checkout; the program holds on every surface (test/helpers/surfaces.ts) on the
 * Node running the tests; test/build/runtimes.test.ts runs it on Node 22, Node 26, Bun and Deno.
 * Needs `npm run build` first (npm test does it).
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSurfaces } from '../helpers/surfaces.ts';
import { npmBm, packTarball } from '../helpers/user-project.ts';

const tmp = mkdtempSync(join(tmpdir(), 'ax-require-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const dir = join(tmp, 'bm');

beforeAll(() => npmBm(dir, packTarball(tmp), [], true), 600_000);

describe('a CommonJS program', () => {
  it('is what tsc made of it: require() of each ax-ts entry', () => {
    const cli = readFileSync(join(dir, 'dist/cli.js'), 'utf8');
    for (const entry of ['ax-ts', 'ax-ts/config', 'ax-ts/mcp']) expect(cli).toContain(`require("${entry}")`);
    expect(cli).not.toMatch(/\bimport\(|^import /m);
  });

  it('holds on every surface', async () => {
    await checkSurfaces({ command: process.execPath, args: [join(dir, 'dist/main.js')] }, 'CommonJS tsc output');
  }, 300_000);
});
