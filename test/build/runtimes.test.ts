/**
 * The cross-runtime suite (docs/shipping.md#every-way-to-ship-tested): bm (test/bench/projects/bm)
 * shipped the ways a program runs on any runtime — tsc output over npm's install, the same as a
 * CommonJS project, `ax-ts build`'s directory, esbuild's CommonJS and ESM bundles — each prepared
 * once by its docs/shipping.md recipe on the Node running the tests, then started on Node 22,
 * Node 26, Bun and Deno (`deno run -A`) and checked on every surface (test/helpers/surfaces.ts):
 * --help, --version, json commands, ctx.logger, readConfig, __schema, mcp-server over stdio and
 * HTTP with the SDK's client, and the --print-config block started as printed. The runtimes come
 * from AX_RUNTIMES (`.ci/run` installs them from the npm registry; test/helpers/runtimes.ts); a
 * missing one is skipped, its title saying so. `npm run test:runtimes` runs this file alone. Needs
 * `npm run build` first.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { REPO } from '../helpers/mcp.ts';
import { recipeEnv, recipes, runRecipe } from '../helpers/recipes.ts';
import { findTool, missing, type Tool } from '../helpers/runtimes.ts';
import { checkSurfaces, type Launch } from '../helpers/surfaces.ts';
import { copyBm, npmBm, packTarball } from '../helpers/user-project.ts';

/** The runtimes, and how each starts a script. */
const RUNTIMES: { tool: Tool; name: string; start: (bin: string, file: string) => Launch }[] = [
  { tool: 'node22', name: 'Node 22', start: (bin, file) => ({ command: bin, args: [file] }) },
  { tool: 'node26', name: 'Node 26', start: (bin, file) => ({ command: bin, args: [file] }) },
  { tool: 'bun', name: 'Bun', start: (bin, file) => ({ command: bin, args: [file] }) },
  { tool: 'deno', name: 'Deno', start: (bin, file) => ({ command: bin, args: ['run', '-A', file] }) },
];
/** The recipes whose result is a script any runtime starts (the others are a runtime's own). */
const PORTABLE = ['npm', 'ax-ts-build', 'esbuild-cjs', 'esbuild-esm'];

const tmp = mkdtempSync(join(tmpdir(), 'ax-runtimes-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
/** Each program, prepared once: the script a runtime starts, where, with which PATH. */
const programs = new Map<string, { file: string; cwd: string; path: string }>();
const anyRuntime = RUNTIMES.some((r) => findTool(r.tool) !== undefined);

beforeAll(() => {
  if (!anyRuntime) return;
  const tarball = packTarball(tmp);
  const compiled = join(tmp, 'compiled');
  npmBm(compiled, tarball);
  const cjs = join(tmp, 'commonjs');
  npmBm(cjs, tarball, [], true);
  programs.set('CommonJS tsc output', { file: join(cjs, 'dist/main.js'), cwd: cjs, path: process.env.PATH ?? '' });
  for (const r of recipes().filter((x) => PORTABLE.includes(x.name))) {
    const dir = join(tmp, r.name);
    copyBm(dir);
    cpSync(join(compiled, 'dist'), join(dir, 'dist'), { recursive: true });
    mkdirSync(join(tmp, 'npm-global'), { recursive: true });
    const env = recipeEnv(join(tmp, `${r.name}-tools`), process.execPath, {
      AX_TS: tarball,
      AX_TS_CHECKOUT: REPO,
      npm_config_prefix: join(tmp, 'npm-global'),
    });
    const launch = runRecipe(r, dir, env);
    programs.set(r.name, { file: launch.args.at(-1)!, cwd: launch.cwd!, path: launch.env!.PATH! });
  }
}, 900_000);

describe('every surface on every runtime', () => {
  for (const runtime of RUNTIMES) {
    const skip = missing(runtime.tool);
    describe.skipIf(skip !== undefined)(`${runtime.name}${skip ? ` (skipped: ${skip})` : ''}`, () => {
      for (const name of [...PORTABLE, 'CommonJS tsc output'])
        it(
          name,
          async () => {
            const p = programs.get(name)!;
            const launch = runtime.start(findTool(runtime.tool)!, p.file);
            await checkSurfaces({ ...launch, cwd: p.cwd, env: { PATH: p.path } }, `${name} on ${runtime.name}`);
          },
          300_000,
        );
    });
  }
});
