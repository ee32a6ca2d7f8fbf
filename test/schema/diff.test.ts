/**
 * schemaDiff / formatDiff (lib/schema-diff.ts) and the `ax-ts schema-diff` CLI (cmd/ax-ts), as a
 * function and through the real process.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Command, mcp } from '../../lib/index.ts';
import { schemaDocument } from '../../lib/schema/index.ts';
import { formatDiff, schemaDiff, schemaShape, type Change, type SchemaDiff } from '../../lib/schema/diff/diff.ts';
import { goldenRun, nodeCommand } from '../../golden/index.ts';
import { buildRefCli } from '../../golden/fixtures/ref-cli.ts';
import { buildAxTsCli } from '../../cmd/ax-ts/cli.ts';

const tmp = mkdtempSync(join(tmpdir(), 'ax-schema-diff-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Tweak = (t: Tree) => void;
interface Tree {
  root: Command;
  get: Command;
  list: Command;
  db: Command;
}

/** A small tree; each test tweaks a fresh copy. */
function tree(tweak: Tweak = () => {}): Command {
  const get = new Command({
    use: 'get <id>',
    short: 'Get one',
    args: [{ name: 'id', description: 'the id' }],
    flags: { output: { type: 'string', choices: ['json', 'yaml'], default: 'json', usage: 'syntax' } },
    effects: 'read_only',
    output: {
      schema: {
        type: 'object',
        properties: { id: { type: 'string' }, size: { type: 'integer' } },
        required: ['id', 'size'],
      },
    },
    run: () => ({}),
  });
  const list = new Command({
    use: 'list',
    aliases: ['ls'],
    short: 'List',
    flags: { limit: { type: 'int', default: 10, usage: 'max' }, tag: { type: 'string', usage: 'tag' } },
    effects: 'read_only',
    run: () => [],
  });
  const migrate = new Command({ use: 'migrate', short: 'Migrate', effects: 'idempotent', run: () => ({}) });
  const db = new Command({
    use: 'db',
    short: 'Database',
    commands: [migrate, new Command({ use: 'seed', short: 'Seed', run: () => ({}) })],
  });
  const root = new Command({
    use: 'app',
    short: 'App',
    version: '1.0.0',
    persistentFlags: { verbose: { type: 'bool', short: 'v', usage: 'more' } },
    commands: [get, list, db],
  });
  tweak({ root, get, list, db });
  return root;
}

function docs(tweak: Tweak, shape: 'ax' | 'mcp' = 'ax'): [unknown, unknown] {
  return [JSON.parse(schemaDocument(tree(), shape, '1.0.0')), JSON.parse(schemaDocument(tree(tweak), shape, '1.0.0'))];
}

function kinds(changes: Change[]): string[] {
  return changes.map((c) => c.kind);
}

function diffOf(tweak: Tweak, shape: 'ax' | 'mcp' = 'ax'): SchemaDiff {
  const [a, b] = docs(tweak, shape);
  return schemaDiff(a, b);
}

describe('schemaDiff (ax shape)', () => {
  it('finds nothing between identical documents', () => {
    const d = diffOf(() => {});
    expect(d).toEqual({ shape: 'ax', breaking: [], additive: [], info: [] });
  });

  it('a removed command is breaking, reported once for its subtree', () => {
    const d = diffOf((t) => t.root.removeCommand(t.db));
    expect(kinds(d.breaking)).toEqual(['command_removed']);
    expect(d.breaking[0]!.message).toBe('command app db was removed (with 2 subcommands)');
  });

  it('a command renamed with its old name kept as an alias: breaking only through its MCP tool names', () => {
    const rename = (t: Tree) => {
      t.root.removeCommand(t.db);
      // a command has one parent: the children leave db before they join database
      const children = t.db.commands();
      t.db.removeCommand(...children);
      t.root.addCommand(new Command({ use: 'database', aliases: ['db'], short: 'Database', commands: children }));
    };
    const d = diffOf(rename);
    expect(d.breaking.map((c) => c.message)).toEqual([
      'command app db was renamed to app database (the old name still works as an alias, but 2 MCP tool names change)',
    ]);
    expect(d.additive).toEqual([]);
    // A command that was not an MCP tool: renaming it (alias kept) breaks nobody.
    const before = JSON.parse(
      schemaDocument(
        tree((t) => mcp.exclude(t.list)),
        'ax',
        '1.0.0',
      ),
    );
    const after = JSON.parse(
      schemaDocument(
        tree((t) => {
          t.root.removeCommand(t.list);
          t.root.addCommand(
            mcp.exclude(
              new Command({
                use: 'items',
                aliases: ['list', 'ls'],
                short: 'List',
                flags: { limit: { type: 'int', default: 10, usage: 'max' }, tag: { type: 'string', usage: 'tag' } },
                effects: 'read_only',
                run: () => [],
              }),
            ),
          );
        }),
        'ax',
        '1.0.0',
      ),
    );
    const quiet = schemaDiff(before, after);
    expect(quiet.breaking).toEqual([]);
    expect(quiet.info.map((c) => c.kind)).toEqual(['command_renamed']);
  });

  it('a removed flag and a changed flag type are breaking', () => {
    const d = diffOf((t) => {
      delete t.list.localFlags.tag;
      t.list.localFlags.limit = { type: 'string', usage: 'max' };
      t.root._invalidate();
    });
    expect(kinds(d.breaking)).toEqual(['flag_type_changed', 'flag_removed']);
    expect(d.breaking.map((c) => c.target)).toEqual(['app list --limit', 'app list --tag']);
  });

  it('a removed persistent flag is reported where it was declared, not on every descendant', () => {
    const d = diffOf((t) => {
      delete t.root.persistentFlags.verbose;
      t.root._invalidate();
    });
    expect(d.breaking.map((c) => `${c.kind} ${c.target}`)).toEqual(['flag_removed app --verbose']);
  });

  it('a new required flag is breaking; a new optional flag is additive', () => {
    const d = diffOf((t) => {
      t.list.addFlag('owner', { type: 'string', required: true });
      t.list.addFlag('sort', { type: 'string' });
    });
    expect(d.breaking.map((c) => `${c.kind} ${c.target}`)).toEqual(['required_flag_added app list --owner']);
    expect(d.additive.map((c) => `${c.kind} ${c.target}`)).toEqual(['flag_added app list --sort']);
  });

  it('a flag that becomes required is breaking', () => {
    const d = diffOf((t) => {
      t.list.localFlags.tag = { type: 'string', usage: 'tag', required: true };
      t.root._invalidate();
    });
    expect(kinds(d.breaking)).toEqual(['flag_now_required']);
  });

  it('choices narrowed are breaking, widened additive', () => {
    const narrowed = diffOf((t) => {
      t.get.localFlags.output = { type: 'string', choices: ['json'], default: 'json', usage: 'syntax' };
      t.root._invalidate();
    });
    expect(narrowed.breaking.map((c) => c.message)).toEqual(['flag --output of app get no longer accepts yaml']);
    const widened = diffOf((t) => {
      t.get.localFlags.output = { type: 'string', choices: ['json', 'yaml', 'toml'], default: 'json', usage: 'syntax' };
      t.root._invalidate();
    });
    expect(widened.breaking).toEqual([]);
    expect(kinds(widened.additive)).toEqual(['choices_added']);
  });

  it('positionals: new required breaking, new optional additive, removed/renamed/reordered breaking', () => {
    const mk = (args: { name: string; required?: boolean }[]) => (t: Tree) => {
      t.root.removeCommand(t.get);
      t.root.addCommand(
        new Command({
          use: 'get',
          short: 'Get one',
          args,
          flags: { output: { type: 'string', choices: ['json', 'yaml'], default: 'json', usage: 'syntax' } },
          effects: 'read_only',
          output: t.get.output,
          run: () => ({}),
        }),
      );
    };
    const desc = (name: string) => ({ name, description: 'the id' });
    expect(kinds(diffOf(mk([desc('id'), { name: 'rev' }])).breaking)).toEqual(['required_positional_added']);
    const opt = diffOf(mk([desc('id'), { name: 'rev', required: false }]));
    expect(opt.breaking).toEqual([]);
    expect(kinds(opt.additive)).toEqual(['positional_added']);
    expect(kinds(diffOf(mk([])).breaking)).toEqual(['positional_removed']);
    expect(kinds(diffOf(mk([desc('key')])).breaking)).toEqual(['positional_renamed']);
    const reordered = diffOf(mk([desc('rev'), desc('id')]));
    expect(kinds(reordered.breaking)).toContain('positional_reordered');
  });

  it('a tool renamed (explicit MCP name) or dropped from MCP (excluded) is breaking while the command stays', () => {
    const renamed = diffOf((t) => mcp.toolName(t.list, 'list_things'));
    expect(renamed.breaking.map((c) => [c.kind, c.before, c.after])).toEqual([['tool_renamed', 'list', 'list_things']]);
    const dropped = diffOf((t) => mcp.exclude(t.list));
    expect(kinds(dropped.breaking)).toEqual(['tool_dropped']);
    expect(dropped.breaking[0]!.message).toContain('excluded');
  });

  it('weaker effects and removed output fields are breaking; new fields additive', () => {
    const d = diffOf((t) => {
      t.list.effects = 'non_idempotent';
      t.get.output = {
        schema: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } }, required: ['id'] },
      };
    });
    expect(d.breaking.map((c) => `${c.kind} ${c.target}`)).toEqual([
      'output_field_removed app get output size',
      'effects_weakened app list',
    ]);
    expect(d.additive.map((c) => `${c.kind} ${c.target}`)).toEqual(['output_field_added app get output name']);
  });

  it('an alias removed and a new flag group are breaking', () => {
    const d = diffOf((t) => {
      t.list.aliases = [];
      t.list.markFlagsMutuallyExclusive('limit', 'tag');
    });
    expect(kinds(d.breaking)).toEqual(['alias_removed', 'flag_group_added']);
  });

  it('texts and defaults are info only; new commands additive', () => {
    const d = diffOf((t) => {
      t.list.short = 'List everything';
      t.list.localFlags.limit = { type: 'int', default: 20, usage: 'at most this many' };
      t.root.addCommand(new Command({ use: 'stats', short: 'Stats', run: () => ({}) }));
      t.root._invalidate();
    });
    expect(d.breaking).toEqual([]);
    expect(kinds(d.additive)).toEqual(['command_added']);
    expect(kinds(d.info).sort()).toEqual(['flag_default_changed', 'flag_usage_changed', 'short_changed']);
  });

  it('error catalogue: a removed kind or a changed exit code is breaking', () => {
    const [a, b] = docs(() => {}) as [Record<string, any>, Record<string, any>];
    b.errors = b.errors
      .filter((e: { kind: string }) => e.kind !== 'timeout')
      .map((e: { kind: string; exit_code: number }) => (e.kind === 'auth_error' ? { ...e, exit_code: 77 } : e));
    b.errors.push({ kind: 'quota', exit_code: 9, retryable: false, description: 'q' });
    const d = schemaDiff(a, b);
    expect(d.breaking.map((c) => `${c.kind} ${c.target}`)).toEqual([
      'error_exit_code_changed error auth_error',
      'error_kind_removed error timeout',
    ]);
    expect(kinds(d.additive)).toEqual(['error_kind_added']);
  });

  it('prompts and resources: removed breaking, added additive, a new required argument breaking', () => {
    const a = JSON.parse(schemaDocument(buildRefCli(), 'ax', '1.0.0'));
    const b = structuredClone(a);
    const item = b.command.commands.find((c: { name: string }) => c.name === 'item');
    delete item.resources;
    b.command.prompts[0].arguments.push({ name: 'lang', required: true });
    b.command.prompts.push({ name: 'new-prompt', template: 'x' });
    const d = schemaDiff(a, b);
    expect(d.breaking.map((c) => `${c.kind} ${c.target}`)).toEqual([
      'prompt_required_argument_added prompt summarize lang',
      'resource_removed resource ref://items/{id}',
    ]);
    expect(kinds(d.additive)).toEqual(['prompt_added']);
  });

  it('the reference fixture against itself: no change', () => {
    const a = JSON.parse(schemaDocument(buildRefCli(), 'ax', '1.4.2'));
    expect(formatDiff(schemaDiff(a, structuredClone(a)))).toBe(
      'No changes between the two __schema documents (ax shape).\n',
    );
  });
});

describe('schemaDiff (mcp shape)', () => {
  it('finds nothing between identical documents', () => {
    expect(diffOf(() => {}, 'mcp')).toEqual({ shape: 'mcp', breaking: [], additive: [], info: [] });
  });

  it('tool removed, renamed (same schemas), added', () => {
    const removed = diffOf((t) => t.root.removeCommand(t.list), 'mcp');
    expect(kinds(removed.breaking)).toEqual(['tool_removed']);
    const renamed = diffOf((t) => mcp.toolName(t.list, 'list_all'), 'mcp');
    expect(renamed.breaking.map((c) => c.message)).toEqual(['tool list appears renamed to list_all (same schemas)']);
    expect(renamed.additive).toEqual([]);
    const added = diffOf((t) => t.root.addCommand(new Command({ use: 'stats', run: () => ({}) })), 'mcp');
    expect(added.breaking).toEqual([]);
    expect(kinds(added.additive)).toEqual(['tool_added']);
  });

  it('input property removed / retyped / newly required / enum narrowed are breaking', () => {
    const d = diffOf((t) => {
      delete t.list.localFlags.tag;
      t.list.localFlags.limit = { type: 'string', usage: 'max', required: true };
      t.get.localFlags.output = { type: 'string', choices: ['json'], default: 'json', usage: 'syntax' };
      t.root._invalidate();
    }, 'mcp');
    expect(d.breaking.map((c) => `${c.kind} ${c.target}`).sort()).toEqual([
      'choices_narrowed tool get output',
      'property_now_required tool list limit',
      'property_removed tool list tag',
      'property_type_changed tool list limit',
    ]);
  });

  it('a new required input is breaking, a new optional one additive; weaker annotations breaking', () => {
    const d = diffOf((t) => {
      t.list.addFlag('owner', { type: 'string', required: true });
      t.list.addFlag('sort', { type: 'string' });
      t.db.commands()[0]!.effects = 'non_idempotent';
    }, 'mcp');
    expect(d.breaking.map((c) => `${c.kind} ${c.target}`)).toEqual([
      'effects_weakened tool db_migrate',
      'required_property_added tool list owner',
    ]);
    // a command that becomes non_idempotent replays a retried call: its tool gains idempotency_key
    expect(d.additive.map((c) => `${c.kind} ${c.target}`)).toEqual([
      'property_added tool db_migrate idempotency_key',
      'property_added tool list sort',
    ]);
  });

  it('refuses documents of different shapes, or that are not __schema documents', () => {
    const [ax] = docs(() => {});
    const [m] = docs(() => {}, 'mcp');
    expect(schemaShape(ax)).toBe('ax');
    expect(schemaShape(m)).toBe('mcp');
    expect(() => schemaDiff(ax, m)).toThrow(/different shapes/);
    expect(() => schemaDiff({ hello: 1 }, m)).toThrow(/old document is not a __schema document/);
  });
});

describe('formatDiff', () => {
  it('prints a summary, the sections and the verdict', () => {
    const d = diffOf((t) => {
      t.root.removeCommand(t.db);
      t.root.addCommand(new Command({ use: 'stats', short: 'Stats', run: () => ({}) }));
      t.list.short = 'List all';
    });
    expect(formatDiff(d)).toBe(
      [
        'schema diff (ax shape): 1 breaking change, 1 additive, 1 info',
        '',
        'Breaking (callers may fail):',
        '  ✗ command app db was removed (with 2 subcommands) [command_removed]',
        '',
        'Additive:',
        '  + new command app stats (MCP tool stats) [command_added]',
        '',
        'Info:',
        '  · short of app list changed [short_changed]',
        '',
        'Result: BREAKING — existing scripts and agents may fail against the new version.',
        '',
      ].join('\n'),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// The `ax-ts schema-diff` CLI
// ---------------------------------------------------------------------------------------------

function write(name: string, doc: unknown): string {
  const p = join(tmp, name);
  writeFileSync(p, typeof doc === 'string' ? doc : JSON.stringify(doc));
  return p;
}

const [oldAx, newAxBreaking] = docs((t) => t.root.removeCommand(t.db));
const [, newAxAdditive] = docs((t) => t.root.addCommand(new Command({ use: 'stats', run: () => ({}) })));
const [oldMcp] = docs(() => {}, 'mcp');
const OLD = write('old.json', oldAx);
const BREAKING = write('breaking.json', newAxBreaking);
const ADDITIVE = write('additive.json', newAxAdditive);
const MCP = write('mcp.json', oldMcp);
const NOT_JSON = write('bad.json', '{"command": ');
const NOT_SCHEMA = write('other.json', { hello: 'world' });
const AX_TS = nodeCommand(new URL('../../cmd/ax-ts/main.ts', import.meta.url).pathname);

function errorLine(stderr: string): { error: { kind: string; exit_code: number; context?: Record<string, any> } } {
  return JSON.parse(stderr.trim().split('\n').at(-1)!);
}

describe('ax-ts schema-diff (in-process)', () => {
  it('exit 0 with the classified changes in the envelope when nothing breaks', async () => {
    const r = await goldenRun(buildAxTsCli, ['schema-diff', OLD, ADDITIVE]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const data = JSON.parse(r.stdout).data;
    expect(data).toMatchObject({
      shape: 'ax',
      compatible: true,
      breaking: [],
      summary: '0 breaking changes, 1 additive, 0 info',
    });
    expect(data.additive[0].kind).toBe('command_added');
  });

  it('exit 1 (breaking_change) with the changes in the error context when something breaks', async () => {
    const r = await goldenRun(buildAxTsCli, ['schema-diff', OLD, BREAKING]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const e = errorLine(r.stderr).error;
    expect(e.kind).toBe('breaking_change');
    expect(e.exit_code).toBe(1);
    expect(e.context!.breaking.map((c: Change) => c.kind)).toEqual(['command_removed']);
    expect(e.context!.compatible).toBe(false);
  });

  it('text mode prints the report on stdout, then the error on stderr', async () => {
    const r = await goldenRun(buildAxTsCli, ['schema-diff', OLD, BREAKING, '--format', 'text']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('✗ command app db was removed (with 2 subcommands) [command_removed]');
    expect(r.stderr).toMatch(/^Error: 1 breaking change, 0 additive, 0 info; first: command app db was removed/);
    const ok = await goldenRun(buildAxTsCli, ['schema-diff', OLD, OLD, '--format', 'text']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe('No changes between the two __schema documents (ax shape).\n');
  });

  it('reads one document from stdin with -', async () => {
    const r = await goldenRun(buildAxTsCli, ['schema-diff', OLD, '-'], { stdin: JSON.stringify(newAxAdditive) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data.additive).toHaveLength(1);
  });

  it.each([
    ['a missing file', [OLD, join(tmp, 'nope.json')], 'unreadable_file', 'new'],
    ['a directory', [tmp, OLD], 'unreadable_file', 'old'],
    ['a file that is not JSON', [NOT_JSON, OLD], 'invalid_json', 'old'],
    ['JSON that is not a __schema document', [OLD, NOT_SCHEMA], 'not_a_schema_document', 'new'],
    ['documents of different shapes', [OLD, MCP], 'shape_mismatch', undefined],
    ['stdin twice', ['-', '-'], 'invalid_argument', 'new'],
  ])('%s is a validation_error (exit 2)', async (_what, files, reason, argument) => {
    const r = await goldenRun(buildAxTsCli, ['schema-diff', ...files]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const e = errorLine(r.stderr).error;
    expect(e.kind).toBe('validation_error');
    expect(e.context!.reason).toBe(reason);
    if (argument) expect(e.context!.argument).toBe(argument);
  });

  it('a missing argument is a usage error (exit 2)', async () => {
    const r = await goldenRun(buildAxTsCli, ['schema-diff', OLD]);
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr).error.kind).toBe('validation_error');
  });

  it('lists breaking_change (exit 1) in its own __schema', async () => {
    const r = await goldenRun(buildAxTsCli, ['__schema']);
    const doc = JSON.parse(r.stdout);
    expect(doc.tool).toBe('ax-ts');
    expect(doc.errors).toContainEqual(expect.objectContaining({ kind: 'breaking_change', exit_code: 1 }));
  });
});

describe('ax-ts schema-diff (real process)', () => {
  it('exit codes 0 / 1 / 2 and the report through the real process', async () => {
    const ok = await goldenRun(AX_TS, ['schema-diff', OLD, ADDITIVE]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).data.compatible).toBe(true);
    const broken = await goldenRun(AX_TS, ['schema-diff', OLD, BREAKING, '--format', 'text']);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('Result: BREAKING');
    const bad = await goldenRun(AX_TS, ['schema-diff', OLD, join(tmp, 'missing.json')]);
    expect(bad.code).toBe(2);
    expect(errorLine(bad.stderr).error.context).toMatchObject({ reason: 'unreadable_file', argument: 'new' });
  }, 60_000);

  it('CI gate: the current demo CLI has no breaking change against its pinned golden schema', async () => {
    const repo = new URL('../..', import.meta.url).pathname;
    const current = await goldenRun(nodeCommand(join(repo, 'cmd', 'tasks', 'main.ts')), ['__schema', '--full']);
    expect(current.code).toBe(0);
    const r = await goldenRun(
      AX_TS,
      ['schema-diff', join(repo, 'golden', 'testdata', 'tasks', 'schema.ax.golden'), '-'],
      { stdin: current.stdout },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data.compatible).toBe(true);
  }, 60_000);
});
