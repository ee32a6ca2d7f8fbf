// Build: the library for publication (ESM + .d.ts under dist/) and the demo CLI bundled into one
// runnable file (dist/bin/tasks.js), with the MCP stack split into a chunk loaded only by mcp-server.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

// 3. The programs, bundled as CommonJS (an ESM entry costs Node 7–10 ms more to start). Each bin is
//    one file with everything an ordinary run, --help or __schema needs. The heavy parts are separate
//    files loaded on demand: the MCP runtime (SDK, express, ajv) only by mcp-server, and the argument
//    validator (ajv) only by --args-json. Those chunks carry their own copy of lib/; the state that
//    must be shared (error catalogue, AxError identity) lives on Symbol.for registries.
const binDir = join(root, 'dist/bin');
mkdirSync(join(binDir, 'chunks'), { recursive: true });
writeFileSync(join(binDir, 'package.json'), `${JSON.stringify({ type: 'commonjs', private: true }, null, 2)}\n`);
const lazyChunks = {
  name: 'ax-lazy-chunks',
  setup(b) {
    b.onResolve({ filter: /^\.\/(runtime|http)\.ts$|^\.\.\/parse\/arguments\.ts$/ }, (a) => {
      // paths are relative to the importing output file: bins in dist/bin, the runtime in dist/bin/chunks
      const map = { 'mcp/runtime.ts': './chunks/mcp-runtime.js', 'lib/parse/arguments.ts': './chunks/arguments.js', 'mcp/http.ts': './mcp-http.js' };
      const target = Object.entries(map).find(([src]) => join(a.resolveDir, a.path) === join(root, src));
      return target && a.kind === 'dynamic-import' ? { path: target[1], external: true } : undefined;
    });
  },
};
const cjs = {
  absWorkingDir: root,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  metafile: true,
  // smaller code compiles faster at every start (V8 still scans every byte); names are kept so that
  // AX_DEBUG stacks stay readable
  minify: true,
  keepNames: true,
  logLevel: 'warning',
  logOverride: { 'empty-import-meta': 'silent' }, // import.meta.resolve is feature-tested where used
  define: { 'import.meta.url': '__axMetaUrl' },
  banner: { js: 'var __axMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
};
const bins = { tasks: 'cmd/tasks/main.ts', 'ax-ts': 'cmd/ax-ts/main.ts' };
const chunks = { 'chunks/mcp-runtime': 'mcp/runtime.ts', 'chunks/mcp-http': 'mcp/http.ts', 'chunks/arguments': 'lib/parse/arguments.ts' };
const results = await Promise.all([
  ...Object.entries(bins).map(([name, entry]) =>
    build({ ...cjs, entryPoints: [entry], outfile: `dist/bin/${name}.js`, plugins: [lazyChunks], banner: { js: `#!/usr/bin/env node\n${cjs.banner.js}` } }),
  ),
  ...Object.entries(chunks).map(([name, entry]) => build({ ...cjs, entryPoints: [entry], outfile: `dist/bin/${name}.js`, plugins: [lazyChunks] })),
]);
const meta = { inputs: {}, outputs: {} };
for (const r of results) {
  Object.assign(meta.inputs, r.metafile.inputs);
  Object.assign(meta.outputs, r.metafile.outputs);
}
writeFileSync(join(binDir, 'meta.json'), JSON.stringify(meta));
for (const bin of Object.keys(bins)) chmodSync(join(binDir, `${bin}.js`), 0o755);
console.error('build: dist/ ready');
