/**
 * The contract table's rules (docs/contract.md), run by test/e2e/contract-paths.test.ts over every path
 * of the native fixture (test/fixtures/contract-tree.ts) and by test/e2e/contract-twins.test.ts over
 * its front-end twins (test/helpers/contract-twins.ts). Each rule is a call, or a few, on one path,
 * with what must hold; the paths share one state directory and one side-effect log per test file.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { logEntries } from './effects-log.ts';
import { liveProcess } from './mcp.ts';
import { ENVELOPE_RULES } from './envelope-rules.ts';
import { PAGING_RULES } from './paging-rules.ts';
import type { Call, Outcome, Path } from './paths.ts';

export type Json = Record<string, any>;

export const CONTRACT_CLI = fileURLToPath(new URL('../fixtures/contract-cli.ts', import.meta.url));
export const dir = mkdtempSync(join(tmpdir(), 'ax-contract-paths-'));
export const LOG = join(dir, 'effects.log');
/** Every path records keys in this one state directory (the default file store under XDG_STATE_HOME). */
export const ENV = { CONTRACT_LOG: LOG, XDG_STATE_HOME: join(dir, 'state') };

/** The side effects logged so far for `name` (each handler run that changed state adds one). */
export function effects(name: string): Json[] {
  return logEntries(LOG).filter((e) => e.name === name || e.id === name);
}

/** The `data` of an envelope line exactly as written (the bytes before `,"meta":`). */
export function dataBytes(stdout: string): string {
  const i = stdout.indexOf(',"meta":');
  if (!stdout.startsWith('{"data":') || i < 0) throw new Error(`not an envelope: ${stdout}`);
  return stdout.slice(0, i);
}
export const meta = (o: Outcome): Json => JSON.parse(o.stdout).meta as Json;

/** `write`-style call: the same call in both spellings. `order` swaps flag/positional order on the CLI. */
export function writeCall(
  tool: string,
  name: string,
  opts: { key?: string; tags?: string[]; dryRun?: boolean; order?: 'flags-first' } = {},
): Call {
  const flags = [
    ...(opts.tags ?? []).flatMap((t) => ['--tag', t]),
    ...(opts.key !== undefined ? ['--idempotency-key', opts.key] : []),
    ...(opts.dryRun ? ['--dry-run'] : []),
  ];
  const json: Json = { name };
  if (opts.tags) json.tag = opts.tags;
  if (opts.key !== undefined) json.idempotency_key = opts.key;
  if (opts.dryRun) json.dry_run = true;
  return { tool, argv: opts.order === 'flags-first' ? [tool, ...flags, name] : [tool, name, ...flags], json };
}

/** A call of a command without positionals: `flags` as CLI flags and as properties. */
export function simple(tool: string, props: Json = {}, argvExtra: string[] = []): Call {
  const flag = (k: string) => `--${k.replace(/_/g, '-')}`;
  const argv = [
    ...tool.split('_'),
    ...Object.entries(props).flatMap(([k, v]) =>
      typeof v === 'boolean' ? (v ? [flag(k)] : []) : [`${flag(k)}=${typeof v === 'string' ? v : JSON.stringify(v)}`],
    ),
  ];
  return { tool, argv: [...argv, ...argvExtra], json: props };
}

/**
 * Runs a stop's next step as the path runs it: its tool call over MCP (in progressive mode the call
 * tool it names, as given), its command line otherwise (the args-json path spawns the line as it
 * is: its own call always builds `--args-json`).
 */
export async function runStep(p: Path, step: Json, extra: string[] = []): Promise<Outcome> {
  if (p.raw && p.name === 'mcp-progressive') {
    expect(['call_tool', 'call_read_only_tool'], 'a progressive step names a call tool').toContain(step.tool);
    return p.raw(step.tool as string, step.arguments as Json);
  }
  if (p.mcp) return p.call({ tool: step.tool as string, argv: [], json: step.arguments as Json });
  expect(step.argv[0], 'a command line starts with the program name').toBe('contractfx');
  return runLine(p, [...(step.argv as string[]).slice(1), ...extra]);
}

/** Runs the words after the program's name as a command line of a CLI path (cli, args-json, in-process). */
export function runLine(p: Path, argv: string[]): Promise<Outcome> {
  return p.line!(argv);
}

/**
 * `tool <id>` with a key stops (`kind`, exit 2) and records nothing; its first next step, which
 * keeps the key, runs once (meta.idempotency_key the key), and running it again replays that.
 */
export async function stopThenStep(p: Path, id: string, tool: string, kind: string): Promise<void> {
  const key = `k-${id}`;
  const e = expectError(
    await p.call({ tool, argv: [tool, id, '--idempotency-key', key], json: { name: id, idempotency_key: key } }),
    2,
    kind,
  );
  expect(effects(id)).toHaveLength(0);
  const step = (e.next as Json[])[0]!;
  const ran = await runStep(p, step);
  expect(ran.code, JSON.stringify(ran)).toBe(0);
  expect(meta(ran)).toMatchObject({ idempotency_key: key });
  expect(meta(ran).replayed).toBeUndefined();
  const again = await runStep(p, step);
  expect(dataBytes(again.stdout)).toBe(dataBytes(ran.stdout));
  expect(meta(again).replayed).toBe(true);
  expect(effects(id)).toHaveLength(1);
}

export function expectError(o: Outcome, code: number, kind: string): Json {
  expect(o.code, JSON.stringify(o)).toBe(code);
  expect(o.stdout).toBe('');
  expect(o.error?.error.kind, JSON.stringify(o.error)).toBe(kind);
  expect(o.error?.error.exit_code).toBe(code);
  if (o.isError !== undefined) expect(o.isError).toBe(true);
  return o.error!.error as Json;
}

/** A secret file every path may name (`--token @file`); its text is the secret {@link secretOf} plants. */
function secretFile(id: string): { file: string; secret: string } {
  const secret = `SECRET-${id}-${process.pid}`;
  const file = join(dir, `token-${id}`);
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return { file, secret };
}

/**
 * `secret <name>` with the token as each path may give it: `--token @file` on the command line and
 * in an `--args-json` object (argv: a value there is refused), the value itself over MCP.
 */
function secretCall(p: Path, name: string, file: string, secret: string, extra: Json = {}): Call {
  const flags = Object.entries(extra).flatMap(([k, v]) =>
    v === true ? [`--${k.replace(/_/g, '-')}`] : [`--${k.replace(/_/g, '-')}`, String(v)],
  );
  return {
    tool: 'secret',
    argv: ['secret', name, '--token', `@${file}`, ...flags],
    json: { name, token: p.mcp ? secret : `@${file}`, ...extra },
  };
}

/** Every text a call produced (stdout, stderr, the error line, MCP content), for a search. */
function allText(o: Outcome): string {
  return [o.stdout, o.stderr ?? '', JSON.stringify(o.error ?? {}), ...(o.texts ?? [])].join('\n');
}

export interface Rule {
  name: string;
  /** The rule touches the idempotency store: it runs on every store (file and Redis), not only the file store. */
  store?: true;
  /** Which paths the rule applies to (default all). */
  on?: (p: Path) => boolean;
  run: (p: Path, id: string) => Promise<void>;
}

export const RULES: Rule[] = [
  {
    name: 'a stream that fails after two items: both items are delivered (stdout; over MCP after the error line), then the error, exit 3',
    run: async (p) => {
      const argv = ['items', '--count', '5', '--fail-after', '2'];
      const o = await p.call({ tool: 'items', argv, json: { count: 5, fail_after: 2 } });
      expect(o.code).toBe(3);
      expect(o.error?.error).toMatchObject({ kind: 'network_error', message: 'the upstream went away mid-stream' });
      const lines = o.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Json);
      expect(lines.map((l) => l.data ?? l.item ?? l)).toEqual([{ i: 1 }, { i: 2 }]);
    },
  },
  {
    store: true,
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
    store: true,
    name: 'conflict: same key, other arguments → idempotency_conflict (exit 2, not retryable, fix: a new key); the log is unchanged',
    run: async (p, id) => {
      expect((await p.call(writeCall('write', id, { key: `k-${id}` }))).code).toBe(0);
      const e = expectError(
        await p.call(writeCall('write', `${id}-other`, { key: `k-${id}` })),
        2,
        'idempotency_conflict',
      );
      expect(e.retryable).toBe(false);
      expect(e.actionable_fix).toMatch(/new (--idempotency-key|idempotency_key)/);
      // the log is unchanged: the first call's one entry, nothing for the conflicting call (other rules write concurrently)
      expect(effects(id)).toHaveLength(1);
      expect(effects(`${id}-other`)).toHaveLength(0);
    },
  },
  {
    store: true,
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
    store: true,
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
          const e = expectError(
            await p.call({
              tool,
              argv: [],
              json: { ...(tool === 'read' ? {} : { name: id }), idempotency_key: `k-${id}` },
            }),
            2,
            'validation_error',
          );
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
    name: 'a failure after ctx.step steps lists them in context.completed_steps, in order (a step whose work threw is not one); so does a --timeout after the first (command line)',
    run: async (p, id) => {
      const e = expectError(await p.call({ tool: 'steps', argv: ['steps', id], json: { name: id } }), 5, 'fx_gone');
      expect(e.context.completed_steps).toEqual(['logged', 'counted']);
      // --timeout is a command-line flag (a server applies its own --timeout to every call it serves)
      if (p.spelling === 'argv') {
        const t = expectError(
          await p.call({
            tool: 'steps',
            argv: ['steps', `${id}-t`, '--at', '--timeout', '300ms'],
            json: { name: `${id}-t`, at: true },
          }),
          3,
          'timeout',
        );
        expect(t.context.completed_steps).toEqual(['logged']);
      }
      // a success says nothing of steps
      const ok = await p.call(writeCall('write', `${id}-ok`));
      expect(ok.stdout).not.toContain('completed_steps');
    },
  },
  {
    store: true,
    name: 'a non-retryable failure is recorded and replayed: same exit code, the same error object, meta.replayed',
    run: async (p, id) => {
      const a = await p.call({
        tool: 'gone',
        argv: ['gone', id, '--idempotency-key', `k-${id}`],
        json: { id, idempotency_key: `k-${id}` },
      });
      const b = await p.call({
        tool: 'gone',
        argv: ['gone', id, '--idempotency-key', `k-${id}`],
        json: { id, idempotency_key: `k-${id}` },
      });
      expectError(a, 5, 'fx_gone');
      expectError(b, 5, 'fx_gone');
      expect(JSON.stringify(b.error!.error)).toBe(JSON.stringify(a.error!.error)); // the nonce in context too
      expect(a.error!.meta.replayed).toBeUndefined();
      expect(b.error!.meta.replayed).toBe(true);
      expect(effects(id)).toHaveLength(1);
    },
  },
  {
    store: true,
    name: 'a retryable failure is not recorded: the retry runs again',
    run: async (p, id) => {
      const c: Call = {
        tool: 'flaky',
        argv: ['flaky', id, '--idempotency-key', `k-${id}`],
        json: { name: id, idempotency_key: `k-${id}` },
      };
      expect(expectError(await p.call(c), 3, 'network_error').retryable).toBe(true);
      expectError(await p.call(c), 3, 'network_error');
      expect(effects(id)).toHaveLength(2);
    },
  },
  {
    name: 'a network failure the handler lets escape is network_error, its code in context, on every path (also from a front end’s action, run in its own process)',
    run: async (p, id) => {
      const name = `untrusted-${id}`;
      const r = await p.call({ tool: 'flaky', argv: ['flaky', name], json: { name } });
      const e = expectError(r, 3, 'network_error');
      expect(e.retryable).toBe(false);
      expect(e.context).toEqual({ code: 'SELF_SIGNED_CERT_IN_CHAIN' });
      expect(e.actionable_fix).toMatch(/NODE_EXTRA_CA_CERTS/);
    },
  },
  {
    store: true,
    name: 'a network failure is not recorded, not even one that is not retryable (an untrusted certificate, fixed outside the call): the retry runs again',
    run: async (p, id) => {
      const name = `untrusted-${id}`;
      const c: Call = {
        tool: 'flaky',
        argv: ['flaky', name, '--idempotency-key', `k-${id}`],
        json: { name, idempotency_key: `k-${id}` },
      };
      expect(expectError(await p.call(c), 3, 'network_error').retryable).toBe(false);
      const again = await p.call(c);
      expectError(again, 3, 'network_error');
      expect(again.error!.meta.replayed).toBeUndefined();
      expect(effects(name)).toHaveLength(2);
    },
  },
  {
    store: true,
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
    store: true,
    name: 'a confirmation stop under a key is not recorded: its next step (the same call confirmed, the key kept) runs once, then replays',
    run: (p, id) => stopThenStep(p, id, 'remove', 'confirmation_required'),
  },
  {
    store: true,
    name: "an action_required stop under a key is not recorded: the author's next step keeping the key runs once, then replays",
    run: (p, id) => stopThenStep(p, id, 'gated', 'action_required'),
  },
  {
    store: true,
    name: '--strict: warnings_as_errors under a key is not recorded: the call without --strict and the same key runs once, then replays (not an MCP input)',
    on: (p) => !p.mcp,
    run: async (p, id) => {
      const line =
        p.name === 'args-json'
          ? ['warned', '--args-json', JSON.stringify({ name: id, idempotency_key: `k-${id}` })]
          : ['warned', id, '--idempotency-key', `k-${id}`];
      const e = expectError(await runLine(p, [...line, '--strict']), 2, 'warnings_as_errors');
      // the caller's spelling: --strict is a flag on the command line and beside an --args-json object
      expect(e.message).toContain('under --strict:');
      expect(e.actionable_fix).toContain('or run without --strict.');
      expect(effects(id)).toHaveLength(0);
      const ran = await runLine(p, line);
      expect(ran.code, JSON.stringify(ran)).toBe(0);
      expect(meta(ran).replayed).toBeUndefined();
      expect(meta(ran).warnings).toEqual([{ code: 'heads_up', message: `about to log ${id}` }]);
      const again = await runLine(p, [...line, '--strict']); // a replay runs nothing: nothing warns
      expect(again.code, JSON.stringify(again)).toBe(0);
      expect(dataBytes(again.stdout)).toBe(dataBytes(ran.stdout));
      expect(meta(again).replayed).toBe(true);
      expect(effects(id)).toHaveLength(1);
    },
  },
  {
    name: 'perform with a function rehearsal: the dry run fails exactly where the real run would, and succeeds where it would',
    run: async (p, id) => {
      const bad = await p.call({
        tool: 'rehearse',
        argv: ['rehearse', '2', '--dry-run'],
        json: { id: '2', dry_run: true },
      });
      expectError(bad, 5, 'fx_gone');
      expectError(await p.call({ tool: 'rehearse', argv: ['rehearse', '2'], json: { id: '2' } }), 5, 'fx_gone');
      const ok = await p.call({
        tool: 'rehearse',
        argv: ['rehearse', '1', '--dry-run'],
        json: { id: '1', dry_run: true },
      });
      expect(ok.code).toBe(0);
      expect(JSON.parse(ok.stdout)).toMatchObject({
        data: { id: '1', deleted: false },
        meta: { dry_run: true, would: ['delete thing 1'] },
      });
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
    name: 'a callback the handler queued just before returning a value runs before the outcome: its warning is in meta.warnings, its process.exitCode fails the run',
    run: async (p) => {
      const warned = await p.call(simple('queued'));
      expect(warned.code, JSON.stringify(warned)).toBe(0);
      expect(meta(warned).warnings).toEqual([{ code: 'warning', message: 'queued warning' }]);
      const e = expectError(await p.call(simple('queued', { exit: true })), 3, 'command_failed');
      expect(e.context).toEqual({ exit_code_set: 3, data: { queued: true } });
      expect((await p.call({ tool: 'read', argv: ['read'], json: {} })).code).toBe(0);
    },
  },
  {
    name: 'an AxError in the cause chain gives its kind, exit code and fix',
    run: async (p) => {
      const e = expectError(await p.call(simple('wrapped')), 4, 'auth_error');
      expect(e).toMatchObject({
        message: 'load config: token expired',
        actionable_fix: 'Log in again.',
        context: { profile: 'default' },
      });
    },
  },
  {
    name: 'ctx.signal is one AbortSignal for the run, not aborted, an own key that a {...ctx} copy keeps, whether read synchronously or after an await',
    run: async (p) => {
      for (const wait of [false, true]) {
        const o = await p.call(simple('signal', wait ? { wait } : {}));
        expect(o.code, JSON.stringify(o)).toBe(0);
        expect(JSON.parse(o.stdout).data).toEqual({
          abortSignal: true,
          same: true,
          aborted: false,
          listenable: true,
          copied: true,
          ownKey: true,
        });
      }
    },
  },
  {
    name: 'a TimeoutError (AbortSignal.timeout, or thrown) is a retryable timeout, exit 3',
    run: async (p) => {
      for (const how of ['abort', 'direct'])
        expect(expectError(await p.call(simple('timeout', { how })), 3, 'timeout').retryable).toBe(true);
    },
  },
  {
    name: 'retry_after_seconds ≤ 0 is dropped; a positive one is kept',
    run: async (p) => {
      for (const after of [0, -1])
        expect(expectError(await p.call(simple('retry-after', { after })), 3, 'network_error')).not.toHaveProperty(
          'retry_after_seconds',
        );
      expect(
        expectError(await p.call(simple('retry-after', { after: 2.5 })), 3, 'network_error').retry_after_seconds,
      ).toBe(2.5);
    },
  },
  {
    name: "a command that offers no dry run (dryRun: false, or nothing declared on a command that is not read-only) refuses one: dry_run_unsupported (exit 2, not retryable, the fix in the caller's spelling); nothing runs",
    run: async (p, id) => {
      for (const tool of ['nopreview', 'note']) {
        const name = `${id}-${tool}`;
        const e = expectError(
          await p.call({ tool, argv: [tool, name, '--dry-run'], json: { name, dry_run: true } }),
          2,
          'dry_run_unsupported',
        );
        expect(e.retryable).toBe(false);
        const asked = p.spelling === 'argv' ? '--dry-run' : 'dry_run';
        expect(e.actionable_fix).toContain(`Leave ${asked} out`);
        expect(e.actionable_fix).not.toContain(p.spelling === 'argv' ? 'dry_run' : '--dry-run');
        expect(effects(name)).toHaveLength(0);
        if (p.inputSchema) expect(Object.keys((await p.inputSchema(tool)).properties ?? {})).not.toContain('dry_run');
        const ran = await p.call({ tool, argv: [tool, name], json: { name } });
        expect(ran.code).toBe(0);
        expect(effects(name)).toHaveLength(1);
      }
    },
  },
  {
    name: 'a read-only command offers a dry run without declaring one: meta.dry_run, no warning',
    run: async (p) => {
      const o = await p.call(simple('read', { dry_run: true }));
      expect(o.code, JSON.stringify(o)).toBe(0);
      expect(meta(o).dry_run).toBe(true);
      expect(meta(o).warnings).toBeUndefined();
    },
  },
  {
    name: 'a declared dry run whose handler never checks it claims none: no meta.dry_run, the warning dry_run_unchecked (it ran)',
    run: async (p, id) => {
      const o = await p.call({
        tool: 'unchecked',
        argv: ['unchecked', id, '--dry-run'],
        json: { name: id, dry_run: true },
      });
      expect(o.code, JSON.stringify(o)).toBe(0);
      expect(meta(o).dry_run).toBeUndefined();
      expect(meta(o).warnings).toEqual([expect.objectContaining({ code: 'dry_run_unchecked' })]);
      expect(effects(id)).toHaveLength(1);
    },
  },
  {
    name: "what a handler prints on stdout (console.log, process.stdout.write) stays out of the JSON lines: stderr on the command line, an item of its own over MCP (in-process: the process stdout is not the run's)",
    on: (p) => p.name !== 'in-process',
    run: async (p) => {
      const o = await p.call(simple('chatty'));
      expect(o.code, JSON.stringify(o)).toBe(0);
      const lines = o.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(1); // stdout | jq: one JSON line and nothing else
      expect(JSON.parse(lines[0]!).data).toEqual({ chatty: true });
      const elsewhere = p.mcp ? o.texts!.slice(1).join('') : o.stderr!;
      expect(elsewhere).toContain('from console.log\n');
      expect(elsewhere).toContain('from stdout.write\n');
    },
  },
  {
    name: "a handler that prints without ending its line, then fails: the error line is a line of its own, the last of stderr (command line); over MCP its stdout print is an item of its own (in-process: the process streams are not the run's)",
    on: (p) => p.name !== 'in-process',
    run: async (p) => {
      const o = await p.call(simple('unfinished'));
      // the process paths read the error from the last stderr line: it must parse as it stands
      expect(o.code, JSON.stringify(o)).toBe(3);
      expect(o.error?.error.kind, JSON.stringify(o)).toBe('network_error');
      if (!p.mcp) expect(o.stdout).toBe('');
      const printed = p.mcp ? o.texts!.slice(1).join('') : o.stderr!;
      expect(printed).toContain('half a line on stdout');
      // a native handler's own stderr under mcp-server is the server's diagnostics (docs/mcp-server.md#printed-output)
      if (!p.mcp) expect(printed).toContain('half a line on stderr');
      if (!p.mcp) expect(o.stderr!.endsWith(`${JSON.stringify(o.error)}\n`), o.stderr).toBe(true);
    },
  },
  {
    name: "another CLI's mode flag (--output json, --output=text, --json) is an unknown flag whose did-you-mean is --format (argv paths: JSON callers give no flags)",
    on: (p) => p.spelling === 'argv',
    run: async (p) => {
      for (const [words, want] of [
        [['--output', 'json'], '--format json'],
        [['--output=text'], '--format text'],
        [['--json'], '--format json'],
      ] as const) {
        const e = expectError(
          await p.call({ tool: 'read', argv: ['read', ...words], json: {} }),
          2,
          'validation_error',
        );
        expect(e).toMatchObject({ suggestions: [want], context: { reason: 'unknown_flag' }, retryable: false });
        expect(e.actionable_fix).toMatch(new RegExp(`^Did you mean ${want}\\?`));
      }
    },
  },
  {
    name: "a --timeout that passes: the fix names the idempotency key only where a retry with it replays, in the caller's spelling (not an MCP input)",
    on: (p) => !p.mcp,
    run: async (p, id) => {
      for (const tool of ['write', 'noreplay']) {
        const name = `${id}-${tool}`;
        const line =
          p.name === 'args-json'
            ? [tool, '--args-json', JSON.stringify({ name, delay_ms: 1500 })]
            : [tool, name, '--delay-ms', '1500'];
        const e = expectError(await runLine(p, [...line, '--timeout', '100ms']), 3, 'timeout');
        expect(e.retryable).toBe(true);
        // --timeout is a flag beside an --args-json object too; the key a property in it
        expect(e.message).toContain('within --timeout 100ms');
        expect(e.actionable_fix).toMatch(/^Retry with a longer --timeout/);
        if (tool === 'write')
          expect(e.actionable_fix).toContain(p.name === 'args-json' ? 'idempotency_key' : '--idempotency-key');
        else expect(e.actionable_fix).not.toMatch(/idempotency/);
      }
    },
  },
  {
    name: 'input nested too deep for JSON is a validation_error (exit 2), not an internal error',
    run: async (p) => {
      let deep: unknown = 1;
      for (let i = 0; i < 2000; i++) deep = { d: deep };
      const e = expectError(
        await p.call({ tool: 'echo', argv: ['echo', '--obj', JSON.stringify(deep)], json: { obj: deep } }),
        2,
        'validation_error',
      );
      expect(e.message).toMatch(/levels deep/);
    },
  },
  {
    name: 'mcp-server refuses --idempotency-key (validation_error, exit 2, with a fix); nothing is served',
    on: (p) => !p.mcp,
    run: async (p) => {
      const e = expectError(
        await p.call({
          tool: 'mcp-server',
          argv: ['mcp-server', '--idempotency-key', 'k'],
          json: { idempotency_key: 'k' },
        }),
        2,
        'validation_error',
      );
      expect(e.actionable_fix).toBeTruthy();
      expect(['invalid_flag_for_command', 'unknown_property']).toContain(e.context.reason);
    },
  },
  {
    name: '__schema lists every exit code a run can end with (129, 141, 143 and each catalogue kind)',
    on: (p) => p.spelling === 'argv',
    run: async (p) => {
      // the whole document, whatever the budget
      const o = await p.call({ tool: '__schema', argv: ['__schema', '--full'], json: {} });
      const codes = JSON.parse(o.stdout).error_envelope.exit_codes as Record<string, string>;
      expect(codes).toMatchObject({
        '0': 'success',
        '1': 'internal',
        '2': 'validation',
        '3': 'network',
        '4': 'auth',
        '5': 'fx_gone',
        '129': 'hangup',
        '130': 'interrupted',
        '141': 'stdout_closed',
        '143': 'terminated',
      });
      const doc = JSON.parse(o.stdout) as Json;
      for (const e of doc.errors as Json[]) expect(codes, e.kind).toHaveProperty(String(e.exit_code));
    },
  },
  {
    name: 'a secret flag on argv (a value on the command line or in --args-json) is secret_on_argv, exit 2, the value in no line, nothing run; @file there, and the value itself over MCP, are used',
    run: async (p, id) => {
      const { file, secret } = secretFile(id);
      if (!p.mcp) {
        const argv = ['secret', id, '--token', secret];
        const c: Call = { tool: 'secret', argv, json: { name: id, token: secret } };
        const o = await p.call(c);
        const e = expectError(o, 2, 'validation_error');
        expect(e.context).toMatchObject({ reason: 'secret_on_argv', env: 'CONTRACT_TOKEN' });
        expect(allText(o)).not.toContain(secret);
        expect(effects(id)).toHaveLength(0);
      }
      const ok = await p.call(secretCall(p, id, file, secret));
      expect(ok.code, JSON.stringify(ok)).toBe(0);
      expect(JSON.parse(ok.stdout).data).toMatchObject({ name: id, token_length: secret.length });
      expect(allText(ok)).not.toContain(secret);
      expect(effects(id)).toHaveLength(1);
    },
  },
  {
    store: true,
    name: 'secret × replay key: a failure that quotes the secret is recorded redacted, and the retry replays it byte for byte, the value in no line',
    run: async (p, id) => {
      const { file, secret } = secretFile(id);
      const call = secretCall(p, `fail-${id}`, file, secret, { idempotency_key: `k-${id}` });
      const first = await p.call(call);
      const e = expectError(first, 4, 'auth_error');
      expect(e.message).toContain('Bearer [redacted]');
      expect(e.context).toEqual({ header: 'Bearer [redacted]' });
      const again = await p.call(call);
      expect(again.error?.error).toEqual(e);
      expect(again.error?.meta.replayed).toBe(true);
      for (const o of [first, again]) expect(allText(o)).not.toContain(secret);
    },
  },
  {
    name: 'secret × dry run: the rehearsal uses the secret and shows it nowhere (meta.would, data), nothing run',
    run: async (p, id) => {
      const { file, secret } = secretFile(id);
      const o = await p.call(secretCall(p, id, file, secret, { dry_run: true }));
      expect(o.code, JSON.stringify(o)).toBe(0);
      expect(JSON.parse(o.stdout).data).toMatchObject({ name: id, token_length: secret.length, n: 0 });
      expect(meta(o)).toMatchObject({ dry_run: true, would: [`use the token for ${id}`] });
      expect(allText(o)).not.toContain(secret);
      expect(effects(id)).toHaveLength(0);
    },
  },
  {
    name: 'ctx.spawn × timeout: the process tree a handler started is gone when the call ends, by --timeout (command line) or by returning',
    run: async (p, id) => {
      const argv = p.spelling === 'argv' || p.name === 'args-json';
      const c: Call = {
        tool: 'spawned',
        argv: ['spawned', id, ...(argv ? ['--wait', '--timeout', '1s'] : [])],
        json: { name: id },
      };
      const o =
        p.name === 'args-json'
          ? await runLine(p, ['spawned', '--args-json', JSON.stringify({ name: id, wait: true }), '--timeout', '1s'])
          : await p.call(c);
      if (argv) expectError(o, 3, 'timeout');
      else expect(o.code, JSON.stringify(o)).toBe(0);
      const pids = readFileSync(join(dir, `pids-${id}`), 'utf8')
        .trim()
        .split(/\s+/)
        .map(Number);
      expect(pids).toHaveLength(2);
      expect(pids.filter(liveProcess), 'processes of the tree still running when the call ended').toEqual([]);
    },
  },
  {
    store: true,
    name: 'per-item results: a variadic command whose items partly fail is partial_failure (exit 23) with context.results, every item run in order; under a key the retry replays it',
    run: async (p, id) => {
      const names = [`${id}-a`, `bad-${id}`, `${id}-c`];
      const key = `k-${id}`;
      const c: Call = {
        tool: 'each',
        argv: ['each', ...names, '--idempotency-key', key],
        json: { names, idempotency_key: key },
      };
      const o = await p.call(c);
      const e = expectError(o, 23, 'partial_failure');
      expect(e.context).toMatchObject({ succeeded: 2, failed: 1 });
      expect((e.context.results as Json[]).map((r) => [r.item, r.ok, r.error?.kind ?? null])).toEqual([
        [names[0], true, null],
        [names[1], false, 'fx_gone'],
        [names[2], true, null],
      ]);
      expect(e.context.results[0].data).toMatchObject({ name: names[0] });
      expect(e.message).toContain(`(bad-${id})`);
      expect(effects(names[0])).toHaveLength(1);
      expect(effects(names[2])).toHaveLength(1);
      const again = await p.call(c);
      expect(again.error?.error).toEqual(e);
      expect(again.error?.meta.replayed).toBe(true);
      expect(effects(names[0])).toHaveLength(1);
      // all succeed: the results are the data
      const ok = await p.call({ tool: 'each', argv: ['each', `${id}-x`], json: { names: [`${id}-x`] } });
      expect(ok.code, JSON.stringify(ok)).toBe(0);
      expect(JSON.parse(ok.stdout).data).toMatchObject({ results: [{ item: `${id}-x`, ok: true }] });
    },
  },
  {
    name: 'per-item results × --timeout: the stop keeps the items done in context.results (a failed one with its fix and retryable); the items after it never ran',
    on: (p) => !p.mcp,
    run: async (p, id) => {
      const names = [`${id}-a`, `bad-${id}`, `slow-${id}`, `${id}-d`];
      const line = p.name === 'args-json' ? ['each', '--args-json', JSON.stringify({ names })] : ['each', ...names];
      const e = expectError(await runLine(p, [...line, '--timeout', '1s']), 3, 'timeout');
      expect(e.context.results).toEqual([
        { item: names[0], ok: true, data: { name: names[0], n: expect.any(Number) } },
        {
          item: names[1],
          ok: false,
          error: {
            kind: 'fx_gone',
            message: `${names[1]} is gone`,
            retryable: false,
            actionable_fix: `Leave ${names[1]} out.`,
          },
        },
      ]);
      expect(effects(names[0])).toHaveLength(1);
      expect(effects(names[3])).toHaveLength(0);
    },
  },
  {
    name: "secret × a stop's next step: the step names the secret as given (@file) or, over MCP, by a <token> placeholder; never the value",
    run: async (p, id) => {
      const { file, secret } = secretFile(id);
      const o = await p.call(secretCall(p, `confirm-${id}`, file, secret));
      const e = expectError(o, 2, 'confirmation_required');
      expect(allText(o)).not.toContain(secret);
      const step = (e.next as Json[])[0]!;
      if (p.mcp && p.name !== 'mcp-progressive') expect(step.arguments).toMatchObject({ token: '<token>', yes: true });
      if (!p.mcp) {
        // run verbatim, the step reads the same file and does it
        const ran = await runStep(p, step);
        expect(ran.code, JSON.stringify(ran)).toBe(0);
        expect(effects(`confirm-${id}`)).toHaveLength(1);
      }
    },
  },
  {
    name: '--args-json reads JSONC (comments, trailing commas); a slip of generated JSON (single quotes, unquoted keys, Python literals, text after it) is invalid_args_json exit 2 with context.corrected, nothing run, and next[0] run verbatim does it once',
    on: (p) => !p.mcp,
    run: async (p, id) => {
      const jsonc = `{"name": "${id}-c", /* the tags */ "tag": ["a",],}`;
      const ok = await runLine(p, ['write', '--args-json', jsonc]);
      expect(ok.code, JSON.stringify(ok)).toBe(0);
      expect(JSON.parse(ok.stdout).data).toMatchObject({ name: `${id}-c`, tags: ['a'] });
      expect(effects(`${id}-c`)).toHaveLength(1);
      const e = expectError(
        await runLine(p, ['write', '--args-json', `{name: '${id}-s', tag: ['a'], delay_ms: None};`]),
        2,
        'validation_error',
      );
      const corrected = `{"name":"${id}-s","tag":["a"],"delay_ms":null}`;
      expect(e.context).toEqual({
        reason: 'invalid_args_json',
        corrected,
        repairs: ['single_quotes', 'unquoted_keys', 'python_literals', 'trailing_text'],
        line: 1,
        column: expect.any(Number),
      });
      expect(effects(`${id}-s`)).toHaveLength(0);
      const step = (e.next as Json[])[0]!;
      expect(step.argv).toEqual(['contractfx', 'write', '--args-json', corrected]);
      const ran = await runStep(p, step);
      expect(ran.code, JSON.stringify(ran)).toBe(0);
      expect(JSON.parse(ran.stdout).data).toMatchObject({ name: `${id}-s`, tags: ['a'] });
      expect(effects(`${id}-s`)).toHaveLength(1);
    },
  },
  {
    name: "auth_expired (exit 4, retryable, so a key never records it): the fix says to sign in again, next[0] is the root's declared login command in the caller's vocabulary, and run verbatim it signs in",
    run: async (p, id) => {
      const key = `k-${id}`;
      for (const round of [1, 2]) {
        const e = expectError(
          await p.call({
            tool: 'expired',
            argv: ['expired', id, '--idempotency-key', key],
            json: { name: id, idempotency_key: key },
          }),
          4,
          'auth_expired',
        );
        expect(e.retryable).toBe(true);
        expect(e.actionable_fix).toBe(
          'The credential has expired: sign in again with next[0], then retry the same call.',
        );
        // the retry under the same key ran again (it was not replayed): after signing in it may succeed
        expect(effects(id)).toHaveLength(round);
        const step = (e.next as Json[])[0]!;
        expect(e.next).toHaveLength(1);
        if (p.mcp) expect(step.argv).toBeUndefined();
        else expect(step.argv.slice(0, 2)).toEqual(['contractfx', 'signin']);
        if (p.mcp && p.name !== 'mcp-progressive') expect(step).toMatchObject({ tool: 'signin', arguments: {} });
        const ran = await runStep(p, step);
        expect(ran.code, JSON.stringify(ran)).toBe(0);
        expect(JSON.parse(ran.stdout).data).toEqual({ signed_in: true });
      }
    },
  },
  ...ENVELOPE_RULES,
  ...PAGING_RULES,
];
