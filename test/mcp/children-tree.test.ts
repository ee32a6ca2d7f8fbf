/**
 * Processes below a handler's child (B21, B27): cancelling the call, or the server's end — even by
 * SIGKILL, through the reaper — stops the whole tree the child started, not the child alone. The
 * fixture's `shell-tree` starts `sh -c 'node -e …; echo done'`: the shell (the handler's child)
 * waits for a node process that ignores SIGTERM, which has a child of its own. So a fix that
 * signals only the child leaves two processes running; one that sends only TERM leaves the one that
 * ignores it. Cancelling runs on every MCP transport (stdio, HTTP stateful and stateless, the cases
 * CLI under tsx) — by `notifications/cancelled`, and on a stateless server, which cannot match that
 * notification to a call another request holds, by the client closing the call's connection; the reaper runs on stdio under tsx and on the bundled program served in place,
 * whose reaper runs the minified source of the tree walk.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASES_CLI, connectStdio, REPO, TSX_LOADER, until } from '../helpers/mcp.ts';
import { bundledFixture } from '../helpers/bundled.ts';

const T = 40_000;
const linux = process.platform === 'linux';

/** Whether `pid` is a running process: alive, and not a zombie (an orphan's reaper may be slow to reap, or absent in a container). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (!linux) return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The three pids of a `shell-tree` call, from the server's stderr: the shell, its node child, and that one's child. */
function treePids(stderr: string): number[] | undefined {
  const child = /shell-tree: child-pid=(\d+)/.exec(stderr);
  const tree = /shell-tree: tree-pids=(\d+),(\d+)/.exec(stderr);
  return child && tree ? [Number(child[1]), Number(tree[1]), Number(tree[2])] : undefined;
}

/** SIGKILL to whatever of a tree is left (a failing run must not leave processes behind). */
function cleanUp(pids: number[] | undefined): void {
  for (const pid of pids ?? []) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

/** A cases server on one transport: an SDK client, and the server's stderr. */
interface Server {
  client: Client;
  stderr(): string;
  close(): Promise<void>;
}

async function stdioServer(): Promise<Server> {
  const s = await connectStdio();
  return { client: s.client, stderr: s.stderr, close: () => s.close() };
}

async function httpServer(stateless: boolean): Promise<Server> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      TSX_LOADER,
      CASES_CLI,
      'mcp-server',
      '--transport',
      'http',
      '--addr',
      '127.0.0.1:0',
      ...(stateless ? ['--stateless'] : []),
    ],
    {
      cwd: REPO,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    },
  );
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString('utf8')));
  if (!(await until(() => /listening on http:\/\/\S+/.test(err), 20_000))) throw new Error(`no URL: ${err}`);
  const url = /listening on (http:\/\/\S+)/.exec(err)![1]!;
  const client = new Client({ name: 'ax-ts-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    client,
    stderr: () => err,
    close: async () => {
      await client.close().catch(() => {});
      await stop(child);
    },
  };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(killer);
}

/** How a client cancels a call: `notifications/cancelled` (the SDK client's AbortSignal), or closing its connection. */
type Cancel = 'notification' | 'disconnect';

const TRANSPORTS: [string, Cancel, () => Promise<Server>][] = [
  ['stdio', 'notification', stdioServer],
  ['http-stateful', 'notification', () => httpServer(false)],
  ['http-stateless', 'disconnect', () => httpServer(true)],
];

describe.runIf(linux)('cancelling a call stops every process below its child', () => {
  it.each(TRANSPORTS)(
    '%s (cancelled by %s): the shell, its child that ignores TERM (KILL after the grace), and that one’s child',
    async (_name, cancel, start) => {
      const s = await start();
      try {
        const ac = new AbortController();
        const call = s.client.callTool({ name: 'shell-tree', arguments: {} }, CallToolResultSchema, {
          signal: ac.signal,
        });
        call.catch(() => {});
        expect(await until(() => treePids(s.stderr()) !== undefined, 20_000)).toBe(true);
        const pids = treePids(s.stderr())!;
        expect(pids.every(running)).toBe(true);
        if (cancel === 'notification') ac.abort('stop');
        else await s.client.close();
        await expect(call).rejects.toThrow();
        // TERM at once (the shell and the leaf end), KILL after the 1 s grace (the one that ignores TERM)
        expect(await until(() => !pids.some(running), 5000), `still running: ${pids.filter(running).join(', ')}`).toBe(
          true,
        );
        if (cancel === 'notification') await s.client.ping();
      } finally {
        cleanUp(treePids(s.stderr()));
        await s.close();
      }
    },
    T,
  );
});

/** A raw stdio server (no SDK client): its process, and its stderr so far. */
function rawServer(argv: string[]): { child: ChildProcess; stderr(): string } {
  const child = spawn(process.execPath, argv, {
    cwd: REPO,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString('utf8')));
  child.stdout!.resume();
  const send = (m: object) => child.stdin!.write(`${JSON.stringify(m)}\n`);
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'shell-tree', arguments: {} } });
  return { child, stderr: () => err };
}

describe.runIf(linux)('SIGKILL of the server: the reaper stops every process below a handler’s child', () => {
  let bundled: { entry: string; dir: string };
  beforeAll(async () => {
    bundled = await bundledFixture('test/fixtures/mcp-cases-cli.ts', 'cases', { prefix: 'ax-tree-' });
  }, 120_000);
  afterAll(() => rmSync(bundled.dir, { recursive: true, force: true }));

  it.each([
    ['under tsx', () => ['--import', TSX_LOADER, CASES_CLI, 'mcp-server']],
    ['bundled, served in place (the reaper runs the minified tree walk)', () => [bundled.entry, 'mcp-server']],
  ] as [string, () => string[]][])(
    '%s',
    async (_name, argv) => {
      const s = rawServer(argv());
      try {
        expect(await until(() => treePids(s.stderr()) !== undefined, 20_000), s.stderr()).toBe(true);
        const pids = treePids(s.stderr())!;
        expect(pids.every(running)).toBe(true);
        await new Promise((r) => setTimeout(r, 200)); // let the reaper start and read the pid
        s.child.kill('SIGKILL');
        expect(
          await until(() => !pids.some(running), 6000),
          `still running: ${pids.filter(running).join(', ')}; stderr: ${s.stderr()}`,
        ).toBe(true);
      } finally {
        s.child.kill('SIGKILL');
        cleanUp(treePids(s.stderr()));
      }
    },
    T,
  );
});
