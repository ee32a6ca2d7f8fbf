/**
 * Lazy subtrees keep what was said of their stub, and fail alone (docs/performance.md, lazy
 * subtrees): marks set on a stub — MCP exclusion with its subtree, an explicit tool name — hold
 * for the commands it loads, in `__schema --as=mcp` and over MCP (an excluded loaded command is no
 * tool and cannot be called); `__complete` into a subtree whose loader throws prints Cobra's `:1`.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildLazyMarksCli } from '../fixtures/lazy-marks-cli.ts';
import { connectStdio } from '../helpers/mcp.ts';
import { httpClient, startHttp } from '../helpers/paths.ts';
import { runCli } from '../helpers/run.ts';

const CLI = fileURLToPath(new URL('../fixtures/lazy-marks-cli.ts', import.meta.url));

describe('marks set on a lazy stub hold for what it loads', () => {
  it('__schema --as=mcp: the excluded subtree is no tool, the named stub keeps its name', async () => {
    const r = await runCli(buildLazyMarksCli({}), ['__schema', '--as=mcp', '--full']); // --full: loads the lazy subtrees
    expect(r.code, r.stderr).toBe(0);
    const names = (JSON.parse(r.stdout).tools as { name: string }[]).map((t) => t.name).sort();
    expect(names).toEqual(['ok', 'show_reports']);
  });

  it('MCP stdio: tools/list is the same, and the excluded command cannot be called', async () => {
    const c = await connectStdio(['mcp-server'], {}, CLI);
    try {
      const names = (await c.client.listTools()).tools.map((t) => t.name).sort();
      expect(names).toEqual(['ok', 'show_reports']);
      // the unknown-tool error, as for any name that is no tool
      await expect(c.client.callTool({ name: 'adm_purge', arguments: {} })).rejects.toThrow(/Unknown tool: adm_purge/);
      const shown = (await c.client.callTool({ name: 'show_reports', arguments: {} })) as {
        content: { text: string }[];
      };
      expect(JSON.parse(shown.content[0]!.text).data).toEqual({ reports: 3 });
    } finally {
      await c.close();
    }
  }, 60_000);

  it('the excluded commands still run from the command line', async () => {
    const r = await runCli(buildLazyMarksCli({}), ['adm', 'purge']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).data).toEqual({ purged: true });
  });
});

describe('a lazy subtree whose loader throws', () => {
  it.each([
    ['broken', ''],
    ['broken', '--'],
    ['broken', 'x', ''],
  ])('__complete %s …: `:1` on stdout, one line on stderr, exit 0', async (...words) => {
    const r = await runCli(buildLazyMarksCli({ BROKEN: '1' }), ['__complete', ...words]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(':1\n');
    expect(r.stderr).toBe('[Error] cannot load the command "marks broken": the module is missing\n');
  });

  it('the healthy commands still complete and run', async () => {
    const tree = () => buildLazyMarksCli({ BROKEN: '1' });
    expect((await runCli(tree(), ['__complete', 'o'])).stdout).toBe('ok\tSay ok\n:4\n');
    expect((await runCli(tree(), ['ok'])).code).toBe(0);
  });

  it.each(['stdio', 'http'] as const)(
    'mcp-server (%s) serves the healthy tools; a call into the broken subtree gets its load error; one warning at start',
    async (transport) => {
      const server = transport === 'stdio' ? await connectStdio(['mcp-server'], { BROKEN: '1' }, CLI) : undefined;
      const http = transport === 'http' ? await startHttp(CLI, { BROKEN: '1' }) : undefined;
      const client = server?.client ?? (await httpClient(http!.url));
      try {
        const names = (await client.listTools()).tools.map((t) => t.name).sort();
        expect(names).toEqual(['ok', 'show_reports']);
        const ok = (await client.callTool({ name: 'ok', arguments: {} })) as { content: { text: string }[] };
        expect(JSON.parse(ok.content[0]!.text).data).toEqual({ ok: true });
        for (const name of ['broken', 'broken_x']) {
          const r = (await client.callTool({ name, arguments: {} })) as {
            isError?: boolean;
            content: { text: string }[];
          };
          expect(r.isError, name).toBe(true);
          expect(JSON.parse(r.content[0]!.text).error).toMatchObject({
            kind: 'internal_error',
            message: 'cannot load the command "marks broken": the module is missing',
          });
        }
        await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown tool: nope/);
        if (server) {
          const warnings = server
            .stderr()
            .split('\n')
            .filter((l) => l.includes('does not serve'));
          expect(warnings).toEqual([
            'warning: mcp-server does not serve "marks broken" or anything below it: cannot load the command "marks broken": the module is missing',
          ]);
        }
      } finally {
        await client.close();
        await http?.stop();
      }
    },
    60_000,
  );
});
