/**
 * Every way to ship a program, as docs/shipping.md#every-way-to-ship-tested says it: each recipe of
 * the page, read from the page and run line by line (test/helpers/recipes.ts) on bm, the
 * user-shaped CLI of test/bench/projects/bm compiled by tsc, with ax-ts from `npm pack` of this
 * checkout ($AX_TS) or the checkout itself ($AX_TS_CHECKOUT); then every surface of what it started
 * (test/helpers/surfaces.ts): --help, --version, json commands, ctx.logger, readConfig, __schema,
 * mcp-server over stdio and HTTP with the SDK's client, and the --print-config block started as
 * printed. Installers and runtimes other than npm and this Node come from AX_RUNTIMES
 * (test/helpers/runtimes.ts); a recipe whose tools are missing is skipped, saying which. Needs
 * `npm run build` first (npm test does it).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/mcp.ts';
import { recipeEnv, recipeMissing, recipes, runRecipe } from '../helpers/recipes.ts';
import { findTool } from '../helpers/runtimes.ts';
import { checkSurfaces } from '../helpers/surfaces.ts';
import { copyBm, npmBm, packTarball } from '../helpers/user-project.ts';

const tmp = mkdtempSync(join(tmpdir(), 'ax-recipes-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let tarball: string;
const compiled = join(tmp, 'compiled');

beforeAll(() => {
  tarball = packTarball(tmp);
  npmBm(compiled, tarball); // the tsc output every recipe starts from
}, 600_000);

describe('docs/shipping.md: every recipe, on every surface', () => {
  it('the page has a recipe for each way the docs name', () => {
    expect(recipes().map((r) => r.name)).toEqual([
      'npm',
      'pnpm',
      'pnpm-global-store',
      'yarn',
      'bun',
      'deno',
      'checkout',
      'npm-link',
      'ax-ts-build',
      'esbuild-cjs',
      'esbuild-esm',
      'single-file',
      'bun-compile',
      'sea-postject',
      'sea-build',
    ]);
  });

  for (const r of recipes()) {
    const skip = recipeMissing(r);
    it.skipIf(skip !== undefined)(
      `${r.name}${skip ? ` (skipped: ${skip})` : ''}`,
      async () => {
        const dir = join(tmp, r.name);
        copyBm(dir);
        cpSync(join(compiled, 'dist'), join(dir, 'dist'), { recursive: true });
        mkdirSync(join(tmp, 'npm-global'), { recursive: true });
        const env = recipeEnv(join(tmp, `${r.name}-tools`), r.node ? findTool(r.node)! : process.execPath, {
          AX_TS: tarball,
          AX_TS_CHECKOUT: REPO,
          npm_config_prefix: join(tmp, 'npm-global'), // npm link's global folder: this test's own
        });
        const launch = runRecipe(r, dir, env);
        await checkSurfaces(launch, r.name);
      },
      600_000,
    );
  }
});
