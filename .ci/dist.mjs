// The library as published (docs/architecture.md#what-the-package-holds): ESM bundled by esbuild with
// code splitting, so a program that imports ax-ts from plain `tsc` output loads a handful of files
// instead of one module per source file (an ESM module costs a resolution, a read and a compile
// each: docs/performance.md).
//
//   dist/<entry>.js      each public entry (package.json `exports`): one line re-exporting its names,
//                        but a front end's (ax-ts/commander, ax-ts/yargs, ax-ts/wrap), its own light code (STANDALONE)
//   dist/core.js         what a CLI imports at start: ax-ts, ax-ts/mcp, ax-ts/config
//   dist/store.js        ax-ts/store (the stores a CLI may pass; through it, core): most CLIs import none
//   dist/tools.js        the rest: ax-ts/schema, ax-ts/golden, ax-ts/build (and, through it, core)
//   dist/chunks/…        the code, shared by every entry (one instance of each module: one error
//                        catalogue, one AxError class, one tree generation), and what only some runs
//                        load (the MCP runtime, HTTP, the argument validator, OpenTelemetry, replay…)
//   dist/mcp/serve/runtime.js, dist/mcp/transport/http.js, dist/lib/parse/arguments.js, dist/lib/observe/otel.js
//                        the heavy parts, at the paths `ax-ts build` knows them by (lib/build/plugins.ts)
//   dist/vendor/…        packages published inside ax-ts (jsonc-parser: see VENDORED)
//
// esbuild puts each piece of code in a chunk named by the set of entries that reach it, so a
// dynamic import that reaches a part of core would cut core into many chunks; every dynamic entry
// (and the ax-ts tool's commands, TOOL_BODY, the whole of tools) therefore re-exports the whole of core
// while it is built (`__axKeep`), and
// that export is cut from the output afterwards (a published file must not hand a bundler the whole
// of core to keep). Packages stay external: the user's installer provides them.
import { build } from 'esbuild';
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { bundledPackages, writeSbom } from './sbom.mjs';

/** The entries a CLI imports at start (by specifier): they make up core.js. */
const CORE = new Set(['ax-ts', 'ax-ts/mcp', 'ax-ts/config']);
/**
 * The other groups, each one file (dist/<group>.js) that re-exports core and adds its entries' names,
 * so that a program which never imports them never compiles their code; every other entry is in tools.
 */
const SIDE = { store: new Set(['ax-ts/store']) };
/** The group of an entry: core, a SIDE group or tools. */
const groupOf = (name) => (CORE.has(name) ? 'core' : (Object.keys(SIDE).find((g) => SIDE[g].has(name)) ?? 'tools'));
const GROUPS = ['core', ...Object.keys(SIDE), 'tools'];
/**
 * Entries built as entries of their own, outside core and tools: a front end must load nothing of
 * ax-ts until an invocation asks for it (docs/frontends.md), so its file holds its own light code
 * and reaches core only through its dynamic import.
 */
const STANDALONE = new Set(['ax-ts/commander', 'ax-ts/yargs', 'ax-ts/wrap']);
/** Modules of ax-ts that `ax-ts build` makes chunks of their own: kept at their source paths. */
const HEAVY = ['mcp/serve/runtime.ts', 'mcp/transport/http.ts', 'lib/parse/arguments.ts', 'lib/observe/otel.ts'];
/** The ax-ts tool, an entry of its own (package.json `bin`): only a dispatch, light for `ax-ts wrap`. */
const TOOL = 'cmd/ax-ts/main.ts';
/** The tool's commands, which TOOL imports dynamically: the module that keeps the whole of tools. */
const TOOL_BODY = 'cmd/ax-ts/tool.ts';
/** Packages ax-ts requires synchronously from its code; a bundler of a user's program must see `require("…")`. */
const REQUIRED = ['pino'];
/**
 * Packages published inside ax-ts (dist/vendor/<name>.cjs, bundled from their ESM build): jsonc-parser's
 * main file is UMD, whose require()s no bundler can follow, and its ESM build cannot be loaded by Node.
 */
const VENDORED = ['jsonc-parser'];
/**
 * Packages bundled into ax-ts's own files instead of installed beside it: the MCP SDK's server
 * package and zod, its dependency, are 16.6 MB installed and about 0.9 MB as the code ax-ts uses
 * (what mcp/base/sdk.ts, the one module that imports SDK values, re-exports). esbuild puts that code in
 * one chunk, shared by the MCP runtime and HTTP; it is named dist/chunks/mcp-sdk.js, with the
 * packages' licences in its header, and only the runs that speak MCP load it.
 */
const INLINED = /^(@modelcontextprotocol\/(server|core)|zod)(\/|$)/;
const INLINED_DIRS = ['@modelcontextprotocol/server', '@modelcontextprotocol/core', 'zod'];
const SDK_CHUNK = 'chunks/mcp-sdk.js';
/**
 * Modules built as entries of their own, kept at their source paths: mcp/base/sdk.ts, so that the
 * inlined packages' code is reached from an entry of its own and esbuild gives it a chunk of its
 * own (rather than one shared with ax-ts's MCP modules).
 */
const KEPT = ['mcp/base/sdk.ts'];

const common = { bundle: true, format: 'esm', platform: 'node', target: 'node22', packages: 'external' };

/** The value names an entry exports (esbuild's metafile of the entry bundled alone). */
async function exportNames(root, source) {
  const r = await build({
    ...common,
    absWorkingDir: root,
    entryPoints: [source],
    write: false,
    metafile: true,
    outdir: '/x',
    logLevel: 'silent',
  });
  return Object.values(r.metafile.outputs)[0].exports;
}

/**
 * Renames the one chunk made of the inlined packages (INLINED) to SDK_CHUNK, in `outputs` and in
 * every output that imports it, with the packages' licences in its header.
 * @throws when that code is not exactly one chunk of its own (a change esbuild or the sources made).
 */
function inlinedChunk(root, dist, metafile, outputs) {
  const inlined = (input) => KEPT.includes(input) || INLINED_DIRS.some((d) => input.includes(`node_modules/${d}/`));
  const holding = outputs.filter((f) => Object.keys(metafile.outputs[f].inputs).some(inlined));
  if (holding.length !== 1 || !Object.keys(metafile.outputs[holding[0]].inputs).every(inlined))
    throw new Error(
      `dist: the inlined packages are not one chunk of their own: ${holding.join(', ')} ` +
        `(${holding.flatMap((h) => Object.keys(metafile.outputs[h].inputs).filter((i) => !inlined(i))).join(', ')})`,
    );
  const from = holding[0];
  const to = relative(root, join(dist, SDK_CHUNK));
  const notices = INLINED_DIRS.map((d) => {
    // the installed copy esbuild bundled (a package's exports need not list its package.json)
    const input = Object.keys(metafile.outputs[from].inputs).find((i) => i.includes(`node_modules/${d}/`));
    const dir = join(root, input.slice(0, input.indexOf(`node_modules/${d}/`)), 'node_modules', d);
    const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    return `${d} ${meta.version} (${meta.repository?.url ?? meta.homepage ?? ''})\n${readFileSync(join(dir, 'LICENSE'), 'utf8').trim()}`;
  });
  const banner = `/*! Bundled into ax-ts from these packages, under their licences:\n\n${notices.join('\n\n')}\n*/\n`;
  writeFileSync(join(root, to), banner + readFileSync(join(root, from), 'utf8'));
  unlinkSync(join(root, from));
  for (const f of outputs) {
    if (f === from) continue;
    const file = join(root, f);
    const src = readFileSync(file, 'utf8');
    const name = basename(from);
    if (src.includes(name)) writeFileSync(file, src.replaceAll(name, basename(to)));
  }
  outputs[outputs.indexOf(from)] = to;
}

/**
 * Builds the library into `<root>/dist` from `entries` ({name, source}: every public entry).
 * @returns the files written (relative to dist).
 */
export async function buildLibrary(root, entries) {
  const dist = join(root, 'dist');
  const prefix = (name) => (name === 'ax-ts' ? 'ax' : name.slice('ax-ts/'.length));
  const named = [];
  for (const e of entries) named.push({ ...e, prefix: prefix(e.name), names: await exportNames(root, e.source) });
  const reexports = (group) =>
    named
      .filter((e) => !STANDALONE.has(e.name) && groupOf(e.name) === group)
      .map(
        (e) =>
          `export { ${e.names.map((n) => `${n} as ${e.prefix}$${n}`).join(', ')} } from ${JSON.stringify(resolve(root, e.source))};`,
      )
      .join('\n');
  const virtual = Object.fromEntries(
    GROUPS.map((g) => [`ax-${g}`, g === 'core' ? reexports(g) : `export * from 'ax-core';\n${reexports(g)}`]),
  );
  const groupModule = new RegExp(`^ax-(${GROUPS.join('|')})$`);
  const run = (keep) =>
    build({
      ...common,
      packages: undefined,
      absWorkingDir: root,
      entryPoints: {
        ...Object.fromEntries(GROUPS.map((g) => [g, `ax-${g}`])),
        [TOOL.slice(0, -3)]: TOOL,
        ...Object.fromEntries([...HEAVY, ...KEPT].map((h) => [h.slice(0, -3), h])),
        ...Object.fromEntries(
          named.filter((e) => STANDALONE.has(e.name)).map((e) => [e.source.slice(0, -3), e.source]),
        ),
      },
      outdir: dist,
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
      metafile: true,
      logLevel: 'warning',
      write: keep !== undefined,
      plugins: [
        {
          name: 'ax-ts-dist',
          setup(b) {
            b.onResolve({ filter: groupModule }, (a) => ({ path: a.path, namespace: 'ax-ts-dist' }));
            // packages stay external (the user's installer provides them), but the inlined ones
            b.onResolve({ filter: /^[^./]/ }, (a) =>
              a.path.startsWith('node:') || INLINED.test(a.path) || groupModule.test(a.path)
                ? undefined
                : { path: a.path, external: true },
            );
            b.onLoad({ filter: /.*/, namespace: 'ax-ts-dist' }, (a) => ({
              contents: virtual[a.path],
              resolveDir: root,
              loader: 'js',
            }));
            if (keep)
              b.onLoad({ filter: /\.ts$/ }, (a) => {
                const rel = relative(root, a.path);
                if (rel !== TOOL_BODY && !keep.has(rel)) return undefined;
                const whole = rel === TOOL_BODY ? 'ax-tools' : 'ax-core';
                return {
                  contents: `${readFileSync(a.path, 'utf8')}\nexport * as __axKeep from '${whole}';\n`,
                  loader: 'ts',
                };
              });
          },
        },
      ],
    });
  // 1. which modules are dynamic entries (the targets of import() within the library)
  const first = await run(undefined);
  const dynamic = new Set(HEAVY);
  const targets = new Set(
    Object.values(first.metafile.outputs).flatMap((o) =>
      o.imports.filter((i) => i.kind === 'dynamic-import' && !i.external).map((i) => i.path),
    ),
  );
  // a front end's file is its own light code even where the tool imports it (`ax-ts wrap`)
  const standalone = new Set(named.filter((e) => STANDALONE.has(e.name)).map((e) => e.source));
  for (const [file, o] of Object.entries(first.metafile.outputs))
    if (targets.has(file) && o.entryPoint && !standalone.has(o.entryPoint)) dynamic.add(o.entryPoint);
  // 2. the build, each dynamic entry keeping the whole of core
  const second = await run(dynamic);
  const outputs = Object.keys(second.metafile.outputs).filter((f) => f.endsWith('.js'));
  const built = [...outputs];
  inlinedChunk(root, dist, second.metafile, outputs);
  const written = outputs.map((f) => relative(dist, join(root, f)));
  // what each published file holds, for the bill of materials (step 7)
  const inputs = built.flatMap((f, i) =>
    Object.keys(second.metafile.outputs[f].inputs).map((input) => [input, written[i]]),
  );
  // 3. cut `__axKeep` and the namespace objects it needed; let bundlers see ax-ts's own require()s
  const kept = new Set();
  for (const f of outputs) {
    const file = join(root, f);
    let src = readFileSync(file, 'utf8');
    const m = /^ {2}(\w+) as __axKeep,?\n/m.exec(src);
    if (m) {
      kept.add(m[1]);
      src = src.replace(m[0], '').replace(new RegExp(`^ {2}${m[1]},?\\n`, 'm'), '');
    }
    writeFileSync(file, src);
  }
  for (const f of outputs) {
    const file = join(root, f);
    let src = readFileSync(file, 'utf8');
    for (const ns of kept) {
      src = src
        .replace(new RegExp(`var ${ns} = \\{\\};\\n__export\\(${ns}, \\{\\n[^]*?\\n\\}\\);\\n`), '')
        .replace(new RegExp(`^ {2}${ns},?\\n`, 'm'), '');
      if (new RegExp(`\\b${ns}\\b`).test(src)) throw new Error(`dist: ${f} still refers to ${ns}`);
    }
    for (const p of VENDORED) {
      let to = relative(dirname(file), join(dist, 'vendor', `${p}.cjs`));
      if (!to.startsWith('.')) to = `./${to}`;
      src = src.replaceAll(`__require(${JSON.stringify(p)})`, `require(${JSON.stringify(to)})`);
      src = src.replaceAll(
        `createRequire(import.meta.url)(${JSON.stringify(p)})`,
        `createRequire(import.meta.url)(${JSON.stringify(to)})`,
      );
    }
    for (const p of REQUIRED) src = src.replaceAll(`__require(${JSON.stringify(p)})`, `require(${JSON.stringify(p)})`);
    if (/__require\(/.test(src.replace(/var __require = [^]*?\n\}\);\n/, '')))
      throw new Error(`dist: ${f} requires a package ax-ts does not know to leave to bundlers`);
    // `typeof require` as written: false in ESM, so the code asks createRequire; true where a bundler put it
    src = src.replaceAll('typeof __require === "function"', 'typeof require === "function"');
    if (src.includes('__axKeep')) throw new Error(`dist: ${f} still exports __axKeep`);
    writeFileSync(file, src);
  }
  // 4. the vendored packages, each one CommonJS file with its licence
  for (const p of VENDORED) {
    const req = createRequire(join(root, 'package.json'));
    const pkgFile = req.resolve(`${p}/package.json`);
    const meta = JSON.parse(readFileSync(pkgFile, 'utf8'));
    const licence = readFileSync(join(dirname(pkgFile), 'LICENSE.md'), 'utf8').trim();
    const vendored = await build({
      absWorkingDir: root,
      metafile: true,
      entryPoints: [join(dirname(pkgFile), meta.module)],
      outfile: join(dist, 'vendor', `${p}.cjs`),
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node22',
      logLevel: 'warning',
      banner: {
        js: `/*! ${p} ${meta.version}, bundled from its ESM build for ax-ts (${meta.repository?.url ?? ''})\n${licence}\n*/`,
      },
    });
    written.push(`vendor/${p}.cjs`);
    for (const input of Object.keys(vendored.metafile.inputs)) inputs.push([input, `vendor/${p}.cjs`]);
  }
  // 5. each public entry: its names, re-exported from its group's file (core.js, store.js, tools.js)
  for (const e of named) {
    if (STANDALONE.has(e.name)) continue; // written by esbuild itself (step 2)
    const out = join(dist, e.source.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(out), { recursive: true });
    const from = relative(dirname(out), join(dist, `${groupOf(e.name)}.js`));
    writeFileSync(
      out,
      `export { ${e.names.map((n) => `${e.prefix}$${n} as ${n}`).join(', ')} } from ${JSON.stringify(from.startsWith('.') ? from : `./${from}`)};\n`,
    );
    written.push(relative(dist, out));
  }
  // 6. the first code of every built program, compiled once here (lib/build/build.ts reads it)
  const entry = await build({
    absWorkingDir: root,
    entryPoints: ['lib/build/entry.ts'],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    minify: true,
    write: false,
    logLevel: 'warning',
  });
  writeFileSync(join(dist, 'lib/build/entry.cjs'), entry.outputFiles[0].text);
  written.push('lib/build/entry.cjs');
  // 7. the bill of materials: every package whose code is inside the files above (.ci/sbom.mjs)
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  written.push(writeSbom(dist, pkg, bundledPackages(root, inputs)));
  return written;
}
