/**
 * A recorded outcome is checked before it replays (docs/contract.md, replayed retries): a record
 * that a store returns damaged — a failure with exit code 0, data that is not JSON text, a kind
 * nobody wrote — is refused with `idempotency_store_unavailable` (reason `invalid_record`, exit 1)
 * and nothing runs, on every path. Before, such records gave exit 0 with an error line, raw
 * non-JSON on stdout, or `data: null`. A record of a kind the command does not write (opaque text
 * for a JSON command, one payload for a declared stream, JSON for an opaque command) is refused the
 * same way, whatever store returned it.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildContractCli } from '../fixtures/contract-tree.ts';
import { httpPath, inProcessPath, processPath, stdioPath, type Call, type Path } from '../helpers/paths.ts';
import type { IdempotencyStore } from '../../lib/store/index.ts';

const CLI = fileURLToPath(new URL('../fixtures/contract-cli.ts', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'ax-records-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const PATHS: [Path['name'], (env: Record<string, string>) => Promise<Path>][] = [
  ['cli', async (env) => processPath('cli', CLI, env)],
  ['args-json', async (env) => processPath('args-json', CLI, env)],
  ['in-process', async (env) => inProcessPath(buildContractCli, env)],
  ['mcp-stdio', (env) => stdioPath(CLI, env)],
  ['mcp-http', (env) => httpPath(CLI, env, false)],
  ['mcp-http-stateless', (env) => httpPath(CLI, env, true)],
];

/** A call of `tool` (write: data, items: a declared stream, blob: opaque text) with key `key`. */
const keyed = (tool: 'write' | 'items' | 'blob', name: string, key: string): Call =>
  tool === 'items'
    ? { tool, argv: [tool, '--idempotency-key', key], json: { idempotency_key: key } }
    : { tool, argv: [tool, name, '--idempotency-key', key], json: { name, idempotency_key: key } };

/** What the record is replaced with, which command it is replayed for, and the fault named. */
const DAMAGE: [string, Record<string, unknown>, string, 'write' | 'items' | 'blob'][] = [
  [
    'a failure with exit code 0',
    { exitCode: 0, kind: 'error', error: { kind: 'x', message: 'm', exit_code: 0 } },
    'a failure with exit code 0',
    'write',
  ],
  ['data that is not JSON text', { exitCode: 0, kind: 'data', data: 'not json' }, 'its data is not JSON text', 'write'],
  ['a kind nobody wrote', { exitCode: 0, kind: 'nothing' }, 'its kind is none of data, stream, opaque, error', 'write'],
  [
    'opaque text for a JSON command',
    { exitCode: 0, kind: 'opaque', text: 'raw text\n' },
    'its kind opaque is not what this command writes (data, stream, error)',
    'write',
  ],
  [
    'one payload for a declared stream',
    { exitCode: 0, kind: 'data', data: '{"i":1}' },
    'its kind data is not what this command writes (stream, error)',
    'items',
  ],
  [
    'JSON data for an opaque command',
    { exitCode: 0, kind: 'data', data: '{"x":1}' },
    'its kind data is not what this command writes (opaque, error)',
    'blob',
  ],
];

/** Replaces the record of the one entry in the file store below `state`. */
function damage(state: string, record: Record<string, unknown>): void {
  const dir = join(state, 'contractfx', 'idempotency');
  const files = readdirSync(dir).filter((n) => n.endsWith('.json'));
  expect(files).toHaveLength(1);
  const entry = JSON.parse(readFileSync(join(dir, files[0]!), 'utf8')) as Record<string, unknown>;
  expect(entry.state).toBe('recorded');
  writeFileSync(join(dir, files[0]!), JSON.stringify({ ...entry, record: { ...record, recordedAt: Date.now() } }));
}

describe.each(PATHS)('%s', (pathName, open) => {
  it.each(DAMAGE)(
    'a recorded outcome with %s: refused, nothing runs',
    async (name, record, fault, tool) => {
      const base = join(root, `${pathName}-${DAMAGE.findIndex((d) => d[0] === name)}`);
      mkdirSync(base, { mode: 0o700 });
      const log = join(base, 'effects.log');
      const env = { CONTRACT_LOG: log, XDG_STATE_HOME: join(base, 'state') };
      const first = await processPath('cli', CLI, env).call(keyed(tool, 'x', 'k1'));
      expect(first.code, JSON.stringify(first)).toBe(0);
      damage(env.XDG_STATE_HOME, record);
      const p = await open(env);
      try {
        const again = await p.call(keyed(tool, 'x', 'k1'));
        expect(again.code, JSON.stringify(again)).toBe(1);
        expect(again.stdout).toBe('');
        expect(again.error?.error).toMatchObject({
          kind: 'idempotency_store_unavailable',
          exit_code: 1,
          context: { reason: 'invalid_record', fault },
        });
        const effects = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
        expect(effects).toHaveLength(tool === 'items' ? 0 : 1); // the first call's only (a stream logs nothing)
      } finally {
        await p.close();
      }
    },
    60_000,
  );
});

describe("an author's store (any store: the check is the runner's, not the store's)", () => {
  it('a forged record it returns (opaque text for a JSON command) is refused; nothing runs', async () => {
    const log = join(root, 'author-store.log');
    const forged = { exitCode: 0, kind: 'opaque' as const, text: 'raw text\n', recordedAt: Date.now() };
    const store: IdempotencyStore = {
      claim: async (_scope, fingerprint) => ({ state: 'recorded', fingerprint, record: forged }),
      renew: async () => true,
      complete: async () => {},
      release: async () => {},
    };
    const p = inProcessPath(buildContractCli, { CONTRACT_LOG: log }, store);
    const again = await p.call(keyed('write', 'y', 'k2'));
    expect(again.code, JSON.stringify(again)).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.error?.error.context).toMatchObject({
      reason: 'invalid_record',
      fault: 'its kind opaque is not what this command writes (data, stream, error)',
    });
    expect(existsSync(log)).toBe(false);
  });
});
