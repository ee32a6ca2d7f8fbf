/**
 * The lazy-loading rule, proved on the built demo (`ax-ts build`, dist/bin): ordinary runs, --help,
 * --version and every __schema shape load no chunk that contains the MCP SDK, express or ajv;
 * mcp-server does. Chunks are identified from esbuild's metafile (dist/bin/tasks.meta.json); loads
 * are recorded by a module resolve hook. Requires `npm run build` (npm test runs it first).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundledFixture } from '../helpers/bundled.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(root, 'dist/bin/tasks.js');
const HOOK = join(root, 'test/fixtures/record-imports.mjs');
const HEAVY = /node_modules\/(@modelcontextprotocol\/(sdk|server)|express|ajv)\//;

function heavyChunks(): string[] {
  const meta = JSON.parse(readFileSync(join(root, 'dist/bin/tasks.meta.json'), 'utf8')) as {
    outputs: Record<string, { inputs: Record<string, unknown> }>;
  };
  return Object.entries(meta.outputs)
    .filter(([, o]) => Object.keys(o.inputs).some((i) => HEAVY.test(i)))
    .map(([file]) => join(root, file));
}

const REQUIRES = join(root, 'test/fixtures/record-requires.cjs');

function loadedFiles(
  args: string[],
  extraEnv: Record<string, string> = {},
): { files: string[]; required: string[]; status: number | null; stdout: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ax-lazy-'));
  const log = join(dir, 'imports.log');
  const reqLog = join(dir, 'requires.log');
  const r = spawnSync(process.execPath, ['--import', HOOK, '--require', REQUIRES, BIN, ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      OTEL_EXPORTER_OTLP_ENDPOINT: '',
      TRACEPARENT: '',
      AX_IMPORT_LOG: log,
      AX_REQUIRE_LOG: reqLog,
      TASKS_FILE: join(dir, 't.json'),
      HOME: dir,
      ...extraEnv,
    },
    input: '',
  });
  const files = existsSync(log)
    ? readFileSync(log, 'utf8')
        .split('\n')
        .filter((u) => u.startsWith('file:'))
        .map((u) => fileURLToPath(u))
    : [];
  const required = existsSync(reqLog) ? readFileSync(reqLog, 'utf8').split('\n').filter(Boolean) : [];
  return { files, required, status: r.status, stdout: r.stdout };
}

/** pino, OpenTelemetry, jsonc-parser and the Redis client: chunks of their own, required only when used. */
const OBSERVE = /chunks\/(pino|jsonc-parser|otel|redis)\.js$/;
const REDIS = /chunks\/redis\.js$/;

describe('bundle: the MCP stack is loaded only by mcp-server', () => {
  it('the build split the SDK, express and ajv into chunks the entry does not import statically', () => {
    const heavy = heavyChunks();
    expect(heavy.length).toBeGreaterThan(0);
    expect(heavy).not.toContain(BIN);
  });

  const cases: [string, string[]][] = [
    ['a command run', ['list', '--format', 'json']],
    ['an add (a write)', ['add', 'milk', '--format', 'json']],
    ['--help', ['--help']],
    ['--version', ['--version']],
    ['__schema', ['__schema']],
    ['__schema --as=mcp', ['__schema', '--as=mcp']],
    ['__schema --as=clispec', ['__schema', '--as=clispec']],
    ['schema', ['schema']],
    ['a usage error', ['lst']],
  ];
  it.each(cases)('%s loads no heavy chunk', (_name, args) => {
    const { files, status } = loadedFiles(args);
    expect(files).toContain(BIN);
    expect(status).toBeLessThan(3);
    const heavy = heavyChunks();
    expect(files.filter((f) => heavy.includes(f))).toEqual([]);
  });

  it.each(cases)('%s requires none of pino, OpenTelemetry, jsonc-parser', (_name, args) => {
    const { required, status } = loadedFiles(args);
    expect(status).toBeLessThan(3);
    expect(required.length).toBeGreaterThan(0);
    expect(required.filter((f) => OBSERVE.test(f))).toEqual([]);
  });

  it('the libraries are chunks of their own (no other output of the build contains them); an OTLP endpoint loads the exporter chunk, output unchanged', () => {
    const meta = JSON.parse(readFileSync(join(root, 'dist/bin/tasks.meta.json'), 'utf8')) as {
      outputs: Record<string, { inputs: Record<string, unknown> }>;
    };
    const own: Record<string, RegExp> = {
      'pino.js': /node_modules\/pino\//,
      'jsonc-parser.js': /node_modules\/jsonc-parser\//,
      'otel.js': /node_modules\/@opentelemetry\/sdk-trace-base\//,
      'redis.js': /node_modules\/@redis\/client\//,
    };
    for (const [chunk, library] of Object.entries(own)) {
      const holders = Object.entries(meta.outputs)
        .filter(([, o]) => Object.keys(o.inputs).some((i) => library.test(i)))
        .map(([file]) => file.split('/').pop());
      expect(holders, chunk).toEqual([chunk]);
    }
    const plain = loadedFiles(['--version', '--format', 'json']);
    const traced = loadedFiles(['--version', '--format', 'json'], {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
    });
    expect(traced.status).toBe(0);
    expect(traced.required.some((f) => /chunks\/otel\.js$/.test(f))).toBe(true);
    expect(traced.required.some((f) => /chunks\/(pino|jsonc-parser)\.js$/.test(f))).toBe(false);
    expect(JSON.parse(traced.stdout).data).toEqual(JSON.parse(plain.stdout).data);
  });

  it('the Redis client is required only when AX_IDEMPOTENCY_STORE names a Redis: not by a write with a key, nor by mcp-server', () => {
    const withKey = loadedFiles(['add', 'milk', '--idempotency-key', 'k1', '--format', 'json']);
    expect(withKey.status, withKey.stdout).toBe(0);
    expect(withKey.required.filter((f) => REDIS.test(f))).toEqual([]);
    const server = loadedFiles(['mcp-server']);
    expect(server.required.filter((f) => REDIS.test(f))).toEqual([]);
    // nothing listens on port 9: the client is required, the run fails closed (exit 1) before adding anything
    const shared = loadedFiles(['add', 'milk', '--idempotency-key', 'k1', '--format', 'json'], {
      AX_IDEMPOTENCY_STORE: 'redis://127.0.0.1:9',
    });
    expect(shared.status).toBe(1);
    expect(shared.stdout).toBe('');
    expect(shared.required.some((f) => REDIS.test(f))).toBe(true);
  });

  it('mcp-server --print-config stays light; a starting server loads the SDK chunk (the recorder works)', () => {
    expect(loadedFiles(['mcp-server', '--print-config']).files.filter((f) => heavyChunks().includes(f))).toEqual([]);
    const { files } = loadedFiles(['mcp-server']); // stdin is empty: the server starts, sees EOF and exits
    expect(files.filter((f) => heavyChunks().includes(f)).length).toBeGreaterThan(0);
  });
});

describe('bundle: the MCP chunk carries its own copy of lib and still agrees with the entry', () => {
  it('an SDK client over stdio: tools list, author-defined error kinds keep their exit codes, --args-json matches', async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const dir = mkdtempSync(join(tmpdir(), 'ax-bundle-mcp-'));
    const env = { TASKS_FILE: join(dir, 't.json'), HOME: dir, PATH: process.env.PATH ?? '' };
    const client = new Client({ name: 'bundle-test', version: '1' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp-server'], env, stderr: 'pipe' }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['add', 'done', 'export', 'list', 'rm', 'show']);
      const missing = (await client.callTool({ name: 'show', arguments: { id: 99 } })) as {
        isError?: boolean;
        content: { text: string }[];
      };
      expect(missing.isError).toBe(true);
      // not_found is defined by the demo (exit 5): the chunk's lib copy must see the entry's catalogue and AxError
      expect(JSON.parse(missing.content[0]!.text).error).toMatchObject({ kind: 'not_found', exit_code: 5 });
      const added = (await client.callTool({ name: 'add', arguments: { title: ['from', 'mcp'] } })) as {
        structuredContent?: { id: number };
      };
      expect(added.structuredContent?.id).toBe(1);
    } finally {
      await client.close();
    }
    const viaFlag = spawnSync(process.execPath, [BIN, 'show', '--args-json', '{"id":1}'], { encoding: 'utf8', env });
    expect(viaFlag.status, viaFlag.stderr).toBe(0);
    expect(JSON.parse(viaFlag.stdout).data.title).toBe('from mcp');
  }, 60_000);
});

describe('bundle: lazy subtrees are chunks of their own, loaded only when selected', () => {
  it('the lazy fixture, bundled: each group a chunk; a run loads only the chunk it selects; output as from source', async () => {
    const out = mkdtempSync(join(tmpdir(), 'ax-lazy-bundle-'));
    const built = (await bundledFixture('test/fixtures/lazy-cli.ts', 'lazyapp', { dir: out })).build;
    const names = built.lazyChunks.map((c) =>
      c
        .split('/')
        .pop()!
        .replace(/-[0-9a-f]{8}\.js$/, ''),
    );
    expect(names.sort()).toEqual(['db', 'ops']);
    const main = readFileSync(join(out, 'lazyapp.main.js'), 'utf8');
    expect(main).not.toContain('Deploy to an environment'); // the ops body is not in the entry's bundle
    const chunkOf = (n: string) => built.lazyChunks.find((c) => c.includes(`/${n}-`))!;
    const load = (args: string[]) => {
      const dir = mkdtempSync(join(tmpdir(), 'ax-lazy-run-'));
      const log = join(dir, 'imports.log');
      const r = spawnSync(process.execPath, ['--import', HOOK, built.entry, ...args], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', HOME: dir, AX_IMPORT_LOG: log },
      });
      const files = existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter((u) => u.startsWith('file:'))
            .map((u) => fileURLToPath(u))
        : [];
      return { ...r, chunks: built.lazyChunks.filter((c) => files.includes(c)) };
    };
    expect(load(['--help']).chunks).toEqual([]);
    const status = load(['ops', 'status', '--format', 'json']);
    expect(status.status, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).data).toEqual({ up: true });
    expect(status.chunks).toEqual([chunkOf('ops')]);
    expect(load(['db', 'migrate', '--dry-run', '--format', 'json']).chunks).toEqual([chunkOf('db')]);
    // a bare __schema of a lazy tree (no schema manifest here) loads every chunk and prints the whole
    // document within the budget, as --full does
    const bare = load(['__schema', '--as=mcp']);
    const schema = load(['__schema', '--as=mcp', '--full']);
    expect(bare.chunks.sort()).toEqual([chunkOf('db'), chunkOf('ops')].sort());
    expect(bare.stdout).toBe(schema.stdout);
    expect(schema.chunks.sort()).toEqual([chunkOf('db'), chunkOf('ops')].sort());
    expect(
      JSON.parse(schema.stdout)
        .tools.map((t: { name: string }) => t.name)
        .sort(),
    ).toEqual(['db_migrate', 'ops_deploy', 'ops_status', 'ping']);
  }, 120_000);
});

describe('bundle: an ordinary run loads only the Node built-ins it uses', () => {
  // Each built-in module costs a start its compile (docs/performance.md): fs/promises drags in readline and the
  // fs watchers, timers/promises is a module of its own. They load only when a feature needs them.
  // (net loads here because stdout and stderr are pipes.)
  const PRINT =
    "process.on('exit',()=>require('fs').writeSync(2,'\\nBUILTINS '+JSON.stringify(process.moduleLoadList.filter(m=>m.startsWith('NativeModule ')).map(m=>m.slice(13)))+'\\n'))";
  const builtins = (args: string[]) => {
    const dir = mkdtempSync(join(tmpdir(), 'ax-builtins-'));
    writeFileSync(join(dir, 'print.cjs'), PRINT);
    const r = spawnSync(process.execPath, ['-r', join(dir, 'print.cjs'), BIN, ...args], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: dir, TASKS_FILE: join(dir, 't.json'), XDG_CACHE_HOME: dir },
      input: '',
    });
    const line = r.stderr.split('\n').find((l) => l.startsWith('BUILTINS '));
    expect(line, r.stderr).toBeDefined();
    return { status: r.status, list: JSON.parse(line!.slice(9)) as string[] };
  };
  /** What this Node loads for an empty CommonJS script (Node 24 loads its ESM loader for every program). */
  const bare = () => {
    const dir = mkdtempSync(join(tmpdir(), 'ax-builtins-'));
    writeFileSync(join(dir, 'print.cjs'), PRINT);
    writeFileSync(join(dir, 'empty.cjs'), '');
    const r = spawnSync(process.execPath, ['-r', join(dir, 'print.cjs'), join(dir, 'empty.cjs')], { encoding: 'utf8' });
    const line = r.stderr.split('\n').find((l) => l.startsWith('BUILTINS '));
    return new Set(JSON.parse(line!.slice(9)) as string[]);
  };
  for (const args of [['list', '--format', 'json'], ['--help'], ['__schema']]) {
    it(`tasks ${args.join(' ')}: no fs/promises, readline, timers/promises, child_process, crypto, module or os`, () => {
      const { status, list } = builtins(args);
      const always = bare();
      expect(status).toBe(0);
      expect(list).toContain('fs'); // the list is real
      // `module` (it loads the ESM loader and source maps: ~0.2 ms) and `os` come only with the features that use them
      for (const m of [
        'fs/promises',
        'internal/fs/promises',
        'readline',
        'internal/readline/interface',
        'timers/promises',
        'child_process',
        'crypto',
        'module',
        'internal/modules/esm/loader',
        'os',
      ].filter((m) => !always.has(m)))
        expect(list, m).not.toContain(m);
    });
  }
});
