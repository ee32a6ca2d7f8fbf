/**
 * Trace context (docs/config.md, part 2): a run continues the caller's W3C trace (TRACEPARENT/TRACESTATE,
 * or _meta.traceparent on an MCP tools/call), prints that trace's id in the envelope and the error
 * line, hands TRACEPARENT to the processes it starts through ctx.childEnv(), and — with
 * OTEL_EXPORTER_OTLP_ENDPOINT set — exports one span per run / per tools/call, named by the command
 * path, to a real local OTLP/HTTP collector. A collector that is down or hangs changes neither the
 * exit code nor stdout, and the run stays bounded.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectStdio } from '../helpers/mcp.ts';
import { runScript } from '../helpers/spawn.ts';
import { runCli } from '../helpers/run.ts';
import { deadPort, startCollector, type Collector } from '../helpers/otlp.ts';
import { Command } from '../../lib/index.ts';
import { parseTraceparent } from '../../lib/contract/trace-context.ts';

const CLI = fileURLToPath(new URL('../fixtures/observe-cli.ts', import.meta.url));
const TRACE = '0af7651916cd43dd8448eb211c80319c';
const PARENT = 'b7ad6b7169203331';
const TP = `00-${TRACE}-${PARENT}-01`;
const env = (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '/tmp',
  ...extra,
});

describe('parseTraceparent (W3C Trace Context §3.2)', () => {
  it.each([
    [TP, true],
    [`  ${TP} `, true],
    [`01-${TRACE}-${PARENT}-01-future`, true],
    [`00-${TRACE}-${PARENT}-01-extra`, false],
    [`ff-${TRACE}-${PARENT}-01`, false],
    [`00-${'0'.repeat(32)}-${PARENT}-01`, false],
    [`00-${TRACE}-${'0'.repeat(16)}-01`, false],
    [`00-${TRACE.toUpperCase()}-${PARENT}-01`, false],
    ['garbage', false],
    ['', false],
  ])('%j valid: %s', (value, ok) => {
    expect(parseTraceparent(value) !== undefined).toBe(ok);
  });

  it('keeps a valid tracestate and drops an invalid one', () => {
    expect(parseTraceparent(TP, 'congo=t61rcWkgMzE, rojo=00f067aa0ba902b7')?.traceState).toBe(
      'congo=t61rcWkgMzE,rojo=00f067aa0ba902b7',
    );
    expect(parseTraceparent(TP, 'not a list member')?.traceState).toBeUndefined();
  });
});

describe('a run continues the caller trace (no exporter)', () => {
  it.each([
    ['argv', ['plain', '--format', 'json']],
    ['--args-json', ['plain', '--args-json', '{}']],
  ])(
    '%s: TRACEPARENT gives the envelope its trace id; the span is new',
    async (_n, args) => {
      const r = await runScript(CLI, args, env({ TRACEPARENT: TP }));
      const meta = JSON.parse(r.stdout).meta;
      expect(meta.trace_id).toBe(TRACE);
      expect(meta.span_id).toMatch(/^[0-9a-f]{16}$/);
      expect(meta.span_id).not.toBe(PARENT);
    },
    60_000,
  );

  it('the error line carries the caller trace id', async () => {
    const r = await runScript(CLI, ['fail', '--format', 'json'], env({ TRACEPARENT: TP }));
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!).meta.trace_id).toBe(TRACE);
  }, 60_000);

  it('in-process execute reads TRACEPARENT from the injected env; an invalid one starts a new trace', async () => {
    const root = new Command({ use: 'app' });
    root.addCommand(new Command({ use: 'go', run: (ctx) => ({ tp: ctx.traceparent }) }));
    const ok = JSON.parse((await runCli(root, ['go'], { env: { TRACEPARENT: TP, TRACESTATE: 'k=v' } })).stdout);
    expect(ok.meta.trace_id).toBe(TRACE);
    expect(ok.data.tp).toBe(`00-${TRACE}-${ok.meta.span_id}-01`);
    const bad = JSON.parse(
      (await runCli(root, ['go'], { env: { TRACEPARENT: `00-${'0'.repeat(32)}-${PARENT}-01` } })).stdout,
    );
    expect(bad.meta.trace_id).not.toBe('0'.repeat(32));
    expect(bad.meta.trace_id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('a child process started with ctx.childEnv() receives TRACEPARENT naming the run span', async () => {
    const r = await runScript(CLI, ['child', '--format', 'json'], env({ TRACEPARENT: TP }));
    const { data, meta } = JSON.parse(r.stdout);
    expect(data.child).toBe(`00-${TRACE}-${meta.span_id}-01`);
    expect(data.traceparent).toBe(data.child);
  }, 60_000);

  it('ctx.childEnv() passes TRACESTATE on, adds extras and drops a stale TRACESTATE when there is none', async () => {
    const root = new Command({ use: 'app' });
    root.addCommand(new Command({ use: 'go', run: (ctx) => ctx.childEnv({ EXTRA: '1' }) }));
    const a = JSON.parse(
      (await runCli(root, ['go'], { env: { TRACEPARENT: TP, TRACESTATE: 'k=v', KEEP: 'x' } })).stdout,
    ).data;
    expect(a).toMatchObject({ KEEP: 'x', EXTRA: '1', TRACESTATE: 'k=v' });
    const b = JSON.parse((await runCli(root, ['go'], { env: { TRACESTATE: 'stale=1' } })).stdout).data;
    expect(b.TRACESTATE).toBeUndefined();
    expect(parseTraceparent(b.TRACEPARENT)).toBeDefined();
  });
});

describe('span export over OTLP/HTTP', () => {
  let col: Collector;
  beforeAll(async () => {
    col = await startCollector();
  });
  afterAll(async () => col?.close());

  it('CLI: one span per run, named by the command path, parented by TRACEPARENT, with the envelope ids', async () => {
    const before = col.spans.length;
    const r = await runScript(
      CLI,
      ['plain', '--format', 'json'],
      env({ TRACEPARENT: TP, OTEL_EXPORTER_OTLP_ENDPOINT: col.endpoint }),
    );
    expect(r.code).toBe(0);
    const meta = JSON.parse(r.stdout).meta;
    const spans = (await col.waitFor(before + 1)).slice(before);
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({ name: 'obs plain', traceId: TRACE, parentSpanId: PARENT, spanId: meta.span_id });
    expect(spans[0]!.resource).toMatchObject({ 'service.name': 'obs', 'service.version': '1.0.0' });
    expect(spans[0]!.attributes).toMatchObject({ 'ax.command': 'obs plain', 'ax.exit_code': 0 });
    expect(col.paths.at(-1)).toBe('/v1/traces');
  }, 60_000);

  it('shell completion (__complete, asked on every TAB) exports no span; the next run does', async () => {
    const before = col.spans.length;
    for (const cmd of ['__complete', '__completeNoDesc']) {
      const r = await runScript(
        CLI,
        [cmd, '--', 'pl'],
        env({ TRACEPARENT: TP, OTEL_EXPORTER_OTLP_ENDPOINT: col.endpoint }),
      );
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('plain');
    }
    await runScript(
      CLI,
      ['plain', '--format', 'json'],
      env({ TRACEPARENT: TP, OTEL_EXPORTER_OTLP_ENDPOINT: col.endpoint }),
    );
    const spans = (await col.waitFor(before + 1)).slice(before);
    expect(spans.map((s) => s.name)).toEqual(['obs plain']);
  }, 60_000);

  it('CLI: without TRACEPARENT a new root span; a failure marks the span as an error', async () => {
    const before = col.spans.length;
    const r = await runScript(CLI, ['fail', '--format', 'json'], env({ OTEL_EXPORTER_OTLP_ENDPOINT: col.endpoint }));
    expect(r.code).toBe(2);
    const traceId = JSON.parse(r.stderr.trim().split('\n').at(-1)!).meta.trace_id;
    const [span] = (await col.waitFor(before + 1)).slice(before);
    expect(span).toMatchObject({ name: 'obs fail', traceId, parentSpanId: undefined, status: { code: 2 } });
    expect(span!.attributes).toMatchObject({ 'error.type': 'validation_error', 'ax.exit_code': 2 });
  }, 60_000);

  it('MCP stdio: one span per tools/call, parented by _meta.traceparent; without it, by the server TRACEPARENT', async () => {
    const SERVER_TRACE = 'aaaabbbbccccddddeeeeffff00001111';
    const c = await connectStdio(
      ['mcp-server'],
      { OTEL_EXPORTER_OTLP_ENDPOINT: col.endpoint, TRACEPARENT: `00-${SERVER_TRACE}-1111222233334444-01` },
      CLI,
    );
    try {
      const before = col.spans.length;
      const r = (await c.client.callTool({
        name: 'plain',
        arguments: {},
        _meta: { traceparent: TP, tracestate: 'k=v' },
      })) as { content: { text: string }[] };
      const meta = JSON.parse(r.content[0]!.text).meta;
      expect(meta.trace_id).toBe(TRACE);
      const [span] = (await col.waitFor(before + 1)).slice(before);
      expect(span).toMatchObject({
        name: 'obs plain',
        traceId: TRACE,
        parentSpanId: PARENT,
        spanId: meta.span_id,
        kind: 2,
      });
      expect(span!.attributes).toMatchObject({ 'gen_ai.tool.name': 'plain', 'mcp.method.name': 'tools/call' });
      const r2 = (await c.client.callTool({ name: 'plain', arguments: {} })) as { content: { text: string }[] };
      const meta2 = JSON.parse(r2.content[0]!.text).meta;
      expect(meta2.trace_id).toBe(SERVER_TRACE);
      const [span2] = (await col.waitFor(before + 2)).slice(before + 1);
      expect(span2).toMatchObject({ traceId: SERVER_TRACE, parentSpanId: '1111222233334444', spanId: meta2.span_id });
      // bad arguments (refused before the handler) still give a span and an error carrying the call trace
      const bad = (await c.client.callTool({ name: 'log', arguments: { word: 7 }, _meta: { traceparent: TP } })) as {
        isError: boolean;
        content: { text: string }[];
      };
      expect(bad.isError).toBe(true);
      expect(JSON.parse(bad.content[0]!.text).meta.trace_id).toBe(TRACE);
      const [span3] = (await col.waitFor(before + 3)).slice(before + 2);
      expect(span3).toMatchObject({ name: 'obs log', traceId: TRACE, parentSpanId: PARENT });
    } finally {
      await c.close();
    }
  }, 60_000);
});

describe('AX_OTEL_DEBUG=1: finished spans on stderr, with or without a collector', () => {
  const spanOf = (line: string) => (JSON.parse(line) as { span: Record<string, any> }).span;
  it('CLI: a success ends stderr with its span (status ok); a failure puts its span (status error, the message) before the error line, which stays last', async () => {
    const ok = await runScript(CLI, ['plain', '--format', 'json'], env({ AX_OTEL_DEBUG: '1', TRACEPARENT: TP }));
    expect(ok.code).toBe(0);
    const span = spanOf(ok.stderr.trim().split('\n').pop()!);
    expect(span).toMatchObject({ name: 'obs plain', trace_id: TRACE, parent_span_id: PARENT, status: { code: 'ok' } });
    expect(span.span_id).toBe(JSON.parse(ok.stdout).meta.span_id);
    expect(span.attributes).toEqual({ 'ax.command': 'obs plain', 'ax.exit_code': 0 });
    const bad = await runScript(CLI, ['fail', '--format', 'json'], env({ AX_OTEL_DEBUG: 'true' }));
    const lines = bad.stderr.trim().split('\n');
    const error = JSON.parse(lines.pop()!).error;
    expect(spanOf(lines.pop()!)).toMatchObject({
      name: 'obs fail',
      status: { code: 'error', description: error.message },
      attributes: { 'ax.exit_code': bad.code, 'error.type': error.kind },
    });
    const off = await runScript(CLI, ['plain', '--format', 'json'], env({ AX_OTEL_DEBUG: '0' }));
    expect(off.stderr).not.toContain('"span"');
  }, 60_000);

  it("MCP stdio: each tools/call's span goes to the server's stderr, never into the call's result", async () => {
    const c = await connectStdio(['mcp-server'], { AX_OTEL_DEBUG: '1' }, CLI);
    try {
      const r = (await c.client.callTool({ name: 'plain', arguments: {} })) as { content: { text: string }[] };
      expect(r.content.map((x) => x.text).join('')).not.toContain('"span"');
      const line = await c.waitStderr(/\{"span":\{"name":"obs plain"[^\n]*\n/, 10_000);
      const span = spanOf(line.match(/\{"span":\{"name":"obs plain"[^\n]*/)![0]);
      expect(span).toMatchObject({ kind: 'server', span_id: JSON.parse(r.content[0]!.text).meta.span_id });
      expect(span.attributes).toMatchObject({ 'gen_ai.tool.name': 'plain', 'mcp.method.name': 'tools/call' });
    } finally {
      await c.close();
    }
    // the supervisor and the server process it starts: one trace, the server's span its child; the
    // tool call, given no traceparent, is a trace of its own (not the server run's)
    const runs = [...c.stderr().matchAll(/\{"span":\{"name":"obs mcp-server"[^\n]*/g)].map((m) => spanOf(m[0]));
    const call = spanOf(c.stderr().match(/\{"span":\{"name":"obs plain"[^\n]*/)![0]);
    if (runs.length === 2) {
      const [inner, outer] = [...runs].sort((a) => (a.parent_span_id ? -1 : 1));
      expect(inner!.trace_id).toBe(outer!.trace_id);
      expect(inner!.parent_span_id).toBe(outer!.span_id);
    } else expect(runs.length, c.stderr()).toBe(1); // served in place: one process, one span
    expect(runs.map((r) => r.trace_id)).not.toContain(call.trace_id);
  }, 60_000);

  it("MCP stdio: the server reads its trace settings once; a handler's change to process.env leaves later spans alone", async () => {
    const c = await connectStdio(['mcp-server'], { AX_OTEL_DEBUG: '1' }, CLI);
    try {
      await c.client.callTool({ name: 'quiet', arguments: {} });
      await c.waitStderr(/\{"span":\{"name":"obs quiet"[^\n]*\n/, 10_000);
      const r = (await c.client.callTool({ name: 'plain', arguments: {} })) as { content: { text: string }[] };
      const line = await c.waitStderr(/\{"span":\{"name":"obs plain"[^\n]*\n/, 10_000);
      expect(spanOf(line.match(/\{"span":\{"name":"obs plain"[^\n]*/)![0]).span_id).toBe(
        JSON.parse(r.content[0]!.text).meta.span_id,
      );
    } finally {
      await c.close();
    }
  }, 60_000);
});

describe('a collector that is down or hangs changes nothing but is bounded', () => {
  it('exit code and stdout are those of a run without export; the run ends well before a hung collector would answer', async () => {
    const hung = await startCollector({ hang: true });
    try {
      const dead = `http://127.0.0.1:${await deadPort()}`;
      for (const args of [
        ['plain', '--format', 'json'],
        ['fail', '--format', 'json'],
      ]) {
        const base = await runScript(CLI, args, env({ TRACEPARENT: TP }));
        for (const endpoint of [dead, hung.endpoint]) {
          const t0 = Date.now();
          const r = await runScript(CLI, args, env({ TRACEPARENT: TP, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint }));
          const ms = Date.now() - t0;
          expect(r.code).toBe(base.code);
          const still = (t: string) => t.replace(/"duration_ms":\d+/g, '"duration_ms":0');
          expect(still(r.stdout.replace(/"span_id":"[0-9a-f]{16}","idempotency_key":"[^"]+"/, ''))).toBe(
            still(base.stdout.replace(/"span_id":"[0-9a-f]{16}","idempotency_key":"[^"]+"/, '')),
          );
          expect(still(r.stderr.replace(/"trace_id":"[0-9a-f]{32}"/, ''))).toBe(
            still(base.stderr.replace(/"trace_id":"[0-9a-f]{32}"/, '')),
          );
          // the hung collector never answers; the flush is bounded (1 s) and the exporter times out
          expect(ms).toBeLessThan(15_000);
        }
      }
      expect(hung.paths.length).toBeGreaterThan(0); // the export really was attempted
    } finally {
      await hung.close();
    }
  }, 120_000);
});
