// Build: the library for publication (ESM + .d.ts under dist/) and the demo CLI bundled into one
// runnable file (dist/bin/tasks.js), with the MCP stack split into a chunk loaded only by mcp-server.
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

// 1. Library: one ESM file per module, imports rewritten from .ts to .js.
await build({
  absWorkingDir: root,
  entryPoints: [...list('lib'), ...list('mcp'), ...(existsSync(join(root, 'golden')) ? list('golden').filter((p) => !p.startsWith('golden/fixtures/')) : [])],
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
const tscFlags = ['--emitDeclarationOnly', '--declaration', '--outDir', 'dist', '--rootDir', '.', '--strict', '--target', 'ES2022', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--types', 'node', '--skipLibCheck', '--allowImportingTsExtensions', '--rewriteRelativeImportExtensions', '--verbatimModuleSyntax', '--resolveJsonModule'];
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), ...tscFlags, 'lib/index.ts', 'mcp/index.ts', 'golden/index.ts'].filter((a) => a !== 'golden/index.ts' || existsSync(join(root, a))), { cwd: root, stdio: 'inherit' });

// 3. The demo CLI, bundled; the MCP stack is a separate chunk loaded by dynamic import.
await build({
  absWorkingDir: root,
  entryPoints: { tasks: 'cmd/tasks/main.ts', ...(existsSync(join(root, 'cmd/ax-ts/main.ts')) ? { 'ax-ts': 'cmd/ax-ts/main.ts' } : {}) },
  outdir: 'dist/bin',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  banner: { js: '#!/usr/bin/env node\nimport { createRequire as __axCreateRequire } from "node:module"; const require = __axCreateRequire(import.meta.url);' },
  metafile: true,
  logLevel: 'warning',
}).then((r) => writeFileSync(join(root, 'dist/bin/meta.json'), JSON.stringify(r.metafile)));
for (const bin of ['tasks', 'ax-ts']) if (existsSync(join(root, `dist/bin/${bin}.js`))) chmodSync(join(root, `dist/bin/${bin}.js`), 0o755);
console.error('build: dist/ ready');
