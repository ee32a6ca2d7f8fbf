/**
 * `__schema --as=llms`: the MCP-`tools/list`-shaped manifest for agents that shell out. Its first
 * entry is the documentation-only `help` tool (the calling convention, tool → command); the rest are
 * exactly `__schema --as=mcp`'s tools.
 */
import { Readable } from 'node:stream';
import { flat } from '../fixtures/schema-trees.ts';
import { describe, expect, it } from 'vitest';
import { Command, execute, mcp } from '../../lib/index.ts';
import { buildTasksCli } from '../../cmd/tasks/cli.ts';
import { buildSurfacesCli } from '../fixtures/surfaces-cli.ts';
import { expandAxDocument } from '../../lib/schema/ax-expand.ts';

type Json = Record<string, any>;

async function run(root: Command, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await execute(root, {
    args,
    stdout: { write: (s: string) => ((stdout += s), true), isTTY: false },
    stderr: { write: (s: string) => ((stderr += s), true), isTTY: false },
    env: {},
    stdin: Readable.from([]),
    stdinIsTTY: false,
  });
  return { code, stdout, stderr };
}

async function doc(root: () => Command, as: string, extra: string[] = []): Promise<{ text: string; doc: Json }> {
  const r = await run(root(), ['__schema', `--as=${as}`, ...extra]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return { text: r.stdout, doc: JSON.parse(r.stdout) as Json };
}

/** `tool = program words…` pairs of the help entry's "Tools and their commands" line. */
export function toolCommands(help: string): Map<string, string[]> {
  const line = help.split('\n').find((l) => l.startsWith('Tools and their commands: '));
  if (!line) throw new Error(`no tool list in:\n${help}`);
  const body = line.slice('Tools and their commands: '.length).replace(/\.$/, '');
  return new Map(
    body.split('; ').map((pair) => {
      const [tool, command] = pair.split(' = ') as [string, string];
      return [tool, command.split(' ')];
    }),
  );
}

const TREES: [string, () => Command][] = [
  ['the demo (tasks)', buildTasksCli],
  ['the surfaces fixture', () => buildSurfacesCli()],
  ['the runnable-root fixture', () => buildSurfacesCli('runnable-root')],
];

describe.each(TREES)('__schema --as=llms of %s', (_name, build) => {
  it('is {tools: [help, ...the MCP tools]}: the rest deep-equal __schema --as=mcp tools, in order', async () => {
    const llms = (await doc(build, 'llms')).doc;
    const mcpDoc = (await doc(build, 'mcp')).doc;
    expect(Object.keys(llms)).toEqual(['tools']);
    expect(llms.tools[0].name).toBe('help');
    expect(llms.tools.slice(1)).toEqual(mcpDoc.tools);
    expect(mcpDoc.tools.length).toBeGreaterThan(0);
    expect(llms.tools.filter((t: Json) => t.name === 'help')).toHaveLength(1);
  });

  it('the help entry is documentation only: no inputs, read-only hints, the calling convention', async () => {
    const { doc: llms } = await doc(build, 'llms');
    const root = build();
    const help = llms.tools[0];
    expect(help.inputSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    expect(help.annotations).toEqual({ readOnlyHint: true, idempotentHint: true, destructiveHint: false });
    expect(help.outputSchema).toBeUndefined();
    const text = help.description as string;
    expect(text).toMatch(/^Documentation only: do not call this entry\./);
    expect(text).toContain(`run: ${root.name} <command words of T> --args-json '<A as JSON>' --format json`);
    expect(text).toContain('the last stderr line is {"error":');
    expect(text).toMatch(/Exit codes: 0 success/);
  });

  it('lists every tool with its command (and nothing else)', async () => {
    const { doc: llms } = await doc(build, 'llms');
    const ax = expandAxDocument((await doc(build, 'ax', ['--full'])).doc) as Json;
    const mapping = toolCommands(llms.tools[0].description);
    expect([...mapping.keys()]).toEqual(llms.tools.slice(1).map((t: Json) => t.name));
    // The ax document says which command each tool is (in full: by its path where the name follows from it).
    const paths = new Map<string, string>();
    const walk = (c: Json) => {
      if (c.mcp?.tool) paths.set(c.mcp.tool, c.path);
      for (const k of c.commands ?? []) walk(k);
    };
    walk(ax.command);
    expect(paths.size).toBeGreaterThan(0);
    for (const [tool, words] of mapping) expect(words.join(' '), tool).toBe(paths.get(tool));
  });

  it('is deterministic: same bytes on every run and every fresh tree', async () => {
    const a = await doc(build, 'llms');
    const root = build();
    const b = await run(root, ['__schema', '--as=llms']);
    const c = await run(root, ['__schema', '--as', 'llms']);
    expect(b.stdout).toBe(a.text);
    expect(c.stdout).toBe(a.text);
  });
});

describe('llms manifest details', () => {
  it('hidden, excluded and reserved commands are not tools; explicit tool names are used', async () => {
    const { doc: llms } = await doc(() => buildSurfacesCli(), 'llms');
    const names = llms.tools.map((t: Json) => t.name);
    expect(names).toEqual([
      'help',
      'config_read',
      'dump',
      'echo',
      'items_admin_reindex',
      'items_create',
      'items_get',
      'items_list',
      'items_purge',
      'items_scan',
      'items_tag',
      'legacy-sync',
      'report',
      'tail',
    ]);
    const mapping = toolCommands(llms.tools[0].description);
    expect(mapping.get('config_read')).toEqual(['surf', 'config', 'get']);
    expect(mapping.get('items_admin_reindex')).toEqual(['surf', 'items', 'admin', 'reindex']);
  });

  it('the convention names the exceptions: opaque tools print raw output; tools with their own --format take no --format json', async () => {
    const { doc: fixture } = await doc(() => buildSurfacesCli(), 'llms');
    const text = fixture.tools[0].description as string;
    expect(text).toContain('Except: dump prints raw output (no envelope) on success.');
    expect(text).toContain('For report, leave out --format json');
    const { doc: demo } = await doc(buildTasksCli, 'llms');
    expect(demo.tools[0].description).not.toContain('Except:');
    expect(demo.tools[0].description).not.toContain('leave out --format json');
  });

  it('the demo manifest: help, then add, done, export, list, rm, show with the MCP inputSchemas', async () => {
    const { doc: llms } = await doc(buildTasksCli, 'llms');
    expect(llms.tools.map((t: Json) => t.name)).toEqual(['help', 'add', 'done', 'export', 'list', 'rm', 'show']);
    const rm = llms.tools.find((t: Json) => t.name === 'rm');
    expect(flat(rm.inputSchema).properties.yes).toMatchObject({ type: 'boolean' });
    expect(rm.inputSchema.required).toEqual(['id']);
    expect(Object.keys(flat(rm.inputSchema).properties)).not.toContain('args_json');
    expect(Object.keys(flat(rm.inputSchema).properties)).not.toContain('format');
    expect(toolCommands(llms.tools[0].description)).toEqual(
      new Map([
        ['add', ['tasks', 'add']],
        ['done', ['tasks', 'done']],
        ['export', ['tasks', 'export']],
        ['list', ['tasks', 'list']],
        ['rm', ['tasks', 'rm']],
        ['show', ['tasks', 'show']],
      ]),
    );
  });

  it('a tool explicitly named "help" is refused (validation_error, exit 2), never listed twice', async () => {
    const root = new Command({
      use: 'h',
      commands: [
        mcp.toolName(new Command({ use: 'assist', short: 'Assist', effects: 'read_only', run: () => 1 }), 'help'),
      ],
    });
    const r = await run(root, ['__schema', '--as=llms']);
    expect(r.stdout).toBe('');
    expect(r.code).toBe(2);
    const line = JSON.parse(r.stderr.trimEnd().split('\n').at(-1)!);
    expect(line.error).toMatchObject({
      kind: 'validation_error',
      context: { reason: 'tool_name_collision', tool: 'help', command: 'h assist' },
    });
  });

  it('a tree whose walk fails (tool-name collision) fails llms exactly like mcp', async () => {
    const build = () =>
      new Command({
        use: 'c',
        commands: [
          new Command({ use: 'user-get', run: () => 1 }),
          new Command({ use: 'user', commands: [new Command({ use: 'get', run: () => 2 })] }),
        ],
      });
    const a = await run(build(), ['__schema', '--as=llms']);
    const b = await run(build(), ['__schema', '--as=mcp']);
    expect(a.code).toBe(2);
    expect(b.code).toBe(2);
    const err = (s: string) => JSON.parse(s.trimEnd().split('\n').at(-1)!).error;
    expect(err(a.stderr)).toEqual(err(b.stderr));
  });
});
