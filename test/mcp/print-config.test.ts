/**
 * `mcp-server --print-config`: the persistent flags given on the same command line
 * are carried into the printed `args`, so the server a client starts from the block runs with them —
 * checked by starting that exact command with the SDK's stdio client; and it refuses what the server
 * would refuse (port 0, a non-loopback address without --allow-non-loopback, a placeholder version).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { connectStdio, envelopeOf, REPO, runCasesCli, tempDir } from '../helpers/mcp.ts';

const DEMO = join(REPO, 'cmd/tasks/main.ts');
const T = 60_000;

function lastError(stderr: string): Record<string, any> {
  return JSON.parse(stderr.trim().split('\n').pop()!).error;
}

describe('mcp-server --print-config', () => {
  it(
    "carries persistent flags (the demo's --store, --dry-run) into args, before mcp-server; the printed command serves that store",
    async () => {
      const tmp = tempDir('ax-printcfg-');
      try {
        const store = join(tmp.path, 'elsewhere.json');
        const seed = {
          version: 1,
          next_id: 2,
          tasks: [
            {
              id: 1,
              title: 'from the carried store',
              status: 'open',
              tags: [],
              due: null,
              created_at: '2030-01-01T00:00:00.000Z',
              done_at: null,
            },
          ],
          idempotency: {},
        };
        writeFileSync(store, JSON.stringify(seed));
        const r = await runCasesCli(['--store', store, 'mcp-server', '--print-config'], { cli: DEMO });
        expect(r.code, r.stderr).toBe(0);
        const entry = JSON.parse(r.stdout.toString()).mcpServers.tasks;
        expect(entry.args.slice(-2)).toEqual([`--store=${store}`, 'mcp-server']);
        expect(entry.command).toBe(process.execPath);
        // start exactly what a desktop client would start, with no TASKS_FILE: the carried --store decides
        const transport = new StdioClientTransport({
          command: entry.command,
          args: entry.args,
          env: { PATH: process.env.PATH ?? '', HOME: tmp.path },
          stderr: 'pipe',
          cwd: '/',
        });
        const client = new Client({ name: 'print-config-test', version: '1.0.0' });
        await client.connect(transport);
        try {
          const list = await client.callTool({ name: 'list', arguments: {} });
          expect(JSON.stringify(envelopeOf(list as { content?: unknown }).data)).toContain('from the carried store');
        } finally {
          await client.close();
        }
        // a relative --store is carried made absolute: the client starts the server in '/'
        const rel = await runCasesCli(['--store', 'tasks-rel.json', 'mcp-server', '--print-config'], { cli: DEMO });
        expect(rel.code, rel.stderr).toBe(0);
        expect(JSON.parse(rel.stdout.toString()).mcpServers.tasks.args.slice(-2)).toEqual([
          `--store=${join(REPO, 'tasks-rel.json')}`,
          'mcp-server',
        ]);
        const dry = await runCasesCli(['mcp-server', '--print-config', '--dry-run'], { cli: DEMO });
        expect(JSON.parse(dry.stdout.toString()).mcpServers.tasks.args.slice(-2)).toEqual(['--dry-run', 'mcp-server']);
        const none = await runCasesCli(['mcp-server', '--print-config'], { cli: DEMO });
        expect(JSON.parse(none.stdout.toString()).mcpServers.tasks.args.at(-2)).toBe(DEMO);
      } finally {
        tmp.cleanup();
      }
    },
    T,
  );

  it(
    'refuses what the server would refuse: port 0, a non-loopback address without --allow-non-loopback or without a token',
    async () => {
      const zero = await runCasesCli(['mcp-server', '--print-config', '--transport', 'http', '--addr', '127.0.0.1:0'], {
        cli: DEMO,
      });
      expect(zero.code).toBe(2);
      expect(zero.stdout.length).toBe(0);
      expect(lastError(zero.stderr)).toMatchObject({
        kind: 'validation_error',
        context: { reason: 'invalid_address', flag: '--addr' },
      });
      const wild = await runCasesCli(
        ['mcp-server', '--print-config', '--transport', 'http', '--addr', '0.0.0.0:8080'],
        { cli: DEMO },
      );
      expect(wild.code).toBe(2);
      expect(lastError(wild.stderr)).toMatchObject({ context: { reason: 'non_loopback_bind' } });
      // a non-loopback bind also needs a bearer token: refused without, printed with its header
      const tokenless = await runCasesCli(
        ['mcp-server', '--print-config', '--transport', 'http', '--addr', '0.0.0.0:8080', '--allow-non-loopback'],
        { cli: DEMO },
      );
      expect(tokenless.code).toBe(2);
      expect(lastError(tokenless.stderr)).toMatchObject({ context: { reason: 'token_required' } });
      const token = 'print-config-token-0123456789';
      const allowed = await runCasesCli(
        ['mcp-server', '--print-config', '--transport', 'http', '--addr', '0.0.0.0:8080', '--allow-non-loopback'],
        { cli: DEMO, env: { AX_MCP_TOKEN: token } },
      );
      expect(allowed.code, allowed.stderr).toBe(0);
      expect(JSON.parse(allowed.stdout.toString()).mcpServers.tasks).toEqual({
        type: 'http',
        url: 'http://0.0.0.0:8080/mcp',
        headers: { Authorization: `Bearer ${token}` },
      });
      const ok = await runCasesCli(['mcp-server', '--print-config', '--transport', 'http', '--addr', ':8080'], {
        cli: DEMO,
      });
      expect(JSON.parse(ok.stdout.toString()).mcpServers.tasks).toEqual({
        type: 'http',
        url: 'http://127.0.0.1:8080/mcp',
      });
      const badBody = await runCasesCli(['mcp-server', '--print-config', '--max-body', '0'], { cli: DEMO });
      expect(badBody.code).toBe(2);
      expect(lastError(badBody.stderr)).toMatchObject({
        context: { reason: 'invalid_flag_value', flag: '--max-body' },
      });
    },
    T,
  );

  it(
    'a server started with persistent flags applies them to every call: --store picks the file, --dry-run cannot be turned off',
    async () => {
      const tmp = tempDir('ax-presets-');
      try {
        const store = join(tmp.path, 'picked.json');
        const s = await connectStdio(
          ['--store', store, 'mcp-server', '--dry-run'],
          { TASKS_FILE: join(tmp.path, 'other.json') },
          DEMO,
        );
        try {
          for (const args of [{ title: ['water', 'plants'] }, { title: ['again'], dry_run: false }]) {
            const r = await s.client.callTool({ name: 'add', arguments: args });
            expect(r.isError ?? false).toBe(false);
            expect(envelopeOf(r as { content?: unknown }).meta?.dry_run).toBe(true);
          }
          expect(existsSync(store)).toBe(false);
          expect(existsSync(join(tmp.path, 'other.json'))).toBe(false);
        } finally {
          await s.close();
        }
        const real = await connectStdio(
          ['--store', store, 'mcp-server'],
          { TASKS_FILE: join(tmp.path, 'other.json') },
          DEMO,
        );
        try {
          await real.client.callTool({ name: 'add', arguments: { title: ['kept'] } });
          expect(readFileSync(store, 'utf8')).toContain('kept');
          expect(existsSync(join(tmp.path, 'other.json'))).toBe(false);
        } finally {
          await real.close();
        }
      } finally {
        tmp.cleanup();
      }
    },
    T,
  );

  it(
    'refuses a tree the server would refuse (placeholder version)',
    async () => {
      const r = await runCasesCli(['mcp-server', '--print-config'], { env: { MCP_CASES_VARIANT: 'dev-version' } });
      expect(r.code).toBe(2);
      expect(lastError(r.stderr)).toMatchObject({ context: { reason: 'placeholder_version' } });
    },
    T,
  );
});
