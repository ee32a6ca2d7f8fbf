/**
 * The benchmark's user-shaped programs (docs/performance.md#a-users-cli): bm (test/bench/projects/bm,
 * public API only) and its commander and citty twins, each shipped the way its own docs say — plain
 * `tsc` output over an npm install, and one bundle: `ax-ts build` for bm, an esbuild ESM bundle for
 * the twins. ax-ts comes from `npm pack` of this checkout (what a user installs), commander and citty
 * at the versions the checkout has installed. Plain Node ESM, imported by run.mjs.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const QUIET = {
  npm_config_loglevel: 'error',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
  npm_config_update_notifier: 'false',
};

/** The version of `pkg` installed in the checkout. */
const installed = (root, pkg) =>
  JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version;

/**
 * Prepares the seven programs under `dir` (a fresh directory) from the checkout at `root` (built).
 * @returns the script of each: `bm`, `bmBuilt`, `commander`, `commanderAx` (the same program with
 *   `withAx`), `commanderBundle`, `citty`, `cittyBundle`;
 *   and `store`, a bookmarks file of 20 links for `link list`.
 */
export async function prepareUser(root, dir) {
  const env = { ...process.env, ...QUIET };
  mkdirSync(dir, { recursive: true });
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: root, encoding: 'utf8', env }),
  );
  const tarball = join(dir, packed[0].filename);
  const project = (name, deps) => {
    const d = join(dir, name);
    mkdirSync(d, { recursive: true });
    for (const f of ['package.json', 'tsconfig.json', 'src'])
      cpSync(join(root, 'test/bench/projects', name, f), join(d, f), { recursive: true });
    execFileSync('npm', ['install', '--prefer-offline', '--no-package-lock', ...deps], { cwd: d, env });
    execFileSync(
      process.execPath,
      [join(root, 'node_modules/typescript/bin/tsc'), '-p', '.', '--typeRoots', join(root, 'node_modules/@types')],
      { cwd: d },
    );
    return d;
  };
  const bm = project('bm', [tarball, `esbuild@${installed(root, 'esbuild')}`]);
  // the commander twin also with ax-ts (its main-ax.ts installs the commander front end)
  const commander = project('bm-commander', [tarball, `commander@${installed(root, 'commander')}`]);
  const citty = project('bm-citty', [`citty@${installed(root, 'citty')}`]);
  // bm's one bundle: the installed `ax-ts build`, as docs/shipping.md says
  execFileSync(process.execPath, [join(bm, 'node_modules/ax-ts/dist/cmd/ax-ts/main.js'), 'build', 'src/main.ts'], {
    cwd: bm,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // the twins' one bundle: esbuild, ESM (their sources read ../package.json from import.meta.url)
  const bundle = async (d) => {
    await build({
      absWorkingDir: d,
      entryPoints: [join(d, 'src/main.ts')],
      outfile: join(d, 'out/main.mjs'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      minify: true,
      logLevel: 'warning',
      banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    });
    return join(d, 'out/main.mjs');
  };
  const store = join(dir, 'bm-store.json');
  writeFileSync(
    store,
    JSON.stringify(
      Array.from({ length: 20 }, (_, i) => ({
        id: i + 1,
        url: `https://example.org/${i + 1}`,
        title: `link ${i + 1}`,
        tags: i % 2 ? ['work'] : [],
      })),
    ),
  );
  return {
    bm: join(bm, 'dist/main.js'),
    bmBuilt: join(bm, 'dist/bin/main.js'),
    commander: join(commander, 'dist/main.js'),
    commanderAx: join(commander, 'dist/main-ax.js'),
    commanderBundle: await bundle(commander),
    citty: join(citty, 'dist/main.js'),
    cittyBundle: await bundle(citty),
    store,
  };
}
