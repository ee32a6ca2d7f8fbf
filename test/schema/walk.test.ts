/**
 * The one tree walk (docs/mcp-server.md#which-commands-become-tools): which commands become tools, under which names, in which order —
 * through the public entry point (`execute(root, {args: ['__schema', '--as=mcp']})`). Case B12.
 */
import { describe, expect, it } from 'vitest';
import { Command, mcp } from '../../lib/index.ts';
import { EXCLUDE_ANNOTATION, TOOL_NAME_ANNOTATION } from '../../lib/tree/marks.ts';
import { runCli } from '../helpers/run.ts';
import {
  axCommand,
  axDoc,
  mcpDoc,
  schemaFailure,
  schemaRun,
  tool,
  toolNames,
  type Json,
} from '../fixtures/schema-trees.ts';

const ok = () => ({ ok: true });
const leaf = (use: string, extra: Partial<ConstructorParameters<typeof Command>[0]> = {}) =>
  new Command({ use, run: ok, ...extra });
const group = (use: string, ...children: Command[]) => new Command({ use, commands: children });

describe('walk: which commands become tools', () => {
  it('drops a hidden command together with its whole subtree (tools and --as=ax)', async () => {
    const secret = leaf('secret', { hidden: true });
    secret.addCommand(leaf('kid'), group('deeper', leaf('leaf')));
    const root = group('yourcli', secret, leaf('visible'));
    const doc = await mcpDoc(root);
    expect(toolNames(doc)).toEqual(['visible']);
    const ax = await axDoc(root);
    expect(ax.command.commands.map((c: Json) => c.name)).toEqual(['visible']);
    // still runnable: hidden is about listings only
    const r = await runCli(root, ['secret', 'kid']);
    expect(r.code).toBe(0);
  });

  it('drops a hidden group with its subtree even when the children are not hidden', async () => {
    const root = group(
      'yourcli',
      new Command({ use: 'internal', hidden: true, commands: [leaf('a'), leaf('b')] }),
      leaf('c'),
    );
    expect(toolNames(await mcpDoc(root))).toEqual(['c']);
  });

  it('never lists the injected help and __schema commands', async () => {
    const root = group('yourcli', leaf('a'), group('g', leaf('b')));
    const doc = await mcpDoc(root);
    expect(toolNames(doc)).toEqual(['a', 'g_b']);
    const ax = await axDoc(root);
    expect(ax.command.commands.map((c: Json) => c.name)).toEqual(['a', 'g']);
  });

  it('drops root children named mcp-server and completion with their subtrees', async () => {
    const server = leaf('mcp-server');
    server.addCommand(leaf('inner'));
    const completion = leaf('completion');
    completion.addCommand(leaf('bash'), leaf('zsh'));
    const root = group('yourcli', server, completion, leaf('work'));
    const doc = await mcpDoc(root);
    expect(toolNames(doc)).toEqual(['work']);
    // reserved but author-made: they stay in --as=ax, marked, and are not tools
    const ax = await axDoc(root);
    expect(axCommand(ax, ['mcp-server']).mcp).toEqual({ tool: null, reason: 'reserved' });
    expect(axCommand(ax, ['completion']).mcp).toEqual({ tool: null, reason: 'reserved' });
  });

  it("drops an author's own root-level help and __schema (no injected ones then), with their subtrees", async () => {
    const help = leaf('help');
    help.addCommand(leaf('topics'));
    const root = group('yourcli', help, leaf('__schema-not'), leaf('work'));
    const doc = await mcpDoc(root);
    expect(toolNames(doc)).toEqual(['__schema-not', 'work']);
  });

  it('reserves help, mcp-server, __schema and completion at any depth, as ax-go does (a mounted grp mcp-server is never a tool)', async () => {
    const root = group(
      'yourcli',
      group('shell', leaf('completion'), leaf('help'), leaf('mcp-server'), leaf('__schema'), leaf('other')),
    );
    expect(toolNames(await mcpDoc(root))).toEqual(['shell_other']);
    const ax = await axDoc(root);
    for (const name of ['help', 'mcp-server', 'completion'])
      expect(axCommand(ax, ['shell', name]).mcp).toEqual({ tool: null, reason: 'reserved' });
  });

  it('drops a pure group on its own; its children stay tools', async () => {
    const root = group('yourcli', group('db', group('migrate', leaf('up'), leaf('down')), leaf('status')));
    const doc = await mcpDoc(root);
    expect(toolNames(doc)).toEqual(['db_migrate_down', 'db_migrate_up', 'db_status']);
    const ax = await axDoc(root);
    expect(ax.command.mcp).toEqual({ tool: null, reason: 'group' });
    expect(axCommand(ax, ['db']).mcp).toEqual({ tool: null, reason: 'group' });
    expect(axCommand(ax, ['db', 'migrate', 'up']).mcp).toEqual({ tool: 'db_migrate_up' });
  });

  it("__schema's warning about an excluded pure group says truly what its subcommands are", async () => {
    const warning = async (root: Command) =>
      (await runCli(root, ['__schema'])).stderr.split('\n').filter((l) => l.startsWith('warning:'));
    const tools = group('yourcli', mcp.exclude(group('db', leaf('up'))), leaf('status'));
    expect(await warning(tools)).toEqual([
      'warning: mcp.exclude on "yourcli db" removes no MCP tool: it is a group without a handler, and its ' +
        'subcommands stay tools; use mcp.exclude(cmd, { subtree: true }) to drop it with its subcommands',
    ]);
    const none = group('yourcli', mcp.exclude(group('db', mcp.exclude(leaf('up')), leaf('old', { hidden: true }))));
    expect(await warning(none)).toEqual([
      'warning: mcp.exclude on "yourcli db" removes no MCP tool: it is a group without a handler, and none of ' +
        'its subcommands is a tool either; mcp.exclude(cmd, { subtree: true }) says that once',
    ]);
  });

  it('a runnable command with children is a tool and so are its children', async () => {
    const root = group('yourcli', leaf('db', { commands: [leaf('dump')] }));
    expect(toolNames(await mcpDoc(root))).toEqual(['db', 'db_dump']);
  });

  describe('excluded', () => {
    const tree = (mark: (c: Command) => Command) => {
      const danger = mark(leaf('danger', { short: 'Dangerous things' }));
      danger.addCommand(leaf('sub'), group('grp', leaf('deep')));
      return group('yourcli', danger, leaf('safe'));
    };

    it('mcp.exclude(cmd) drops the command alone; its children stay tools', async () => {
      const root = tree((c) => mcp.exclude(c));
      expect(root.commands()[0]!.annotations[EXCLUDE_ANNOTATION]).toBe('true');
      expect(toolNames(await mcpDoc(root))).toEqual(['danger_grp_deep', 'danger_sub', 'safe']);
    });

    it('the annotation ax-ts/mcp/exclude = "true" set directly does the same', async () => {
      const root = tree((c) => c.annotate(EXCLUDE_ANNOTATION, 'true'));
      expect(toolNames(await mcpDoc(root))).toEqual(['danger_grp_deep', 'danger_sub', 'safe']);
      const viaConfig = group('yourcli', leaf('x', { annotations: { [EXCLUDE_ANNOTATION]: 'true' } }), leaf('y'));
      expect(toolNames(await mcpDoc(viaConfig))).toEqual(['y']);
    });

    it.each(['TRUE', 'True', 'yes', '1', 'on', ' true', 'true ', ''])(
      'annotation value %j is ignored: still a tool',
      async (value) => {
        const root = tree((c) => c.annotate(EXCLUDE_ANNOTATION, value));
        expect(toolNames(await mcpDoc(root))).toEqual(['danger', 'danger_grp_deep', 'danger_sub', 'safe']);
      },
    );

    it('stays in --help and in --as=ax, marked {tool: null, reason: "excluded"}', async () => {
      const root = tree((c) => mcp.exclude(c));
      const help = await runCli(root, ['--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^\s+danger\s+Dangerous things$/m);
      const ax = await axDoc(root);
      const entry = axCommand(ax, ['danger']);
      expect(entry.mcp).toEqual({ tool: null, reason: 'excluded' });
      expect(entry.annotations).toEqual({ [EXCLUDE_ANNOTATION]: 'true' });
      expect(entry.runnable).toBe(true);
      expect(axCommand(ax, ['danger', 'sub']).mcp).toEqual({ tool: 'danger_sub' });
      // and it still runs from the CLI
      expect((await runCli(root, ['danger'])).code).toBe(0);
    });

    it('an excluded command with an invalid would-be name does not fail the walk', async () => {
      const root = group('yourcli', mcp.exclude(leaf('v2.export')), leaf('ok'));
      expect(toolNames(await mcpDoc(root))).toEqual(['ok']);
    });
  });

  describe('the root', () => {
    it('a runnable root is a tool named after the program, listed first', async () => {
      const root = new Command({ use: 'yourcli [file]', run: ok, commands: [leaf('aaa')] });
      const doc = await mcpDoc(root);
      expect(toolNames(doc)).toEqual(['yourcli', 'aaa']);
      expect(tool(doc, 'yourcli').inputSchema.properties.file).toBeDefined();
      const ax = await axDoc(root);
      expect(ax.command.mcp).toEqual({ tool: 'yourcli' });
    });

    it('a runnable root without children is the only tool', async () => {
      const doc = await mcpDoc(new Command({ use: 'solo', run: ok }));
      expect(toolNames(doc)).toEqual(['solo']);
    });

    it('a pure-group root is not a tool', async () => {
      expect(toolNames(await mcpDoc(group('yourcli', leaf('a'))))).toEqual(['a']);
    });

    it('a tree with no tool at all gives an empty tools array', async () => {
      const doc = await mcpDoc(group('yourcli', new Command({ use: 'hidden', hidden: true, run: ok })));
      expect(doc.tools).toEqual([]);
    });
  });

  it('names are the path below the root joined with "_", in tree order (pre-order, children by name)', async () => {
    const root = group(
      'yourcli',
      leaf('zeta'),
      group('alpha', group('beta', leaf('gamma'), leaf('delta')), leaf('aardvark')),
      leaf('mid-word', { commands: [leaf('x-y')] }),
    );
    const doc = await mcpDoc(root);
    expect(toolNames(doc)).toEqual([
      'alpha_aardvark',
      'alpha_beta_delta',
      'alpha_beta_gamma',
      'mid-word',
      'mid-word_x-y',
      'zeta',
    ]);
    const ax = await axDoc(root);
    expect(axCommand(ax, ['alpha', 'beta', 'gamma']).mcp).toEqual({ tool: 'alpha_beta_gamma' });
  });

  it('aliases never change the tool name', async () => {
    const root = group('yourcli', leaf('remove', { aliases: ['rm', 'del'] }));
    expect(toolNames(await mcpDoc(root))).toEqual(['remove']);
  });

  it('--as=mcp has exactly the keys tools, prompts, resources, resourceTemplates', async () => {
    const doc = await mcpDoc(group('yourcli', leaf('a')));
    expect(Object.keys(doc)).toEqual(['tools', 'prompts', 'resources', 'resourceTemplates']);
  });

  it('is deterministic: the same tree gives the same bytes, run after run and tree after tree', async () => {
    const build = () =>
      group(
        'yourcli',
        leaf('b', { flags: { z: { type: 'string' }, a: { type: 'int', default: 1 } } }),
        group('a', leaf('y'), leaf('x')),
      );
    const t1 = build();
    const [a1, a2, b1, m1, m2, n1] = [
      await schemaRun(t1, 'ax'),
      await schemaRun(t1, 'ax'),
      await schemaRun(build(), 'ax'),
      await schemaRun(t1, 'mcp'),
      await schemaRun(t1, 'mcp'),
      await schemaRun(build(), 'mcp'),
    ];
    expect(a1.code).toBe(0);
    expect(a2.stdout).toBe(a1.stdout);
    expect(b1.stdout).toBe(a1.stdout);
    expect(m2.stdout).toBe(m1.stdout);
    expect(n1.stdout).toBe(m1.stdout);
  });

  it('an unknown --as value is a validation_error, exit 2', async () => {
    const r = await runCli(group('yourcli', leaf('a')), ['__schema', '--as=llm']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!).error.kind).toBe('validation_error');
  });

  it('reads the tree only: no handler runs for __schema', async () => {
    let ran = 0;
    const root = new Command({
      use: 'yourcli',
      run: () => ran++,
      commands: [new Command({ use: 'a', run: () => ran++ })],
    });
    await mcpDoc(root);
    await axDoc(root);
    expect(ran).toBe(0);
  });
});

describe('tool names', () => {
  it('refuses a collision (db migrate-up vs db migrate up) in both shapes, naming both commands', async () => {
    const root = group('yourcli', group('db', leaf('migrate-up'), group('migrate', leaf('up'))));
    for (const shape of ['mcp', 'ax'] as const) {
      const err = await schemaFailure(root, shape);
      expect(err.kind).toBe('validation_error');
      expect(err.exit_code).toBe(2);
      expect(err.message).toContain('yourcli db migrate-up');
      expect(err.message).toContain('yourcli db migrate up');
      expect(err.message).toContain('db_migrate-up');
      expect(err.message).toContain('db_migrate_up');
      expect(err.context.reason).toBe('tool_name_collision');
      expect([...err.context.tools].sort()).toEqual(['db_migrate-up', 'db_migrate_up']);
      expect([...err.context.commands].sort()).toEqual(['yourcli db migrate up', 'yourcli db migrate-up']);
      expect(err.actionable_fix).toMatch(/toolName/);
    }
  });

  it('the collision error is the same across runs (never last-wins, never random)', async () => {
    const build = () => group('yourcli', group('db', leaf('migrate-up'), group('migrate', leaf('up'))));
    const a = await schemaRun(build(), 'mcp');
    const b = await schemaRun(build(), 'mcp');
    const strip = (s: string) => {
      const e = JSON.parse(s.trim().split('\n').at(-1)!);
      return { error: e.error, tool: e.meta.tool };
    };
    expect(strip(a.stderr)).toEqual(strip(b.stderr));
  });

  it('mcp.toolName on one side resolves the collision, and the mapping shows in --as=ax', async () => {
    const up = leaf('up');
    const root = group('yourcli', group('db', leaf('migrate-up'), group('migrate', up)));
    mcp.toolName(up, 'db_migrate_up_v2');
    const doc = await mcpDoc(root);
    expect(toolNames(doc)).toEqual(['db_migrate_up_v2', 'db_migrate-up']);
    const ax = await axDoc(root);
    expect(axCommand(ax, ['db', 'migrate', 'up']).mcp).toEqual({ tool: 'db_migrate_up_v2' });
    expect(axCommand(ax, ['db', 'migrate', 'up']).annotations).toEqual({ [TOOL_NAME_ANNOTATION]: 'db_migrate_up_v2' });
  });

  it('names that differ only in "-" versus "_" collide (clients rewrite kebab-case to snake_case)', async () => {
    const err = await schemaFailure(group('yourcli', leaf('a-b'), leaf('a_b')), 'mcp');
    expect(err.context.reason).toBe('tool_name_collision');
    expect([...err.context.tools].sort()).toEqual(['a-b', 'a_b']);
  });

  it('an explicit name colliding with another command is refused too', async () => {
    const root = group('yourcli', mcp.toolName(leaf('a'), 'b'), leaf('b'));
    const err = await schemaFailure(root, 'mcp');
    expect(err.context.reason).toBe('tool_name_collision');
    expect(err.message).toContain('yourcli a');
    expect(err.message).toContain('yourcli b');
  });

  it.each([
    ['v2.export', 'v2.export'],
    ['3d-render', '3d-render'],
  ])('refuses the command %s (invalid tool name), naming the command', async (use, name) => {
    const root = group('yourcli', leaf(use), leaf('fine'));
    for (const shape of ['mcp', 'ax'] as const) {
      const err = await schemaFailure(root, shape);
      expect(err.kind).toBe('validation_error');
      expect(err.message).toContain(`yourcli ${use}`);
      expect(err.context).toMatchObject({ reason: 'invalid_tool_name', command: `yourcli ${use}`, tool: name });
      expect(err.actionable_fix).toBeTruthy();
    }
  });

  it('an invalid name below a pure group is caught (group v2.x → v2.x_run)', async () => {
    const err = await schemaFailure(group('yourcli', group('v2.x', leaf('run'))), 'mcp');
    expect(err.context).toMatchObject({ reason: 'invalid_tool_name', tool: 'v2.x_run', command: 'yourcli v2.x run' });
  });

  it('a hidden command with an invalid name is not a tool and does not fail', async () => {
    const root = group('yourcli', leaf('v2.export', { hidden: true }), leaf('fine'));
    expect(toolNames(await mcpDoc(root))).toEqual(['fine']);
  });

  it('64 characters is the longest name: 64 passes, 65 fails', async () => {
    const n64 = 'a'.repeat(64);
    expect(toolNames(await mcpDoc(group('yourcli', leaf(n64))))).toEqual([n64]);
    const err = await schemaFailure(group('yourcli', leaf('a'.repeat(65))), 'mcp');
    expect(err.context).toMatchObject({ reason: 'invalid_tool_name', tool: 'a'.repeat(65) });
    // the joined path counts: 31 + 1 + 32 = 64 passes, 31 + 1 + 33 = 65 fails
    expect(toolNames(await mcpDoc(group('yourcli', group('p'.repeat(31), leaf('q'.repeat(32))))))).toEqual([
      `${'p'.repeat(31)}_${'q'.repeat(32)}`,
    ]);
    const joined = await schemaFailure(group('yourcli', group('p'.repeat(31), leaf('q'.repeat(33)))), 'mcp');
    expect(joined.context.command).toBe(`yourcli ${'p'.repeat(31)} ${'q'.repeat(33)}`);
  });

  it('a long path is refused, then fixed with mcp.toolName; the mapping is visible in --as=ax', async () => {
    const sync = leaf('synchronise-all-customer-records-across-every-region');
    const root = group('yourcli', group('organisation-administration', sync));
    const err = await schemaFailure(root, 'mcp');
    expect(err.context.tool).toBe('organisation-administration_synchronise-all-customer-records-across-every-region');
    expect(err.message).toContain(
      'yourcli organisation-administration synchronise-all-customer-records-across-every-region',
    );

    mcp.toolName(sync, 'org_sync_customers');
    const doc = await mcpDoc(root);
    expect(toolNames(doc)).toEqual(['org_sync_customers']);
    const ax = await axDoc(root);
    const entry = axCommand(ax, [
      'organisation-administration',
      'synchronise-all-customer-records-across-every-region',
    ]);
    expect(entry.mcp).toEqual({ tool: 'org_sync_customers' });
    expect(entry.path).toBe('yourcli organisation-administration synchronise-all-customer-records-across-every-region');
    // deterministic across runs
    expect(JSON.stringify(await mcpDoc(root))).toBe(JSON.stringify(doc));
  });

  it('an explicit name is still checked: mcp.toolName(cmd, "bad name") is refused', async () => {
    const root = group('yourcli', mcp.toolName(leaf('x'), 'bad name'));
    const err = await schemaFailure(root, 'mcp');
    expect(err.context).toMatchObject({ reason: 'invalid_tool_name', tool: 'bad name', command: 'yourcli x' });
  });

  it('every advertised name matches ^[A-Za-z_][A-Za-z0-9_-]{0,63}$ (underscore and kebab are fine)', async () => {
    const root = group('yourcli', leaf('_private'), leaf('kebab-case'), leaf('Upper'), group('a', leaf('b-c')));
    const doc = await mcpDoc(root);
    expect(toolNames(doc)).toEqual(['Upper', '_private', 'a_b-c', 'kebab-case']);
    for (const n of toolNames(doc)) expect(n).toMatch(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/);
  });
});
