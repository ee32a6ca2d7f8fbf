/**
 * Issue 11, the parts that need several processes or sessions at once, against the fixture CLI
 * test/fixtures/contract-tree.ts: replayed retries racing on one key (two processes, two MCP
 * sessions, 20 concurrent retries: one side effect each time), the preview server
 * (`mcp-server --dry-run`), and interrupts (the fix of a non-idempotent command's `interrupted`
 * error; SIGINT at random moments during a write, 50 rounds: never `interrupted` for a committed write).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildContractCli } from '../fixtures/contract-tree.ts';
import { httpClient, httpPath, minimalEnv, processPath, startHttp, stdioPath, type Outcome } from '../helpers/paths.ts';
import { runCli } from '../helpers/run.ts';
import { pool, TSX_LOADER } from '../helpers/spawn.ts';

type Json = Record<string, any>;

const CLI = fileURLToPath(new URL('../fixtures/contract-cli.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ax-contract-races-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
/** A fresh side-effect log and state directory. */
function sandbox(): { env: Record<string, string>; log: string; lines(): Json[] } {
  const d = join(dir, `s${++n}`);
  const log = join(d, 'effects.log');
  return {
    env: { CONTRACT_LOG: log, XDG_STATE_HOME: join(d, 'state') },
    log,
    lines: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Json)
        : [],
  };
}
const data = (o: Outcome) => o.stdout.slice(0, o.stdout.indexOf(',"meta":'));
const write = (name: string, key: string, delayMs = 400) => ({
  tool: 'write',
  argv: ['write', name, '--idempotency-key', key, '--delay-ms', String(delayMs)],
  json: { name, idempotency_key: key, delay_ms: delayMs },
});

/** Every outcome of a race: the first call's data (one replay marked, or all) or a retryable in-progress answer. */
function expectOneOutcome(outcomes: Outcome[]): void {
  const ok = outcomes.filter((o) => o.code === 0);
  expect(ok.length).toBeGreaterThan(0);
  expect(new Set(ok.map(data)).size).toBe(1); // byte-identical data everywhere
  expect(ok.filter((o) => JSON.parse(o.stdout).meta.replayed !== true)).toHaveLength(1); // exactly one ran
  for (const o of outcomes.filter((x) => x.code !== 0)) {
    expect(o.error?.error).toMatchObject({
      kind: 'idempotency_in_progress',
      exit_code: 2,
      retryable: true,
      retry_after_seconds: 1,
    });
  }
}

describe('replayed retries racing on one key: one side effect', () => {
  it('two processes at once', async () => {
    const s = sandbox();
    const cli = processPath('cli', CLI, s.env);
    const outcomes = await Promise.all([cli.call(write('two', 'k-two')), cli.call(write('two', 'k-two'))]);
    expectOneOutcome(outcomes);
    expect(outcomes.every((o) => o.code === 0)).toBe(true); // the second waited (400 ms < 5 s) and replayed
    expect(s.lines()).toHaveLength(1);
  }, 60_000);

  it('two MCP sessions at once: two stdio servers sharing the store, and two HTTP sessions of one server', async () => {
    const s = sandbox();
    const [a, b, http] = await Promise.all([stdioPath(CLI, s.env), stdioPath(CLI, s.env), startHttp(CLI, s.env)]);
    try {
      expectOneOutcome(await Promise.all([a.call(write('stdio', 'k-stdio')), b.call(write('stdio', 'k-stdio'))]));
      const [c1, c2] = await Promise.all([httpClient(http.url), httpClient(http.url)]);
      const call = async (c: typeof c1) => {
        const r = (await c.callTool({ name: 'write', arguments: write('http', 'k-http').json })) as Json;
        const text = r.content[0].text as string;
        return r.isError
          ? { code: JSON.parse(text).error.exit_code as number, stdout: '', error: JSON.parse(text) as Json }
          : { code: 0, stdout: text };
      };
      expectOneOutcome(await Promise.all([call(c1), call(c2)]));
      await Promise.all([c1.close(), c2.close()]);
      expect(s.lines().filter((l) => l.name === 'stdio')).toHaveLength(1);
      expect(s.lines().filter((l) => l.name === 'http')).toHaveLength(1);
    } finally {
      await Promise.all([a.close(), b.close(), http.stop()]);
    }
  }, 90_000);

  it('20 concurrent retries of one key: 20 processes, and 20 calls over one HTTP server', async () => {
    const s = sandbox();
    const cli = processPath('cli', CLI, s.env);
    expectOneOutcome(
      await pool(
        Array.from({ length: 20 }, () => () => cli.call(write('twenty', 'k-20', 300))),
        20,
      ),
    );
    expect(s.lines().filter((l) => l.name === 'twenty')).toHaveLength(1);
    const http = await httpPath(CLI, s.env, false);
    try {
      expectOneOutcome(
        await Promise.all(Array.from({ length: 20 }, () => http.call(write('twenty-http', 'k-20h', 300)))),
      );
      expect(s.lines().filter((l) => l.name === 'twenty-http')).toHaveLength(1);
    } finally {
      await http.close();
    }
  }, 180_000);

  it('a retry that outwaits idempotencyWaitMs gets the retryable idempotency_in_progress, and nothing runs twice', async () => {
    const s = sandbox();
    const cli = processPath('cli', CLI, { ...s.env, CONTRACT_WAIT_MS: '100' });
    const first = cli.call(write('slow', 'k-slow', 3000));
    await new Promise((r) => setTimeout(r, 1500)); // the first holds the key by now
    const second = await cli.call(write('slow', 'k-slow', 3000));
    expect(second.error?.error).toMatchObject({
      kind: 'idempotency_in_progress',
      exit_code: 2,
      retryable: true,
      retry_after_seconds: 1,
    });
    expect((await first).code).toBe(0);
    const third = await cli.call(write('slow', 'k-slow', 3000));
    expect(JSON.parse(third.stdout).meta.replayed).toBe(true);
    expect(s.lines()).toHaveLength(1);
  }, 60_000);
});

describe('mcp-server --dry-run: a preview server', () => {
  it.each(['stdio', 'http'] as const)(
    '%s: every call is a dry run the client cannot turn off; the instructions say nothing will be changed',
    async (transport) => {
      const s = sandbox();
      const p =
        transport === 'stdio'
          ? await stdioPath(CLI, s.env, ['--dry-run'])
          : await httpPath(CLI, s.env, false, ['--dry-run']);
      try {
        expect(p.instructions!()).toMatch(/^The contract fixture\.\n\n.*preview.*nothing will be changed/s);
        for (const args of [
          { name: 'p1' },
          { name: 'p1', dry_run: false },
          { name: 'p1', idempotency_key: 'k-preview' },
        ]) {
          const o = await p.call({ tool: 'write', argv: [], json: args });
          expect(o.code).toBe(0);
          expect(JSON.parse(o.stdout)).toMatchObject({
            data: { name: 'p1', nonce: 'rehearsal' },
            meta: { dry_run: true, would: ['append p1 to the log'] },
          });
        }
        expect(s.lines()).toHaveLength(0);
        const shadow = await p.call({ tool: 'shadow', argv: [], json: {} });
        expect(shadow.error?.error).toMatchObject({
          kind: 'validation_error',
          exit_code: 2,
          context: { reason: 'dry_run_unavailable' },
        });
        // a command that declares no dry run cannot be previewed either; nothing runs
        const none = await p.call({ tool: 'nopreview', argv: [], json: { name: 'p2' } });
        expect(none.error?.error).toMatchObject({
          kind: 'validation_error',
          exit_code: 2,
          message: expect.stringContaining('it declares no dry run'),
          context: { reason: 'dry_run_unavailable' },
        });
        expect(s.lines()).toHaveLength(0);
      } finally {
        await p.close();
      }
      // the preview recorded no key: a real call with it runs
      const real = await processPath('cli', CLI, s.env).call({
        tool: 'write',
        argv: ['write', 'p1', '--idempotency-key', 'k-preview'],
        json: {},
      });
      expect(JSON.parse(real.stdout).meta.replayed).toBeUndefined();
      expect(s.lines()).toHaveLength(1);
    },
    60_000,
  );
});

describe('interrupts', () => {
  it('in-process: the interrupted error of a non-idempotent command says a retry is safe only with the same key', async () => {
    const s = sandbox();
    for (const [args, fix] of [
      [['commit', '--work-ms', '3000'], /a retry is safe only with the same --idempotency-key, and this call had none/],
      [['commit', '--work-ms', '3000', '--idempotency-key', 'k-int'], /Retry only with the same --idempotency-key/],
    ] as const) {
      const ac = new AbortController();
      setTimeout(() => ac.abort(new Error('SIGINT')), 50);
      const r = await runCli(buildContractCli(), args, { env: s.env, signal: ac.signal });
      expect(r.code).toBe(130);
      const e = JSON.parse(r.stderr.trimEnd().split('\n').pop()!).error as Json;
      expect(e).toMatchObject({ kind: 'interrupted', retryable: true });
      expect(e.actionable_fix).toMatch(fix);
    }
    // a read-only command keeps the plain fix
    const ac = new AbortController();
    const root = buildContractCli();
    setTimeout(() => ac.abort(new Error('SIGINT')), 20);
    const r = await runCli(root, ['idle'], { env: s.env, signal: ac.signal });
    expect(r.code).toBe(130);
    expect(JSON.parse(r.stderr.trimEnd().split('\n').pop()!).error.actionable_fix).toBe(
      'Run the command again; if it changed state, check that state first.',
    );
  }, 30_000);

  it('SIGINT at random moments during a write, 50 rounds: a committed write is never reported interrupted', async () => {
    const rounds = Array.from({ length: 50 }, (_, i) => async () => {
      const s = sandbox();
      const child = spawn(
        process.execPath,
        [
          '--import',
          TSX_LOADER,
          CLI,
          'commit',
          '--work-ms',
          '150',
          '--post-ms',
          '150',
          '--idempotency-key',
          `k-round-${i}`,
        ],
        {
          env: { ...minimalEnv(), ...s.env },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
      const ready = new Promise<void>((r) =>
        child.stderr.setEncoding('utf8').on('data', (c: string) => ((err += c), err.includes('ready') && r())),
      );
      const code = new Promise<number | null>((r) => child.once('exit', (c, sig) => r(c ?? (sig ? -1 : null))));
      await ready;
      await new Promise((r) => setTimeout(r, Math.random() * 400)); // before the commit, around it, or after it
      child.kill('SIGINT');
      return { i, code: await code, out, err, committed: s.lines().length === 1 };
    });
    const results = await pool(rounds, 4);
    const teardown = results.filter((r) => r.committed && r.code === -1).length;
    expect(teardown, 'rounds killed during process teardown').toBeLessThan(10);
    for (const r of results) {
      if (r.committed) {
        expect(JSON.parse(r.out).data, `round ${r.i}`).toMatchObject({ committed: true, n: 1 });
        expect(r.err, `round ${r.i}`).toBe('ready\n'); // no error line: nothing reported interrupted
        // exit 0 — or, when the signal lands while Node is already tearing the finished process
        // down (after its output was written and flushed), death by the signal's default action:
        // a window below any program (a bare `node -e` with a SIGINT listener shows it too).
        if (r.code !== 0) expect(r.code, `round ${r.i}: ${r.err} | ${r.out}`).toBe(-1);
      } else {
        expect(r.code, `round ${r.i}: ${r.err}`).toBe(130);
        expect(JSON.parse(r.err.trimEnd().split('\n').pop()!).error.kind).toBe('interrupted');
      }
    }
    // the rounds really hit both sides of the commit
    expect(results.some((r) => r.committed)).toBe(true);
    expect(results.some((r) => !r.committed)).toBe(true);
  }, 240_000);
});
