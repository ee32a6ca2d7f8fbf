/**
 * The switches between a stdio server's processes (docs/mcp-server.md#stdio), on a program built
 * with `ax-ts build`: the supervisor's server process (used when the entry cannot serve in place —
 * here, stderr a regular file) learns it is one from `AX_MCP_WIRE=ipc` together with the IPC
 * channel its supervisor made, and its handlers see no AX_MCP_* variable; set in a user's
 * environment without that channel, `AX_MCP_WIRE` and `AX_MCP_HAND_BACK` change nothing; a failed
 * start-up check gives exactly one error line and leaves no process behind, served in place or
 * supervised; stdin from a file is relayed. Linux only (reads /proc). Requires `npm run build`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { bundledFixture } from '../helpers/bundled.ts';
import { beforeAll, describe, expect, it } from 'vitest';

const linux = process.platform === 'linux';
let entry: string;
let dir: string;

beforeAll(async () => {
  if (!linux) return;
  ({ entry, dir } = await bundledFixture('test/fixtures/wire-env-cli.ts', 'wire', {
    prefix: 'ax-wire-',
    version: '0.0.0-unknown', // the program's own version only: WIRE_VERSION
  }));
}, 120_000);

const env = (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? '',
  HOME: dir,
  XDG_CACHE_HOME: join(dir, 'cache'),
  WIRE_VERSION: '1.2.3',
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

/** Runs `fn` with an SDK client connected to the fixture's `mcp-server` (stdio), and the server's pid. */
async function withServer(
  extra: Record<string, string>,
  stderr: 'pipe' | number,
  fn: (client: Client, pid: number) => Promise<void>,
): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [entry, 'mcp-server'],
    env: env(extra),
    stderr: stderr as 'pipe',
  });
  const client = new Client({ name: 'wire', version: '1.0.0' });
  await client.connect(transport);
  try {
    await fn(client, transport.pid!);
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

describe.runIf(linux)('mcp-server: the switches between its processes', () => {
  it('supervised (stderr a regular file): the server process was told by AX_MCP_WIRE and its channel; its handlers see no AX_MCP_* variable', async () => {
    const fd = openSync(join(dir, 'supervised.err'), 'w');
    try {
      await withServer({}, fd, async (client, pid) => {
        const kids = childrenOf(pid);
        expect(kids).toHaveLength(1);
        expect(initialAxEnv(kids[0]!)).toEqual(['AX_MCP_WIRE=ipc']);
        expect(await handlerAxEnv(client)).toEqual([]);
      });
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(join(dir, 'supervised.err'), 'utf8')).toBe('');
  }, 60_000);

  it.each([
    ['AX_MCP_HAND_BACK=1', { AX_MCP_HAND_BACK: '1' }],
    ['AX_MCP_WIRE=ipc', { AX_MCP_WIRE: 'ipc' }],
  ])(
    '%s in a user’s environment changes nothing: a command, --version and mcp-server answer as without it',
    async (_, forged) => {
      for (const args of [['env', '--format', 'json'], ['--version']]) {
        const r = spawnSync(process.execPath, [entry, ...args], { env: env(forged), encoding: 'utf8' });
        const plain = spawnSync(process.execPath, [entry, ...args], { env: env(), encoding: 'utf8' });
        expect(r.status, r.stderr).toBe(0);
        expect(r.stderr).toBe('');
        expect(JSON.parse(r.stdout).data).toEqual(
          // AX_MCP_HAND_BACK is ax-ts's own: the entry removes a stray one; AX_MCP_WIRE is left alone
          args[0] === 'env'
            ? { ax: Object.keys(forged).filter((k) => k !== 'AX_MCP_HAND_BACK') }
            : JSON.parse(plain.stdout).data,
        );
      }
      await withServer(forged, 'pipe', async (client) => {
        expect(await handlerAxEnv(client)).toEqual(Object.keys(forged).filter((k) => k !== 'AX_MCP_HAND_BACK'));
      });
      // supervised (stderr a regular file): the server process gets AX_MCP_WIRE from its supervisor and removes it
      const fd = openSync(join(dir, 'forged.err'), 'w');
      try {
        await withServer(forged, fd, async (client) => {
          expect(await handlerAxEnv(client)).toEqual([]); // both removed: AX_MCP_WIRE by the server process
        });
      } finally {
        closeSync(fd);
      }
      expect(readFileSync(join(dir, 'forged.err'), 'utf8')).toBe('');
    },
    60_000,
  );

  it.each([
    ['served in place', () => 'pipe' as const],
    ['supervised', () => openSync(join(dir, 'failed.err'), 'w')],
  ])(
    'a failed start-up check (%s): exactly one error line, exit 2, and no server or helper process left',
    async (how, stderrOf) => {
      const stderr = stderrOf();
      // a value the server refuses at start (the version can no longer be the trigger: a build
      // without one falls back to the VCS revision)
      const p = spawn(process.execPath, [entry, 'mcp-server', '--max-line', '0'], {
        env: env(),
        stdio: ['pipe', 'pipe', stderr],
      });
      let out = '';
      let err = '';
      p.stdout!.on('data', (c: Buffer) => (out += c.toString()));
      p.stderr?.on('data', (c: Buffer) => (err += c.toString()));
      p.stdin!.write(initialize);
      const code = await new Promise<number | null>((r) => p.once('exit', r));
      await new Promise((r) => setTimeout(r, 300)); // a process that outlived it would still be here
      if (typeof stderr === 'number') {
        closeSync(stderr);
        err = readFileSync(join(dir, 'failed.err'), 'utf8');
      }
      expect(code, how).toBe(2);
      expect(out).toBe('');
      const lines = err.trim().split('\n');
      expect(lines, err).toHaveLength(1);
      expect(JSON.parse(lines[0]!).error.context.reason).toBe('invalid_flag_value');
      expect(fixtureProcesses()).toEqual([]);
    },
    60_000,
  );

  it('stdin from a file: the supervisor relays; the answer is the same', () => {
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, initialize);
    const r = spawnSync('sh', ['-c', `"${process.execPath}" "${entry}" mcp-server < "${input}"`], {
      env: env(),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim().split('\n')[0]!).result.serverInfo.name).toBe('wire');
    expect(existsSync(input)).toBe(true);
  }, 60_000);
});
