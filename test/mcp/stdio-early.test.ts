/**
 * The early server process (issue 14): when it is not served in place (AX_MCP_IN_PLACE=0, or a stderr
 * that is a regular file: test/mcp/stdio-in-place.test.ts), a bundled program run as a bare `mcp-server` over pipes starts
 * its server process from the entry (.ci/loader.cjs), beside the supervisor, and the supervisor adopts
 * it once its own start-up checks pass. Shown on a built fixture: the server process is the early one
 * (its initial environment says so) and serves calls; its handlers see no AX_MCP_* variable; a failed
 * start-up check gives exactly one error line and leaves no server process; an in-process server
 * (isolateStdio false) keeps no idle one; with AX_MCP_EARLY=0 the program starts its own, as before.
 * Requires `npm run build` (npm test runs it first).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { bundledFixture } from '../helpers/bundled.ts';
import { beforeAll, describe, expect, it } from 'vitest';

let entry: string;
let dir: string;

beforeAll(async () => {
  ({ entry, dir } = await bundledFixture('test/fixtures/early-server-cli.ts', 'early', { prefix: 'ax-early-' }));
}, 120_000);

const env = (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? '',
  HOME: dir,
  XDG_CACHE_HOME: join(dir, 'cache'),
  EARLY_VERSION: '1.2.3',
  ...extra,
});

/** The child processes of `pid` (from /proc). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const t of readdirSync(`/proc/${pid}/task`))
    out.push(
      ...readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
    );
  return out;
}

/** The AX_MCP_* entries of a process's initial environment. */
function initialAxEnv(pid: number): string[] {
  return readFileSync(`/proc/${pid}/environ`, 'utf8')
    .split('\0')
    .filter((e) => e.startsWith('AX_MCP_'))
    .sort();
}

/** Live processes running this fixture's entry. */
function fixtureProcesses(): number[] {
  const out: number[] = [];
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      if (readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').includes(entry)) out.push(Number(p));
    } catch {
      /* gone */
    }
  }
  return out;
}

/** Runs `fn` with an SDK client connected to the fixture's `mcp-server` (stdio), and the supervisor's pid. */
async function withServer(
  extra: Record<string, string>,
  fn: (client: Client, pid: number, stderr: () => string) => Promise<void>,
): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [entry, 'mcp-server'],
    env: env(extra),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const client = new Client({ name: 'early', version: '1.0.0' });
  await client.connect(transport);
  try {
    await fn(client, transport.pid!, () => stderr);
  } finally {
    await client.close();
  }
}

/** The AX_* variables the `env` tool's handler sees. */
async function handlerAxEnv(client: Client): Promise<string[]> {
  const r = (await client.callTool({ name: 'env', arguments: {} })) as { content: { text: string }[] };
  return (JSON.parse(r.content[0]!.text) as { data: { ax: string[] } }).data.ax;
}

const initialize = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`;

// served in place is the default (test/mcp/stdio-in-place.test.ts); the early process serves when it is off
const SUPERVISED = { AX_MCP_IN_PLACE: '0' };

describe('mcp-server: the server process the entry starts early', () => {
  it('serves the calls, is the one the entry started, and its handlers see no AX_MCP_* variable', async () => {
    await withServer(SUPERVISED, async (client, pid, stderr) => {
      const kids = childrenOf(pid);
      expect(kids).toHaveLength(1);
      expect(initialAxEnv(kids[0]!)).toEqual(['AX_MCP_EARLY=1', 'AX_MCP_IN_PLACE=0', 'AX_MCP_WIRE=ipc']);
      expect(await handlerAxEnv(client)).toEqual(['AX_MCP_IN_PLACE']); // the user's own setting only
      expect(stderr()).toBe('');
    });
  }, 60_000);

  it.each([
    ['supervised', SUPERVISED],
    ['served in place', {}],
  ])(
    'a failed start-up check (%s): exactly one error line, exit 2, and no server or helper process left',
    async (_, extra) => {
      const p = spawn(process.execPath, [entry, 'mcp-server'], {
        env: env({ EARLY_VERSION: '', ...extra }),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      p.stdout.on('data', (c: Buffer) => (out += c.toString()));
      p.stderr.on('data', (c: Buffer) => (err += c.toString()));
      p.stdin.write(initialize);
      const code = await new Promise<number | null>((r) => p.once('exit', r));
      await new Promise((r) => setTimeout(r, 300)); // a server process that outlived it would still be here
      expect(code).toBe(2);
      expect(out).toBe('');
      const lines = err.trim().split('\n');
      expect(lines, err).toHaveLength(1);
      expect(JSON.parse(lines[0]!).error.context.reason).toBe('placeholder_version');
      expect(fixtureProcesses()).toEqual([]);
    },
    60_000,
  );

  it('isolateStdio false: the early process is dropped at once, the server runs in the process the client started', async () => {
    await withServer({ EARLY_INPROCESS: '1', ...SUPERVISED }, async (client, pid) => {
      await new Promise((r) => setTimeout(r, 200));
      expect(childrenOf(pid)).toEqual([]);
      expect(await handlerAxEnv(client)).toEqual(['AX_MCP_IN_PLACE']);
    });
  }, 60_000);

  it('AX_MCP_EARLY=0: the program starts its server process itself, as without the entry', async () => {
    await withServer({ AX_MCP_EARLY: '0', ...SUPERVISED }, async (client, pid) => {
      const kids = childrenOf(pid);
      expect(kids).toHaveLength(1);
      expect(initialAxEnv(kids[0]!)).toEqual(['AX_MCP_EARLY=0', 'AX_MCP_IN_PLACE=0', 'AX_MCP_WIRE=ipc']);
      expect(await handlerAxEnv(client)).toEqual(['AX_MCP_EARLY', 'AX_MCP_IN_PLACE']); // the user's own settings stay
    });
  }, 60_000);

  it('stdin from a file: no early process (the supervisor relays), the answer is the same', () => {
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, initialize);
    const r = spawnSync('sh', ['-c', `"${process.execPath}" "${entry}" mcp-server < "${input}"`], {
      env: env(),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim().split('\n')[0]!).result.serverInfo.name).toBe('early');
    expect(existsSync(input)).toBe(true);
  }, 60_000);
});
