/**
 * The pre-run hooks run before a replay is served (docs/contract.md, replayed retries): they are
 * where a program checks credentials, so a retry whose credentials are gone is refused like any
 * other call — never answered from the record — and answered from it again once they are back.
 * On every path, with the contract fixture's persistent pre-run hook ($CONTRACT_CREDENTIALS).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildContractCli } from '../fixtures/contract-tree.ts';
import { httpPath, inProcessPath, processPath, stdioPath, type Call, type Path } from '../helpers/paths.ts';

const CLI = fileURLToPath(new URL('../fixtures/contract-cli.ts', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'ax-hooks-first-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const PATHS: [Path['name'], (env: Record<string, string>) => Promise<Path>][] = [
  ['cli', async (env) => processPath('cli', CLI, env)],
  ['args-json', async (env) => processPath('args-json', CLI, env)],
  ['in-process', async (env) => inProcessPath(buildContractCli, env)],
  ['mcp-stdio', (env) => stdioPath(CLI, env)],
  ['mcp-http', (env) => httpPath(CLI, env, false)],
  ['mcp-http-stateless', (env) => httpPath(CLI, env, true)],
];

const write: Call = {
  tool: 'write',
  argv: ['write', 'w', '--idempotency-key', 'k1'],
  json: { name: 'w', idempotency_key: 'k1' },
};

describe.each(PATHS)('%s', (pathName, open) => {
  it('a retry without credentials is refused by the hook, not replayed; with them again it replays', async () => {
    const base = join(root, pathName);
    mkdirSync(base, { mode: 0o700 });
    const cred = join(base, 'credentials');
    const log = join(base, 'effects.log');
    const env = { CONTRACT_LOG: log, CONTRACT_CREDENTIALS: cred, XDG_STATE_HOME: join(base, 'state') };
    writeFileSync(cred, 'token');
    const p = await open(env);
    try {
      const first = await p.call(write);
      expect(first.code, JSON.stringify(first)).toBe(0);
      rmSync(cred);
      const without = await p.call(write);
      expect(without.code, JSON.stringify(without)).toBe(4);
      expect(without.error?.error).toMatchObject({ kind: 'auth_error', message: 'not logged in' });
      writeFileSync(cred, 'token');
      const again = await p.call(write);
      expect(again.code).toBe(0);
      expect(JSON.parse(again.stdout).meta.replayed).toBe(true);
      expect(JSON.parse(again.stdout).data).toEqual(JSON.parse(first.stdout).data);
      const effects = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
      expect(effects).toHaveLength(1);
    } finally {
      await p.close();
    }
  }, 60_000);
});
