// Build: the library for publication (ESM + .d.ts under dist/) and the demo CLI bundled into one
// runnable file (dist/bin/tasks.js), with the MCP stack split into a chunk loaded only by mcp-server.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { buildHeavyChunks, buildProgram } from './bundle.mjs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const list = (dir) =>
  readdirSync(join(root, dir)).flatMap((n) => {
    const p = join(dir, n);
    return statSync(join(root, p)).isDirectory() ? list(p) : p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });

rmSync(join(root, 'dist'), { recursive: true, force: true });

// 1. Library: one ESM file per module, imports rewritten from .ts to .js.
await build({
  absWorkingDir: root,
  entryPoints: [
    ...list('lib'),
    ...list('mcp'),
    ...(existsSync(join(root, 'golden')) ? list('golden').filter((p) => !p.startsWith('golden/fixtures/')) : []),
  ],
  outdir: 'dist',
  outbase: '.',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  bundle: false,
  logLevel: 'warning',
});
// Relative imports keep their .ts suffix under bundle:false; rewrite them to .js.
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

// 2. Declarations.
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

// 3. The programs, bundled as CommonJS (an ESM entry costs Node 7–10 ms more to start), each as
//    .ci/bundle.mjs lays it out: a small entry (precomputed answers, V8 code cache) in front of one
//    minified bundle with everything an ordinary run, --help or __schema needs. The heavy parts are
//    separate files loaded on demand: the MCP runtime (SDK, express, ajv) only by mcp-server, and the
//    argument validator (ajv) only by --args-json. Those chunks carry their own copy of lib/; the state
//    that must be shared (error catalogue, AxError identity) lives on Symbol.for registries. Lazy
//    subtrees (`load: () => import('./x.ts')`) become chunks of their own that share the entry's lib.
const binDir = join(root, 'dist/bin');
const bins = {
  tasks: { entry: 'cmd/tasks/main.ts', precomputeAnswers: true },
  'ax-ts': { entry: 'cmd/ax-ts/main.ts' },
};
const meta = await buildHeavyChunks(binDir);
for (const [name, b] of Object.entries(bins)) {
  const r = await buildProgram({ ...b, outDir: binDir, name });
  Object.assign(meta.inputs, r.metafile.inputs);
  Object.assign(meta.outputs, r.metafile.outputs);
}
writeFileSync(join(binDir, 'meta.json'), JSON.stringify(meta));
// The demo's __schema documents, written ahead of time (issue 14): its entry answers a bare
// `__schema [--as=X]` from them while the build is unchanged.
execFileSync(
  process.execPath,
  [join(binDir, 'ax-ts.js'), 'schema-manifest', join(binDir, 'tasks.js'), '--format', 'json'],
  { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, AX_CODE_CACHE: '0' } },
);
console.error('build: dist/ ready');
