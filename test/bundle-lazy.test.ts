/**
 * The lazy-loading rule, proved on the built bundle (issue 6): ordinary runs, --help, --version and
 * every __schema shape load no chunk that contains the MCP SDK, express or ajv; mcp-server does.
 * Chunks are identified from esbuild's metafile (dist/bin/meta.json); loads are recorded by a
 * module resolve hook. Requires `npm run build` (npm test runs it first).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(root, 'dist/bin/tasks.js');
const HOOK = join(root, 'test/fixtures/record-imports.mjs');
const HEAVY = /node_modules\/(@modelcontextprotocol\/sdk|express|ajv)\//;

function heavyChunks(): string[] {
  const meta = JSON.parse(readFileSync(join(root, 'dist/bin/meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
  return Object.entries(meta.outputs)
    .filter(([, o]) => Object.keys(o.inputs).some((i) => HEAVY.test(i)))
    .map(([file]) => join(root, file));
}

function loadedFiles(args: string[]): { files: string[]; status: number | null } {
  const dir = mkdtempSync(join(tmpdir(), 'ax-lazy-'));
  const log = join(dir, 'imports.log');
  const r = spawnSync(process.execPath, ['--import', HOOK, BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, AX_IMPORT_LOG: log, TASKS_FILE: join(dir, 't.json'), HOME: dir },
    input: '',
  });
  const files = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u)) : [];
  return { files, status: r.status };
}

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
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp-server'], env, stderr: 'pipe' }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['add', 'done', 'export', 'list', 'rm', 'show']);
      const missing = (await client.callTool({ name: 'show', arguments: { id: '99' } })) as { isError?: boolean; content: { text: string }[] };
      expect(missing.isError).toBe(true);
      // not_found is defined by the demo (exit 5): the chunk's lib copy must see the entry's catalogue and AxError
      expect(JSON.parse(missing.content[0]!.text).error).toMatchObject({ kind: 'not_found', exit_code: 5 });
      const added = (await client.callTool({ name: 'add', arguments: { title: ['from', 'mcp'] } })) as { structuredContent?: { id: number } };
      expect(added.structuredContent?.id).toBe(1);
    } finally {
      await client.close();
    }
    const viaFlag = spawnSync(process.execPath, [BIN, 'show', '--args-json', '{"id":"1"}'], { encoding: 'utf8', env });
    expect(viaFlag.status, viaFlag.stderr).toBe(0);
    expect(JSON.parse(viaFlag.stdout).data.title).toBe('from mcp');
  }, 60_000);
});
