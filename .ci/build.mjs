// npm run build: the library for publication (bundled ESM + .d.ts under dist/, the `ax-ts` tool among it),
// then the demo program, built by the public `ax-ts build` command into dist/bin (not published).
import { buildLibrary } from './dist.mjs';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
rmSync(join(root, 'dist'), { recursive: true, force: true });

// 1. Library and the ax-ts tool: ESM bundled with code splitting (.ci/dist.mjs says how and why).
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const entries = Object.entries(pkg.exports).flatMap(([key, e]) =>
  typeof e === 'object' && e.import
    ? [
        {
          name: key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`,
          source: e.import.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts'),
        },
      ]
    : [],
);
await buildLibrary(root, entries);
const bin = join(root, 'dist/cmd/ax-ts/main.js');
chmodSync(bin, 0o755);

// 2. Declarations of the public entry points.
const tscFlags = [
  '--emitDeclarationOnly',
  '--declaration',
  '--outDir',
  'dist',
  '--rootDir',
  '.',
  '--strict',
  '--target',
  'ES2022',
  '--module',
  'NodeNext',
  '--moduleResolution',
  'NodeNext',
  '--types',
  'node',
  '--skipLibCheck',
  '--allowImportingTsExtensions',
  '--rewriteRelativeImportExtensions',
  '--verbatimModuleSyntax',
  '--resolveJsonModule',
];
// Of every entry point package.json exports (`./dist/<x>.d.ts` is declared from `<x>.ts`).
const entrySources = Object.values(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).exports)
  .flatMap((e) =>
    typeof e === 'object' && e.types ? [e.types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts')] : [],
  )
  .filter((a) => existsSync(join(root, a)));
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), ...tscFlags, ...entrySources], {
  cwd: root,
  stdio: 'inherit',
});

// 3. The demo, built as any user's program is: `ax-ts build` (docs/shipping.md).
execFileSync(
  process.execPath,
  [bin, 'build', 'cmd/tasks/main.ts', '--out-dir', 'dist/bin', '--name', 'tasks', '--metafile', '--format', 'json'],
  { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
);
console.error('build: dist/ ready');
