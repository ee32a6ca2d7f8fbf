/**
 * Cobra's run hooks (persistentPreRun, preRun, postRun, persistentPostRun, enableTraverseRunHooks):
 * one table of order cases — including a throwing hook, a throwing run and a required flag checked
 * after the pre hooks, as in Cobra's execute — observed on every path a command runs by: the CLI
 * (`execute`), `--args-json`, and MCP `tools/call` on the real stdio server with the SDK client.
 * Source: spf13/cobra command.go (execute), command_test.go (TestPersistentHooks, TestHooks,
 * TestEnableTraverseRunHooks…).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectStdio, envelopeOf, REPO, type StdioConnection } from '../../helpers/mcp.ts';
import { envelope, errorOf, runCli } from '../../helpers/run.ts';
import { hooksTree } from '../../fixtures/cobra-hooks-tree.ts';

const CLI = join(REPO, 'test/fixtures/cobra-hooks-cli.ts');

interface Case {
  name: string;
  traverse: boolean;
  /** command path words */
  path: string[];
  flags: Record<string, string>;
  trace: string[];
  /** error message when the run fails */
  error?: string;
}

const cases: Case[] = [
  {
    name: "a command without hooks of its own gets the root's persistent ones",
    traverse: false,
    path: ['plain'],
    flags: {},
    trace: ['persistentPreRun root plain', 'run plain', 'persistentPostRun root plain'],
  },
  {
    name: "own hooks: the nearest persistent hook (its own) replaces the root's; pre, run, post in Cobra's order",
    traverse: false,
    path: ['child'],
    flags: { name: 'n' },
    trace: [
      'persistentPreRun child child',
      'preRun child child',
      'run child',
      'postRun child child',
      'persistentPostRun child child',
    ],
  },
  {
    name: "a grandchild inherits the nearest ancestor's persistent hooks, not its pre/post hooks",
    traverse: false,
    path: ['child', 'grandchild'],
    flags: {},
    trace: ['persistentPreRun child grandchild', 'run grandchild', 'persistentPostRun child grandchild'],
  },
  {
    name: 'enableTraverseRunHooks: every persistent hook, pre root first, post nearest first',
    traverse: true,
    path: ['child', 'grandchild'],
    flags: {},
    trace: [
      'persistentPreRun root grandchild',
      'persistentPreRun child grandchild',
      'run grandchild',
      'persistentPostRun child grandchild',
      'persistentPostRun root grandchild',
    ],
  },
  {
    name: 'enableTraverseRunHooks with own pre/post hooks',
    traverse: true,
    path: ['child'],
    flags: { name: 'n' },
    trace: [
      'persistentPreRun root child',
      'persistentPreRun child child',
      'preRun child child',
      'run child',
      'postRun child child',
      'persistentPostRun child child',
      'persistentPostRun root child',
    ],
  },
  {
    name: 'a throwing persistentPreRun fails the run: nothing after it runs',
    traverse: false,
    path: ['plain'],
    flags: { fail: 'root.persistentPreRun' },
    trace: ['persistentPreRun root plain'],
    error: 'hook root.persistentPreRun failed',
  },
  {
    name: 'a throwing preRun fails the run',
    traverse: false,
    path: ['child'],
    flags: { name: 'n', fail: 'child.preRun' },
    trace: ['persistentPreRun child child', 'preRun child child'],
    error: 'hook child.preRun failed',
  },
  {
    name: 'a throwing postRun fails the run after run (and no success envelope is written)',
    traverse: false,
    path: ['child'],
    flags: { name: 'n', fail: 'child.postRun' },
    trace: ['persistentPreRun child child', 'preRun child child', 'run child', 'postRun child child'],
    error: 'hook child.postRun failed',
  },
  {
    name: 'a throwing run: no post hook runs',
    traverse: false,
    path: ['child'],
    flags: { name: 'n', fail: 'run' },
    trace: ['persistentPreRun child child', 'preRun child child', 'run child'],
    error: 'run failed',
  },
  {
    // DIFFERENCE (docs/cobra-differences.md): Cobra checks required flags after the pre hooks
    name: 'required flags are checked before any hook: no hook runs for a malformed call',
    traverse: false,
    path: ['child'],
    flags: {},
    trace: [],
    error: 'required flag(s) "name" not set',
  },
];

const argvOf = (c: Case) => [...c.path, ...Object.entries(c.flags).flatMap(([k, v]) => [`--${k}`, v])];

describe('run hooks: CLI (execute)', () => {
  it.each(cases)('$name', async (c) => {
    const trace: string[] = [];
    const r = await runCli(
      hooksTree((l) => trace.push(l), c.traverse),
      argvOf(c),
    );
    expect(trace).toStrictEqual(c.trace);
    if (c.error) {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(errorOf(r.stderr).error.message).toBe(c.error);
    } else {
      expect(r.code).toBe(0);
      expect(envelope(r.stdout).data).toStrictEqual({ ran: c.path.at(-1) });
    }
  });

  it('--help, --version and a group without run run no hook', async () => {
    const trace: string[] = [];
    const root = hooksTree((l) => trace.push(l));
    expect((await runCli(root, ['child', '--help'])).code).toBe(0);
    expect((await runCli(root, ['--version'])).code).toBe(0);
    expect((await runCli(root, [])).code).toBe(0);
    expect(trace).toStrictEqual([]);
  });

  it('a synchronous hook works as well', async () => {
    const { Command } = await import('../../../lib/index.ts');
    const seen: string[] = [];
    const root = new Command({
      use: 'r',
      preRun: () => void seen.push('pre'),
      run: () => void seen.push('run'),
      postRun: () => void seen.push('post'),
    });
    expect((await runCli(root, [])).code).toBe(0);
    expect(seen).toStrictEqual(['pre', 'run', 'post']);
  });
});

describe("run hooks: the injected commands run none of the author's hooks (a difference from Cobra)", () => {
  // a failing root persistentPreRun (a login, a config check) must not break help, completion or the schema
  it.each([
    ['__schema', ['__schema']],
    ['__schema --as=mcp', ['__schema', '--as=mcp']],
    ['schema', ['schema']],
    ['help <command>', ['help', 'child']],
    ['completion bash', ['completion', 'bash']],
    ['__complete', ['__complete', 'ch']],
    ['__completeNoDesc', ['__completeNoDesc', 'ch']],
  ])('%s: exit 0, no hook ran, even with --fail root.persistentPreRun', async (_n, args) => {
    const trace: string[] = [];
    const r = await runCli(
      hooksTree((l) => trace.push(l)),
      [...args, '--fail', 'root.persistentPreRun'],
    );
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(trace).toStrictEqual([]);
  });

  it('mcp-server: no hook at start-up (supervisor or server process); the hooks run for each tools/call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ax-hooks-mcp-'));
    const trace = join(dir, 'trace');
    writeFileSync(trace, '');
    const conn = await connectStdio(['mcp-server'], { HOOKS_TRACE: trace }, CLI);
    try {
      await conn.client.listTools();
      expect(readFileSync(trace, 'utf8')).toBe('');
      await conn.client.callTool({ name: 'plain', arguments: {} });
      expect(readFileSync(trace, 'utf8').trim().split('\n')).toStrictEqual([
        'persistentPreRun root plain',
        'run plain',
        'persistentPostRun root plain',
      ]);
    } finally {
      await conn.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('run hooks: --args-json', () => {
  it.each(cases)('$name', async (c) => {
    const trace: string[] = [];
    const r = await runCli(
      hooksTree((l) => trace.push(l), c.traverse),
      [...c.path, '--args-json', JSON.stringify(c.flags)],
    );
    expect(trace).toStrictEqual(c.trace);
    if (c.error) {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      // the same texts, naming MCP properties where Cobra names flags
      expect(errorOf(r.stderr).error.message).toBe(
        c.error.replace('required flag(s) "name" not set', 'missing required property "name"'),
      );
    } else {
      expect(envelope(r.stdout).data).toStrictEqual({ ran: c.path.at(-1) });
    }
  });
});

describe('run hooks: MCP tools/call (stdio server, SDK client)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ax-hooks-'));
  const servers = new Map<boolean, { conn: StdioConnection; trace: string }>();
  beforeAll(async () => {
    for (const traverse of [false, true]) {
      const trace = join(dir, `trace-${traverse}`);
      writeFileSync(trace, '');
      servers.set(traverse, {
        conn: await connectStdio(['mcp-server'], { HOOKS_TRACE: trace, HOOKS_TRAVERSE: traverse ? '1' : '0' }, CLI),
        trace,
      });
    }
  }, 60_000);
  afterAll(async () => {
    for (const s of servers.values()) await s.conn.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(cases)('$name', async (c) => {
    const s = servers.get(c.traverse)!;
    writeFileSync(s.trace, '');
    const r = await s.conn.client.callTool({ name: c.path.join('_'), arguments: c.flags });
    expect(readFileSync(s.trace, 'utf8').split('\n').filter(Boolean)).toStrictEqual(c.trace);
    const env = envelopeOf(r as { content?: unknown });
    if (c.error) {
      expect(r.isError).toBe(true);
      expect((env.error as { message: string }).message).toBe(
        c.error.replace('required flag(s) "name" not set', 'missing required property "name"'),
      );
    } else {
      expect(r.isError).toBeFalsy();
      expect(env.data).toStrictEqual({ ran: c.path.at(-1) });
    }
  });
});
