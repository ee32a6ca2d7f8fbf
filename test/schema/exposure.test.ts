/**
 * What agents are shown is exactly what they may call: flag-level exclusion
 * (`mcp: false`), subtree exclusion and the warning for a no-op exclusion, ax-go's annotation, a
 * hidden root, declarations re-checked in the walk, Object.prototype names as prompt arguments,
 * malformed resource URIs, and `__schema --as=mcp` prompts with their template. Each rule is checked
 * through the real server with the SDK client (stdio) and through `__schema` / the CLI.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectStdio, envelopeOf, REPO, runCasesCli, tempDir, type StdioConnection } from '../helpers/mcp.ts';
import { runCli } from '../helpers/run.ts';
import { buildAgentsCli } from '../fixtures/agents-cli.ts';
import { SCHEMA_SHAPES } from '../../lib/schema/shapes.ts';
import { expandAxDocument } from '../../lib/schema/ax-expand.ts';

const CLI = join(REPO, 'test/fixtures/agents-cli.ts');
const T = 60_000;
type Json = Record<string, any>;

const EXPECTED_TOOLS = ['auth_login', 'ported-other', 'read'];
const WARNING = /^warning: mcp\.exclude on "agents auth" removes no MCP tool: .*subtree: true/;

function axCommand(doc: Json, path: string): Json {
  const words = path.split(' ').slice(1);
  let c = doc.command;
  for (const w of words) c = c.commands.find((k: Json) => k.name === w);
  return c;
}

describe('over MCP (stdio, SDK client)', () => {
  let s: StdioConnection;
  const tmp = tempDir('ax-agents-');
  const marker = join(tmp.path, 'ran.txt');
  beforeAll(async () => {
    s = await connectStdio(['mcp-server'], { AGENTS_MARKER: marker }, CLI);
  }, T);
  afterAll(async () => {
    await s?.close();
    tmp.cleanup();
  });

  it(
    'tools/list: excluded commands (self, subtree, ax-go annotation), hidden ones and groups are not tools',
    async () => {
      const { tools } = await s.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(EXPECTED_TOOLS);
    },
    T,
  );

  it(
    'server start warns once, on stderr, about the exclusion that removes no tool, naming the command and subtree',
    async () => {
      await s.waitStderr('removes no MCP tool');
      const lines = s
        .stderr()
        .split('\n')
        .filter((l) => l.startsWith('warning:'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(WARNING);
    },
    T,
  );

  it(
    'calling an excluded tool name gives the unknown-tool error and runs nothing',
    async () => {
      for (const name of ['vault', 'vault_open', 'vault_keys_list', 'tui', 'ported', 'secret']) {
        await expect(s.client.callTool({ name, arguments: {} }), name).rejects.toThrow(/Unknown tool/);
      }
      expect(existsSync(marker)).toBe(false);
    },
    T,
  );

  it(
    'mcp: false — the flag is not in the inputSchema; sending it is an unknown property and the handler does not run',
    async () => {
      const { tools } = await s.client.listTools();
      const read = tools.find((t) => t.name === 'read')!;
      expect(Object.keys(read.inputSchema.properties ?? {})).not.toContain('file');
      expect(Object.keys(read.inputSchema.properties ?? {})).toContain('name');
      const r = await s.client.callTool({ name: 'read', arguments: { name: 'x', file: '/etc/passwd' } });
      expect(r.isError).toBe(true);
      const err = envelopeOf(r as { content?: unknown }).error!;
      expect(err.kind).toBe('validation_error');
      expect((err.context as Json).reason).toBe('unknown_property');
      expect((err.context as Json).property).toBe('file');
      expect(existsSync(marker)).toBe(false);
      const ok = await s.client.callTool({ name: 'read', arguments: { name: 'x' } });
      expect(ok.isError ?? false).toBe(false);
      expect(readFileSync(marker, 'utf8')).toBe('agents read\n');
    },
    T,
  );

  it(
    'prompt argument names like constructor/toString are plain names, never Object.prototype members',
    async () => {
      const err = await s.client.getPrompt({ name: 'proto', arguments: {} }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(McpError);
      expect((err as McpError).code).toBe(-32602);
      expect((err as McpError).message).toContain('toString');
      const r = await s.client.getPrompt({ name: 'proto', arguments: { toString: 'T' } });
      expect(r.messages[0]!.content).toEqual({ type: 'text', text: 'c=[] t=[T] v=[]' });
      const all = await s.client.getPrompt({
        name: 'proto',
        arguments: { constructor: 'C', toString: 'T', valueOf: 'V' },
      });
      expect(all.messages[0]!.content).toEqual({ type: 'text', text: 'c=[C] t=[T] v=[V]' });
    },
    T,
  );

  it(
    'resources/read of a malformed URI is invalid params (or not found), never an internal error',
    async () => {
      for (const uri of ['agents://logs/%E0%A4%A', 'agents://logs/%zz', 'agents://logs/%', 'not a uri', '%%%']) {
        const err = await s.client.readResource({ uri }).catch((e: unknown) => e);
        expect(err, uri).toBeInstanceOf(McpError);
        expect([-32602, -32002], `${uri}: ${(err as McpError).code}`).toContain((err as McpError).code);
      }
      const ok = await s.client.readResource({ uri: 'agents://logs/2024-01-01' });
      expect(ok.contents[0]).toMatchObject({ text: 'logs of 2024-01-01' });
    },
    T,
  );

  it(
    'live prompts/list stays MCP-shaped (no template); __schema --as=mcp adds each template',
    async () => {
      const live = (await s.client.listPrompts()).prompts;
      for (const p of live) expect(p).not.toHaveProperty('template');
      const doc = JSON.parse((await runCli(buildAgentsCli(), ['__schema', '--as=mcp'])).stdout);
      expect(doc.prompts.map(({ template: _t, ...p }: Json) => p)).toEqual(live);
      expect(doc.prompts.map((p: Json) => p.template)).toEqual([
        'c=[{{constructor}}] t=[{{toString}}] v=[{{valueOf}}]',
        'Read an entry.',
      ]);
      expect(doc.tools).toEqual((await s.client.listTools()).tools);
    },
    T,
  );
});

describe('through __schema and the CLI', () => {
  it('every --as prints the no-op exclusion warning once on stderr, naming the command and the subtree option; stdout is the document', async () => {
    for (const as of SCHEMA_SHAPES) {
      const r = await runCli(buildAgentsCli(), ['__schema', `--as=${as}`]);
      expect(r.code, as).toBe(0);
      const lines = r.stderr.split('\n').filter(Boolean);
      expect(lines, as).toHaveLength(1);
      expect(lines[0], as).toMatch(WARNING);
      if (as !== 'skill' && as !== 'agents') JSON.parse(r.stdout); // the two Markdown shapes
    }
    const clispec = await runCli(buildAgentsCli(), ['schema']);
    expect(clispec.stderr).toMatch(WARNING);
  });

  it('--as=ax keeps excluded commands, marked; their descendants under a subtree exclusion are marked too', async () => {
    const lean = JSON.parse((await runCli(buildAgentsCli(), ['__schema', '--full'])).stdout);
    // the lean document marks what is no tool for a reason other than being a group; in full, every mapping
    expect(axCommand(lean, 'agents auth').mcp).toBeUndefined();
    expect(axCommand(lean, 'agents vault keys list').mcp).toEqual({ tool: null, reason: 'excluded' });
    const doc = expandAxDocument(lean);
    expect(axCommand(doc, 'agents auth').mcp).toEqual({ tool: null, reason: 'group' });
    expect(axCommand(doc, 'agents auth login').mcp).toEqual({ tool: 'auth_login' });
    expect(axCommand(doc, 'agents vault').mcp).toEqual({ tool: null, reason: 'excluded' });
    expect(axCommand(doc, 'agents vault open').mcp).toEqual({ tool: null, reason: 'excluded' });
    expect(axCommand(doc, 'agents vault keys').mcp).toEqual({ tool: null, reason: 'excluded' });
    expect(axCommand(doc, 'agents vault keys list').mcp).toEqual({ tool: null, reason: 'excluded' });
    expect(axCommand(doc, 'agents vault').annotations).toEqual({ 'ax-ts/mcp/exclude': 'subtree' });
    expect(axCommand(doc, 'agents tui').mcp).toEqual({ tool: null, reason: 'excluded' });
    expect(axCommand(doc, 'agents ported').mcp).toEqual({ tool: null, reason: 'excluded' });
    expect(axCommand(doc, 'agents ported-other').mcp).toEqual({ tool: 'ported-other' });
  });

  it('excluded commands still run from the command line and stay in help', async () => {
    const r = await runCli(buildAgentsCli(), ['vault', 'keys', 'list', '--format', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data.ran).toBe('agents vault keys list');
    const help = await runCli(buildAgentsCli(), ['--help']);
    expect(help.stdout).toMatch(/\n {2}vault /);
    expect(help.stdout).toMatch(/\n {2}tui /);
  });

  it('mcp: false — in CLI help and in --as=ax (marked, no property); --args-json refuses it as a property but takes it beside', async () => {
    const help = await runCli(buildAgentsCli(), ['read', '--help']);
    expect(help.stdout).toContain('--file');
    const lean = JSON.parse((await runCli(buildAgentsCli(), ['__schema', '--full'])).stdout);
    expect(axCommand(lean, 'agents read').flags.find((f: Json) => f.name === 'file')).toEqual({
      name: 'file',
      type: 'string',
      usage: expect.any(String),
      mcp: false,
    });
    const file = axCommand(expandAxDocument(lean), 'agents read').flags.find((f: Json) => f.name === 'file');
    expect(file).toMatchObject({ name: 'file', cli: '--file', type: 'string', mcp: false });
    expect(file).not.toHaveProperty('property');
    const refused = await runCli(buildAgentsCli(), ['read', '--args-json', '{"file":"x"}']);
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stderr.trim().split('\n').pop()!).error.context.reason).toBe('unknown_property');
    const beside = await runCli(buildAgentsCli(), ['read', '--file', 'f.txt', '--args-json', '{"name":"n"}']);
    expect(beside.code, beside.stderr).toBe(0);
    expect(JSON.parse(beside.stdout).data.flags).toMatchObject({ file: 'f.txt', name: 'n' });
    const cli = await runCli(buildAgentsCli(), ['read', '--file', 'f.txt']);
    expect(JSON.parse(cli.stdout).data.flags.file).toBe('f.txt');
  });

  it('a required flag cannot be mcp: false (TypeError at declaration)', async () => {
    const { Command } = await import('../../lib/index.ts');
    expect(() => new Command({ use: 'x', flags: { f: { type: 'string', required: true, mcp: false } } })).toThrow(
      TypeError,
    );
  });

  it("a hidden root serves no tools; the root keeps its own declarations, its children's are dropped with them", async () => {
    const doc = JSON.parse((await runCli(buildAgentsCli('hidden-root'), ['__schema', '--as=mcp'])).stdout);
    expect(doc.tools).toEqual([]);
    expect(doc.prompts.map((p: Json) => p.name)).toEqual(['proto']);
    expect(doc.resourceTemplates.map((r: Json) => r.name)).toEqual(['logs']);
    const ax = JSON.parse((await runCli(buildAgentsCli('hidden-root'), ['__schema', '--full'])).stdout);
    expect(ax.command.prompts.map((p: Json) => p.name)).toEqual(['proto']);
    expect(axCommand(ax, 'agents read').mcp).toEqual({ tool: null, reason: 'hidden' });
    expect(axCommand(ax, 'agents read')).not.toHaveProperty('prompts');
    const llms = JSON.parse((await runCli(buildAgentsCli('hidden-root'), ['__schema', '--as=llms'])).stdout);
    expect(llms.tools.map((t: Json) => t.name)).toEqual(['help']);
    expect(
      JSON.parse((await runCli(buildAgentsCli('hidden-root'), ['__schema', '--as=clispec'])).stdout).commands,
    ).toEqual([]);
  });

  it(
    'a hidden root over MCP: tools/list is empty, the root prompt is still served',
    async () => {
      const s = await connectStdio(['mcp-server'], { AGENTS_VARIANT: 'hidden-root' }, CLI);
      try {
        expect((await s.client.listTools()).tools).toEqual([]);
        expect((await s.client.listPrompts()).prompts.map((p) => p.name)).toEqual(['proto']);
        await expect(s.client.callTool({ name: 'read', arguments: {} })).rejects.toThrow(/Unknown tool/);
      } finally {
        await s.close();
      }
    },
    T,
  );

  it('cmd.prompts / cmd.resources are read-only at run time: pushing throws, nothing enters the tree', async () => {
    const root = buildAgentsCli();
    expect(() => (root.prompts as unknown as unknown[]).push({ name: 'x', template: 'y' })).toThrow(TypeError);
    expect(() => (root.resources as unknown as unknown[]).push({ uri: 'a://b', name: 'b' })).toThrow(TypeError);
    expect(() => ((root.prompts[0] as unknown as Json).template = 'changed')).toThrow(TypeError);
    expect(root.prompts.map((p) => p.name)).toEqual(['proto']);
  });

  it(
    'a declaration that entered around declarePrompt is refused by __schema (every shape) and by server start: invalid_schema_declaration, exit 2',
    async () => {
      for (const as of SCHEMA_SHAPES) {
        const r = await runCli(buildAgentsCli('bypass-decl'), ['__schema', `--as=${as}`]);
        expect(r.code, as).toBe(2);
        const line = JSON.parse(r.stderr.trim().split('\n').pop()!);
        expect(line.error).toMatchObject({
          kind: 'invalid_schema_declaration',
          exit_code: 2,
          context: { field: 'name', reason: 'invalid_charset' },
        });
        expect(r.stdout).toBe('');
      }
      const server = await runCasesCli(['mcp-server'], { cli: CLI, env: { AGENTS_VARIANT: 'bypass-decl' } });
      expect(server.code).toBe(2);
      expect(server.stdout.length).toBe(0);
      expect(JSON.parse(server.stderr.trim().split('\n').pop()!).error).toMatchObject({
        kind: 'invalid_schema_declaration',
        context: { reason: 'invalid_charset' },
      });
    },
    T,
  );
});
