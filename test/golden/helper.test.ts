/**
 * Unit tests of the exported golden helper (`ax-ts/golden`): masking, transcripts, pretty JSON,
 * the update/missing/mismatch rules of expectGolden, and goldenRun in-process and spawned.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Command } from '../../lib/index.ts';
import {
  diffText,
  expectGolden,
  expectUtcTimestamps,
  goldenPath,
  goldenRun,
  maskVolatile,
  nodeCommand,
  nonUtcTimestamps,
  prettyJson,
  transcript,
} from '../../golden/index.ts';
import { buildRefCli } from '../../golden/fixtures/ref-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'ax-golden-helper-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const REF_MAIN = new URL('../../golden/fixtures/ref-main.ts', import.meta.url).pathname;

describe('maskVolatile', () => {
  const trace = '0af7651916cd43dd8448eb211c80319c';
  const span = 'b7ad6b7169203331';
  const uuid = '3f2c1b1e-9d7a-4c1e-8f00-0123456789ab';

  it('replaces trace ids, span ids, UUIDs and ISO date-times with numbered placeholders', () => {
    const line = JSON.stringify({
      data: { at: '2024-01-02T03:04:05.678Z', due: '2030-01-31' },
      meta: { trace_id: trace, span_id: span, idempotency_key: uuid },
    });
    expect(maskVolatile(line)).toBe(
      '{"data":{"at":"<TIMESTAMP_1>","due":"2030-01-31"},"meta":{"trace_id":"<TRACE_ID_1>","span_id":"<SPAN_ID_1>","idempotency_key":"<UUID_1>"}}',
    );
  });

  it('numbers equal values alike and different values apart, by first appearance', () => {
    const other = 'ffffffffffffffffffffffffffffffff';
    expect(maskVolatile(`${trace} ${other} ${trace}`)).toBe('<TRACE_ID_1> <TRACE_ID_2> <TRACE_ID_1>');
  });

  it('masks every duration_ms as one unnumbered placeholder; a number elsewhere stays', () => {
    const a = '{"data":{"n":12},"meta":{"exit_code":0,"duration_ms":12}}\n{"data":{"n":3},"meta":{"duration_ms":12}}';
    expect(maskVolatile(a)).toBe(
      '{"data":{"n":12},"meta":{"exit_code":0,"duration_ms":"<DURATION_MS>"}}\n{"data":{"n":3},"meta":{"duration_ms":"<DURATION_MS>"}}',
    );
    expect(maskVolatile('{"meta":{"duration_ms":7}}', { fields: ['meta.duration_ms'] })).toBe(
      '{"meta":{"duration_ms":"<DURATION_MS>"}}',
    );
  });

  it('masks timestamps with offsets and without fractions; keeps plain dates', () => {
    expect(maskVolatile('2024-01-02T03:04:05+01:00 2024-01-02T03:04Z 2024-01-02')).toBe(
      '<TIMESTAMP_1> <TIMESTAMP_2> 2024-01-02',
    );
  });

  it('keeps caller-given keys, longer hex (sha256) and upper-case hex words', () => {
    const sha = 'a'.repeat(64);
    expect(maskVolatile(`"idempotency_key":"k-1" ${sha} ${trace.toUpperCase()}`)).toBe(
      `"idempotency_key":"k-1" ${sha} ${trace.toUpperCase()}`,
    );
  });

  it('masks the given version in JSON and applies extra replacements first', () => {
    expect(
      maskVolatile('{"version":"1.2.3"} at /tmp/x1/file', { version: '1.2.3', replace: [['/tmp/x1', '<TMP>']] }),
    ).toBe('{"version":"<VERSION>"} at <TMP>/file');
    expect(maskVolatile('a1 a22', { replace: [[/a\d+/g, 'N']] })).toBe('N N');
  });
});

describe('transcript', () => {
  it('shows the command line, exit code and both streams verbatim', () => {
    const t = transcript({
      code: 5,
      stdout: '',
      stderr: 'oops\n',
      args: ['add', 'buy milk', "it's"],
      program: 'tasks',
    });
    expect(t).toBe("$ tasks add 'buy milk' 'it'\\''s'\n--- exit 5\n--- stdout (empty)\n--- stderr\noops\n");
  });

  it('marks a stream without a final newline', () => {
    expect(transcript({ code: 0, stdout: 'x', stderr: '', args: [], program: 'p' })).toBe(
      '$ p\n--- exit 0\n--- stdout\nx\n--- (no newline at end of stdout)\n--- stderr (empty)\n',
    );
  });
});

describe('prettyJson', () => {
  it('pretty-prints one document or NDJSON', () => {
    expect(prettyJson('{"a":1}\n{"b":[2]}\n')).toBe('{\n  "a": 1\n}\n{\n  "b": [\n    2\n  ]\n}\n');
  });

  it('refuses output that is not compact canonical JSON, or lacks the final newline', () => {
    expect(() => prettyJson('{"a": 1}\n')).toThrow(/not compact canonical JSON/);
    expect(() => prettyJson('{"a":1}')).toThrow(/newline/);
    expect(() => prettyJson('nope\n')).toThrow(/not JSON/);
  });
});

describe('expectGolden', () => {
  const off = { AX_GOLDEN_UPDATE: undefined };

  it('fails on a missing golden, names the update command, and creates nothing', () => {
    expect(() => expectGolden('missing/case', 'x\n', { dir, env: off })).toThrow(
      /does not exist[\s\S]*npm run golden:update/,
    );
    expect(existsSync(join(dir, 'missing', 'case.golden'))).toBe(false);
  });

  it('writes only when AX_GOLDEN_UPDATE is exactly 1', () => {
    expect(() => expectGolden('upd', 'v1\n', { dir, env: { AX_GOLDEN_UPDATE: 'true' } })).toThrow(/does not exist/);
    expectGolden('upd', 'v1\n', { dir, env: { AX_GOLDEN_UPDATE: '1' } });
    expect(readFileSync(join(dir, 'upd.golden'), 'utf8')).toBe('v1\n');
    expectGolden('upd', 'v1\n', { dir, env: off });
    expectGolden('upd', 'v2\n', { dir, env: { AX_GOLDEN_UPDATE: '1' } });
    expect(readFileSync(join(dir, 'upd.golden'), 'utf8')).toBe('v2\n');
  });

  it('compares exact bytes and throws a readable diff', () => {
    writeFileSync(join(dir, 'cmp.golden'), 'a\nb\nc\n');
    expectGolden('cmp', 'a\nb\nc\n', { dir, env: off });
    let message = '';
    try {
      expectGolden('cmp', 'a\nB\nc\n', { dir, env: off, updateCommand: 'make golden' });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/golden mismatch: .*cmp\.golden/);
    expect(message).toContain('make golden');
    expect(message).toContain('- b');
    expect(message).toContain('+ B');
    expect(() => expectGolden('cmp', 'a\nb\nc', { dir, env: off })).toThrow(/no newline at the end/);
    expect(() => expectGolden('cmp', 'a\nb \nc\n', { dir, env: off })).toThrow(/\+ b·/);
  });

  it('pins non-string values as indented JSON', () => {
    expectGolden('obj', { a: [1] }, { dir, env: { AX_GOLDEN_UPDATE: '1' } });
    expect(readFileSync(join(dir, 'obj.golden'), 'utf8')).toBe('{\n  "a": [\n    1\n  ]\n}\n');
  });

  it('refuses names that would leave the directory', () => {
    expect(() => goldenPath('../x', dir)).toThrow(TypeError);
    expect(() => goldenPath('/abs', dir)).toThrow(TypeError);
    expect(goldenPath('a/b.c', dir)).toBe(join(dir, 'a', 'b.c.golden'));
  });
});

describe('diffText', () => {
  it('expands a long one-line JSON document so the changed field shows', () => {
    const doc = (v: string) =>
      `${JSON.stringify({ tools: [{ name: 'a', description: 'x'.repeat(150) }, { name: v }] })}\n`;
    const d = diffText(doc('b'), doc('c'));
    expect(d).toContain('pretty-printed');
    expect(d).toContain('-       "name": "b"');
    expect(d).toContain('+       "name": "c"');
  });
});

describe('goldenRun', () => {
  it('runs a tree in-process, isolated (json mode, empty env) with stdin', async () => {
    const echo = () =>
      new Command({
        use: 'echo',
        version: '1.0.0',
        run: async (ctx) => {
          let text = '';
          for await (const c of ctx.stdin) text += String(c);
          return { stdin: text, agentMode: ctx.env.AGENT_MODE ?? null, mode: ctx.mode };
        },
      });
    const r = await goldenRun(echo, [], { stdin: 'hello' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data).toEqual({ stdin: 'hello', agentMode: null, mode: 'json' });
    expect(r.program).toBe('echo');
    const human = await goldenRun(echo(), [], { tty: true });
    expect(human.stdout).toContain('mode:');
  });

  it('a given --idempotency-key records and replays with an empty environment (a private state directory)', async () => {
    let runs = 0;
    const tree = () =>
      new Command({
        use: 'counter',
        commands: [new Command({ use: 'bump', effects: 'non_idempotent', run: () => ({ runs: ++runs }) })],
      });
    const first = await goldenRun(tree, ['bump', '--idempotency-key', 'k-1']);
    const again = await goldenRun(tree, ['bump', '--idempotency-key', 'k-1']);
    expect(first.code, first.stderr).toBe(0);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ data: { runs: 1 }, meta: { replayed: true } });
    expect(runs).toBe(1);
    // an environment of one's own keeps its own state directory
    const own = mkdtempSync(join(tmpdir(), 'ax-golden-own-'));
    try {
      const elsewhere = await goldenRun(tree, ['bump', '--idempotency-key', 'k-1'], { env: { XDG_STATE_HOME: own } });
      expect(JSON.parse(elsewhere.stdout).data).toEqual({ runs: 2 });
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('gives the same masked transcript in-process and as a real process', async () => {
    for (const args of [
      ['item', 'get', 'i-1'],
      ['item', 'get', 'i-9'],
      ['__schema', '--as=mcp'],
      ['watch', 'alerts'],
    ]) {
      const a = await goldenRun(buildRefCli, args);
      const b = await goldenRun(nodeCommand(REF_MAIN), args, { program: 'ref' });
      expect(maskVolatile(transcript(b))).toBe(maskVolatile(transcript(a)));
    }
  }, 60_000);

  it('spawns with a minimal environment unless told otherwise, and passes stdin', async () => {
    const script =
      'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.stringify({s,keys:Object.keys(process.env).filter(k=>k!=="Path"&&k!=="PATH").sort()})))';
    const r = await goldenRun([process.execPath, '-e', script], [], {
      stdin: 'in',
      env: { FOO: 'bar', GONE: undefined },
    });
    // and the private state directory (neither XDG_STATE_HOME nor HOME was given)
    expect(JSON.parse(r.stdout)).toEqual({ s: 'in', keys: ['FOO', 'XDG_STATE_HOME'] });
    const exit = await goldenRun([process.execPath, '-e', 'process.exitCode = 3'], []);
    expect(exit.code).toBe(3);
  });

  it('rejects when the program cannot start or runs too long', async () => {
    await expect(goldenRun(['/nonexistent/ax-golden-bin'], [])).rejects.toThrow(/cannot start/);
    await expect(
      goldenRun([process.execPath, '-e', 'setTimeout(() => {}, 20000)'], [], { timeoutMs: 300 }),
    ).rejects.toThrow(/did not finish within 300 ms/);
    const slow = () =>
      new Command({ use: 'slow', version: '1.0.0', run: () => new Promise((r) => setTimeout(r, 5000)) });
    await expect(goldenRun(slow, [], { timeoutMs: 100 })).rejects.toThrow(/slow did not finish within 100 ms/);
  });
});

describe('expectUtcTimestamps (ax-go ValidateTimestamps)', () => {
  it("passes a real run's output: the demo's add writes created_at in UTC", async () => {
    const { buildTasksCli } = await import('../../cmd/tasks/cli.ts');
    const store = join(dir, 'utc-tasks.json');
    const r = await goldenRun(buildTasksCli, ['add', 'water', 'plants', '--format', 'json'], {
      env: { TASKS_FILE: store, TZ: 'Asia/Kolkata' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).data.created_at).toMatch(/Z$/);
    expect(() => expectUtcTimestamps(r.stdout)).not.toThrow();
    expect(() => expectUtcTimestamps(transcript(r))).not.toThrow();
  });

  it('names each timestamp with an offset, in a document or in NDJSON lines; leaves other strings alone', () => {
    const doc = { data: { a: '2024-01-02T03:04:05Z', b: '2024-01-02T03:04:05.5+00:00', c: ['2024-01-02T03:04:05+02:00'] } };
    expect(nonUtcTimestamps(JSON.stringify(doc))).toEqual(['$.data.c[0]: "2024-01-02T03:04:05+02:00" is not UTC']);
    const ndjson = `${JSON.stringify({ t: '2024-01-02T03:04:05-05:00' })}\nnot json\n${JSON.stringify({ t: 'x' })}\n`;
    expect(nonUtcTimestamps(ndjson)).toEqual(['line 1: $.t: "2024-01-02T03:04:05-05:00" is not UTC']);
    // not RFC 3339 date-times: a plain date, a date-time without offset, an impossible date
    for (const s of ['2024-01-02', '2024-01-02T03:04:05', '2024-02-30T03:04:05+02:00'])
      expect(nonUtcTimestamps(JSON.stringify({ s })), s).toEqual([]);
    expect(() => expectUtcTimestamps(JSON.stringify(doc))).toThrow(/not UTC:\n {2}\$\.data\.c\[0\]/);
  });
});

describe('maskVolatile: map values and deletions by locator (ax-go golden masking)', () => {
  const line = JSON.stringify({
    data: { counts: { a: 3, b: 4 }, env: { HOME: '/h', PATH: '/p' }, debug: [1, 2], keep: 'x' },
    meta: { trace_id: 'f'.repeat(32) },
  });
  it('fields: a `*` segment masks every value of a map, named after the map', () => {
    const out = JSON.parse(maskVolatile(`${line}\n`, { fields: ['data.counts.*', 'meta.trace_id'] }));
    expect(out.data.counts).toEqual({ a: '<COUNTS_1>', b: '<COUNTS_2>' });
    expect(out.meta.trace_id).toBe('<TRACE_ID_1>');
    expect(out.data.keep).toBe('x');
  });
  it('drop: deletes the keys at those locators (an array-valued key whole; `*`: every key of a map), before masking', () => {
    const text = `$ x\n${line}\nnot json\n`;
    const out = maskVolatile(text, { drop: ['data.debug', 'data.env.*'], fields: ['meta.trace_id'] });
    const [head, json, tail] = out.split('\n');
    expect([head, tail]).toEqual(['$ x', 'not json']);
    expect(JSON.parse(json!).data).toEqual({ counts: { a: 3, b: 4 }, env: {}, keep: 'x' });
    // without fields, the shape masks still apply after the deletion
    expect(JSON.parse(maskVolatile(`${line}\n`, { drop: ['data.counts'] }).trim())).toMatchObject({
      data: { env: { HOME: '/h' } },
      meta: { trace_id: '<TRACE_ID_1>' },
    });
  });
});
