/**
 * A user's project, as the shipping tests make it: `npm pack` of this checkout, and bm (the
 * user-shaped CLI of test/bench/projects/bm: a group, typed positionals, a prompt, a resource,
 * ctx.logger, readConfig, mountMcpServer) compiled by `tsc` against the installed package.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './mcp.ts';

/** npm's chatter off, for every npm the tests run. */
export const QUIET_NPM: Record<string, string> = {
  npm_config_loglevel: 'error',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
  npm_config_update_notifier: 'false',
};

/** `npm pack` of the checkout into `dir`. @returns the tarball's path. Needs `npm run build` first. */
export function packTarball(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', dir], {
      cwd: REPO,
      encoding: 'utf8',
      env: { ...process.env, ...QUIET_NPM },
    }),
  ) as { filename: string }[];
  return join(dir, packed[0]!.filename);
}

/** bm's sources (package.json, tsconfig.json, src/) copied into `dir`. */
export function copyBm(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const f of ['package.json', 'tsconfig.json', 'src'])
    cpSync(join(REPO, 'test/bench/projects/bm', f), join(dir, f), { recursive: true });
}

/**
 * bm in `dir` with ax-ts installed by npm from `tarball` and compiled by the checkout's TypeScript
 * into `dir/dist` (what `npx tsc -p .` gives a user). `extra`: more packages to install with it.
 * `commonjs`: bm as a CommonJS project (its package.json `"type": "commonjs"`, `__filename` where
 * the ESM sources say `import.meta.url`), so that tsc's output calls `require('ax-ts')`.
 */
export function npmBm(dir: string, tarball: string, extra: string[] = [], commonjs = false): void {
  copyBm(dir);
  if (commonjs) {
    const edit = (f: string, from: string, to: string) => {
      const text = readFileSync(join(dir, f), 'utf8');
      if (!text.includes(from)) throw new Error(`bm's ${f} no longer says ${from}`);
      writeFileSync(join(dir, f), text.replaceAll(from, to));
    };
    edit('package.json', '"type": "module"', '"type": "commonjs"');
    edit('src/cli.ts', 'import.meta.url', '__filename');
  }
  execFileSync('npm', ['install', '--prefer-offline', '--no-package-lock', tarball, ...extra], {
    cwd: dir,
    env: { ...process.env, ...QUIET_NPM },
    timeout: 300_000,
  });
  execFileSync(
    process.execPath,
    [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', '.', '--typeRoots', join(REPO, 'node_modules/@types')],
    { cwd: dir, timeout: 300_000 },
  );
}
