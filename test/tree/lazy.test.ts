/**
 * Lazy subtrees (docs/performance.md): a command declared with `load` behaves on every path exactly as the
 * same command declared in full — the CLI, --args-json, help, completion, every __schema shape and
 * MCP (stdio; HTTP stateful and stateless) — while its body loads only when a run selects it or a
 * walk of the whole tree needs it. A loaded body that disagrees with its stub is refused.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { Command } from '../../lib/index.ts';
import { loadTree } from '../../lib/schema/index.ts';
import { runCli } from '../helpers/run.ts';
import { connectStdio, REPO, TSX_LOADER } from '../helpers/mcp.ts';
import { eagerTree, lazyTree, loads } from '../fixtures/lazy-tree.ts';

const LAZY_CLI = join(REPO, 'test/fixtures/lazy-cli.ts');
const mask = (t: string) =>
  t
    .replace(/"(trace_id|span_id|idempotency_key)":"[0-9a-f-]+"/g, '"$1":"…"')
    .replace(/"duration_ms":\d+/g, '"duration_ms":0');
const reset = () => Object.keys(loads).forEach((k) => delete loads[k]);

describe('lazy subtrees: the same answers as the eager tree', () => {
  const cases: string[][] = [
    ['ops', 'deploy', 'prod', '--format', 'json'],
    ['o', 'deploy', 'prod', '--replicas', '5', '--region', 'us'],
    ['--region', 'us', 'ops', 'deploy', 'prod'], // a persistent flag of the lazy group before its name: unknown at the root
    ['ops', 'status'],
    ['ops', 'deploy', '--args-json', '{"env":"prod","replicas":3}'],
    ['db', 'migrate', '--dry-run'],
    ['ops', 'nope'],
    ['ops'],
    ['--help'],
    ['ops', '--help'],
    ['ops', 'deploy', '--help'],
    ['help', 'ops', 'deploy'],
    // the whole document (the bare __schema is the same within the budget)
    ['__schema', '--full'],
    ['__schema', '--as=mcp', '--full'],
    ['__schema', '--as=clispec'],
    ['__schema', '--as=llms', '--full'],
    ['__schema', '--as=skill', '--full'],
    ['__schema', 'ops'],
    ['__schema', '--as=mcp', 'ops', 'deploy'],
    ['__schema', 'ops', 'deploy', '--field', 'flags.replicas'],
    ['schema'],
    ['schema', 'ops', '--field', 'commands.0.name'],
    ['__complete', '--', ''],
    ['__complete', '--', 'ops', ''],
    ['__complete', '--', 'ops', 'deploy', '--re'],
    ['__complete', '--', 'o', 'st'],
  ];
  it.each(cases)('%j', async (...args) => {
    const want = await runCli(await eagerTree(), args);
    const got = await runCli(lazyTree(), args);
    expect({ ...got, stdout: mask(got.stdout), stderr: mask(got.stderr) }).toEqual({
      ...want,
      stdout: mask(want.stdout),
      stderr: mask(want.stderr),
    });
  });
});

describe('lazy subtrees: what loads when', () => {
  it.each([
    [['--help'], {}],
    [['ping'], {}],
    [['__complete', '--', ''], {}],
    [['ops', 'status'], { ops: 1 }],
    [['o', 'deploy', 'x'], { ops: 1 }],
    [['help', 'db'], { db: 1 }],
    [['__complete', '--', 'db', ''], { db: 1 }],
    [['__schema'], { ops: 1, db: 1 }], // the whole document, as of the eager twin (a built program reads its manifest)
    [['__schema', '--full'], { ops: 1, db: 1 }],
    [['__schema', 'ops'], { ops: 1 }],
  ] as [string[], Record<string, number>][])('%j loads %j', async (args, want) => {
    reset();
    const r = await runCli(lazyTree(), args);
    expect(r.code).toBe(0);
    expect(loads).toEqual(want);
  });

  it('the root listing shows the stubs’ short text without loading them', async () => {
    reset();
    const r = await runCli(lazyTree(), ['--help']);
    expect(r.stdout).toMatch(/ops\s+Operate the service/);
    expect(r.stdout).toMatch(/db\s+Database tasks/);
    expect(loads).toEqual({});
  });

  it('loadTree loads every subtree once; concurrent loads share one load', async () => {
    reset();
    const root = lazyTree();
    await Promise.all([loadTree(root), loadTree(root), runCli(root, ['ops', 'status'])]);
    expect(loads).toEqual({ ops: 1, db: 1 });
    expect(
      root
        .findChild('ops')!
        .commands()
        .map((c) => c.name),
    ).toEqual(['deploy', 'status']);
    expect(root.findChild('ops')!.parent).toBe(root);
  });
});

describe('lazy subtrees: a stub that lies is refused', () => {
  const tree = (load: () => unknown, extra: Record<string, unknown> = {}) =>
    new Command({
      use: 'app',
      short: 'x',
      commands: [new Command({ use: 'ops', short: 'Operate the service', load: load as never, ...extra })],
    });

  it.each([
    [
      'another name',
      () => new Command({ use: 'opz', short: 'Operate the service', run: () => 1 }),
      /loaded a command named "opz"/,
    ],
    [
      'other short text',
      () => new Command({ use: 'ops', short: 'Something else', run: () => 1 }),
      /has the short text "Something else"/,
    ],
    ['other aliases', () => new Command({ use: 'ops', aliases: ['x'], run: () => 1 }), /answers to the aliases x/],
    ['not a Command', () => ({ default: 42 }), /did not load a Command/],
    [
      'a failing loader',
      () => Promise.reject(new Error('no such module')),
      /cannot load the command "app ops": no such module/,
    ],
  ])('%s: internal_error, exit 1', async (_n, load, message) => {
    const r = await runCli(tree(load), ['ops', '--format', 'json']);
    expect(r.code).toBe(1);
    const line = JSON.parse(r.stderr.trim().split('\n').pop()!);
    expect(line.error.kind).toBe('internal_error');
    expect(line.error.message).toMatch(message);
    expect(r.stdout).toBe('');
  });

  it('a stub that declares a body is a TypeError at declaration', () => {
    expect(() => tree(() => undefined, { run: () => 1 })).toThrow(TypeError);
    expect(() => tree(() => undefined, { flags: { x: { type: 'bool' } } })).toThrow(
      /declares only use, short, aliases, hidden and deprecated; flags/,
    );
    expect(() => new Command({ use: 'x', load: 'nope' as never })).toThrow(/load must be a function/);
  });
});

describe('lazy subtrees over MCP', () => {
  async function tools(eager: boolean) {
    const c = await connectStdio(['mcp-server'], eager ? { LAZY_EAGER: '1' } : {}, LAZY_CLI);
    try {
      const list = await c.client.listTools();
      const call = await c.client.callTool({ name: 'ops_deploy', arguments: { env: 'prod', replicas: 4 } });
      return {
        list,
        call: {
          structuredContent: call.structuredContent,
          isError: call.isError,
          content: (call.content as { text: string }[]).map((x) => mask(x.text)),
        },
      };
    } finally {
      await c.close();
    }
  }

  it('stdio: tools/list and tools/call equal the eager tree’s', async () => {
    const [lazy, eager] = await Promise.all([tools(false), tools(true)]);
    expect(lazy).toEqual(eager);
    expect(lazy.list.tools.map((t) => t.name).sort()).toEqual(['db_migrate', 'ops_deploy', 'ops_status', 'ping']);
    expect(lazy.call.structuredContent).toEqual({ env: 'prod', replicas: 4, region: 'eu' });
  }, 60_000);

  async function http(stateless: boolean, eager: boolean) {
    const proc = spawn(
      process.execPath,
      [
        '--import',
        TSX_LOADER,
        LAZY_CLI,
        'mcp-server',
        '--transport',
        'http',
        '--addr',
        '127.0.0.1:0',
        ...(stateless ? ['--stateless'] : []),
      ],
      {
        cwd: REPO,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...(eager ? { LAZY_EAGER: '1' } : {}) },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = '';
        const timer = setTimeout(() => reject(new Error(`no URL: ${err}`)), 30_000);
        proc.stderr!.on('data', (d: Buffer) => {
          err += d;
          const m = /listening on (http:\/\/\S+)/.exec(err);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
      });
      const client = new Client({ name: 'lazy-http', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const list = await client.listTools();
      const call = await client.callTool({ name: 'ops_deploy', arguments: { env: 'qa' } });
      await client.close();
      return { list, structured: call.structuredContent };
    } finally {
      proc.kill('SIGTERM');
    }
  }

  it.each([
    ['stateful', false],
    ['stateless', true],
  ] as const)(
    'HTTP %s: tools/list and tools/call equal the eager tree’s',
    async (_n, stateless) => {
      const [lazy, eager] = await Promise.all([http(stateless, false), http(stateless, true)]);
      expect(lazy).toEqual(eager);
      expect(lazy.structured).toEqual({ env: 'qa', replicas: 2, region: 'eu' });
    },
    60_000,
  );
});
