/**
 * The schema side of the failure cases in ../shared/cases.md (B04, B06, B07, B09, B11, B12, B25, B26),
 * each with the case's own input tree, read through `__schema` via `execute`.
 */
import { describe, expect, it } from 'vitest';
import { Command, declarePrompt, declareResource, mcp } from '../../lib/index.ts';
import { MAX_DESCRIPTION } from '../../lib/parse/input-schema.ts';
import { runCli, envelope } from '../helpers/run.ts';
import {
  axCommand,
  axDoc,
  compileAll,
  lintTool,
  mcpDoc,
  schemaFailure,
  tool,
  toolNames,
  type Json,
  flat,
} from '../fixtures/schema-trees.ts';

const echo = (ctx: Json) => ({ flags: ctx.flags, args: ctx.args });

describe('B04 — multi-word flags, default-true booleans', () => {
  const tree = () =>
    new Command({
      use: 'yourcli',
      commands: [
        new Command({
          use: 'fmt',
          short: 'Format files',
          flags: {
            'skip-blank': { type: 'bool', usage: 'skip blank lines' },
            'max-width': { type: 'int', default: 80, usage: 'widest line' },
            verify: { type: 'bool', default: true, negatable: true, usage: 'verify the result' },
            color: { type: 'bool', default: true, negatable: true, usage: 'colour output (--no-color turns it off)' },
          },
          run: echo,
        }),
      ],
    });

  it('advertises snake_case properties with typed defaults; verify and color default true', async () => {
    const s = flat(tool(await mcpDoc(tree()), 'fmt').inputSchema);
    expect(s.properties.skip_blank).toMatchObject({ type: 'boolean' });
    expect(s.properties.skip_blank).not.toHaveProperty('default');
    expect(s.properties.max_width).toMatchObject({ type: 'integer', default: 80 });
    expect(s.properties.verify).toMatchObject({ type: 'boolean', default: true });
    expect(s.properties.color).toMatchObject({ type: 'boolean', default: true });
    for (const k of Object.keys(s.properties)) expect(k).toMatch(/^[a-z0-9_]+$/);
    for (const k of ['skipBlank', 'maxWidth', 'skip-blank', 'max-width', 'no_color', 'no-color', 'no_verify'])
      expect(s.properties).not.toHaveProperty(k);
  });

  it('__schema lists, for every flag, the CLI spelling and the MCP property name', async () => {
    const fmt = axCommand(await axDoc(tree()), ['fmt']);
    const byName = Object.fromEntries(fmt.flags.map((f: Json) => [f.name, f]));
    expect(byName['skip-blank']).toMatchObject({ cli: '--skip-blank', property: 'skip_blank', type: 'bool' });
    expect(byName['max-width']).toMatchObject({ cli: '--max-width', property: 'max_width', type: 'int', default: 80 });
    expect(byName.verify).toMatchObject({ cli: '--verify', property: 'verify', default: true, negatable: true });
    expect(byName.color).toMatchObject({ cli: '--color', property: 'color', default: true, negatable: true });
    for (const f of fmt.flags) expect(f.property).toBe(f.name.replace(/-/g, '_'));
  });

  it('the CLI spelling works as advertised (sanity of the mapping)', async () => {
    const r = await runCli(tree(), ['fmt', '--skip-blank', '--max-width', '100', '--no-verify', '--no-color']);
    expect(r.code).toBe(0);
    expect(envelope(r.stdout).data.flags).toMatchObject({
      skipBlank: true,
      maxWidth: 100,
      verify: false,
      color: false,
    });
  });
});

describe('B06 — positionals: multi-word values and variadics', () => {
  const tree = () =>
    new Command({
      use: 'yourcli',
      commands: [
        new Command({
          use: 'search <query>',
          flags: { tag: { type: 'stringArray', usage: 'tag to filter by' } },
          run: echo,
        }),
        new Command({ use: 'label', commands: [new Command({ use: 'add <issue> <labels...>', run: echo })] }),
      ],
    });

  it('query and issue are required; labels is an array of strings with minItems 1; no catch-all args', async () => {
    const doc = await mcpDoc(tree());
    const search = flat(tool(doc, 'search').inputSchema);
    expect(search.required).toEqual(['query']);
    expect(search.properties.query).toMatchObject({ type: 'string' });
    expect(search.properties.tag).toMatchObject({ type: 'array', items: { type: 'string' } });
    const add = flat(tool(doc, 'label_add').inputSchema);
    expect(add.required).toEqual(['issue', 'labels']);
    expect(add.properties.issue).toMatchObject({ type: 'string' });
    expect(add.properties.labels).toMatchObject({ type: 'array', items: { type: 'string' }, minItems: 1 });
    for (const t of doc.tools) {
      expect(flat(t.inputSchema).properties).not.toHaveProperty('args');
      expect(flat(t.inputSchema).properties).not.toHaveProperty('arguments');
      expect(t.inputSchema.additionalProperties).toBe(false);
    }
  });

  it('__schema records the positional order and which positional is variadic', async () => {
    const ax = await axDoc(tree());
    expect(axCommand(ax, ['label', 'add']).args.map((a: Json) => [a.name, a.position, a.required, a.variadic])).toEqual(
      [
        ['issue', 1, true, false],
        ['labels', 2, true, true],
      ],
    );
    expect(axCommand(ax, ['search']).args.map((a: Json) => [a.name, a.position, a.variadic])).toEqual([
      ['query', 1, false],
    ]);
  });

  it('the tool description names the required positionals, as properties', async () => {
    const doc = await mcpDoc(tree());
    expect(tool(doc, 'label_add').description).toContain('Required: issue, labels.');
    expect(tool(doc, 'search').description).toContain('Required: query.');
  });
});

describe('B07 — repeatable flags containing commas; object-valued flags', () => {
  const tree = () =>
    new Command({
      use: 'yourcli',
      commands: [
        new Command({
          use: 'send',
          // data declares its schema, so agents send the object itself (without one: JSON text, see below)
          flags: {
            header: { type: 'stringArray', usage: 'a header, repeatable' },
            data: { type: 'json', usage: 'a JSON object', schema: { type: 'object' } },
            id: { type: 'intSlice', usage: 'ids' },
          },
          run: echo,
        }),
      ],
    });

  it('advertises header as an array of strings, data as an object, id as an array of integers', async () => {
    const s = flat(tool(await mcpDoc(tree()), 'send').inputSchema);
    expect(s.properties.header).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(s.properties.data).toMatchObject({ type: 'object' });
    expect(s.properties.id).toMatchObject({ type: 'array', items: { type: 'integer' } });
  });

  it('the CLI keeps commas inside repeated --header values', async () => {
    const r = await runCli(tree(), ['send', '--header', 'A: 1, 2', '--header', 'B: 3', '--format', 'json']);
    expect(r.code).toBe(0);
    expect(envelope(r.stdout).data.flags.header).toEqual(['A: 1, 2', 'B: 3']);
  });
});

describe('B09 — every tool has a usable inputSchema', () => {
  const tree = (shadowInjected: boolean) =>
    new Command({
      use: 'yourcli',
      persistentFlags: shadowInjected
        ? {
            'dry-run': { type: 'bool', hidden: true },
            'idempotency-key': { type: 'string', hidden: true },
            fields: { type: 'stringSlice', hidden: true },
          }
        : {},
      commands: [
        new Command({ use: 'status', run: () => ({ ok: true }) }),
        new Command({ use: 'greet', flags: { name: { type: 'string' } }, run: echo }),
      ],
    });

  it('status (no flags, no positionals) has properties, type object, additionalProperties false', async () => {
    const doc = await mcpDoc(tree(false));
    const s = flat(tool(doc, 'status').inputSchema);
    expect(s.type).toBe('object');
    expect(s).toHaveProperty('properties');
    expect(typeof s.properties).toBe('object');
    // only the injected global inputs remain (no dry_run: status is not read-only and declares no dry run)
    expect(Object.keys(s.properties)).toEqual(['fields', 'idempotency_key']);
  });

  it('with nothing left at all, properties is present and empty: {"type":"object","properties":{}}', async () => {
    const doc = await mcpDoc(tree(true));
    const s = flat(tool(doc, 'status').inputSchema);
    expect(s).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    expect(JSON.stringify(s)).toContain('"properties":{}');
    expect(flat(tool(doc, 'greet').inputSchema).properties).toEqual({ name: { type: 'string', description: 'name' } });
  });

  it('every tool has an inputSchema whose root is type object, with properties', async () => {
    for (const shadow of [false, true]) {
      const doc = await mcpDoc(tree(shadow));
      expect(toolNames(doc)).toEqual(['greet', 'status']);
      for (const t of doc.tools) {
        expect(t.inputSchema.type).toBe('object');
        expect(flat(t.inputSchema).properties).toBeTypeOf('object');
      }
      compileAll(doc);
    }
  });
});

describe('B11 — portable schema subset and description budget', () => {
  const usageLine = 'Usage: yourcli render [--level 1|2|3] [--path p]... [--url u] [--mode a|b | --preset name]';
  const longHelp = (opening: string) => {
    let text = opening;
    let i = 0;
    while (text.length < 5000 - usageLine.length - 2) text += ` Rule ${++i}: keep the output tidy and deterministic.`;
    return `${text.slice(0, 5000 - usageLine.length - 1)}\n${usageLine}`;
  };
  const render = (short: string | undefined, long: string) =>
    new Command({
      use: 'render <file>',
      short,
      long,
      flags: {
        level: { type: 'string', choices: ['1', '2', '3'], usage: 'detail level' },
        path: { type: 'stringArray', usage: 'search path, repeatable' },
        url: { type: 'string', usage: 'a URI to fetch' },
        mode: { type: 'string', choices: ['a', 'b'] },
        preset: { type: 'string' },
        out: { type: 'string', required: true, usage: 'where to write' },
      },
      mutuallyExclusive: [['mode', 'preset']],
      run: echo,
    });
  const tree = (short: string | undefined, long: string) =>
    new Command({ use: 'yourcli', commands: [render(short, long)] });

  it('the long help is 5,000 characters with the only usage line at the very end (fixture check)', () => {
    const l = longHelp('Render a document.');
    expect(l.length).toBe(5000);
    expect(l.endsWith(usageLine)).toBe(true);
  });

  for (const [label, short, opening, summary] of [
    ['with a short summary', 'Render a document', 'Renders documents in several detail levels.', 'Render a document'],
    [
      'without short: the first sentence of the long help',
      undefined,
      'Render a document. It reads the file and writes HTML.',
      'Render a document',
    ],
    ['without short and without any early sentence break', undefined, 'x'.repeat(4000), undefined],
  ] as const) {
    it(`lints clean under every rule, ${label}`, async () => {
      const long = longHelp(opening);
      const doc = await mcpDoc(tree(short, long));
      const t = tool(doc, 'render');
      // rule 1–4 (+ root shape): the lint
      expect(lintTool(t)).toEqual([]);
      compileAll(doc);
      expect(flat(t.inputSchema).properties.level).toMatchObject({ type: 'string', enum: ['1', '2', '3'] });
      expect(flat(t.inputSchema).properties.path).toMatchObject({ type: 'array', items: { type: 'string' } });
      expect(flat(t.inputSchema).properties.url).toEqual({ type: 'string', description: 'a URI to fetch' });
      // no top-level combinator; a property's anyOf [value, null] is how optional is spelled
      for (const k of ['oneOf', 'anyOf', 'allOf', 'not']) expect(t.inputSchema).not.toHaveProperty(k);
      // rule 5: ≤ 2048 characters, opening with the summary and the usage (positionals + required flags)
      expect(t.description.length).toBeLessThanOrEqual(MAX_DESCRIPTION);
      const opener = t.description.split('\n')[0]!;
      expect(opener.length).toBeLessThan(600);
      if (summary) expect(opener.startsWith(`${summary}. Required: `)).toBe(true);
      expect(opener).toContain('Required: file, out.');
      expect(opener).toContain('At most one of mode, preset may be given.');
      // the full long help stays available through __schema --as=ax
      expect(axCommand(await axDoc(tree(short, long)), ['render']).long).toBe(long);
    });
  }

  it('a cut description is marked, and never splits a surrogate pair', async () => {
    const long = '😀'.repeat(3000);
    const t = tool(await mcpDoc(tree('Emoji', long)), 'render');
    expect(t.description.length).toBeLessThanOrEqual(MAX_DESCRIPTION);
    expect(t.description).toMatch(/truncated/);
    expect(t.description).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});

describe('B12 — tool names: charset, length, collisions', () => {
  const tree = (fixed: boolean) => {
    const up = new Command({ use: 'up', run: echo });
    const dot = new Command({ use: 'v2.export', run: echo });
    const digit = new Command({ use: '3d-render', run: echo });
    const sync = new Command({ use: 'synchronise-all-customer-records-across-every-region', run: echo });
    if (fixed) {
      mcp.toolName(up, 'db_migrate_up_nested');
      mcp.toolName(dot, 'v2_export');
      mcp.toolName(digit, '_3d_render');
      mcp.toolName(sync, 'org_sync_customers');
    }
    return new Command({
      use: 'yourcli',
      commands: [
        new Command({
          use: 'db',
          commands: [new Command({ use: 'migrate-up', run: echo }), new Command({ use: 'migrate', commands: [up] })],
        }),
        dot,
        digit,
        new Command({ use: 'organisation-administration', commands: [sync] }),
      ],
    });
  };

  it('the case tree is refused at __schema (exit 2, validation_error naming both colliding commands)', async () => {
    for (const shape of ['mcp', 'ax'] as const) {
      const err = await schemaFailure(tree(false), shape);
      expect(err.kind).toBe('validation_error');
      // tree order: "3d-render" sorts first, so the first problem met is its invalid name
      expect(err.message).toContain('yourcli 3d-render');
    }
    const onlyCollision = tree(false);
    for (const c of onlyCollision.commands().filter((c) => c.name !== 'db')) onlyCollision.removeCommand(c);
    const err = await schemaFailure(onlyCollision, 'mcp');
    expect(err.context.reason).toBe('tool_name_collision');
    expect(err.message).toContain('yourcli db migrate-up');
    expect(err.message).toContain('yourcli db migrate up');
  });

  it('with explicit names every advertised name is valid, short, and the mapping is in __schema', async () => {
    const doc = await mcpDoc(tree(true));
    expect(toolNames(doc)).toEqual([
      '_3d_render',
      'db_migrate_up_nested',
      'db_migrate-up',
      'org_sync_customers',
      'v2_export',
    ]);
    for (const n of toolNames(doc)) {
      expect(n).toMatch(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/);
      expect(n.length).toBeLessThanOrEqual(40);
    }
    const ax = await axDoc(tree(true));
    expect(axCommand(ax, ['v2.export']).mcp).toEqual({ tool: 'v2_export' });
    expect(axCommand(ax, ['3d-render']).mcp).toEqual({ tool: '_3d_render' });
    expect(axCommand(ax, ['db', 'migrate', 'up']).mcp).toEqual({ tool: 'db_migrate_up_nested' });
    expect(
      axCommand(ax, ['organisation-administration', 'synchronise-all-customer-records-across-every-region']).mcp,
    ).toEqual({ tool: 'org_sync_customers' });
    expect(JSON.stringify(await mcpDoc(tree(true)))).toBe(JSON.stringify(doc));
  });
});

describe('B25 — global flags colliding with a command’s own flag (schema side)', () => {
  const tree = () =>
    new Command({
      use: 'yourcli',
      commands: [
        new Command({
          use: 'export',
          flags: { format: { type: 'string', choices: ['csv', 'xlsx'] }, out: { type: 'string' } },
          run: echo,
        }),
        new Command({ use: 'report', flags: { 'dry-run': { type: 'string', choices: ['plan', 'none'] } }, run: echo }),
      ],
    });

  it('export has exactly one format property (the local enum); report has one dry_run (the local string)', async () => {
    const doc = await mcpDoc(tree());
    const exp = flat(tool(doc, 'export').inputSchema);
    expect(exp.properties.format).toMatchObject({ type: 'string', enum: ['csv', 'xlsx'] });
    const rep = flat(tool(doc, 'report').inputSchema);
    expect(rep.properties.dry_run).toMatchObject({ type: 'string', enum: ['plan', 'none'] });
    for (const t of doc.tools) {
      const keys = Object.keys(flat(t.inputSchema).properties);
      expect(new Set(keys).size).toBe(keys.length);
    }
  });

  it('__schema shows which flag wins: the local one, with no inherited flag of that name', async () => {
    const ax = await axDoc(tree());
    const fmt = axCommand(ax, ['export']).flags.filter((f: Json) => f.name === 'format');
    expect(fmt).toHaveLength(1);
    expect(fmt[0]).toMatchObject({ type: 'string', choices: ['csv', 'xlsx'], persistent: false });
    expect(fmt[0]).not.toHaveProperty('inherited');
    expect(fmt[0]).not.toHaveProperty('builtin');
    const dry = axCommand(ax, ['report']).flags.filter((f: Json) => f.name === 'dry-run');
    expect(dry).toHaveLength(1);
    expect(dry[0]).toMatchObject({ type: 'string', choices: ['plan', 'none'] });
  });
});

describe('B26 — prompts/resources lists on every tree', () => {
  it('tree A (tools only): prompts, resources and resourceTemplates are present and empty', async () => {
    const doc = await mcpDoc(new Command({ use: 'yourcli', commands: [new Command({ use: 'a', run: echo })] }));
    expect(doc.prompts).toEqual([]);
    expect(doc.resources).toEqual([]);
    expect(doc.resourceTemplates).toEqual([]);
  });

  it('tree B: the lists hold the declared prompt, resource and template', async () => {
    const root = new Command({ use: 'yourcli', commands: [new Command({ use: 'a', run: echo })] });
    declarePrompt(root, {
      name: 'triage',
      description: 'Triage an issue',
      arguments: [{ name: 'issue', required: true }],
      template: 'Triage issue {{issue}}.',
    });
    declareResource(root, {
      uri: 'yourcli://config',
      name: 'config',
      mimeType: 'application/json',
      content: '{"a":1}',
    });
    declareResource(root, {
      uriTemplate: 'yourcli://logs/{date}',
      name: 'logs',
      mimeType: 'text/plain',
      content: 'logs of {date}',
    });
    const doc = await mcpDoc(root);
    expect(doc.prompts).toEqual([
      {
        name: 'triage',
        description: 'Triage an issue',
        arguments: [{ name: 'issue', required: true }],
        template: 'Triage issue {{issue}}.',
      },
    ]);
    expect(doc.resources).toEqual([{ uri: 'yourcli://config', name: 'config', mimeType: 'application/json' }]);
    expect(doc.resourceTemplates).toEqual([
      { uriTemplate: 'yourcli://logs/{date}', name: 'logs', mimeType: 'text/plain' },
    ]);
  });
});
