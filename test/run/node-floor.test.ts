/**
 * The runtime floor is enforced (package.json `engines`, docs/contract.md#exit-codes): on a Node below
 * 22.12 a program prints one error line naming the Node it needs — the contract's JSON error line in
 * json mode, one `Error:` line in human mode — nothing on stdout, exit 1: the CLI, `mcp-server` (no
 * byte on the protocol pipe) and the built program, whose entry answers nothing ahead there. Run
 * with an older Node found on this machine (`AX_OLD_NODE`, else /usr/bin/node or /usr/local/bin/node
 * when below the floor); skipped, with the reason in the title, when there is none. The check costs
 * well under 0.2 ms of start-up (a cost measured by hand, not asserted here: docs/performance.md).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { belowNodeFloor, MIN_NODE } from '../../lib/platform/node-floor.ts';
import { TSX_LOADER } from '../helpers/spawn.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(root, 'test/fixtures/contract-cli.ts');
const BIN = join(root, 'dist/bin/tasks.js');

/** A Node binary below the floor, and its version. */
const old = [process.env.AX_OLD_NODE, '/usr/bin/node', '/usr/local/bin/node']
  .filter((p): p is string => !!p && existsSync(p))
  .map((p) => ({ path: p, version: spawnSync(p, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim() }))
  .find((n) => /^\d+\.\d+\.\d+$/.test(n.version) && belowNodeFloor(n.version));
const skip = old ? undefined : `no Node below ${MIN_NODE} on this machine (set AX_OLD_NODE)`;

function runOld(args: string[], env: Record<string, string> = {}) {
  return spawnSync(old!.path, args, {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
    input: '',
    timeout: 30_000,
  });
}

describe('the table of versions', () => {
  it.each([
    ['20.19.5', true],
    ['22.11.0', true],
    ['22.12.0', false],
    ['22.13.1', false],
    ['23.0.0', false],
    ['24.21.0', false],
  ])('%s below the floor: %s', (v, below) => expect(belowNodeFloor(v)).toBe(below));
});

describe.skipIf(skip)(`on Node ${old?.version ?? '(none)'}${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const cli = (args: string[], env?: Record<string, string>) => runOld(['--import', TSX_LOADER, CLI, ...args], env);

  it('json mode: one JSON error line naming the Node needed, nothing on stdout, exit 1', () => {
    const r = cli(['read']);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as { error: Record<string, any> };
    expect(line.error).toMatchObject({
      kind: 'internal_error',
      exit_code: 1,
      context: { reason: 'unsupported_node', node: old!.version, required: `>=${MIN_NODE}` },
    });
    expect(line.error.message).toContain(`Node.js ${MIN_NODE} or later`);
  });

  it('human mode: one Error line', () => {
    const r = cli(['read', '--format', 'text']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `Error: this program needs Node.js ${MIN_NODE} or later and this is Node.js ${old!.version}: upgrade Node.js to run it\n`,
    );
  });

  it('mcp-server: refused before serving, not a byte on stdout (no hang)', () => {
    const r = cli(['mcp-server']);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('unsupported_node');
  });

  it.skipIf(!existsSync(BIN))('the built program: --help is not answered ahead; one error line, exit 1', () => {
    for (const args of [['--help'], ['list'], ['mcp-server']]) {
      const r = runOld([BIN, ...args], { TASKS_FILE: join(root, 'node_modules/.cache/no-such-tasks.json') });
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`Node.js ${MIN_NODE} or later`);
    }
  });
});
