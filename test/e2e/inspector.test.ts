/**
 * A real third-party MCP client against the real server: the MCP Inspector CLI
 * (`@modelcontextprotocol/inspector@2.12.0 --cli`, run through npx) lists the tools with `--strict`
 * (its tool-schema portability lint) and calls a tool, a prompt and a resource — over stdio and over
 * Streamable HTTP — on the HTTP fixture CLI, and on the demo CLI (cmd/tasks) when it mounts
 * `mcp-server`, whose tools it lints as a client of each protocol era (`--protocol-era legacy|modern`)
 * and whose skill it verifies (`skills/list --verify`). Source: docs/mcp-server.md.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_CLI, killAll, startServer, type RunningServer } from '../fixtures/http-harness.ts';
import { announcedUrl } from '../helpers/spawn.ts';

/** The pinned Inspector; 2.12.0 runs on Node 20 although its engines field asks for 22. */
const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const DEMO = join(REPO, 'cmd/tasks/main.ts');
const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npx -y <inspector> --cli ...args` from the repo root. */
function inspector(args: string[], timeoutMs = 60_000): Promise<Outcome> {
  const proc = spawn(NPX, ['-y', INSPECTOR, '--cli', ...args], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stdout = '';
  let stderr = '';
  proc.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  proc.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`inspector ${args.join(' ')} timed out; stderr:\n${stderr}`));
    }, timeoutMs);
    proc.once('error', reject);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The JSON document the Inspector printed on stdout. */
function doc(o: Outcome): any {
  try {
    return JSON.parse(o.stdout);
  } catch {
    throw new Error(`inspector printed no JSON (exit ${o.code}); stdout:\n${o.stdout}\nstderr:\n${o.stderr}`);
  }
}

/** The Inspector's own lint lines (`Warning: tool …` / `Error: tool …`), npm's engine warnings left out. */
function lint(stderr: string, severity: 'Warning' | 'Error'): string[] {
  return stderr.split('\n').filter((l) => l.startsWith(`${severity}: tool`));
}

/** The envelope in a tools/call result's first text item. */
function envelopeOf(result: any): any {
  expect(result.content[0].type).toBe('text');
  return JSON.parse(result.content[0].text);
}

beforeAll(async () => {
  // first use downloads the package into npm's cache; later runs start from the cache
  const v = await inspector(['--version'], 300_000).catch((e: Error) => ({ code: -1, stdout: '', stderr: e.message }));
  if (v.code !== 0) throw new Error(`cannot run ${INSPECTOR} through npx (exit ${v.code}):\n${v.stderr}`);
}, 320_000);

afterAll(() => killAll());

/** The same four checks against one fixture target (argv of the server command, or its URL). */
function fixtureChecks(target: () => string[]) {
  it('tools/list --strict exits 0 with no portability warning or error', async () => {
    const o = await inspector([...target(), '--method', 'tools/list', '--strict']);
    expect(o.code, o.stderr).toBe(0);
    const names = doc(o).tools.map((t: { name: string }) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'build', 'pong', 'ok', 'bad-throw']));
    expect(names).not.toContain('mcp-server');
    expect(lint(o.stderr, 'Error')).toEqual([]);
    expect(lint(o.stderr, 'Warning')).toEqual([]);
  }, 90_000);

  it('tools/call --tool-name echo --tool-arg text=… returns the --format json envelope', async () => {
    const o = await inspector([
      ...target(),
      '--method',
      'tools/call',
      '--tool-name',
      'echo',
      '--tool-arg',
      'text=héllo wörld',
      '--tool-arg',
      'delay_ms=5',
    ]);
    expect(o.code, o.stderr).toBe(0);
    const r = doc(o);
    expect(r.isError ?? false).toBe(false);
    expect(envelopeOf(r).data).toEqual({ text: 'héllo wörld' });
  }, 90_000);

  it('tools/call of a failing tool gives isError with the error envelope', async () => {
    const o = await inspector([...target(), '--method', 'tools/call', '--tool-name', 'bad-throw']);
    const r = doc(o);
    expect(r.isError).toBe(true);
    expect(envelopeOf(r).error.message).toContain('42');
  }, 90_000);

  it('prompts/get renders the declared template', async () => {
    const o = await inspector([
      ...target(),
      '--method',
      'prompts/get',
      '--prompt-name',
      'greet',
      '--prompt-args',
      'name=Ada',
    ]);
    expect(o.code, o.stderr).toBe(0);
    expect(doc(o).messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Say hello to Ada.' } }]);
  }, 90_000);

  it('resources/read returns the static content', async () => {
    const o = await inspector([...target(), '--method', 'resources/read', '--uri', 'httpcli://docs/readme']);
    expect(o.code, o.stderr).toBe(0);
    expect(doc(o).contents).toEqual([
      {
        uri: 'httpcli://docs/readme',
        mimeType: 'text/plain',
        text: 'httpcli: a fixture for the Streamable HTTP tests.\n',
      },
    ]);
  }, 90_000);
}

describe('Inspector CLI → fixture over stdio', () => {
  fixtureChecks(() => [process.execPath, '--import', 'tsx', HTTP_CLI, 'mcp-server']);
});

describe('Inspector CLI → fixture over Streamable HTTP', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
  });
  fixtureChecks(() => [server.url]);
});

/** Whether the demo exists and mounts mcp-server (it is written concurrently; skip until it does). */
function demoMountsServer(): boolean {
  if (!existsSync(DEMO)) return false;
  const r = spawnSync(process.execPath, ['--import', 'tsx', DEMO, 'mcp-server', '--help'], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return r.status === 0 && /--transport/.test(r.stdout);
}

describe.skipIf(!demoMountsServer())('Inspector CLI → demo CLI (cmd/tasks)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ax-inspector-demo-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const stdio = () => [
    '-e',
    `TASKS_FILE=${join(dir, 'stdio.json')}`,
    process.execPath,
    '--import',
    'tsx',
    DEMO,
    'mcp-server',
  ];

  /** The demo served over HTTP with its store at `store` in the temp dir: the URL, and how to stop it. */
  const demoHttp = (store: string) => {
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', DEMO, 'mcp-server', '--transport', 'http', '--addr', '127.0.0.1:0'],
      { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, TASKS_FILE: join(dir, store) } },
    );
    return { url: announcedUrl(proc).url, stop: () => proc.kill('SIGTERM') };
  };

  it('stdio: tools/list --strict exits 0 with no portability warning or error', async () => {
    const o = await inspector([...stdio(), '--method', 'tools/list', '--strict']);
    expect(o.code, o.stderr).toBe(0);
    expect(doc(o).tools.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(['add', 'list']));
    expect(lint(o.stderr, 'Error')).toEqual([]);
    expect(lint(o.stderr, 'Warning')).toEqual([]);
  }, 90_000);

  it.each(['legacy', 'modern'])(
    'both eras, stdio and HTTP: tools/list --strict --protocol-era %s exits 0 with no portability warning or error',
    async (era) => {
      const strict = async (target: string[]) => {
        const o = await inspector([...target, '--method', 'tools/list', '--strict', '--protocol-era', era]);
        expect(o.code, o.stderr).toBe(0);
        expect(lint(o.stderr, 'Error')).toEqual([]);
        expect(lint(o.stderr, 'Warning')).toEqual([]);
        return doc(o).tools as { name: string; outputSchema?: { type?: string } }[];
      };
      const tools = await strict(stdio());
      // the era is the one asked for: a 2026-07-28 client gets list's array outputSchema as declared
      expect(tools.find((t) => t.name === 'list')?.outputSchema?.type).toBe(era === 'modern' ? 'array' : 'object');
      const server = demoHttp('eras.json');
      try {
        const overHttp = await strict([await server.url]);
        expect(overHttp).toEqual(tools);
      } finally {
        server.stop();
      }
    },
    180_000,
  );

  it.each(['legacy', 'modern'])(
    'skills/list --verify --protocol-era %s, stdio and HTTP: the skill and every file verified (digests, sizes, frontmatter)',
    async (era) => {
      const verify = async (target: string[]) => {
        const o = await inspector([...target, '--method', 'skills/list', '--verify', '--protocol-era', era]);
        expect(o.code, o.stderr).toBe(0);
        const report = doc(o) as Record<string, any>;
        expect(report).toMatchObject({ uri: 'skill://tasks/SKILL.md', ok: true, outcome: 'verified' });
        expect([report.conformance, report.frontmatter]).toEqual([[], []]);
        expect(report.files.map((f: { uri: string; status: string }) => [f.uri, f.status])).toEqual([
          ['skill://tasks/SKILL.md', 'verified'],
          ['skill://tasks/AGENTS.md', 'verified'],
        ]);
      };
      await verify(stdio());
      const server = demoHttp('skills.json');
      try {
        await verify([await server.url]);
      } finally {
        server.stop();
      }
    },
    180_000,
  );

  it('stdio: tools/call add, then list sees the task', async () => {
    const add = await inspector([
      ...stdio(),
      '--method',
      'tools/call',
      '--tool-name',
      'add',
      '--tool-arg',
      'title=["buy","milk"]',
    ]);
    expect(add.code, add.stderr).toBe(0);
    expect(envelopeOf(doc(add)).data.title).toBe('buy milk');
    const list = await inspector([...stdio(), '--method', 'tools/call', '--tool-name', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.stringify(envelopeOf(doc(list)).data)).toContain('buy milk');
  }, 120_000);

  it('HTTP: tools/list --strict exits 0 and tools/call works', async () => {
    // the demo over HTTP, its store in the temp dir
    const server = demoHttp('http.json');
    try {
      const url = await server.url;
      const listTools = await inspector([url, '--method', 'tools/list', '--strict']);
      expect(listTools.code, listTools.stderr).toBe(0);
      expect(lint(listTools.stderr, 'Error')).toEqual([]);
      expect(lint(listTools.stderr, 'Warning')).toEqual([]);
      const add = await inspector([
        url,
        '--method',
        'tools/call',
        '--tool-name',
        'add',
        '--tool-arg',
        'title=["over","http"]',
      ]);
      expect(add.code, add.stderr).toBe(0);
      expect(envelopeOf(doc(add)).data.title).toBe('over http');
    } finally {
      server.stop();
    }
  }, 120_000);
});
