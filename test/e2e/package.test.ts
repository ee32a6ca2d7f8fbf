/**
 * The published package, as a user installs it: `npm pack` of this checkout holds neither the demo
 * nor a second copy of lib/ (only the library, bundled by .ci/dist.mjs: an entry file per public
 * entry, core.js and tools.js, shared chunks, the heavy modules, the vendored jsonc-parser, and the
 * declarations); installed into a fresh
 * project, its `node_modules/.bin` holds `ax-ts` only (the demo's `tasks` is never put on a user's
 * PATH), and every entry point package.json exports (`ax-ts`, `ax-ts/mcp`, `ax-ts/golden`, …) loads from
 * `dist/` and exports at run time exactly the value names test/api/public-api.snapshot.json pins
 * (its types are checked from the sources by test/api/public-api.test.ts).
 * Needs `npm run build` first (npm test does it).
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicEntries } from '../helpers/entries.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'ax-pack-'));
const project = join(tmp, 'user-project');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      npm_config_loglevel: 'error',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
      npm_config_update_notifier: 'false',
    },
    timeout: 240_000,
  });

beforeAll(() => {
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', tmp], repo)) as { filename: string }[];
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'user-project', version: '1.0.0', private: true, type: 'module' }),
  );
  npm(
    ['install', '--prefer-offline', '--ignore-scripts', '--no-package-lock', join(tmp, packed[0]!.filename)],
    project,
  );
}, 300_000);

describe('npm pack: what the tarball holds', () => {
  const files = (
    JSON.parse(npm(['pack', '--dry-run', '--json'], repo)) as { files: { path: string }[] }[]
  )[0]!.files.map((f) => f.path);

  it('no file of the demo (cmd/tasks and its build)', () => {
    // (mcp/call/tasks.ts, the MCP Tasks extension, is library code that shares the demo's name)
    expect(files.filter((f) => /^(?!dist\/mcp\/call\/tasks\.)(.*\/)?tasks[./]|cmd\/tasks|dist\/bin\//.test(f))).toEqual(
      [],
    );
  });

  it('no second copy of lib/: every file under dist/ is an entry, a bundle of .ci/dist.mjs, its bill of materials or a declaration of a source module', () => {
    const compiled = files.filter((f) => f.startsWith('dist/'));
    expect(compiled.length).toBeGreaterThan(0);
    const entries = new Set(publicEntries(repo).map((e) => e.import.slice(2)));
    for (const f of compiled) {
      const bundled =
        entries.has(f) ||
        /^dist\/(core|store|tools)\.js$|^dist\/chunks\/[\w-]+\.js$|^dist\/vendor\/jsonc-parser\.cjs$|^dist\/lib\/build\/entry\.cjs$/.test(
          f,
        ) ||
        [
          'dist/mcp/serve/runtime.js',
          'dist/mcp/transport/http.js',
          'dist/mcp/base/sdk.js',
          'dist/lib/parse/arguments.js',
          'dist/lib/observe/otel.js',
          'dist/cmd/ax-ts/main.js',
          'dist/sbom.cdx.json',
        ].includes(f);
      const declaration =
        f.endsWith('.d.ts') && existsSync(join(repo, f.replace(/^dist\//, '').replace(/\.d\.ts$/, '.ts')));
      expect(bundled || declaration, f).toBe(true);
    }
  });
});

describe('npm pack → install into a fresh project', () => {
  it('puts only ax-ts on the PATH (node_modules/.bin)', () => {
    const bins = readdirSync(join(project, 'node_modules/.bin')).filter((n) => !n.startsWith('.'));
    const ours = bins.filter((n) => ['ax-ts', 'tasks'].includes(n));
    expect(ours).toEqual(['ax-ts']);
    const pkg = JSON.parse(readFileSync(join(project, 'node_modules/ax-ts/package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    expect(Object.keys(pkg.bin)).toEqual(['ax-ts']);
  });

  it('the installed ax-ts binary runs', () => {
    const out = execFileSync(join(project, 'node_modules/.bin/ax-ts'), ['--help'], { encoding: 'utf8' });
    expect(out).toMatch(/Usage:/);
  });

  it('ax-ts doctor reads the installed package and the bill of materials it publishes', () => {
    const out = execFileSync(join(project, 'node_modules/.bin/ax-ts'), ['doctor', '--format', 'json'], {
      encoding: 'utf8',
      env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` },
    });
    const data = (JSON.parse(out) as { data: Record<string, any> }).data;
    expect(realpathSync(data.ax_ts.path)).toBe(realpathSync(join(project, 'node_modules/ax-ts')));
    expect(data.runtime.ok).toBe(true);
    expect((data.bundled as { name: string }[]).map((b) => b.name)).toEqual(
      expect.arrayContaining(['@modelcontextprotocol/server', 'zod', 'jsonc-parser']),
    );
  });

  it('each entry point loads and exports exactly the value names of the API snapshot', () => {
    const pinned = JSON.parse(readFileSync(join(repo, 'test/api/public-api.snapshot.json'), 'utf8')) as Record<
      string,
      Record<string, string>
    >;
    const entries = publicEntries(repo).map((e) => e.name);
    expect(entries).toEqual(Object.keys(pinned));
    const script = `const out = {}; for (const e of ${JSON.stringify(entries)}) out[e] = Object.keys(await import(e)).sort(); console.log(JSON.stringify(out));`;
    writeFileSync(join(project, 'names.mjs'), script);
    const got = JSON.parse(execFileSync(process.execPath, ['names.mjs'], { cwd: project, encoding: 'utf8' })) as Record<
      string,
      string[]
    >;
    for (const [entry, names] of Object.entries(pinned)) {
      const values = Object.entries(names)
        .filter(([, kind]) => kind !== 'type')
        .map(([n]) => n)
        .sort();
      expect(got[entry], entry).toEqual(values);
    }
  });
});

/** Runs a script written into the installed project; its stdout parsed as JSON. */
function runScript(name: string, text: string, args: string[] = []): unknown {
  writeFileSync(join(project, name), text);
  return JSON.parse(execFileSync(process.execPath, [...args, name], { cwd: project, encoding: 'utf8' }));
}

/** The files of the installed ax-ts a run loaded (record-imports.mjs's log), chunk names as `chunk-X`. */
function loadedFiles(log: string): string[] {
  return [
    ...new Set(
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((u) => u.includes('/node_modules/ax-ts/'))
        .map((u) => u.replace(/.*\/node_modules\/ax-ts\/dist\//, '')),
    ),
  ]
    .map((f) => f.replace(/chunk-\w+/, 'chunk-X'))
    .sort();
}

describe('the installed package, as programs load it', () => {
  const entries = publicEntries(repo).map((e) => e.name);

  it('require() from CommonJS gives every entry, the very objects import() gives', () => {
    const got = runScript(
      'same.mjs',
      `import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const out = {};
for (const e of ${JSON.stringify(entries)}) {
  const cjs = require(e), esm = await import(e);
  out[e] = Object.keys(esm).length > 0 && Object.keys(esm).every((k) => cjs[k] === esm[k]);
}
console.log(JSON.stringify(out));`,
    );
    expect(got).toEqual(Object.fromEntries(entries.map((e) => [e, true])));
  });

  it('state shared between entries is one instance whichever entry a program imports', () => {
    const got = runScript(
      'shared.mjs',
      `import { AxError, Command, defineError, errorCatalogue } from 'ax-ts';
import { readConfig } from 'ax-ts/config';
import { mountMcpServer } from 'ax-ts/mcp';
import { schemaDocument } from 'ax-ts/schema';
import { goldenRun } from 'ax-ts/golden';
import { fileIdempotencyStore } from 'ax-ts/store';
defineError({ kind: 'probe_failed', exitCode: 9, description: 'A probe of the shared catalogue.' });
const e = await readConfig('/nonexistent/ax-probe.jsonc').catch((x) => x);
const root = new Command({ use: 'probe', version: '1.0.0' });
const server = mountMcpServer(root);
const doc = JSON.parse(schemaDocument(root, 'ax', '1.0.0'));
console.log(JSON.stringify({
  axError: e.constructor === AxError,
  command: Object.getPrototypeOf(server) === Command.prototype,
  catalogue: errorCatalogue().some((k) => k.kind === 'probe_failed'),
  schema: JSON.stringify(doc).includes('probe_failed'),
  golden: typeof goldenRun === 'function',
  store: typeof fileIdempotencyStore === 'function',
}));`,
    );
    expect(got).toEqual({ axError: true, command: true, catalogue: true, schema: true, golden: true, store: true });
  });

  it('each class and registry of the shared state is defined once in the published code', () => {
    const js = readdirSync(join(project, 'node_modules/ax-ts/dist'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(join(project, 'node_modules/ax-ts/dist', f), 'utf8'));
    for (const marker of [
      'var AxError = class ',
      'var Command = class ',
      'Symbol.for("ax-ts.error-catalogue")',
      'Symbol.for("ax-ts.tree-generation")',
    ])
      expect(js.filter((t) => t.includes(marker)).length, marker).toBe(1);
  });

  it('a program importing ax-ts, ax-ts/mcp and ax-ts/config loads six files of ax-ts: three entries, core and two chunks', () => {
    const log = join(tmp, 'imports.log');
    writeFileSync(
      join(project, 'probe.mjs'),
      `import { Command, main } from 'ax-ts';\nimport { mountMcpServer } from 'ax-ts/mcp';\nimport { readConfig } from 'ax-ts/config';\nconst root = new Command({ use: 'probe', version: '1.0.0' });\nmountMcpServer(root);\nvoid readConfig;\nawait main(root);\n`,
    );
    execFileSync(
      process.execPath,
      ['--import', join(repo, 'test/fixtures/record-imports.mjs'), 'probe.mjs', '--version'],
      { cwd: project, env: { ...process.env, AX_IMPORT_LOG: log }, encoding: 'utf8' },
    );
    const ours = loadedFiles(log);
    // the chunks: the code, and esbuild's helpers shared with the lazy chunks
    expect(ours).toEqual([
      'chunks/chunk-X.js',
      'chunks/chunk-X.js',
      'core.js',
      'lib/config/index.js',
      'lib/index.js',
      'mcp/index.js',
    ]);
  });

  it("a person's run through the installed `ax-ts wrap` loads the bin, the wrap entry and two small chunks, nothing of the runtime", () => {
    const log = join(tmp, 'wrap-imports.log');
    writeFileSync(join(project, 'hello.cjs'), "process.stdout.write('hello ' + process.argv.slice(2).join(' '));\n");
    const out = execFileSync(
      process.execPath,
      [
        '--import',
        join(repo, 'test/fixtures/record-imports.mjs'),
        join(project, 'node_modules/ax-ts/dist/cmd/ax-ts/main.js'),
        'wrap',
        './hello.cjs',
        'world',
      ],
      { cwd: project, env: { ...process.env, AX_IMPORT_LOG: log }, encoding: 'utf8' },
    );
    expect(out).toBe('hello world');
    const ours = loadedFiles(log);
    // the chunks: the routing words' check, and esbuild's helpers
    expect(ours).toEqual(['chunks/chunk-X.js', 'chunks/chunk-X.js', 'cmd/ax-ts/main.js', 'frontends/wrap/index.js']);
  });

  it('typesVersions maps every subpath export to its types (what node10 resolution reads)', () => {
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
      exports: Record<string, { types?: string } | string>;
      typesVersions: { '*': Record<string, string[]> };
    };
    const wanted = Object.entries(pkg.exports)
      .filter(([k, v]) => k !== '.' && typeof v === 'object' && v.types)
      .map(([k, v]) => [k.replace(/^\.\//, ''), [(v as { types: string }).types]]);
    expect(pkg.typesVersions['*']).toEqual(Object.fromEntries(wanted));
  });

  it("TypeScript resolves every entry's types from CommonJS: module nodenext (.cts) and commonjs with node10 resolution", () => {
    const uses = `import { Command } from 'ax-ts';
import { mountMcpServer } from 'ax-ts/mcp';
import { schemaDocument } from 'ax-ts/schema';
import { fileIdempotencyStore } from 'ax-ts/store';
import { readConfig } from 'ax-ts/config';
import { goldenRun } from 'ax-ts/golden';
import { buildProgram } from 'ax-ts/build';
const root: Command = new Command({ use: 'typed', version: '1.0.0' });
mountMcpServer(root);
const doc: string = schemaDocument(root, 'ax', '1.0.0');
console.log(JSON.stringify({ doc: doc.length > 0, fns: [fileIdempotencyStore, readConfig, goldenRun, buildProgram].every((f) => typeof f === 'function') }));
`;
    writeFileSync(join(project, 'typed.cts'), uses);
    mkdirSync(join(project, 'cjs'), { recursive: true });
    writeFileSync(join(project, 'cjs/package.json'), '{"type": "commonjs"}\n');
    writeFileSync(join(project, 'cjs/typed.ts'), uses);
    const tsc = join(repo, 'node_modules/typescript/bin/tsc');
    const common = ['--strict', '--skipLibCheck', '--types', 'node', '--typeRoots', join(repo, 'node_modules/@types')];
    execFileSync(process.execPath, [tsc, ...common, '--module', 'nodenext', '--target', 'es2022', 'typed.cts'], {
      cwd: project,
    });
    execFileSync(
      process.execPath,
      [tsc, ...common, '--module', 'commonjs', '--moduleResolution', 'node10', '--target', 'es2022', 'cjs/typed.ts'],
      { cwd: project },
    );
    for (const f of ['typed.cjs', 'cjs/typed.js'])
      expect(JSON.parse(execFileSync(process.execPath, [f], { cwd: project, encoding: 'utf8' })), f).toEqual({
        doc: true,
        fns: true,
      });
  });
});
