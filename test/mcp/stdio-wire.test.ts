/**
 * The stdio wire under a careless client, through a real shell pipeline (kernel pipes on stdin and
 * stdout): calls in flight at stdin EOF are answered before exit 0; a line over the limit is
 * answered and skipped while the server goes on; malformed requests that carry an id get a JSON-RPC
 * error with that id; wrong-typed params get -32602 with a one-line message. Issue 13 items 1–3.
 */
import { describe, expect, it } from 'vitest';
import { INIT_LINES, pipeline } from '../helpers/pipeline.ts';

const T = 30_000;
const call = (id: number | string, name: string, args?: object) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, ...(args ? { arguments: args } : {}) } });
const errorOf = (m: { error?: unknown } | undefined) => m?.error as { code: number; message: string } | undefined;
const textOf = (m: { result?: unknown } | undefined) =>
  JSON.parse((m?.result as { content: { text: string }[] }).content[0]!.text) as {
    data?: Record<string, unknown>;
    error?: { kind: string };
  };

describe.concurrent('stdio through a shell pipeline', () => {
  it(
    'item 1: calls in flight at stdin EOF are answered (an instant one and a 600 ms one), then exit 0 with empty stderr',
    async () => {
      const r = await pipeline([
        ...INIT_LINES,
        call(2, 'pong'),
        call(3, 'build', { seconds: 2, tick_ms: 300, marker: `eof-${process.pid}` }),
      ]);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(textOf(r.byId(2)).data).toEqual({ pong: true });
      expect(textOf(r.byId(3)).data).toMatchObject({ built: true });
    },
    T,
  );

  it(
    'item 1: a call that ignores the abort is answered `interrupted`, the others with their results, exit 0',
    async () => {
      const r = await pipeline([...INIT_LINES, call(2, 'hang'), call(3, 'pong')]);
      expect(r.code).toBe(0);
      expect(textOf(r.byId(3)).data).toEqual({ pong: true });
      const hung = r.byId(2)?.result as { isError?: boolean };
      expect(hung?.isError).toBe(true);
      expect(textOf(r.byId(2)).error?.kind).toBe('interrupted');
      // the time bound from EOF is asserted in mcp-stdio.test.ts (measured from the moment stdin ends)
    },
    T,
  );

  it(
    'item 2: a line over 10 MiB gets -32600 with its id, is skipped, and the next request is answered',
    async () => {
      const huge = call(5, 'echo', { text: 'x'.repeat(10 * 1024 * 1024 + 10) });
      const r = await pipeline([...INIT_LINES, call(4, 'pong'), huge, call(6, 'echo', { text: 'after' })]);
      expect(r.code).toBe(0);
      expect(textOf(r.byId(4)).data).toEqual({ pong: true });
      expect(errorOf(r.byId(5))).toMatchObject({ code: -32600 });
      expect(errorOf(r.byId(5))!.message).toMatch(/longer than 10485760 bytes/);
      expect(textOf(r.byId(6)).data).toEqual({ text: 'after' });
    },
    T,
  );

  it(
    'item 2: --max-line sets the limit (a 3000-byte line refused at 2048, a 1000-byte one served); an id after a big member is answered with id null',
    async () => {
      const long = call(7, 'echo', { text: 'y'.repeat(3000) });
      const idLast = JSON.stringify({
        jsonrpc: '2.0',
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'z'.repeat(3000) } },
        id: 8,
      });
      const r = await pipeline(
        [...INIT_LINES, long, idLast, call(9, 'echo', { text: 'k'.repeat(1000) })],
        ['--max-line', '2048'],
      );
      expect(r.code).toBe(0);
      expect(errorOf(r.byId(7))).toMatchObject({ code: -32600 });
      expect(errorOf(r.messages.find((m) => m.id === null))).toMatchObject({ code: -32600 });
      expect(textOf(r.byId(9)).data).toEqual({ text: 'k'.repeat(1000) });
    },
    T,
  );

  it(
    'item 3: a batch, jsonrpc "1.0", method 5 and params "x" each get a JSON-RPC error with their id; garbage gets -32700; the server goes on',
    async () => {
      const r = await pipeline([
        ...INIT_LINES,
        JSON.stringify([JSON.parse(call(10, 'pong')), JSON.parse(call(11, 'pong'))]),
        JSON.stringify({ jsonrpc: '1.0', id: 12, method: 'tools/list' }),
        JSON.stringify({ jsonrpc: '2.0', id: 13, method: 5 }),
        JSON.stringify({ jsonrpc: '2.0', id: 14, method: 'tools/call', params: 'x' }),
        '{"jsonrpc":"2.0","id":15,',
        JSON.stringify({ jsonrpc: '2.0', method: 5 }), // an invalid notification: never answered
        call(16, 'pong'),
      ]);
      expect(r.code).toBe(0);
      for (const id of [10, 11])
        expect(errorOf(r.byId(id))).toMatchObject({
          code: -32600,
          message: expect.stringMatching(/batches are not supported/),
        });
      expect(errorOf(r.byId(12))).toMatchObject({
        code: -32600,
        message: expect.stringMatching(/"jsonrpc" must be "2\.0"/),
      });
      expect(errorOf(r.byId(13))).toMatchObject({
        code: -32600,
        message: expect.stringMatching(/"method" must be a string/),
      });
      expect(errorOf(r.byId(14))).toMatchObject({
        code: -32600,
        message: expect.stringMatching(/"params" must be an object/),
      });
      expect(errorOf(r.messages.find((m) => m.id === null))).toMatchObject({ code: -32700 });
      expect(r.messages.filter((m) => m.id === null)).toHaveLength(1);
      expect(textOf(r.byId(16)).data).toEqual({ pong: true });
      for (const m of r.messages) expect(m.jsonrpc).toBe('2.0');
    },
    T,
  );

  it(
    'item 3: wrong-typed params ({"name": 5}, tools/list cursor 7) get -32602 with a one-line message',
    async () => {
      const r = await pipeline([
        ...INIT_LINES,
        JSON.stringify({ jsonrpc: '2.0', id: 20, method: 'tools/call', params: { name: 5 } }),
        JSON.stringify({ jsonrpc: '2.0', id: 21, method: 'prompts/get', params: { name: ['x'] } }),
        JSON.stringify({ jsonrpc: '2.0', id: 22, method: 'resources/read', params: {} }),
      ]);
      for (const id of [20, 21, 22]) {
        const e = errorOf(r.byId(id));
        expect(e, `#${id}: ${JSON.stringify(r.byId(id))}`).toMatchObject({ code: -32602 });
        expect(e!.message).not.toMatch(/\n/);
      }
      expect(errorOf(r.byId(20))!.message).toMatch(/params\.name: .*expected string/);
    },
    T,
  );
});

describe.concurrent('item 4: the protocol pipe is out of reach (supervisor), through a shell pipeline', () => {
  const ways = ['writesync', 'stream', 'devstdout', 'captured-spawn', 'stdout-end'];
  const lines = [...INIT_LINES, ...ways.map((how, i) => call(30 + i, 'bypass', { how })), call(40, 'pong')];

  it(
    'fs.writeSync(1), createWriteStream({fd: 1}), /dev/stdout, a pre-captured spawn with inherited stdio and process.stdout.end(): every stdout byte is JSON-RPC, the bytes go to stderr, the server goes on',
    async () => {
      const r = await pipeline(lines);
      expect(r.code).toBe(0);
      // r.messages parsed every stdout line as JSON; each is a JSON-RPC message
      for (const m of r.messages) expect(m.jsonrpc).toBe('2.0');
      for (const [i, how] of ways.entries()) {
        expect(textOf(r.byId(30 + i)).data, how).toEqual({ how });
        expect(r.stderr).toContain(`stray bytes by ${how}`);
      }
      // console.log after process.stdout.end(), still inside the call: that call's printed output
      // (docs/mcp-server.md#printed-output), a text item of its result, not the pipe
      const stdoutEnd = r.byId(30 + ways.indexOf('stdout-end')) as { result: { content: { text: string }[] } };
      expect(stdoutEnd.result.content[1]?.text).toBe('after end\n');
      expect(textOf(r.byId(40)).data).toEqual({ pong: true });
    },
    T,
  );

  it(
    'the control: served in-process (isolateStdio: false), the same handlers do corrupt stdout — which is why the supervisor exists',
    async () => {
      const r = await pipeline(lines.slice(0, 4), [], { env: { MCP_CASES_VARIANT: 'in-process' } }).catch(
        (e: Error) => e,
      );
      // the stray lines are not JSON, so parsing the output fails
      expect(r).toBeInstanceOf(Error);
    },
    T,
  );
});
