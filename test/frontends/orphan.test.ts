/**
 * A json-mode command-line call's process (its own process group) never outlives the program that
 * started it: killed with SIGKILL, the parent leaves the call's child to find itself handed to
 * another parent and end its group; a SIGHUP to the parent is sent on to the call's group
 * (docs/frontends.md#how-a-call-runs). Real processes, commander and yargs, a call that never
 * settles and has started a grandchild.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { alive, REPO, tempDir, TSX_LOADER, until } from '../helpers/mcp.ts';

const FIXTURES = [
  ['commander', join(REPO, 'test/frontends/fixtures/calls-commander.ts')],
  ['yargs', join(REPO, 'test/frontends/fixtures/calls-yargs.ts')],
] as const;

const dirs: { cleanup(): void }[] = [];
afterAll(() => dirs.forEach((d) => d.cleanup()));

describe.each(FIXTURES)('%s, a json-mode call that never settles', (_name, cli) => {
  it.each(['SIGKILL', 'SIGHUP'] as const)(
    'the parent ended by %s: the call, its child and its grandchild are gone',
    async (sig) => {
      const dir = tempDir('ax-orphan-');
      dirs.push(dir);
      const parent = spawn(process.execPath, ['--import', TSX_LOADER, cli, 'hang', '--format', 'json'], {
        cwd: REPO,
        stdio: 'ignore',
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PID_DIR: dir.path },
      });
      const pidFile = join(dir.path, 'hang');
      expect(await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').includes(' '), 20_000)).toBe(true);
      const [child, grandchild] = readFileSync(pidFile, 'utf8').split(' ').map(Number);
      expect(alive(child!) && alive(grandchild!)).toBe(true);
      const ended = new Promise((r) => parent.once('exit', r));
      parent.kill(sig);
      await ended;
      expect(await until(() => !alive(child!) && !alive(grandchild!), 5000)).toBe(true);
    },
    30_000,
  );
});
