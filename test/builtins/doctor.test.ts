/**
 * `<program> doctor` (docs/contract.md#doctor): the runtime against its floor, the agent detected,
 * the state and cache directories with owner, mode and trust, the idempotency store's answer (its
 * password never shown), the packages bundled inside ax-ts; problems listed with what to do. A
 * built-in only where it changes nothing the program had: never over an author's `doctor`, never
 * where a root positional would take the word, never an MCP tool.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Command } from '../../lib/index.ts';
import { runCli } from '../helpers/run.ts';

const home = mkdtempSync(join(tmpdir(), 'ax-doctor-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const tree = (extra: Command[] = [], root: Partial<ConstructorParameters<typeof Command>[0]> = {}) =>
  new Command({ use: 'fx', short: 'A fixture', ...root }).addCommand(
    new Command({ use: 'ping', short: 'Ping', run: () => ({ pong: true }) }),
    ...extra,
  );

async function doctor(env: Record<string, string>, root = tree()) {
  const r = await runCli(root, ['doctor', '--format', 'json'], { env: { HOME: home, ...env } });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).data as Record<string, any>;
}

describe('doctor', () => {
  it('reports the runtime, the agent, the state and cache directories and the file store; ok with no problem', async () => {
    const d = await doctor({ AI_AGENT: 'probe-agent' });
    expect(d.program).toEqual({ name: 'fx', version: '1.2.3' });
    expect(d.runtime).toMatchObject({ name: 'node', version: process.versions.node, node_floor: '22.12.0', ok: true });
    expect(d.agent).toBe('probe-agent');
    expect(d.interactive).toBe(false);
    expect(d.state).toEqual({ path: join(home, '.local/state/fx'), exists: false, trusted: true });
    expect(d.cache.path).toBe(join(home, '.cache/ax-ts/v8'));
    expect(d.store).toEqual({ kind: 'file', url: null, reachable: null });
    expect(d.bundled.components.map((c: { name: string }) => c.name)).toEqual(
      expect.arrayContaining(['@modelcontextprotocol/server', 'zod', 'jsonc-parser']),
    );
    expect([d.problems, d.ok]).toEqual([[], true]);
  });

  it('a state directory others can write is named as a problem, with what to do', async () => {
    const state = join(home, 'shared-state');
    mkdirSync(join(state, 'fx'), { recursive: true });
    chmodSync(join(state, 'fx'), 0o777);
    const d = await doctor({ XDG_STATE_HOME: state });
    expect(d.state).toMatchObject({ path: join(state, 'fx'), exists: true, mode: '0777', trusted: false });
    expect(d.ok).toBe(false);
    expect(d.problems[0]).toMatch(/not trusted .*writable by others.*chmod go-w/);
  });

  it('a state directory not made yet, under a directory others can write, is a problem too (it would be refused at first use)', async () => {
    const open = join(home, 'open-parent');
    mkdirSync(open);
    chmodSync(open, 0o777);
    const d = await doctor({ XDG_STATE_HOME: join(open, 'state') });
    expect(d.state).toMatchObject({ path: join(open, 'state', 'fx'), exists: false, trusted: false });
    expect(d.ok).toBe(false);
    expect(d.problems[0]).toMatch(/does not exist yet .*cannot be trusted .*writable by others/);
  });

  it('a password with an unescaped @ or / is masked whole, in the url and in the error', async () => {
    const d = await doctor({ AX_IDEMPOTENCY_STORE: 'redis://user:p@ss/w@rd@127.0.0.1:1' });
    expect(d.store.url).toBe('redis://***@127.0.0.1:1');
    for (const part of ['p@ss', 'ss/w', 'w@rd']) expect(JSON.stringify(d)).not.toContain(part);
  });

  it('an idempotency store that does not answer: reachable false, the password masked everywhere', async () => {
    const d = await doctor({ AX_IDEMPOTENCY_STORE: 'redis://user:s3cret@127.0.0.1:1' });
    expect(d.store).toMatchObject({ kind: 'redis', url: 'redis://***@127.0.0.1:1', reachable: false });
    expect(JSON.stringify(d)).not.toContain('s3cret');
    expect(d.ok).toBe(false);
  });

  it('the author’s own doctor wins; a root that takes positionals keeps the word; never an MCP tool', async () => {
    const own = new Command({ use: 'doctor', short: 'Mine', run: () => ({ mine: true }) });
    const r = await runCli(tree([own]), ['doctor', '--format', 'json'], { env: { HOME: home } });
    expect(JSON.parse(r.stdout).data).toEqual({ mine: true });
    const positional = tree([], { use: 'fx <file>', run: (ctx) => ({ file: ctx.args.file }) });
    const p = await runCli(positional, ['doctor', '--format', 'json'], { env: { HOME: home } });
    expect(JSON.parse(p.stdout).data).toEqual({ file: 'doctor' });
    const tools = await runCli(tree(), ['__schema', '--as=mcp'], { env: { HOME: home } });
    expect(JSON.parse(tools.stdout).tools.map((t: { name: string }) => t.name)).toEqual(['ping']);
    const help = await runCli(tree(), ['--help'], { env: { HOME: home }, tty: true });
    expect(help.stdout).not.toMatch(/^\s+doctor\b/m); // hidden, as __complete is
  });
});
