/**
 * The execution contract (docs/contract.md) through `execute`: mode detection, the success envelope, NDJSON
 * streams, the error line and human errors, exit codes, dry-run, idempotency keys, deprecation
 * warnings, interruption, version, and isolation of concurrent and repeated runs of one tree.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it, test } from 'vitest';
import { AxError, Command, defineError, resolveVersion, type RunContext } from '../../lib/index.ts';
import { MODE_DETECTION } from '../../lib/contract/mode.ts';
import { PLACEHOLDER_VERSIONS } from '../../lib/platform/version.ts';
import { envelope, errorOf, jsonLines, runCli } from '../helpers/run.ts';

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const KIND = /^[a-z][a-z0-9_]*$/;
/** A state directory for the runs that give a key to a command that replays (the file store lives there). */
const STATE = mkdtempSync(join(tmpdir(), 'ax-contract-state-'));
afterAll(() => rmSync(STATE, { recursive: true, force: true }));

const quotaExceeded = defineError({
  kind: 'test_quota_exceeded',
  exitCode: 7,
  description: 'Quota exceeded (contract test).',
  retryable: true,
});

/** One tree with a command per contract behaviour; fresh per test. */
function tree(): Command {
  const cmds: Command[] = [
    new Command({ use: 'whoami', short: 'Print the mode', run: (ctx) => ctx.mode }),
    new Command({ use: 'nothing', run: () => undefined }),
    new Command({ use: 'get <id>', run: (ctx) => ({ id: ctx.args.id, ok: true }) }),
    new Command({
      use: 'ctx',
      run: (ctx) => ({
        key: ctx.idempotencyKey,
        given: ctx.idempotencyKeyGiven,
        dryRun: ctx.dryRun,
        trace: ctx.traceId,
        span: ctx.spanId,
        mode: ctx.mode,
      }),
    }),
    new Command({
      use: 'delete <id>',
      dryRun: true,
      run: async (ctx) => {
        const removed = ctx.guard(`delete task ${ctx.args.id}`);
        const value = await ctx.perform('write the store', () => 'written', 'rehearsed');
        return { removed, value };
      },
    }),
    new Command({
      use: 'async-stream',
      dryRun: true,
      run: async function* (ctx) {
        ctx.guard('emit the items');
        yield { n: 1 };
        await sleep(1);
        yield { n: 2 };
        yield 'three';
      },
    }),
    new Command({
      use: 'sync-stream',
      run: function* () {
        yield 1;
        yield [2];
        yield null;
      },
    }),
    new Command({
      use: 'empty-stream',
      run: async function* () {
        /* nothing */
      },
    }),
    new Command({ use: 'array-stream', output: { kind: 'stream' }, run: () => ['a', 'b'] }),
    new Command({
      use: 'broken-stream',
      run: async function* () {
        yield { n: 1 };
        throw new AxError('network_error', 'connection reset', { fix: 'Retry.' });
      },
    }),
    new Command({
      use: 'throw <what>',
      run: (ctx) => {
        switch (ctx.args.what as string) {
          case 'object':
            throw { code: 'E42', detail: { n: 1 } };
          case 'error':
            throw new Error('boom');
          case 'type-error':
            return (undefined as unknown as { x: { y: number } }).x.y;
          case 'string':
            throw 'plain text';
          case 'abort': {
            const e = new Error('The operation was aborted');
            e.name = 'AbortError';
            throw e;
          }
          case 'custom':
            throw quotaExceeded('quota of 10 calls used up', {
              fix: 'Wait a minute.',
              retryAfterSeconds: 60,
              context: { used: 10 },
            });
          case 'network':
            throw new AxError('network_error', 'could not reach api.example.com');
          case 'timeout':
            throw new AxError('timeout', 'took longer than 5s');
          case 'auth':
            throw new AxError('auth_error', 'token expired', { fix: 'Log in again.' });
          case 'validation':
            throw ctx.fail('validation_error', 'title is empty');
          case 'undeclared':
            throw new AxError('not_in_catalogue', 'something odd');
          case 'bad-kind':
            throw new AxError('Not-A-Kind', 'bad kind');
          case 'exit-zero':
            throw new AxError('auth_error', 'forced zero', { exitCode: 0 });
          default:
            return 'no throw';
        }
      },
    }),
    new Command({
      use: 'table',
      run: () => [
        { id: 1, title: 'milk' },
        { id: 22, title: 'bread, rye', tags: ['a', 'b'] },
      ],
    }),
    new Command({ use: 'record', run: () => ({ id: 3, title: 'eggs', done: false, due: null }) }),
    new Command({ use: 'list-scalars', run: () => ['x', 2, true] }),
    new Command({ use: 'rendered', run: () => ({ n: 5 }), render: (d) => `n is ${(d as { n: number }).n}` }),
    new Command({
      use: 'warns',
      run: (ctx) => {
        ctx.warn('cache is stale');
        ctx.log('log line');
        return 'done';
      },
    }),
    new Command({
      use: 'old',
      deprecated: 'use "get" instead',
      flags: { legacy: { type: 'bool', deprecated: 'it does nothing' }, must: { type: 'string' } },
      run: () => 'old result',
    }),
    new Command({
      use: 'old-required',
      deprecated: 'gone soon',
      flags: { must: { type: 'string', required: true } },
      run: () => 'x',
    }),
    new Command({ use: 'secret', hidden: true, run: () => 'hidden but runnable' }),
    new Command({
      use: 'exporter',
      flags: { format: { type: 'string', default: 'csv' } },
      run: (ctx) => ({ format: ctx.flags.format, mode: ctx.mode }),
    }),
  ];
  return new Command({ use: 'app', short: 'Contract test app', commands: cmds });
}

describe('mode detection (--format > AGENT_MODE > TTY)', () => {
  it('surfaces the precedence verbatim', () => {
    expect(MODE_DETECTION).toBe('--format flag > AGENT_MODE env > TTY detection');
  });

  type Row = { name: string; args?: string[]; agent?: string; tty: boolean; want: 'json' | 'human' };
  const rows: Row[] = [
    { name: 'no TTY → json', tty: false, want: 'json' },
    { name: 'TTY → human', tty: true, want: 'human' },
    ...['1', 'true', 'yes', 'on', 'json', 'agent', 'machine', 'TRUE', ' Yes ', 'On\n'].map((v): Row => ({
      name: `AGENT_MODE=${JSON.stringify(v)} on a TTY → json`,
      agent: v,
      tty: true,
      want: 'json',
    })),
    ...['0', 'false', 'no', 'off', 'human', 'text', 'OFF', ' No ', 'False'].map((v): Row => ({
      name: `AGENT_MODE=${JSON.stringify(v)} off a TTY → human`,
      agent: v,
      tty: false,
      want: 'human',
    })),
    { name: 'blank AGENT_MODE is absent (TTY)', agent: '', tty: true, want: 'human' },
    { name: 'blank AGENT_MODE is absent (no TTY)', agent: '', tty: false, want: 'json' },
    { name: 'whitespace AGENT_MODE is absent', agent: '   ', tty: true, want: 'human' },
    ...['json', 'JSON', ' Agent ', 'machine'].map((v): Row => ({
      name: `--format ${JSON.stringify(v)} on a TTY → json`,
      args: ['--format', v],
      tty: true,
      want: 'json',
    })),
    ...['human', 'text', ' TEXT ', 'Human'].map((v): Row => ({
      name: `--format ${JSON.stringify(v)} off a TTY → human`,
      args: ['--format', v],
      tty: false,
      want: 'human',
    })),
    { name: '--format=text', args: ['--format=text'], tty: false, want: 'human' },
    { name: '--format before the command word', args: ['--format', 'text', '@'], tty: false, want: 'human' },
    { name: 'the last --format wins', args: ['--format', 'text', '--format', 'json'], tty: true, want: 'json' },
    { name: '--format json beats AGENT_MODE=0', args: ['--format', 'json'], agent: '0', tty: true, want: 'json' },
    { name: '--format text beats AGENT_MODE=1', args: ['--format', 'text'], agent: '1', tty: false, want: 'human' },
    {
      name: '--format json beats a bad AGENT_MODE',
      args: ['--format', 'json'],
      agent: 'bogus',
      tty: true,
      want: 'json',
    },
    {
      name: 'blank --format is absent (AGENT_MODE decides)',
      args: ['--format', ''],
      agent: 'off',
      tty: false,
      want: 'human',
    },
    { name: 'blank --format is absent (TTY decides)', args: ['--format=  '], tty: true, want: 'human' },
    {
      name: '--format after -- is a positional, not a flag',
      args: ['--', '--format', 'text'],
      tty: false,
      want: 'json',
    },
  ];

  test.each(rows)('$name', async ({ args = [], agent, tty, want }) => {
    const argv = args.includes('@') ? args.map((a) => (a === '@' ? 'whoami' : a)) : ['whoami', ...args];
    const root = tree();
    if (argv.includes('--')) root.findChild('whoami')!.validateArgs = () => {};
    const r = await runCli(root, argv, { tty, env: agent === undefined ? {} : { AGENT_MODE: agent } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    if (want === 'json') expect(envelope(r.stdout).data).toBe('json');
    else expect(r.stdout).toBe('human\n');
  });

  const formatError = {
    kind: 'validation_error',
    message: 'invalid value "xml" for --format: expected json or text',
    exit_code: 2,
    retryable: false,
    actionable_fix: 'Pass --format json (for machines) or --format text (for people).',
    context: {
      reason: 'invalid_mode',
      flag: '--format',
      value: 'xml',
      accepted: ['json', 'agent', 'machine', 'human', 'text'],
    },
  };

  test.each([
    { name: 'bad --format off a TTY: json error line', args: ['--format', 'xml'], tty: false, reportedIn: 'json' },
    { name: 'bad --format on a TTY: human error', args: ['--format', 'xml'], tty: true, reportedIn: 'human' },
    {
      name: 'bad --format with AGENT_MODE=1: json error line',
      args: ['--format', 'xml'],
      agent: '1',
      tty: true,
      reportedIn: 'json',
    },
    { name: 'bad --format=XML before the command', args: ['--format=xml', '@'], tty: false, reportedIn: 'json' },
  ])('$name', async ({ args, agent, tty, reportedIn }) => {
    const argv = args.includes('@') ? args.map((a) => (a === '@' ? 'whoami' : a)) : ['whoami', ...args];
    const r = await runCli(tree(), argv, { tty, env: agent ? { AGENT_MODE: agent } : {} });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    if (reportedIn === 'json') expect(errorOf(r.stderr).error).toStrictEqual(formatError);
    else expect(r.stderr).toBe(`Error: ${formatError.message}\nFix: ${formatError.actionable_fix}\n`);
  });

  test.each([
    { agent: 'maybe', tty: false, reportedIn: 'json' },
    { agent: '2', tty: false, reportedIn: 'json' },
    { agent: 'jsonn', tty: true, reportedIn: 'human' },
  ])('bad AGENT_MODE=$agent → validation_error, exit 2 ($reportedIn)', async ({ agent, tty, reportedIn }) => {
    const r = await runCli(tree(), ['whoami'], { tty, env: { AGENT_MODE: agent } });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const message = `invalid value ${JSON.stringify(agent)} for AGENT_MODE: expected json|agent|machine|1|true|yes|on or human|text|0|false|no|off`;
    const fix = 'Set AGENT_MODE=1 for JSON output, AGENT_MODE=0 for text, or unset it.';
    if (reportedIn === 'json') {
      const { error } = errorOf(r.stderr);
      expect(error.kind).toBe('validation_error');
      expect(error.exit_code).toBe(2);
      expect(error.message).toBe(message);
      expect(error.actionable_fix).toBe(fix);
      expect(error.context.reason).toBe('invalid_mode');
      expect(error.context.env).toBe('AGENT_MODE');
      expect(error.context.value).toBe(agent);
    } else {
      expect(r.stderr).toBe(`Error: ${message}\nFix: ${fix}\n`);
    }
  });

  it('a command that declares its own --format gets the value; the mode comes from AGENT_MODE/TTY', async () => {
    const r = await runCli(tree(), ['exporter', '--format', 'yaml']);
    expect(r.code).toBe(0);
    expect(envelope(r.stdout).data).toStrictEqual({ format: 'yaml', mode: 'json' });
    const h = await runCli(tree(), ['exporter', '--format', 'yaml'], { env: { AGENT_MODE: 'no' } });
    expect(h.stdout).toBe('format: yaml\nmode:   human\n');
  });
});

/** The keys every success line's meta starts with: the ids, then the outcome. */
const SUCCESS_KEYS = ['trace_id', 'span_id', 'idempotency_key', 'schema_version', 'ok', 'exit_code', 'duration_ms'];

describe('success envelope', () => {
  it('is one line {"data","meta":{trace_id,span_id,idempotency_key,schema_version,ok,exit_code,duration_ms}}', async () => {
    const r = await runCli(tree(), ['get', '42']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.endsWith('}\n')).toBe(true);
    expect(r.stdout.split('\n')).toHaveLength(2);
    const env = envelope(r.stdout);
    expect(Object.keys(env)).toStrictEqual(['data', 'meta']);
    expect(env.data).toStrictEqual({ id: '42', ok: true });
    expect(Object.keys(env.meta)).toStrictEqual([...SUCCESS_KEYS]);
    expect(env.meta.trace_id).toMatch(TRACE_ID);
    expect(env.meta.span_id).toMatch(SPAN_ID);
    expect(env.meta.idempotency_key).toMatch(UUID_V4);
    expect(env.meta).toMatchObject({ schema_version: '1.0.0', ok: true, exit_code: 0 });
    expect(Number.isInteger(env.meta.duration_ms) && env.meta.duration_ms >= 0, String(env.meta.duration_ms)).toBe(
      true,
    );
  });

  it('a handler returning nothing gives data: null', async () => {
    const r = await runCli(tree(), ['nothing']);
    expect(r.code).toBe(0);
    expect(envelope(r.stdout).data).toBeNull();
  });

  it('ctx sees the same ids as meta; every run gets fresh ones', async () => {
    const a = envelope((await runCli(tree(), ['ctx'])).stdout);
    const b = envelope((await runCli(tree(), ['ctx'])).stdout);
    expect(a.data).toStrictEqual({
      key: a.meta.idempotency_key,
      given: false,
      dryRun: false,
      trace: a.meta.trace_id,
      span: a.meta.span_id,
      mode: 'json',
    });
    expect(b.meta.trace_id).not.toBe(a.meta.trace_id);
    expect(b.meta.span_id).not.toBe(a.meta.span_id);
    expect(b.meta.idempotency_key).not.toBe(a.meta.idempotency_key);
  });

  test.each([
    { name: 'given key is echoed', args: ['--idempotency-key', 'order-77'], key: 'order-77', given: true },
    { name: 'given with =', args: ['--idempotency-key=k=1'], key: 'k=1', given: true },
    {
      name: 'given key is opaque: kept exactly, spaces too',
      args: ['--idempotency-key', '  abc  '],
      key: '  abc  ',
      given: true,
    },
    { name: 'given before the command word', args: ['--idempotency-key', 'pre', '@'], key: 'pre', given: true },
    { name: 'empty key → fresh UUID v4', args: ['--idempotency-key', ''], key: UUID_V4, given: false },
    { name: 'blank key → fresh UUID v4', args: ['--idempotency-key=   '], key: UUID_V4, given: false },
    { name: 'absent → fresh UUID v4', args: [], key: UUID_V4, given: false },
  ])('idempotency key: $name', async ({ args, key, given }) => {
    const argv = args.includes('@') ? args.map((a) => (a === '@' ? 'ctx' : a)) : ['ctx', ...args];
    const env = envelope((await runCli(tree(), argv, { env: { XDG_STATE_HOME: STATE } })).stdout);
    if (typeof key === 'string') expect(env.meta.idempotency_key).toBe(key);
    else expect(env.meta.idempotency_key).toMatch(key);
    expect(env.data.key).toBe(env.meta.idempotency_key);
    expect(env.data.given).toBe(given);
  });

  test.each([
    { args: [], dryRun: false },
    { args: ['--dry-run'], dryRun: true },
    { args: ['--dry-run=true'], dryRun: true },
    { args: ['--dry-run=false'], dryRun: false },
    { args: ['--dry-run', '--dry-run=false'], dryRun: false },
  ])('dry_run: $args', async ({ args, dryRun }) => {
    const r = await runCli(tree(), ['delete', '3', ...args]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const env = envelope(r.stdout);
    if (dryRun) {
      expect(env.data).toStrictEqual({ removed: false, value: 'rehearsed' });
      expect(Object.keys(env.meta)).toStrictEqual([...SUCCESS_KEYS, 'dry_run', 'would']);
      expect(env.meta.dry_run).toBe(true);
      expect(env.meta.would).toStrictEqual(['delete task 3', 'write the store']);
    } else {
      expect(env.data).toStrictEqual({ removed: true, value: 'written' });
      expect(Object.keys(env.meta)).toStrictEqual([...SUCCESS_KEYS]);
    }
  });

  it('a dry run of a command that offers none is refused in human mode too: the error on stderr, exit 2, nothing run', async () => {
    const r = await runCli(tree(), ['get', '1', '--dry-run'], { tty: true });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('cannot preview: it declares no dry run');
    expect(r.stderr).toContain('Fix: Leave --dry-run out');
  });

  it('a declared dry run the handler never checks: no notice in human mode, the warning on stderr instead', async () => {
    const root = tree();
    root.addCommand(new Command({ use: 'blind', dryRun: true, run: () => ({ ran: true }) }));
    const r = await runCli(root, ['blind', '--dry-run'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('never read ctx.dryRun');
    expect(r.stderr).not.toContain('Dry run: nothing was changed');
  });

  it('dry run in human mode: payload on stdout, the notice on stderr', async () => {
    const r = await runCli(tree(), ['delete', '3', '--dry-run'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('removed: false\nvalue:   rehearsed\n');
    expect(r.stderr).toBe('Dry run: nothing was changed. Would: delete task 3; write the store.\n');
  });

  it('ctx.warn goes to stderr and meta.warnings; ctx.log to stderr only', async () => {
    const r = await runCli(tree(), ['warns']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('cache is stale\nlog line\n');
    const env = envelope(r.stdout);
    expect(env.data).toBe('done');
    // ax-go's structured warnings: {code, message}; ctx.warn without a code gives `warning`
    expect(env.meta.warnings).toStrictEqual([{ code: 'warning', message: 'cache is stale' }]);
  });

  it('a hidden command still runs', async () => {
    const r = await runCli(tree(), ['secret']);
    expect(r.code).toBe(0);
    expect(envelope(r.stdout).data).toBe('hidden but runnable');
  });
});

describe('human-mode rendering', () => {
  test.each([
    { cmd: ['get', '5'], out: 'id: 5\nok: true\n' },
    { cmd: ['whoami'], out: 'human\n' },
    { cmd: ['nothing'], out: '' },
    { cmd: ['table'], out: 'ID  TITLE       TAGS\n1   milk\n22  bread, rye  a, b\n' },
    { cmd: ['record'], out: 'id:    3\ntitle: eggs\ndone:  false\ndue:\n' },
    { cmd: ['list-scalars'], out: 'x\n2\ntrue\n' },
    { cmd: ['rendered'], out: 'n is 5\n' },
  ])('$cmd.0', async ({ cmd, out }) => {
    const r = await runCli(tree(), cmd, { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(out);
  });
});

describe('NDJSON streams', () => {
  test.each([
    { cmd: 'async-stream', items: [{ n: 1 }, { n: 2 }, 'three'] },
    { cmd: 'sync-stream', items: [1, [2], null] },
    { cmd: 'array-stream', items: ['a', 'b'] },
  ])('$cmd: one envelope per item, one per line', async ({ cmd, items }) => {
    const r = await runCli(tree(), [cmd]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = jsonLines(r.stdout);
    expect(lines.map((l) => l.data)).toStrictEqual(items);
    for (const l of lines) {
      expect(Object.keys(l)).toStrictEqual(['data', 'meta']);
      expect(l.meta.trace_id).toMatch(TRACE_ID);
      expect(l.meta.span_id).toMatch(SPAN_ID);
      expect(l.meta.idempotency_key).toMatch(UUID_V4);
      // the run's meta on every line; duration_ms is the time until that item was written
      expect({ ...l.meta, duration_ms: 0 }).toStrictEqual({ ...lines[0].meta, duration_ms: 0 });
    }
    const durations = lines.map((l) => l.meta.duration_ms as number);
    expect(durations).toStrictEqual([...durations].sort((a, b) => a - b));
  });

  it('an empty stream writes nothing', async () => {
    const r = await runCli(tree(), ['empty-stream']);
    expect(r).toStrictEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('stream items carry dry_run and the given key', async () => {
    const r = await runCli(tree(), ['async-stream', '--dry-run', '--idempotency-key', 'k1']);
    for (const l of jsonLines(r.stdout)) expect(l.meta).toMatchObject({ idempotency_key: 'k1', dry_run: true });
  });

  it('human mode: one readable line per item', async () => {
    const r = await runCli(tree(), ['async-stream'], { tty: true });
    expect(r.stdout).toBe('{"n":1}\n{"n":2}\nthree\n');
  });

  it('a stream that fails midway keeps the items written and ends with the error line', async () => {
    const r = await runCli(tree(), ['broken-stream']);
    expect(r.code).toBe(3);
    expect(jsonLines(r.stdout).map((l) => l.data)).toStrictEqual([{ n: 1 }]);
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(errorOf(r.stderr).error).toStrictEqual({
      kind: 'network_error',
      message: 'connection reset',
      exit_code: 3,
      retryable: true,
      actionable_fix: 'Retry.',
    });
  });
});

describe('failures: error line, exit codes, human errors', () => {
  it('error line shape: exactly one line on stderr, nothing on stdout', async () => {
    const r = await runCli(tree(), ['gett', '1']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toHaveLength(2);
    const line = errorOf(r.stderr);
    expect(Object.keys(line)).toStrictEqual(['error', 'meta']);
    expect(line.error).toStrictEqual({
      kind: 'validation_error',
      message: 'unknown command "gett" for "app"',
      exit_code: 2,
      retryable: false,
      actionable_fix: "Did you mean 'app get'? Run 'app --help' to list commands (agents: 'app __schema').",
      suggestions: ['app get'],
      context: { reason: 'unknown_command', command: 'app', received: 'gett' },
    });
    expect(Object.keys(line.meta)).toStrictEqual([
      'trace_id',
      'tool',
      'version',
      'schema_version',
      'ok',
      'exit_code',
      'duration_ms',
    ]);
    expect(line.meta.trace_id).toMatch(TRACE_ID);
    expect(line.meta).toMatchObject({
      tool: 'app',
      version: '1.2.3',
      schema_version: '1.0.0',
      ok: false,
      exit_code: 2,
    });
    expect(Number.isInteger(line.meta.duration_ms) && line.meta.duration_ms >= 0, String(line.meta.duration_ms)).toBe(
      true,
    );
  });

  type Row = { what: string; exit: number; error: Record<string, unknown> };
  const rows: Row[] = [
    {
      what: 'object',
      exit: 1,
      error: {
        kind: 'internal_error',
        message: 'non-Error value thrown: {"code":"E42","detail":{"n":1}}',
        exit_code: 1,
        actionable_fix:
          'This is a bug in the program or an unexpected condition; retry, and report it with the trace_id if it persists.',
      },
    },
    { what: 'error', exit: 1, error: { kind: 'internal_error', message: 'boom', exit_code: 1 } },
    { what: 'type-error', exit: 1, error: { kind: 'internal_error', exit_code: 1 } },
    { what: 'string', exit: 1, error: { kind: 'internal_error', message: 'plain text', exit_code: 1 } },
    {
      what: 'abort',
      exit: 130,
      error: {
        kind: 'interrupted',
        message: 'the run was cancelled before it finished',
        exit_code: 130,
        retryable: true,
      },
    },
    {
      what: 'custom',
      exit: 7,
      error: {
        kind: 'test_quota_exceeded',
        message: 'quota of 10 calls used up',
        exit_code: 7,
        retryable: true,
        actionable_fix: 'Wait a minute.',
        context: { used: 10 },
        retry_after_seconds: 60,
      },
    },
    {
      what: 'network',
      exit: 3,
      error: { kind: 'network_error', message: 'could not reach api.example.com', exit_code: 3, retryable: true },
    },
    {
      what: 'timeout',
      exit: 3,
      error: { kind: 'timeout', message: 'took longer than 5s', exit_code: 3, retryable: true },
    },
    {
      what: 'auth',
      exit: 4,
      error: { kind: 'auth_error', message: 'token expired', exit_code: 4, actionable_fix: 'Log in again.' },
    },
    { what: 'validation', exit: 2, error: { kind: 'validation_error', message: 'title is empty', exit_code: 2 } },
    { what: 'undeclared', exit: 1, error: { kind: 'not_in_catalogue', message: 'something odd', exit_code: 1 } },
    { what: 'bad-kind', exit: 1, error: { kind: 'internal_error', message: 'bad kind', exit_code: 1 } },
    { what: 'exit-zero', exit: 1, error: { kind: 'auth_error', message: 'forced zero', exit_code: 1 } },
  ];

  test.each(rows)('thrown $what → exit $exit', async ({ what, exit, error }) => {
    const r = await runCli(tree(), ['throw', what]);
    expect(r.code).toBe(exit);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toHaveLength(2); // one line: no stack trace
    const line = errorOf(r.stderr);
    expect(line.error).toMatchObject(error);
    expect(line.error.kind).toMatch(KIND);
    expect(line.error.exit_code).toBe(exit);
    expect(line.meta.trace_id).toMatch(TRACE_ID);
  });

  it('a thrown plain object reads well in human mode too', async () => {
    const r = await runCli(tree(), ['throw', 'object'], { tty: true });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^Error: non-Error value thrown: \{"code":"E42","detail":\{"n":1\}\}\nFix: This is a bug in the program or an unexpected condition; retry, and report it with the trace_id if it persists\.\nTrace id: [0-9a-f]{32}\n$/,
    );
  });

  test.each([
    {
      argv: ['nope'],
      stderr:
        'Error: unknown command "nope" for "app"\nUsage: app [command]\nFix: Run \'app --help\' to list commands (agents: \'app __schema\').\n',
    },
    {
      argv: ['gett', '1'],
      stderr:
        'Error: unknown command "gett" for "app"\n\nDid you mean this?\n\tapp get\n\nUsage: app [command]\nFix: Run \'app --help\' to list commands (agents: \'app __schema\').\n',
    },
    {
      argv: ['get'],
      stderr:
        "Error: missing required argument <id>\nUsage: app get <id> [flags]\nFix: Run 'app get --help' to see the arguments it takes.\n",
    },
    {
      argv: ['old-required'],
      stderr:
        'Command "old-required" is deprecated, gone soon\nError: required flag(s) "must" not set\nUsage: app old-required [flags]\nFix: Give --must.\nRun \'app old-required --help\' for usage.\n',
    },
    { argv: ['throw', 'auth'], stderr: 'Error: token expired\nFix: Log in again.\n' },
  ])('human error: $argv', async ({ argv, stderr }) => {
    const r = await runCli(tree(), argv, { tty: true });
    expect(r.code).toBe(argv[0] === 'throw' ? 4 : 2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(stderr);
  });

  it('after deprecation warnings, the error is still the last line of stderr', async () => {
    const r = await runCli(tree(), ['old-required']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('Command "old-required" is deprecated, gone soon');
    expect(errorOf(r.stderr).error).toMatchObject({
      kind: 'validation_error',
      message: 'required flag(s) "must" not set',
    });
  });

  it('the error meta carries the version given to execute', async () => {
    const r = await runCli(tree(), ['nope'], { version: '3.4.5' });
    expect(errorOf(r.stderr).meta.version).toBe('3.4.5');
  });
});

describe('deprecated command and flag', () => {
  it('json mode: warnings on stderr, a valid envelope with meta.warnings on stdout', async () => {
    const r = await runCli(tree(), ['old', '--legacy']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      'Command "old" is deprecated, use "get" instead\nFlag --legacy has been deprecated, it does nothing\n',
    );
    const env = envelope(r.stdout);
    expect(env.data).toBe('old result');
    expect(env.meta.warnings).toStrictEqual([
      { code: 'deprecated_command', message: 'Command "old" is deprecated, use "get" instead' },
      { code: 'deprecated_flag', message: 'Flag --legacy has been deprecated, it does nothing' },
    ]);
  });

  it('the flag warning is given once however often the flag is', async () => {
    const r = await runCli(tree(), ['old', '--legacy', '--legacy=false']);
    expect(envelope(r.stdout).meta.warnings).toHaveLength(2);
  });

  it('no flag warning when the deprecated flag is not used', async () => {
    const r = await runCli(tree(), ['old']);
    expect(r.stderr).toBe('Command "old" is deprecated, use "get" instead\n');
    expect(envelope(r.stdout).meta.warnings).toStrictEqual([
      { code: 'deprecated_command', message: 'Command "old" is deprecated, use "get" instead' },
    ]);
  });

  it('human mode: warnings on stderr, text on stdout', async () => {
    const r = await runCli(tree(), ['old', '--legacy'], { tty: true });
    expect(r.stdout).toBe('old result\n');
    expect(r.stderr).toBe(
      'Command "old" is deprecated, use "get" instead\nFlag --legacy has been deprecated, it does nothing\n',
    );
  });
});

describe('interruption (SIGINT / abort) → 130', () => {
  const interrupted = {
    kind: 'interrupted',
    message: 'interrupted (SIGINT) before the command finished',
    exit_code: 130,
    retryable: true,
    // `wait` declares no effects, so it may have changed state: the fix says how a retry is safe
    actionable_fix:
      'It may have changed state before it stopped: a retry is safe only with the same --idempotency-key, and this call had none that replays, so check that state before running it again.',
  };

  function waiting(mode: 'cooperative' | 'stubborn' | 'stream'): Command {
    const run =
      mode === 'cooperative'
        ? (ctx: RunContext) =>
            new Promise((_, reject) =>
              ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true }),
            )
        : mode === 'stubborn'
          ? () => new Promise(() => {})
          : async function* (ctx: RunContext) {
              yield { n: 1 };
              await new Promise((_, reject) =>
                ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true }),
              );
            };
    return new Command({ use: 'app', commands: [new Command({ use: 'wait', run })] });
  }

  test.each(['cooperative', 'stubborn'] as const)('%s handler: abort during the run', async (mode) => {
    const ac = new AbortController();
    const p = runCli(waiting(mode), ['wait'], { signal: ac.signal });
    setTimeout(() => ac.abort(new Error('SIGINT')), 20);
    const r = await p;
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(errorOf(r.stderr).error).toStrictEqual(interrupted);
  });

  it('abort during a stream: items so far stay, the error line ends stderr', async () => {
    const ac = new AbortController();
    const p = runCli(waiting('stream'), ['wait'], { signal: ac.signal });
    setTimeout(() => ac.abort(new Error('SIGINT')), 20);
    const r = await p;
    expect(r.code).toBe(130);
    expect(jsonLines(r.stdout).map((l) => l.data)).toStrictEqual([{ n: 1 }]);
    expect(errorOf(r.stderr).error).toStrictEqual(interrupted);
  });

  it('human mode names the interruption', async () => {
    const ac = new AbortController();
    const p = runCli(waiting('cooperative'), ['wait'], { signal: ac.signal, tty: true });
    setTimeout(() => ac.abort(new Error('SIGINT')), 20);
    const r = await p;
    expect(r.code).toBe(130);
    expect(r.stderr).toBe(`Error: ${interrupted.message}\nFix: ${interrupted.actionable_fix}\n`);
  });
});

describe('version', () => {
  test.each([
    { args: ['--version'], tty: false },
    { args: ['-v'], tty: false },
    { args: ['--version', '--format', 'json'], tty: true },
  ])('$args in json mode: an envelope', async ({ args, tty }) => {
    const r = await runCli(tree(), args, { tty, version: '2.5.0' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const env = envelope(r.stdout);
    expect(env.data).toStrictEqual({ name: 'app', version: '2.5.0' });
    expect(Object.keys(env.meta)).toStrictEqual([...SUCCESS_KEYS]);
  });

  test.each([
    { args: ['--version'], tty: true },
    { args: ['-v', '--format=text'], tty: false },
  ])('$args in human mode: text', async ({ args, tty }) => {
    const r = await runCli(tree(), args, { tty, version: '2.5.0' });
    expect(r).toStrictEqual({ code: 0, stdout: 'app version 2.5.0\n', stderr: '' });
  });

  it('--version runs no handler, even on a runnable root', async () => {
    let ran = false;
    const root = new Command({ use: 'solo', run: () => (ran = true) });
    const r = await runCli(root, ['--version'], { tty: true, version: '1.0.0' });
    expect(r.stdout).toBe('solo version 1.0.0\n');
    expect(ran).toBe(false);
  });

  it("the root's version is used when execute gets none", async () => {
    const root = new Command({ use: 'app', version: '9.8.7', commands: [new Command({ use: 'x', run: () => 1 })] });
    const r = await runCli(root, ['--version'], { tty: true, version: undefined });
    expect(r.stdout).toBe('app version 9.8.7\n');
  });

  test.each(['', 'dev', 'unknown', '0.0.0-unknown', ' dev '])('placeholder version %j is skipped', async (v) => {
    const r = await runCli(tree(), ['--version'], { tty: true, version: v });
    const resolved = resolveVersion(undefined);
    expect(resolved).not.toBe(v);
    expect(resolved).toBe(resolveVersion(v));
    expect(r.stdout).toBe(`app version ${resolved}\n`);
  });

  describe('resolveVersion', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ax-version-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'outer', version: '4.5.6' }));
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin', 'cli.js'), '');
    mkdirSync(join(dir, 'inner', 'src'), { recursive: true });
    writeFileSync(join(dir, 'inner', 'package.json'), JSON.stringify({ name: 'inner', version: 'dev' }));
    writeFileSync(join(dir, 'inner', 'src', 'main.ts'), '');
    mkdirSync(join(dir, 'broken'));
    writeFileSync(join(dir, 'broken', 'package.json'), '{not json');
    const bare = mkdtempSync(join(tmpdir(), 'ax-version-bare-'));
    afterAll(() => rmSync(bare, { recursive: true, force: true }));

    it('lists the placeholders', () => {
      expect(PLACEHOLDER_VERSIONS).toStrictEqual(['', 'dev', 'unknown', '0.0.0-unknown']);
    });

    test.each([
      { injected: '2.0.0', entry: join(dir, 'bin', 'cli.js'), want: '2.0.0' },
      { injected: ' 2.0.0 ', entry: join(dir, 'bin', 'cli.js'), want: '2.0.0' },
      { injected: undefined, entry: join(dir, 'bin', 'cli.js'), want: '4.5.6' },
      { injected: '', entry: join(dir, 'bin', 'cli.js'), want: '4.5.6' },
      { injected: 'dev', entry: join(dir, 'bin', 'cli.js'), want: '4.5.6' },
      { injected: 'unknown', entry: join(dir, 'bin'), want: '4.5.6' },
      { injected: '0.0.0-unknown', entry: join(dir, 'bin', 'cli.js'), want: '4.5.6' },
      { injected: undefined, entry: join(dir, 'inner', 'src', 'main.ts'), want: '4.5.6' }, // inner package.json has a placeholder
      { injected: undefined, entry: join(dir, 'broken', 'x.js'), want: '4.5.6' }, // malformed package.json is skipped
      { injected: 'dev', entry: join(bare, 'cli.js'), want: '0.0.0-unknown' },
    ])('resolveVersion($injected, $entry) = $want', ({ injected, entry, want }) => {
      expect(resolveVersion(injected, entry)).toBe(want);
    });

    it("run from a Git checkout without a version: the checkout's revision, -dirty with changes (ax-go vcs.revision)", () => {
      const repo = mkdtempSync(join(tmpdir(), 'ax-version-git-'));
      try {
        const git = (...args: string[]) =>
          execFileSync('git', args, {
            cwd: repo,
            encoding: 'utf8',
            env: {
              ...process.env,
              GIT_AUTHOR_NAME: 'a',
              GIT_AUTHOR_EMAIL: 'a@b',
              GIT_COMMITTER_NAME: 'a',
              GIT_COMMITTER_EMAIL: 'a@b',
            },
          }).trim();
        git('init', '-q');
        writeFileSync(join(repo, 'cli.js'), '');
        git('add', 'cli.js');
        git('commit', '-q', '-m', 'one');
        const head = git('rev-parse', 'HEAD');
        expect(resolveVersion(undefined, join(repo, 'cli.js'))).toBe(head);
        writeFileSync(join(repo, 'cli.js'), 'changed');
        expect(resolveVersion('dev', join(repo, 'cli.js'))).toBe(`${head}-dirty`);
        // a package.json version still comes first
        writeFileSync(join(repo, 'package.json'), JSON.stringify({ version: '7.0.0' }));
        expect(resolveVersion(undefined, join(repo, 'cli.js'))).toBe('7.0.0');
      } finally {
        rmSync(repo, { recursive: true, force: true });
      }
    });
  });
});

describe('isolation: one tree, many runs', () => {
  function shared(): Command {
    const leaf = new Command({
      use: 'work <id>',
      flags: {
        name: { type: 'string', short: 'n' },
        num: { type: 'int', default: -1 },
        tag: { type: 'stringSlice', default: ['base'] },
        loud: { type: 'bool' },
        cfg: { type: 'json', default: { seen: [] } },
      },
      run: async (ctx) => {
        await sleep(Math.random() * 20);
        // Handlers that mutate their (default) values must not affect other runs.
        (ctx.flags.tag as string[]).push('mutated');
        (ctx.flags.cfg as { seen: string[] }).seen.push(ctx.args.id as string);
        await sleep(Math.random() * 5);
        return {
          id: ctx.args.id,
          name: ctx.flags.name ?? null,
          num: ctx.flags.num,
          tag: ctx.flags.tag,
          loud: ctx.flags.loud,
          cfg: ctx.flags.cfg,
          profile: ctx.flags.profile ?? null,
          key: ctx.idempotencyKey,
        };
      },
    });
    return new Command({
      use: 'app',
      persistentFlags: { profile: { type: 'string' } },
      commands: [new Command({ use: 'grp', commands: [leaf] })],
    });
  }

  it('20 parallel runs each see only their own flags and args', async () => {
    const root = shared();
    const cases = Array.from({ length: 20 }, (_, i) => {
      const args = ['grp', 'work', `id${i}`];
      if (i % 2 === 0) args.push('--name', `name${i}`);
      if (i % 3 === 0) args.push(`--num=${i}`);
      if (i % 4 === 0) args.push('--tag', `t${i},u${i}`);
      if (i % 5 === 0) args.push('--loud');
      if (i % 6 === 0) args.unshift('--profile', `p${i}`);
      args.push('--idempotency-key', `key-${i}`);
      return {
        args,
        want: {
          id: `id${i}`,
          name: i % 2 === 0 ? `name${i}` : null,
          num: i % 3 === 0 ? i : -1,
          tag: [...(i % 4 === 0 ? [`t${i}`, `u${i}`] : ['base']), 'mutated'],
          loud: i % 5 === 0,
          cfg: { seen: [`id${i}`] },
          profile: i % 6 === 0 ? `p${i}` : null,
          key: `key-${i}`,
        },
      };
    });
    const results = await Promise.all(cases.map((c) => runCli(root, c.args, { env: { XDG_STATE_HOME: STATE } })));
    results.forEach((r, i) => {
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(envelope(r.stdout).data).toStrictEqual(cases[i]!.want);
    });
    const traces = new Set(results.map((r) => envelope(r.stdout).meta.trace_id));
    expect(traces.size).toBe(20);
  });

  it('running the same tree twice in sequence leaks nothing', async () => {
    const root = shared();
    const first = await runCli(root, [
      '--profile',
      'prod',
      'grp',
      'work',
      'a',
      '-n',
      'x',
      '--num',
      '5',
      '--tag',
      'q',
      '--loud',
      '--cfg',
      '{"seen":["given"]}',
    ]);
    expect(envelope(first.stdout).data).toStrictEqual({
      id: 'a',
      name: 'x',
      num: 5,
      tag: ['q', 'mutated'],
      loud: true,
      cfg: { seen: ['given', 'a'] },
      profile: 'prod',
      key: envelope(first.stdout).meta.idempotency_key,
    });
    const second = await runCli(root, ['grp', 'work', 'b']);
    const data = envelope(second.stdout).data;
    expect(data).toStrictEqual({
      id: 'b',
      name: null,
      num: -1,
      tag: ['base', 'mutated'],
      loud: false,
      cfg: { seen: ['b'] },
      profile: null,
      key: data.key,
    });
    expect(data.key).not.toBe(envelope(first.stdout).meta.idempotency_key);
    const third = await runCli(root, ['grp', 'work', 'c']);
    expect(envelope(third.stdout).data.cfg).toStrictEqual({ seen: ['c'] });
    expect(envelope(third.stdout).data.tag).toStrictEqual(['base', 'mutated']);
  });

  it('a failed run leaves nothing behind for the next', async () => {
    const root = shared();
    const bad = await runCli(root, ['grp', 'work', 'a', '--name', 'x', '--num', 'NaN']);
    expect(bad.code).toBe(2);
    const good = await runCli(root, ['grp', 'work', 'b']);
    expect(envelope(good.stdout).data.name).toBeNull();
  });
});

describe('interruption, debugging and version edge cases', () => {
  it('a signal aborted before the run starts: the handler never runs, exit 130', async () => {
    let ran = false;
    const root = new Command({ use: 'app', run: () => void (ran = true) });
    const ac = new AbortController();
    ac.abort(new Error('SIGINT'));
    const r = await runCli(root, [], { signal: ac.signal });
    expect(ran).toBe(false);
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
    expect(errorOf(r.stderr).error.kind).toBe('interrupted');
  });

  it('a handler that ignores the abort and finishes within the grace: its result stands (exit 0)', async () => {
    const root = new Command({ use: 'app', run: async () => (await sleep(100), { done: true }) });
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('SIGINT')), 20);
    const r = await runCli(root, [], { signal: ac.signal });
    expect(r.code).toBe(0);
    expect(envelope(r.stdout).data).toStrictEqual({ done: true });
    expect(r.stderr).toBe('');
  });

  it('AX_DEBUG prints the stack before the error line, which stays last', async () => {
    const root = new Command({
      use: 'app',
      run: () => {
        throw new Error('kaboom');
      },
    });
    const r = await runCli(root, [], { env: { AX_DEBUG: '1' } });
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(2);
    expect(lines[0]).toContain('kaboom');
    expect(errorOf(r.stderr).error.message).toBe('kaboom');
  });

  it("a placeholder version given to execute falls back to the root's own version", async () => {
    const root = new Command({ use: 'app', version: '9.9.9', run: () => 1 });
    const r = await runCli(root, ['--version'], { version: 'dev' });
    expect(envelope(r.stdout).data).toEqual({ name: 'app', version: '9.9.9' });
  });
});
