/**
 * The schema walk's caches change no byte (docs/performance.md). On a generated tree that uses every
 * declaration the walk reads (test/fixtures/rich-tree.ts):
 * - every `__schema` shape is pinned, command by command, in golden/testdata/schema-walk*.golden
 *   (a digest per command entry and per tool, and of each whole document), written from the walk
 *   as it was before its caches were added; `npm run golden:update` rewrites it on purpose;
 * - the tree declared literally, built Cobra-style one `addCommand`/`addFlag` at a time, and
 *   declared as lazy subtrees gives the same bytes in every shape;
 * - a walk after the tree changed (a flag, a command added) gives what a fresh walk of the changed
 *   tree gives: no cache outlives a change;
 * - each command's flag list (`--as=ax`) and input properties (`--as=mcp`) equal a straightforward
 *   reference computed here from the declarations alone (Cobra's merge of persistent flags:
 *   own local, own persistent, ancestors' persistent nearest first, then the injected ones; under
 *   TraverseChildren, then the ancestors' local flags).
 * Each check runs on the tree as generated and with TraverseChildren on.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectGolden } from '../../golden/index.ts';
import { Command } from '../../lib/index.ts';
import { expandAxDocument, loadTree, SCHEMA_SHAPES } from '../../lib/schema/index.ts';
import { runCli } from '../helpers/run.ts';
import { richTree, richTreeLazyMarks, type RichOptions, type RichStyle } from '../fixtures/rich-tree.ts';
import type { Json } from '../fixtures/schema-trees.ts';

const GOLDEN_DIR = join(new URL('../..', import.meta.url).pathname, 'golden', 'testdata');
const digest = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);

async function documents(root: Command): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const shape of SCHEMA_SHAPES) {
    const r = await runCli(root, ['__schema', `--as=${shape}`, '--full']);
    if (r.code !== 0) throw new Error(`__schema --as=${shape} exited ${r.code}: ${r.stderr}`);
    out[shape] = `${r.stdout}\0${r.stderr}`;
  }
  return out;
}

async function built(style: RichStyle, options: RichOptions): Promise<Command> {
  const root = richTree(style, 14, options);
  if (style === 'lazy') {
    await loadTree(root);
    richTreeLazyMarks(root, 14, options);
  }
  return root;
}

/** The tree as generated, and with Cobra's TraverseChildren on (each pinned in its own golden). */
const VARIANTS: [string, RichOptions][] = [
  ['schema-walk', {}],
  ['schema-walk-traverse', { traverse: true }],
];

/** One line per ax command entry and per MCP tool (a digest of its JSON), then one per whole document. */
function pinText(docs: Record<string, string>): string {
  const lines: string[] = [];
  const ax = JSON.parse(docs.ax!.split('\0')[0]!) as Json;
  const entries = (c: Json, path: string): void => {
    const { commands, ...own } = c;
    lines.push(`ax ${path} ${digest(JSON.stringify(own))}`);
    for (const k of commands ?? []) entries(k, `${path} ${k.name as string}`);
  };
  entries(ax.command, ax.command.name as string);
  const m = JSON.parse(docs.mcp!.split('\0')[0]!) as Json;
  for (const t of m.tools) lines.push(`mcp ${t.name} ${digest(JSON.stringify(t))}`);
  for (const shape of SCHEMA_SHAPES)
    lines.push(`document ${shape} ${digest(docs[shape]!)} ${Buffer.byteLength(docs[shape]!)}`);
  return `${lines.join('\n')}\n`;
}

describe.each(VARIANTS)('schema walk: caches change no byte (docs/performance.md): %s', (golden, options) => {
  it('pins every shape of the generated tree, command by command', async () => {
    const docs = await documents(await built('literal', options));
    const ax = JSON.stringify(expandAxDocument(JSON.parse(docs.ax!.split('\0')[0]!) as Json));
    // the tree is as rich as it claims: deep, with tools, exclusions, shadowing and lazy-loadable groups
    expect(ax.match(/"path":"rich( g\d+){3} /)).not.toBeNull();
    expect(docs.ax).toContain('"reason":"excluded"');
    expect(ax).toContain('"inherited":true');
    expect(docs.mcp).toContain('"resourceTemplates":[{');
    if (options.traverse) expect(docs.ax).toContain('"traversed_from":"rich g');
    expectGolden(golden, pinText(docs), { dir: GOLDEN_DIR });
  });

  it('a literal, an addCommand-built and a lazy tree give the same bytes in every shape', async () => {
    const want = await documents(await built('literal', options));
    for (const style of ['imperative', 'lazy'] as const) {
      const got = await documents(await built(style, options));
      for (const shape of SCHEMA_SHAPES)
        expect({ style, shape, same: got[shape] === want[shape] }).toEqual({ style, shape, same: true });
    }
  });

  it('a walk after the tree changed equals a fresh walk of the changed tree (no stale cache)', async () => {
    const change = (root: Command) => {
      const g = root.commands().find((c) => c.name.startsWith('g'))!;
      g.addFlag('late-persistent', { type: 'string', usage: 'added after a walk' }, { persistent: true });
      g.addCommand(
        new Command({
          use: 'late',
          short: 'added after a walk',
          flags: { profile: { type: 'int', usage: 'shadows' } },
          run: () => null,
        }),
      );
      root.addFlag(
        'late-root',
        { type: 'bool', usage: 'a persistent flag of the root, added late' },
        { persistent: true },
      );
    };
    const walked = await built('literal', options);
    await documents(walked); // fills every cache
    change(walked);
    const fresh = await built('literal', options);
    change(fresh);
    const [a, b] = [await documents(walked), await documents(fresh)];
    for (const shape of SCHEMA_SHAPES) expect({ shape, same: a[shape] === b[shape] }).toEqual({ shape, same: true });
    expect(a.ax).toContain('"name":"late-persistent"');
  });

  it("each command's flags and input properties equal a reference computed from the declarations", async () => {
    const root = await built('literal', options);
    const docs = await documents(root);
    // the lean document in full: every flag each command accepts, as its declarations say
    const ax = expandAxDocument(JSON.parse(docs.ax!.split('\0')[0]!) as Json);
    const mcpDoc = JSON.parse(docs.mcp!.split('\0')[0]!) as Json;
    const tools = new Map<string, Json>(mcpDoc.tools.map((t: Json) => [t.name, t]));
    const byPath = new Map<string, Command>();
    const index = (c: Command) => {
      byPath.set(c.commandPath(), c);
      for (const k of c.commands()) index(k);
    };
    index(root);
    let checked = 0;
    const check = (e: Json) => {
      const cmd = byPath.get(e.path)!;
      const ref = referenceFlags(cmd);
      expect({
        path: e.path,
        flags: e.flags.map((f: Json) => [
          f.name,
          f.persistent,
          f.inherited === true,
          f.builtin === true,
          f.type,
          f.usage,
          f.traversed_from,
        ]),
      }).toEqual({
        path: e.path,
        flags: ref.map((f) => [
          f.name,
          f.persistent,
          f.inherited,
          f.builtin,
          f.type,
          f.builtin ? expect.any(String) : f.usage,
          f.from,
        ]),
      });
      if (e.mcp.tool) {
        const t = tools.get(e.mcp.tool)!;
        expect({ path: e.path, properties: Object.keys(t.inputSchema.properties) }).toEqual({
          path: e.path,
          properties: referenceProperties(cmd, ref),
        });
      }
      checked++;
      for (const k of e.commands) check(k);
    };
    check(ax.command);
    expect(checked).toBeGreaterThan(40);
  });
});

interface RefFlag {
  name: string;
  type: string;
  usage: string;
  persistent: boolean;
  inherited: boolean;
  builtin: boolean;
  hidden: boolean;
  mcp: boolean;
  /** TraverseChildren: the ancestor whose local flag this is. */
  from?: string;
}

const INJECTED = ['format', 'dry-run', 'idempotency-key', 'args-json', 'yes', 'strict', 'explain', 'timeout', 'fields'];

/** Cobra's merge, written out: own local, own persistent, ancestors' persistent nearest first, injected, then explain/help/version. */
function referenceFlags(cmd: Command): RefFlag[] {
  const all: RefFlag[] = [];
  const add = (
    name: string,
    spec: { type: string; usage?: string; hidden?: boolean; mcp?: boolean },
    persistent: boolean,
    inherited: boolean,
    builtin: boolean,
  ) => {
    if (all.some((f) => f.name === name)) return;
    all.push({
      name,
      type: spec.type,
      usage: spec.usage ?? '',
      persistent,
      inherited,
      builtin,
      hidden: spec.hidden === true,
      mcp: spec.mcp !== false,
    });
  };
  for (const [n, s] of Object.entries(cmd.localFlags)) add(n, s, false, false, false);
  for (const [n, s] of Object.entries(cmd.persistentFlags)) add(n, s, true, false, false);
  for (let a = cmd.parent; a; a = a.parent)
    for (const [n, s] of Object.entries(a.persistentFlags)) add(n, s, true, true, false);
  const root = cmd.root();
  for (const n of INJECTED)
    if (!(n in root.persistentFlags) && !(n in root.localFlags) && (n !== 'dry-run' || cmd.dryRun))
      add(
        n,
        {
          type:
            { 'dry-run': 'bool', yes: 'bool', strict: 'bool', timeout: 'duration', fields: 'stringSlice' }[n] ??
            'string',
        },
        true,
        cmd !== root,
        true,
      );
  add('help', { type: 'bool' }, false, false, true);
  if (cmd === root) add('version', { type: 'bool' }, false, false, true);
  const byName = (a: RefFlag, b: RefFlag) => (a.name < b.name ? -1 : 1);
  // TraverseChildren: the ancestors' local flags (nearest first) not shadowed by the command's own set
  const traversed: RefFlag[] = [];
  if (root.traverseChildren) {
    for (let a = cmd.parent; a; a = a.parent) {
      for (const [n, s] of Object.entries(a.localFlags)) {
        if (!all.some((f) => f.name === n) && !traversed.some((f) => f.name === n))
          traversed.push({
            name: n,
            type: s.type,
            usage: s.usage ?? '',
            persistent: false,
            inherited: true,
            builtin: false,
            hidden: s.hidden === true,
            mcp: s.mcp !== false,
            from: a.commandPath(),
          });
      }
    }
  }
  const visible = all.filter((f) => !f.hidden);
  return [
    ...visible.filter((f) => !f.inherited).sort(byName),
    ...visible.filter((f) => f.inherited).sort(byName),
    ...traversed.filter((f) => !f.hidden).sort(byName),
  ];
}

/** The inputSchema's properties: positionals, then the flag list minus what is no input (docs/mcp-server.md#inputschema). */
function referenceProperties(cmd: Command, flags: RefFlag[]): string[] {
  const replays = cmd.runnable() && cmd.replay !== false && cmd.effects !== 'read_only' && cmd.effects !== 'idempotent';
  const keyInForce = flags.some((f) => f.name === 'idempotency-key' && f.builtin);
  const inputs = cmd.disableFlagParsing
    ? []
    : flags.filter(
        (f) =>
          f.mcp &&
          !(f.builtin && ['help', 'version', 'format', 'args-json', 'explain', 'strict', 'timeout'].includes(f.name)) &&
          !(f.builtin && f.name === 'idempotency-key' && !(replays && keyInForce)) &&
          // the injected --yes is an input only where the command declares it its confirmation gate
          !(f.builtin && f.name === 'yes' && !(cmd.runnable() && cmd.confirmationFlag === 'yes')) &&
          // the injected --fields only where there is data to select (not opaque output, no positional of that name)
          !(
            f.builtin &&
            f.name === 'fields' &&
            !(cmd.runnable() && cmd.output?.kind !== 'opaque' && !cmd.args.some((a) => a.name === 'fields'))
          ) &&
          !(f.name === 'help' && f.type === 'bool'),
      );
  // the inputs keep the flag list's order: own, inherited, then traversed (each sorted by name)
  return [...cmd.args.map((a) => a.name), ...inputs.map((f) => f.name)].map((n) => n.replace(/-/g, '_'));
}
