/**
 * The default file store trusts only a state directory nobody else can change (docs/security.md):
 * a directory another user owns, or one that others can write (itself or a directory above it,
 * other than a root-owned sticky one such as /tmp), is refused with `idempotency_store_unavailable`
 * (reason `untrusted_directory`, exit 1) before anything runs — on every path a command runs by.
 * So a record planted there never replays and a planted claim never blocks a key. The foreign-owner
 * case needs root (the directory is given to `nobody`) and is skipped otherwise.
 */
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildContractCli } from '../fixtures/contract-tree.ts';
import { httpPath, inProcessPath, processPath, stdioPath, type Call, type Path } from '../helpers/paths.ts';

const CLI = fileURLToPath(new URL('../fixtures/contract-cli.ts', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'ax-trust-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;

const PATHS: [Path['name'], (env: Record<string, string>) => Promise<Path>][] = [
  ['cli', async (env) => processPath('cli', CLI, env)],
  ['args-json', async (env) => processPath('args-json', CLI, env)],
  ['in-process', async (env) => inProcessPath(buildContractCli, env)],
  ['mcp-stdio', (env) => stdioPath(CLI, env)],
  ['mcp-http', (env) => httpPath(CLI, env, false)],
  ['mcp-http-stateless', (env) => httpPath(CLI, env, true)],
];

const write = (name: string, key: string): Call => ({
  tool: 'write',
  argv: ['write', name, '--idempotency-key', key],
  json: { name, idempotency_key: key },
});

/** How a state directory is spoiled after a first, trusted call recorded its outcome there. */
const FAULTS: { name: string; skip?: string; spoil: (state: string) => void; fault: string }[] = [
  {
    name: 'owned by another user',
    skip: isRoot ? undefined : 'needs root to give the directory to nobody',
    spoil: (state) => chownSync(state, NOBODY, NOBODY),
    fault: 'foreign_owner',
  },
  { name: 'writable by others', spoil: (state) => chmodSync(state, 0o777), fault: 'writable_by_others' },
  {
    name: 'below a directory others can write (not sticky)',
    spoil: (state) => chmodSync(join(state, '..'), 0o777),
    fault: 'writable_by_others',
  },
];

describe.each(PATHS)('%s', (pathName, open) => {
  for (const f of FAULTS) {
    it.skipIf(f.skip !== undefined)(
      `a state directory ${f.name}: refused before anything runs, the planted record never replays${f.skip ? ` (skipped: ${f.skip})` : ''}`,
      async () => {
        const base = join(root, `${pathName}-${f.fault}-${f.name.length}`);
        mkdirSync(base, { mode: 0o700 });
        const state = join(base, 'state');
        const log = join(base, 'effects.log');
        const env = { CONTRACT_LOG: log, XDG_STATE_HOME: state };
        // a record made with a directory of our own (by a CLI run)…
        const first = await processPath('cli', CLI, env).call(write('planted', 'k1'));
        expect(first.code, JSON.stringify(first)).toBe(0);
        // …which is then somebody else's to change (a store is checked once, at its first use in a
        // process: only the owner or root can change a directory's owner or mode afterwards)
        f.spoil(state);
        const p = await open(env);
        try {
          const again = await p.call(write('planted', 'k1'));
          expect(again.code, JSON.stringify(again)).toBe(1);
          expect(again.stdout).toBe('');
          expect(again.error?.error).toMatchObject({
            kind: 'idempotency_store_unavailable',
            exit_code: 1,
            context: { reason: 'untrusted_directory', fault: f.fault },
          });
          expect(again.error?.error.actionable_fix).toMatch(/only you can write/);
          // nothing ran: one side effect, the first call's
          const other = await p.call(write('fresh', 'k2'));
          expect(other.code).toBe(1);
          const effects = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
          expect(effects).toHaveLength(1);
        } finally {
          await p.close();
          chmodSync(base, 0o700);
          if (isRoot) chownSync(state, 0, 0);
        }
      },
      60_000,
    );
  }
});

describe('what stays trusted', () => {
  it('a directory of our own below a root-owned sticky /tmp is used as before', async () => {
    const base = mkdtempSync(join(tmpdir(), 'ax-trust-ok-'));
    try {
      const env = { CONTRACT_LOG: join(base, 'effects.log'), XDG_STATE_HOME: join(base, 'state') };
      const p = processPath('cli', CLI, env);
      const first = await p.call(write('ok', 'k1'));
      const second = await p.call(write('ok', 'k1'));
      expect(first.code).toBe(0);
      expect(second.code).toBe(0);
      expect(JSON.parse(second.stdout).meta.replayed).toBe(true);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});

describe('state directories that cannot be made', () => {
  it('a parent that refuses children (XDG_STATE_HOME=/proc/self): a clean idempotency_store_unavailable, no hang', async () => {
    const log = join(root, 'proc-effects.log');
    const r = await processPath('cli', CLI, { CONTRACT_LOG: log, XDG_STATE_HOME: '/proc/self' }).call(
      write('procself', 'k1'),
    );
    expect(r.code, JSON.stringify(r)).toBe(1);
    expect(r.error?.error).toMatchObject({ kind: 'idempotency_store_unavailable' });
    expect(existsSync(log)).toBe(false);
  }, 30_000);

  it('below a directory others can write: refused before anything is created in it', async () => {
    const open0777 = join(root, 'open-0777');
    mkdirSync(open0777);
    chmodSync(open0777, 0o777);
    const r = await processPath('cli', CLI, {
      CONTRACT_LOG: join(root, 'open-effects.log'),
      XDG_STATE_HOME: open0777,
    }).call(write('open', 'k1'));
    expect(r.code, JSON.stringify(r)).toBe(1);
    expect(r.error?.error).toMatchObject({ context: { reason: 'untrusted_directory', fault: 'writable_by_others' } });
    expect(readdirSync(open0777)).toEqual([]);
  }, 30_000);
});
