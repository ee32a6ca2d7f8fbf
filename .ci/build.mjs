// npm run build: the library for publication (ESM + .d.ts under dist/, the `ax-ts` tool among it),
// then the demo program, built by the public `ax-ts build` command into dist/bin (not published).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const list = (dir) =>
  readdirSync(join(root, dir)).flatMap((n) => {
    const p = join(dir, n);
    return statSync(join(root, p)).isDirectory() ? list(p) : p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });

rmSync(join(root, 'dist'), { recursive: true, force: true });

// 1. Library and the ax-ts tool: one ESM file per module, imports rewritten from .ts to .js.
await build({
  absWorkingDir: root,
  entryPoints: [
    ...list('lib'),
    ...list('mcp'),
    ...list('cmd/ax-ts'),
    ...(existsSync(join(root, 'golden')) ? list('golden').filter((p) => !p.startsWith('golden/fixtures/')) : []),
  ],
  outdir: 'dist',
  outbase: '.',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  bundle: false,
  logLevel: 'warning',
  // `require('pino')` behind `typeof require === 'function'`: taken only in a built (CommonJS) program
  logOverride: { 'unsupported-require-call': 'silent' },
});
const walkJs = (dir) =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walkJs(p) : p.endsWith('.js') ? [p] : [];
  });
for (const f of walkJs(join(root, 'dist'))) {
  const src = readFileSync(f, 'utf8');
  const out = src.replace(/(from\s+|import\s*\(\s*)(['"])(\.{1,2}\/[^'"]+)\.ts\2/g, '$1$2$3.js$2');
  if (out !== src) writeFileSync(f, out);
}
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
