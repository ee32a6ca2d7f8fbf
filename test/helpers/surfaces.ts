/**
 * Every surface of bm (test/bench/projects/bm), however it was shipped: `--help`, `--version`, a
 * json command that logs (ctx.logger), one that reads a JSONC config (readConfig), `__schema`, and
 * `mcp-server` over stdio and over HTTP to the SDK's real client, then the `--print-config` block
 * started exactly as printed (from `/`, with nothing of this environment) and used by the client.
 * The program is whatever `launch` starts: a script under a runtime, a bundle, a binary.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';

/** How to start the program: `command` then `args`, then the program's own words. */
export interface Launch {
  command: string;
  args: string[];
  /** Environment added to a minimal one (PATH, HOME, the store). */
  env?: Record<string, string>;
  /** Working directory (default: a fresh empty one). */
  cwd?: string;
}

/** bm's version (test/bench/projects/bm/package.json): every surface must tell it. */
export const BM_VERSION = '1.4.2';

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A session of the SDK's client: tools, a call, the resource and the prompt bm declares. */
async function useClient(client: Client, label: string): Promise<void> {
  expect(client.getServerVersion(), label).toMatchObject({ name: 'bm', version: BM_VERSION });
  const tools = (await client.listTools()).tools.map((t) => t.name).sort();
  expect(tools, label).toEqual(['link_add', 'link_list', 'link_rm']);
  const r = (await client.callTool({ name: 'link_list', arguments: {} })) as { isError?: boolean; content: unknown };
  expect(r.isError, `${label}: ${JSON.stringify(r.content)}`).toBeFalsy();
  const res = await client.readResource({ uri: 'bm://docs/usage' });
  expect(JSON.stringify(res.contents), label).toContain('bm link add');
  const p = await client.getPrompt({ name: 'save-link', arguments: { url: 'https://example.org' } });
  expect(JSON.stringify(p.messages), label).toContain('https://example.org');
}

/**
 * Runs every surface of the program `launch` starts; fails (vitest expect) at the first one that
 * does not hold, naming it. `label` names the way it was shipped in messages.
 */
export async function checkSurfaces(launch: Launch, label: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ax-surface-'));
  try {
    await surfaces(launch, label, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** {@link checkSurfaces} with `dir`, a fresh directory for the store, the config file and HOME. */
async function surfaces(launch: Launch, label: string, dir: string): Promise<void> {
  const store = join(dir, 'bm.json');
  const config = join(dir, 'bm.jsonc');
  writeFileSync(config, '{\n  // at most one link unless --limit says otherwise\n  "limit": 1,\n}\n');
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, BM_STORE: store, ...launch.env };
  const cwd = launch.cwd ?? dir;
  const run = (words: string[], extra: Record<string, string> = {}): Ran => {
    const r = spawnSync(launch.command, [...launch.args, ...words], {
      cwd,
      env: { ...env, ...extra },
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? String(r.error ?? '') };
  };
  const json = (r: Ran, what: string): { data: any } => {
    expect(r.status, `${label} ${what}: ${r.stderr}`).toBe(0);
    return JSON.parse(r.stdout) as { data: any };
  };

  const help = run(['--help']);
  expect(help.status, `${label} --help: ${help.stderr}`).toBe(0);
  expect(help.stdout, `${label} --help`).toMatch(/Usage:[^]*link/);
  expect(json(run(['--version']), '--version').data.version, `${label} --version`).toBe(BM_VERSION);

  // a json command, and the log line it writes with ctx.logger
  const added = run(['link', 'add', 'https://example.org/a', 'A', '--tag', 'x']);
  expect(json(added, 'link add').data, `${label} link add`).toMatchObject({ id: 1, url: 'https://example.org/a' });
  const log = added.stderr.split('\n').find((l) => l.includes('saving a link'));
  expect(log && JSON.parse(log), `${label} ctx.logger: ${added.stderr}`).toMatchObject({
    level: 'info',
    program: 'bm',
  });
  json(run(['link', 'add', 'https://example.org/b']), 'second link add');
  // readConfig: the JSONC file's limit
  expect(json(run(['link', 'list'], { BM_CONFIG: config }), 'link list').data, `${label} readConfig`).toHaveLength(1);
  expect(json(run(['link', 'list']), 'link list').data, `${label} link list`).toHaveLength(2);
  const rm = run(['link', 'rm', '7', '--yes']);
  expect(rm.status, `${label} link rm of a missing id: ${rm.stderr}`).toBe(5);

  const schema = run(['__schema']);
  expect(schema.status, `${label} __schema: ${schema.stderr}`).toBe(0);
  expect(JSON.parse(schema.stdout), `${label} __schema`).toMatchObject({ tool: 'bm', version: BM_VERSION });

  // mcp-server over stdio
  const stdio = new Client({ name: 'ax-surfaces', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: launch.command,
    args: [...launch.args, 'mcp-server'],
    env,
    cwd,
    stderr: 'pipe',
  });
  let stdioErr = '';
  transport.stderr?.on('data', (c: Buffer) => (stdioErr += c.toString()));
  try {
    await stdio.connect(transport);
    await useClient(stdio, `${label} mcp-server (stdio)`);
  } catch (e) {
    throw new Error(`${label} mcp-server (stdio): ${(e as Error).message}\n${stdioErr}`, { cause: e });
  } finally {
    await stdio.close();
  }

  // mcp-server over HTTP
  const server = spawn(launch.command, [...launch.args, 'mcp-server', '--transport', 'http', '--addr', '127.0.0.1:0'], {
    cwd,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let httpErr = '';
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL within 60 s: ${httpErr}`)), 60_000);
      server.stderr.on('data', (c: Buffer) => {
        httpErr += c.toString();
        const m = /listening on (http:\/\/\S+)/.exec(httpErr);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      server.on('exit', (code) => reject(new Error(`exited ${code}: ${httpErr}`)));
    });
    const http = new Client({ name: 'ax-surfaces', version: '1.0.0' });
    await http.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      await useClient(http, `${label} mcp-server (HTTP)`);
    } finally {
      await http.close();
    }
  } catch (e) {
    throw new Error(`${label} mcp-server (HTTP): ${(e as Error).message}`, { cause: e });
  } finally {
    server.kill('SIGTERM');
  }

  // --print-config, started as printed: from /, with only what the block says
  const printed = run(['mcp-server', '--print-config']);
  expect(printed.status, `${label} --print-config: ${printed.stderr}`).toBe(0);
  const block = (JSON.parse(printed.stdout) as { mcpServers: Record<string, { command: string; args: string[] }> })
    .mcpServers.bm!;
  const client = new Client({ name: 'ax-surfaces', version: '1.0.0' });
  const started = new StdioClientTransport({
    command: block.command,
    args: block.args,
    cwd: '/',
    env: { PATH: '/usr/bin:/bin', HOME: dir, BM_STORE: store },
    stderr: 'pipe',
  });
  let startedErr = '';
  started.stderr?.on('data', (c: Buffer) => (startedErr += c.toString()));
  try {
    await client.connect(started);
    await useClient(client, `${label} --print-config as printed (${JSON.stringify(block)})`);
  } catch (e) {
    throw new Error(
      `${label} --print-config as printed ${JSON.stringify(block)}: ${(e as Error).message}\n${startedErr}`,
      {
        cause: e,
      },
    );
  } finally {
    await client.close();
  }
}
