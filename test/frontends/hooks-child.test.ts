/**
 * A front-end call runs in its own process (docs/frontends.md#how-a-call-runs), and what the
 * program's hooks throw before the action — commander's `preAction`, a yargs middleware — is the
 * program's own outcome there as in-process: an AxError keeps its kind and exit code (the contract
 * fixtures' credentials check, `auth_error`, exit 4), never a refusal of the words (exit 2).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/mcp.ts';
import { runScript } from '../helpers/spawn.ts';

const dir = mkdtempSync(join(tmpdir(), 'ax-hooks-child-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each([
  ['commander', join(REPO, 'test/fixtures/contract-commander.ts')],
  ['yargs', join(REPO, 'test/fixtures/contract-yargs.ts')],
])('%s twin, each call a process of its own', (library, cli) => {
  it('a hook’s auth_error is auth_error (exit 4), over the command line and --args-json', async () => {
    const env = {
      PATH: process.env.PATH ?? '',
      CONTRACT_LOG: join(dir, `${library}.log`),
      CONTRACT_CREDENTIALS: join(dir, 'missing'),
    };
    for (const call of [
      ['write', 'x', '--format', 'json'],
      ['write', '--args-json', '{"name":"x"}', '--format', 'json'],
    ]) {
      const refused = await runScript(cli, call, env);
      expect(refused.code, refused.stderr).toBe(4);
      expect(JSON.parse(refused.stderr.trim().split('\n').pop()!).error).toMatchObject({
        kind: 'auth_error',
        exit_code: 4,
      });
    }
  }, 60_000);
});
