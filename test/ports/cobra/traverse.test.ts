/**
 * Cobra's TraverseChildren on every path. On the command line a flag word between one command word
 * and the next belongs to the command before it (Cobra's Traverse), so a child's handler reads its
 * ancestors' local flags in `ctx.flags`; after the child's word they are unknown flags, as in Cobra.
 * Over `--args-json` and MCP (stdio, HTTP stateful and stateless), where words have no place, the
 * same flags are properties of the child's inputSchema. One table of calls runs through all six
 * paths against test/fixtures/cobra-traverse-cli.ts (public API only), and every path sees the same.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultHelpText } from '../../../lib/index.ts';
import { inputSchema } from '../../../lib/parse/input-schema.ts';
import { traverseTree } from '../../fixtures/cobra-traverse-tree.ts';
import { flat } from '../../fixtures/schema-trees.ts';
import { httpPath, inProcessPath, processPath, stdioPath, type Call, type Path } from '../../helpers/paths.ts';
import { errorOf, runCli } from '../../helpers/run.ts';

const CLI = fileURLToPath(new URL('../../fixtures/cobra-traverse-cli.ts', import.meta.url));
const none = { str: null, bool: false, region: null, int: null, zone: null, str_changed: false };

// [name, call in both spellings, what the handler sees]
const ok: [string, Call, Record<string, unknown>][] = [
  [
    "the root's local flags before the child's word",
    { tool: 'child', argv: ['--str', 'ok', '-b', 'child', '--int', '3'], json: { str: 'ok', bool: true, int: 3 } },
    { str: 'ok', bool: true, int: 3, str_changed: true },
  ],
  [
    'a persistent flag is read before or after the word, as without traversal',
    { tool: 'child', argv: ['--region', 'eu', 'child'], json: { region: 'eu' } },
    { region: 'eu' },
  ],
  [
    "each ancestor's flags between its word and the next",
    {
      tool: 'group_leaf',
      argv: ['--str', 'x', 'group', '--zone', 'z', 'leaf', '--region', 'us'],
      json: { str: 'x', zone: 'z', region: 'us' },
    },
    { str: 'x', zone: 'z', region: 'us', str_changed: true },
  ],
  ['no parent flags (Cobra: TestTraverseNoParentFlags)', { tool: 'child', argv: ['child'], json: {} }, {}],
  [
    "a nearer flag of the same name shadows the root's",
    { tool: 'shadow', argv: ['shadow', '--str', 'own'], json: { str: 'own' } },
    { str: 'own', str_changed: true },
  ],
];

describe('traverseChildren: every path sees the same flags', () => {
  const paths: Path[] = [];
  beforeAll(async () => {
    paths.push(processPath('cli', CLI, {}), processPath('args-json', CLI, {}), inProcessPath(traverseTree, {}));
    paths.push(await stdioPath(CLI, {}), await httpPath(CLI, {}, false), await httpPath(CLI, {}, true));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(paths.map((p) => p.close()));
  });

  it.each(ok)('%s', async (_n, call, seen) => {
    for (const p of paths) {
      const o = await p.call(
        p.name === 'cli' || p.name === 'in-process' ? { ...call, argv: [...call.argv, '--format', 'json'] } : call,
      );
      expect(o.code, `${p.name}: ${JSON.stringify(o)}`).toBe(0);
      expect(JSON.parse(o.stdout).data, p.name).toStrictEqual({ ...none, ...seen });
    }
  });

  it("the child's tool lists the root's local flags as properties, saying whose they are; the shadow's own --str is its own", async () => {
    for (const p of paths.filter((x) => x.mcp)) {
      const child = await p.inputSchema!('child');
      expect(Object.keys(child.properties)).toStrictEqual(['int', 'dry_run', 'fields', 'region', 'bool', 'str']);
      expect(child.properties.str.description).toBe(
        'a local flag of the root (a flag of "trav", read by this command too)',
      );
      const leaf = await p.inputSchema!('group_leaf');
      expect(Object.keys(leaf.properties)).toStrictEqual(['dry_run', 'fields', 'region', 'bool', 'str', 'zone']);
      expect(leaf.properties.zone.description).toBe(
        'a local flag of the group (a flag of "trav group", read by this command too)',
      );
      const shadow = await p.inputSchema!('shadow');
      expect(shadow.properties.str.description).toBe("the shadow's own str");
      expect(child).toStrictEqual(inputSchema(traverseTree().findChild('child')!));
    }
  });
});

describe('traverseChildren on the command line: where each flag goes', () => {
  const fail = async (...argv: string[]) => {
    const r = await runCli(traverseTree(), argv);
    expect(r.code).toBe(2);
    return errorOf(r.stderr).error;
  };

  it("an ancestor's local flag after the child's word is unknown (Cobra), and the fix says where it goes", async () => {
    const e = await fail('child', '--str', 'ok');
    expect(e.message).toBe('unknown flag: --str');
    expect(e.context).toMatchObject({ reason: 'unknown_flag', command: 'trav child', declared_on: 'trav' });
    expect(e.actionable_fix).toBe('--str is a flag of "trav": give it before "child", as in \'trav --str … child …\'.');
    expect((await fail('child', '-b')).message).toBe("unknown shorthand flag: 'b' in -b");
  });

  it("the root's flag between the group's word and the leaf's is unknown to the group (Cobra: the group parses it)", async () => {
    const e = await fail('group', '--str', 'x', 'leaf');
    expect(e.message).toBe('unknown flag: --str');
    expect(e.context).toMatchObject({ command: 'trav group', declared_on: 'trav' });
  });

  it("a child's flag before the child's word is the root's to parse: unknown flag (Cobra: TestTraverseWithBadParentFlags)", async () => {
    const e = await fail('--int', '3', 'child');
    expect(e.message).toBe('unknown flag: --int');
    expect(e.context.command).toBe('trav');
  });

  it('a root flag that the running command shadows cannot be given before its word: refused, not lost', async () => {
    const e = await fail('--str', 'a', 'shadow');
    expect(e.message).toBe('flag --str of "trav" is not read by "trav shadow", whose own --str shadows it');
    expect(e.actionable_fix).toBe("Give --str after 'trav shadow' to set \"trav shadow\"'s own flag.");
  });

  it("a word that is not a command stops the walk: the root runs with it as a positional (Cobra's Traverse)", async () => {
    const r = await runCli(traverseTree(), ['--str', 'x', 'nothing']);
    expect(errorOf(r.stderr).error.context).toMatchObject({ reason: 'unknown_command', received: 'nothing' });
  });

  it('DIFFERENCE: the walk stops at `--` (Cobra reads `--` as a flag and swallows the next word): `trav -- x child` gives the root two positionals', async () => {
    const r = await runCli(traverseTree(), ['--', 'x', 'child']);
    // the root declares none, so it refuses them — it does not run `child`
    expect(errorOf(r.stderr).error.context).toMatchObject({
      reason: 'unknown_command',
      received: 'x',
      after_dash_dash: true,
    });
  });

  it('the root itself reads its flags after its word as always', async () => {
    const r = await runCli(traverseTree(), ['--str', 'x', '-b', '--format', 'json']);
    expect(JSON.parse(r.stdout).data).toStrictEqual({ ...none, str: 'x', bool: true, str_changed: true });
  });

  it("help lists the ancestors' flags each in a section saying where they go; without traversal nothing changes", () => {
    const leaf = traverseTree().findChild('group')!.findChild('leaf')!;
    const help = defaultHelpText(leaf);
    expect(help).toContain(
      '\nFlags of "trav" (give them between "trav" and "group"):\n  -b, --bool         a local bool of the root\n      --str string   a local flag of the root\n',
    );
    expect(help).toContain(
      '\nFlags of "trav group" (give them between "group" and "leaf"):\n      --zone string   a local flag of the group\n',
    );
    const plain = traverseTree();
    plain.traverseChildren = false;
    expect(defaultHelpText(plain.findChild('child')!)).not.toContain('Flags of');
    expect(Object.keys(flat(inputSchema(plain.findChild('child')!)).properties as object)).toStrictEqual([
      'int',
      'dry_run',
      'fields',
      'region',
    ]);
  });

  it('__schema --as=ax marks each ancestor flag with traversed_from', async () => {
    const r = await runCli(traverseTree(), ['__schema', '--as=ax']);
    const doc = JSON.parse(r.stdout);
    const child = doc.command.commands.find((c: { name: string }) => c.name === 'child');
    expect(
      child.flags
        .filter((f: { traversed_from?: string }) => f.traversed_from)
        .map((f: { name: string; traversed_from: string }) => [f.name, f.traversed_from]),
    ).toStrictEqual([
      ['bool', 'trav'],
      ['str', 'trav'],
    ]);
  });

  it("completion: the root's local flags are read before the child's word, so its children are still completed (Cobra)", async () => {
    const r = await runCli(traverseTree(), ['__completeNoDesc', '--str', 'v', '']);
    expect(r.stdout.split('\n').filter((l) => l && !l.startsWith('schema'))).toStrictEqual([
      'child',
      'completion',
      'group',
      'help',
      'shadow',
      ':4',
    ]);
  });
});
