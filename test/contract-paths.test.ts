/**
 * Issue 11: the contract means the same on every path. ONE table of rules (dry runs, replayed
 * retries, exit codes, error classification, rehearsals, injected flags) runs through all six
 * paths — the CLI process, `--args-json`, in-process `execute`, MCP stdio, MCP HTTP stateful and
 * stateless — against the fixture CLI test/fixtures/contract-tree.ts (public API only), with every
 * path sharing one state directory (the default file store) and one side-effect log. Races, the
 * preview server and the SIGINT rounds follow in test/contract-races.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContractCli } from './fixtures/contract-tree.ts';
import { httpPath, inProcessPath, processPath, stdioPath, type Call, type Outcome, type Path } from './helpers/paths.ts';

type Json = Record<string, any>;

export const CONTRACT_CLI = fileURLToPath(new URL('./fixtures/contract-cli.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ax-contract-paths-'));
const LOG = join(dir, 'effects.log');
/** Every path records keys in this one state directory (the default file store under XDG_STATE_HOME). */
const ENV = { CONTRACT_LOG: LOG, XDG_STATE_HOME: join(dir, 'state') };

/** The side effects logged so far for `name` (each handler run that changed state adds one). */
function effects(name: string): Json[] {
  if (!existsSync(LOG)) return [];
  return readFileSync(LOG, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Json)
    .filter((e) => e.name === name || e.id === name);
}

/** The `data` of an envelope line exactly as written (the bytes before `,"meta":`). */
function dataBytes(stdout: string): string {
  const i = stdout.indexOf(',"meta":');
  if (!stdout.startsWith('{"data":') || i < 0) throw new Error(`not an envelope: ${stdout}`);
  return stdout.slice(0, i);
}
const meta = (o: Outcome): Json => JSON.parse(o.stdout).meta as Json;

/** `write`-style call: the same call in both spellings. `order` swaps flag/positional order on the CLI. */
function writeCall(tool: string, name: string, opts: { key?: string; tags?: string[]; dryRun?: boolean; order?: 'flags-first' } = {}): Call {
  const flags = [...(opts.tags ?? []).flatMap((t) => ['--tag', t]), ...(opts.key !== undefined ? ['--idempotency-key', opts.key] : []), ...(opts.dryRun ? ['--dry-run'] : [])];
  const json: Json = { name };
  if (opts.tags) json.tag = opts.tags;
  if (opts.key !== undefined) json.idempotency_key = opts.key;
  if (opts.dryRun) json.dry_run = true;
  return { tool, argv: opts.order === 'flags-first' ? [tool, ...flags, name] : [tool, name, ...flags], json };
}

/** A call of a command without positionals: `flags` as CLI flags and as properties. */
function simple(tool: string, props: Json = {}, argvExtra: string[] = []): Call {
  const flag = (k: string) => `--${k.replace(/_/g, '-')}`;
  const argv = [...tool.split('_'), ...Object.entries(props).flatMap(([k, v]) => (typeof v === 'boolean' ? (v ? [flag(k)] : []) : [`${flag(k)}=${typeof v === 'string' ? v : JSON.stringify(v)}`]))];
  return { tool, argv: [...argv, ...argvExtra], json: props };
}

function expectError(o: Outcome, code: number, kind: string): Json {
  expect(o.code, JSON.stringify(o)).toBe(code);
  expect(o.stdout).toBe('');
  expect(o.error?.error.kind, JSON.stringify(o.error)).toBe(kind);
  expect(o.error?.error.exit_code).toBe(code);
  if (o.isError !== undefined) expect(o.isError).toBe(true);
  return o.error!.error as Json;
}

interface Rule {
  name: string;
  /** Which paths the rule applies to (default all). */
  on?: (p: Path) => boolean;
  run: (p: Path, id: string) => Promise<void>;
}

const RULES: Rule[] = [
  {
    name: 'replay: same key and arguments (in any order) → the first outcome, byte-identical data and exit code, meta.replayed; one side effect',
    run: async (p, id) => {
      const first = await p.call(writeCall('write', id, { key: `k-${id}`, tags: ['a', 'b'] }));
      const second = await p.call(writeCall('write', id, { key: `k-${id}`, tags: ['a', 'b'], order: 'flags-first' }));
      expect(first.code).toBe(0);
      expect(second.code).toBe(0);
      expect(dataBytes(second.stdout)).toBe(dataBytes(first.stdout)); // the nonce too: nothing ran again
      expect(meta(first).replayed).toBeUndefined();
      expect(meta(second)).toMatchObject({ idempotency_key: `k-${id}`, replayed: true });
      expect(meta(second).trace_id).not.toBe(meta(first).trace_id);
      expect(effects(id)).toHaveLength(1);
    },
  },
  {
    name: 'conflict: same key, other arguments → idempotency_conflict (exit 2, not retryable, fix: a new key); the log is unchanged',
    run: async (p, id) => {
      expect((await p.call(writeCall('write', id, { key: `k-${id}` }))).code).toBe(0);
      const e = expectError(await p.call(writeCall('write', `${id}-other`, { key: `k-${id}` })), 2, 'idempotency_conflict');
      expect(e.retryable).toBe(false);
      expect(e.actionable_fix).toMatch(/new (--idempotency-key|idempotency_key)/);
      // the log is unchanged: the first call's one entry, nothing for the conflicting call (other rules write concurrently)
      expect(effects(id)).toHaveLength(1);
      expect(effects(`${id}-other`)).toHaveLength(0);
    },
  },
  {
    name: 'undeclared effects replay too',
    run: async (p, id) => {
      const a = await p.call(writeCall('note', id, { key: `k-${id}` }));
      const b = await p.call(writeCall('note', id, { key: `k-${id}` }));
      expect(dataBytes(b.stdout)).toBe(dataBytes(a.stdout));
      expect(meta(b).replayed).toBe(true);
      expect(effects(id)).toHaveLength(1);
    },
  },
  {
    name: 'replay: false and read-only commands never record: on argv the key is echoed and the call runs again; as JSON they have no idempotency_key property',
    run: async (p, id) => {
      if (p.spelling === 'argv') {
        const a = await p.call(writeCall('noreplay', id, { key: `k-${id}` }));
        const b = await p.call(writeCall('noreplay', id, { key: `k-${id}` }));
        expect([a.code, b.code]).toEqual([0, 0]);
        expect(meta(b)).toMatchObject({ idempotency_key: `k-${id}` });
        expect(meta(b).replayed).toBeUndefined();
        expect(effects(id)).toHaveLength(2);
        const r = await p.call({ tool: 'read', argv: ['read', '--idempotency-key', `r-${id}`], json: {} });
        expect(JSON.parse(r.stdout).data).toEqual({ key: `r-${id}`, given: true });
      } else {
        for (const tool of ['noreplay', 'read']) {
          const e = expectError(await p.call({ tool, argv: [], json: { ...(tool === 'read' ? {} : { name: id }), idempotency_key: `k-${id}` } }), 2, 'validation_error');
          expect(e.context).toMatchObject({ reason: 'unknown_property', property: 'idempotency_key' });
        }
        expect(effects(id)).toHaveLength(0);
        if (p.inputSchema) {
          expect(Object.keys((await p.inputSchema('write')).properties)).toContain('idempotency_key');
          expect(Object.keys((await p.inputSchema('note')).properties)).toContain('idempotency_key');
          expect(Object.keys((await p.inputSchema('noreplay')).properties)).not.toContain('idempotency_key');
          expect(Object.keys((await p.inputSchema('read')).properties)).not.toContain('idempotency_key');
        }
      }
    },
  },
  {
    name: 'a non-retryable failure is recorded and replayed: same exit code, the same error object, meta.replayed',
    run: async (p, id) => {
      const a = await p.call({ tool: 'gone', argv: ['gone', id, '--idempotency-key', `k-${id}`], json: { id, idempotency_key: `k-${id}` } });
      const b = await p.call({ tool: 'gone', argv: ['gone', id, '--idempotency-key', `k-${id}`], json: { id, idempotency_key: `k-${id}` } });
      expectError(a, 5, 'fx_gone');
      expectError(b, 5, 'fx_gone');
      expect(JSON.stringify(b.error!.error)).toBe(JSON.stringify(a.error!.error)); // the nonce in context too
      expect(a.error!.meta.replayed).toBeUndefined();
      expect(b.error!.meta.replayed).toBe(true);
      expect(effects(id)).toHaveLength(1);
    },
  },
  {
    name: 'a retryable failure is not recorded: the retry runs again',
    run: async (p, id) => {
      const c: Call = { tool: 'flaky', argv: ['flaky', id, '--idempotency-key', `k-${id}`], json: { name: id, idempotency_key: `k-${id}` } };
      expect(expectError(await p.call(c), 3, 'network_error').retryable).toBe(true);
      expectError(await p.call(c), 3, 'network_error');
      expect(effects(id)).toHaveLength(2);
    },
  },
  {
    name: 'a dry run never records a key: it rehearses (meta.dry_run, meta.would), then a real call with the key runs once',
    run: async (p, id) => {
      const dry = await p.call(writeCall('write', id, { key: `k-${id}`, dryRun: true }));
      expect(dry.code).toBe(0);
      expect(JSON.parse(dry.stdout).data).toMatchObject({ name: id, nonce: 'rehearsal' });
      expect(meta(dry)).toMatchObject({ dry_run: true, would: [`append ${id} to the log`] });
      expect(effects(id)).toHaveLength(0);
      const real = await p.call(writeCall('write', id, { key: `k-${id}` }));
      expect(real.code).toBe(0);
      expect(meta(real).replayed).toBeUndefined();
      expect(meta(real).dry_run).toBeUndefined();
      expect(effects(id)).toHaveLength(1);
    },
  },
  {
    name: 'perform with a function rehearsal: the dry run fails exactly where the real run would, and succeeds where it would',
    run: async (p, id) => {
      const bad = await p.call({ tool: 'rehearse', argv: ['rehearse', '2', '--dry-run'], json: { id: '2', dry_run: true } });
      expectError(bad, 5, 'fx_gone');
      expectError(await p.call({ tool: 'rehearse', argv: ['rehearse', '2'], json: { id: '2' } }), 5, 'fx_gone');
      const ok = await p.call({ tool: 'rehearse', argv: ['rehearse', '1', '--dry-run'], json: { id: '1', dry_run: true } });
      expect(ok.code).toBe(0);
      expect(JSON.parse(ok.stdout)).toMatchObject({ data: { id: '1', deleted: false }, meta: { dry_run: true, would: ['delete thing 1'] } });
      void id;
    },
  },
  {
    name: 'a handler that sets process.exitCode fails with that code: one error line carrying its payload, isError over MCP; the next call is unaffected',
    run: async (p) => {
      const e = expectError(await p.call(simple('lint')), 3, 'command_failed');
      expect(e.context).toEqual({ exit_code_set: 3, data: { problems: 2 } });
      const next = await p.call({ tool: 'read', argv: ['read'], json: {} });
      expect(next.code).toBe(0);
    },
  },
  {
    name: 'an AxError in the cause chain gives its kind, exit code and fix',
    run: async (p) => {
      const e = expectError(await p.call(simple('wrapped')), 4, 'auth_error');
      expect(e).toMatchObject({ message: 'load config: token expired', actionable_fix: 'Log in again.', context: { profile: 'default' } });
    },
  },
  {
    name: 'a TimeoutError (AbortSignal.timeout, or thrown) is a retryable timeout, exit 3',
    run: async (p) => {
      for (const how of ['abort', 'direct']) expect(expectError(await p.call(simple('timeout', { how })), 3, 'timeout').retryable).toBe(true);
    },
  },
  {
    name: 'retry_after_seconds ≤ 0 is dropped; a positive one is kept',
    run: async (p) => {
      for (const after of [0, -1]) expect(expectError(await p.call(simple('retry-after', { after })), 3, 'network_error')).not.toHaveProperty('retry_after_seconds');
      expect(expectError(await p.call(simple('retry-after', { after: 2.5 })), 3, 'network_error').retry_after_seconds).toBe(2.5);
    },
  },
  {
    name: 'input nested too deep for JSON is a validation_error (exit 2), not an internal error',
    run: async (p) => {
      let deep: unknown = 1;
      for (let i = 0; i < 2000; i++) deep = { d: deep };
      const e = expectError(await p.call({ tool: 'echo', argv: ['echo', '--obj', JSON.stringify(deep)], json: { obj: deep } }), 2, 'validation_error');
      expect(e.message).toMatch(/levels deep/);
    },
  },
  {
    name: 'mcp-server refuses --idempotency-key (validation_error, exit 2, with a fix); nothing is served',
    on: (p) => !p.mcp,
    run: async (p) => {
      const e = expectError(await p.call({ tool: 'mcp-server', argv: ['mcp-server', '--idempotency-key', 'k'], json: { idempotency_key: 'k' } }), 2, 'validation_error');
      expect(e.actionable_fix).toBeTruthy();
      expect(['invalid_flag_for_command', 'unknown_property']).toContain(e.context.reason);
    },
  },
  {
    name: '__schema lists every exit code a run can end with (141, 143 and each catalogue kind)',
    on: (p) => p.spelling === 'argv',
    run: async (p) => {
      const o = await p.call({ tool: '__schema', argv: ['__schema'], json: {} });
      const codes = JSON.parse(o.stdout).error_envelope.exit_codes as Record<string, string>;
      expect(codes).toMatchObject({ '0': 'success', '1': 'internal', '2': 'validation', '3': 'network', '4': 'auth', '5': 'fx_gone', '130': 'interrupted', '141': 'stdout_closed', '143': 'terminated' });
      const doc = JSON.parse(o.stdout) as Json;
      for (const e of doc.errors as Json[]) expect(codes, e.kind).toHaveProperty(String(e.exit_code));
    },
  },
];

const paths: Path[] = [];
beforeAll(async () => {
  paths.push(processPath('cli', CONTRACT_CLI, ENV), processPath('args-json', CONTRACT_CLI, ENV), inProcessPath(buildContractCli, ENV));
  paths.push(...(await Promise.all([stdioPath(CONTRACT_CLI, ENV), httpPath(CONTRACT_CLI, ENV, false), httpPath(CONTRACT_CLI, ENV, true)])));
}, 90_000);
afterAll(async () => {
  await Promise.all(paths.map((p) => p.close()));
  rmSync(dir, { recursive: true, force: true });
});

const NAMES: Path['name'][] = ['cli', 'args-json', 'in-process', 'mcp-stdio', 'mcp-http', 'mcp-http-stateless'];
describe.each(NAMES)('path %s', (name) => {
  RULES.forEach((rule, i) => {
    it.concurrent(rule.name, async () => {
      const p = paths.find((x) => x.name === name)!;
      if (rule.on && !rule.on(p)) return; // a rule that has no meaning on this path (e.g. __schema over MCP)
      await rule.run(p, `${name}-r${i}`);
    }, 120_000);
  });
});

describe('one store for every path', () => {
  it('a key used on the CLI replays over MCP (stdio and HTTP) and in-process, and back', async () => {
    const [cli, inproc, stdio, http] = ['cli', 'in-process', 'mcp-stdio', 'mcp-http'].map((n) => paths.find((p) => p.name === n)!);
    const first = await cli!.call(writeCall('write', 'shared', { key: 'k-shared', tags: ['x'] }));
    for (const p of [stdio!, http!, inproc!]) {
      const again = await p.call(writeCall('write', 'shared', { key: 'k-shared', tags: ['x'] }));
      expect(dataBytes(again.stdout), p.name).toBe(dataBytes(first.stdout));
      expect(meta(again).replayed).toBe(true);
    }
    expect(effects('shared')).toHaveLength(1);
  }, 60_000);

  it('a key given but no usable store: idempotency_store_unavailable (exit 1) before anything runs', async () => {
    const noState = { CONTRACT_LOG: LOG }; // neither XDG_STATE_HOME nor HOME
    for (const p of [processPath('cli', CONTRACT_CLI, noState), inProcessPath(buildContractCli, noState)]) {
      const e = expectError(await p.call(writeCall('write', `nostore-${p.name}`, { key: 'k' })), 1, 'idempotency_store_unavailable');
      expect(e.actionable_fix).toMatch(/XDG_STATE_HOME/);
      expect(effects(`nostore-${p.name}`)).toHaveLength(0);
      // without a key the same call runs: only the promise needs the store
      expect((await p.call(writeCall('write', `nostore-${p.name}`))).code).toBe(0);
    }
  }, 60_000);
});
