// ctx.spawn on the command line (docs/contract.md#child-processes-ctxspawn): a handler starts a tree —
// a shell, a sleep that ignores SIGTERM, a sleep that left the process group (setsid), a plain sleep —
// and however the run ends (SIGTERM, SIGINT or SIGHUP to the program, --timeout, the handler returning or
// failing) no process of the tree is left, checked by pid. The control: the same tree started with
// node:child_process's spawn outlives the run.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, TSX_LOADER } from '../helpers/spawn.ts';
import { minimalEnv } from '../helpers/paths.ts';
import { liveProcess as live, until } from '../helpers/mcp.ts';

const CLI = join(REPO, 'test/fixtures/spawn-cli.ts');
const dir = mkdtempSync(join(tmpdir(), 'ax-spawn-'));

/** Runs the fixture; `signal` is sent once the tree's pids are written. @returns the exit code and the pids. */
async function run(
  args: string[],
  signal?: NodeJS.Signals,
): Promise<{ code: number | null; pids: number[]; stderr: string }> {
  const file = join(dir, `pids-${Math.random().toString(36).slice(2)}`);
  const child = spawn(process.execPath, ['--import', TSX_LOADER, CLI, ...args.map((a) => (a === 'FILE' ? file : a))], {
    cwd: REPO,
    env: { ...minimalEnv(), AGENT_MODE: 'json' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const closed = new Promise<number | null>((r) => child.on('close', r));
  const readPids = () => {
    try {
      return readFileSync(file, 'utf8').trim().split(/\s+/).map(Number);
    } catch {
      return [];
    }
  };
  expect(await until(() => readPids().length === 4, 20_000), `the tree started; stderr: ${stderr}`).toBe(true);
  const pids = readPids();
  if (signal) child.kill(signal);
  const code = await closed;
  return { code, pids, stderr };
}

describe.skipIf(process.platform !== 'linux')('ctx.spawn: the children die with the run', () => {
  it.each([
    ['SIGTERM to the program', ['wait', 'FILE'], 'SIGTERM', 143],
    ['SIGINT to the program', ['wait', 'FILE'], 'SIGINT', 130],
    ['SIGHUP to the program (a person closed the terminal)', ['wait', 'FILE'], 'SIGHUP', 129],
    ['--timeout', ['wait', 'FILE', '--timeout', '1s'], undefined, 3],
    ['the handler returning', ['leave', 'FILE'], undefined, 0],
    ['the handler failing', ['fail', 'FILE'], undefined, 3],
  ] as const)(
    '%s: the shell, its TERM-ignoring child, the one that left the group and the plain one are gone by the exit',
    async (_how, args, signal, exitCode) => {
      const r = await run([...args], signal);
      expect(r.code, r.stderr).toBe(exitCode);
      expect(r.pids.filter(live), 'processes of the tree still running at the exit').toEqual([]);
    },
    30_000,
  );

  it("the control: the same tree started with node:child_process's spawn outlives the run", async () => {
    const r = await run(['plain', 'FILE']);
    expect(r.code, r.stderr).toBe(0);
    const left = r.pids.filter(live);
    for (const pid of r.pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    expect(left.length).toBeGreaterThan(0);
  }, 30_000);
});
