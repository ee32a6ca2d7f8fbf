/**
 * The stdio transport of `mcp-server` as a process: stdout purity (every byte is JSON-RPC, checked
 * with a raw byte-level client), multi-byte UTF-8 written one byte at a time, stdin that handlers and
 * children must not touch, misbehaving handlers, exit on stdin EOF and SIGTERM without orphans,
 * fail-closed startup, and the launch environment of desktop clients (cwd `/`, no PATH, no HOME,
 * the `--print-config` block, SIGKILL of the server or of the client). Cases B01, B02, B15, B17, B27
 * of ../shared/cases.md.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { DRAIN_MS } from '../../mcp/base/lifecycle.ts';
import {
  alive,
  CASES_CLI,
  connectStdio,
  descendantsOf,
  envelopeOf,
  isJsonRpc,
  rawStdio,
  REPO,
  runCasesCli,
  tempDir,
  TSX_LOADER,
  until,
  type RawMessage,
  type RawServer,
} from '../helpers/mcp.ts';

const T = 30_000;
const BIG = 'é😀東'.repeat(70_000);
const PARENT = join(REPO, 'test/fixtures/mcp-parent.ts');
/** A node argument that does not depend on cwd or PATH: a flag, an absolute path, or a file: URL. */
const absoluteArg = (a: string) => a.startsWith('-') || isAbsolute(a) || a.startsWith('file:///');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Ends stdin, waits for the exit, and asserts that every byte the server wrote on stdout was a JSON-RPC line. */
async function finishPure(s: RawServer): Promise<{ code: number | null; ms: number }> {
  const t0 = Date.now();
  s.child.stdin.end();
  const ex = await s.exited;
  assertPure(s);
  return { code: ex.code, ms: ex.at - t0 };
}

function assertPure(s: RawServer): void {
  const text = s.stdoutBytes().toString('utf8');
  expect(text.endsWith('\n'), 'stdout ends with a complete line').toBe(true);
  const lines = text.slice(0, -1).split('\n');
  for (const line of lines) {
    let parsed: unknown;
    expect(() => (parsed = JSON.parse(line)), `stdout line is JSON: ${line.slice(0, 200)}`).not.toThrow();
    expect(isJsonRpc(parsed), `stdout line is JSON-RPC 2.0: ${line.slice(0, 200)}`).toBe(true);
  }
}

const dataOf = (m: RawMessage) => {
  const r = m.result as CallToolResult;
  expect(r?.isError, JSON.stringify(m).slice(0, 500)).toBeFalsy();
  return envelopeOf(r).data as Record<string, unknown>;
};
const call = (id: number, name: string, args?: object) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, ...(args ? { arguments: args } : {}) },
});

// Not concurrent, and first in this file: B27's 5 s start-up bound is measured before this file's
// concurrent groups start their servers (on a 2-CPU machine a dozen parallel tsx start-ups take seconds).
describe('B27: the launch environment of desktop clients', () => {
  it(
    'cd / with an empty environment (no PATH, no HOME): initialize, list, call; exit on EOF',
    async () => {
      const s = rawStdio(['mcp-server'], { cwd: '/', fullEnv: {} });
      try {
        // Start-up time is a bench row (npm run bench), not a bound here: this proves it starts at all.
        const init = await s.init();
        expect((init.result as { serverInfo: { name: string } }).serverInfo.name).toBe('yourcli');
        const list = await s.request(2, 'tools/list', {});
        expect((list.result as { tools: unknown[] }).tools.length).toBeGreaterThan(10);
        expect(dataOf(await s.request(3, 'tools/call', { name: 'greet', arguments: { name: 'root' } }))).toEqual({
          greeting: 'hello root',
        });
        const done = await finishPure(s);
        expect(done.code).toBe(0);
        expect(done.ms).toBeLessThan(5000); // a server that ignores EOF never exits; the margin absorbs a loaded CI
      } finally {
        s.kill();
      }
    },
    T,
  );

  it(
    'SIGKILL of the server during a long in-process call leaves no process behind',
    async () => {
      const s = rawStdio();
      try {
        await s.init();
        s.send(call(2, 'build', { seconds: 30, marker: 'never-killed' }));
        await sleep(300);
        s.child.kill('SIGKILL');
        await s.exited;
        expect(await until(() => !alive(s.child.pid!), 1000)).toBe(true);
      } finally {
        s.kill();
      }
    },
    T,
  );

  it(
    'SIGKILL of the server while a handler’s child runs: the child (and the reaper) are gone soon after',
    async () => {
      const s = rawStdio();
      try {
        await s.init();
        s.send(call(2, 'shell-out', { ms: 30_000 }));
        const pid = Number(/child-pid=(\d+)/.exec(await s.waitStderr(/child-pid=\d+/))![1]);
        expect(alive(pid)).toBe(true);
        await sleep(200); // let the reaper start and read the pid
        const kids = descendantsOf(s.child.pid!); // the server process under the supervisor, its reaper, the handler's child
        if (process.platform === 'linux') expect(kids).toContain(pid);
        s.child.kill('SIGKILL');
        await s.exited;
        expect(await until(() => !alive(pid), 4000)).toBe(true);
        expect(await until(() => kids.every((k) => !alive(k)), 4000)).toBe(true);
      } finally {
        s.kill();
      }
    },
    T,
  );

  it(
    'the client is SIGKILLed during a call: the server and the handler’s child are gone within 5 s',
    async () => {
      const parent = spawn(process.execPath, ['--import', TSX_LOADER, PARENT], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      try {
        const line = await new Promise<string>((resolve, reject) => {
          let out = '';
          parent.stdout.on('data', (c: Buffer) => {
            out += c.toString();
            if (out.includes('\n')) resolve(out);
          });
          parent.once('exit', () => reject(new Error('parent exited early')));
        });
        const [, server, child] = /server=(\d+) child=(\d+)/.exec(line)!.map(Number);
        expect(alive(server!)).toBe(true);
        expect(alive(child!)).toBe(true);
        parent.kill('SIGKILL');
        expect(await until(() => !alive(server!) && !alive(child!), 5000)).toBe(true);
      } finally {
        parent.kill('SIGKILL');
      }
    },
    T,
  );

  it(
    '--print-config gives absolute node and script paths (no bare npx), and the block works from / with no env',
    async () => {
      const s = rawStdio(['mcp-server', '--print-config']);
      const ex = await s.exited;
      expect(ex.code, s.stderr()).toBe(0);
      const cfg = JSON.parse(s.stdoutBytes().toString('utf8')) as {
        mcpServers: Record<string, { command: string; args: string[] }>;
      };
      const entry = cfg.mcpServers.yourcli!;
      expect(entry.command).toBe(process.execPath);
      expect(isAbsolute(entry.command)).toBe(true);
      expect(entry.args).toContain(CASES_CLI);
      expect(entry.args.at(-1)).toBe('mcp-server');
      expect(entry.args).not.toContain('npx');
      for (const a of entry.args.slice(0, -1))
        expect(absoluteArg(a), `argument ${a} is a flag, an absolute path or a file: URL`).toBe(true);
      // Launch exactly what a desktop client would.
      const nodeArgs = entry.args.slice(0, entry.args.indexOf(CASES_CLI));
      const c = rawStdio(entry.args.slice(entry.args.indexOf(CASES_CLI) + 1), { cwd: '/', fullEnv: {}, nodeArgs });
      try {
        expect((await c.init()).result).toMatchObject({ serverInfo: { name: 'yourcli', version: '1.2.3' } });
        expect((await finishPure(c)).code).toBe(0);
      } finally {
        c.kill();
      }
    },
    T,
  );

  it(
    '--print-config of a CLI launched with a bare loader (`--import tsx`) prints a block that works from /',
    async () => {
      const s = rawStdio(['mcp-server', '--print-config'], { nodeArgs: ['--import', 'tsx'] });
      expect((await s.exited).code, s.stderr()).toBe(0);
      const entry = (
        JSON.parse(s.stdoutBytes().toString('utf8')) as {
          mcpServers: Record<string, { command: string; args: string[] }>;
        }
      ).mcpServers.yourcli!;
      expect(entry.args).not.toContain('tsx');
      for (const a of entry.args.slice(0, -1))
        expect(absoluteArg(a), `argument ${a} is a flag, an absolute path or a file: URL`).toBe(true);
      const at = entry.args.indexOf(CASES_CLI);
      const c = rawStdio(entry.args.slice(at + 1), { cwd: '/', fullEnv: {}, nodeArgs: entry.args.slice(0, at) });
      try {
        expect((await c.init()).result).toMatchObject({ serverInfo: { name: 'yourcli' } });
        expect((await finishPure(c)).code).toBe(0);
      } finally {
        c.kill();
      }
    },
    T,
  );
});

describe('B21: a call cancelled in the same read as its request', () => {
  it(
    'never runs its handler and gets no answer; the calls after it run; it does not hold the exit at stdin EOF',
    async () => {
      const d = tempDir('ax-precancel-');
      const s = rawStdio(['mcp-server'], { env: { YC_DIR: d.path } });
      try {
        await s.init();
        // warm: the argument validator is loaded, so nothing waits between the request and the handler
        expect(dataOf(await s.request(2, 'tools/call', { name: 'touch', arguments: { name: 'warm' } }))).toEqual({
          touched: 'warm',
        });
        const cancel = {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: 3, reason: 'changed my mind' },
        };
        s.write(`${JSON.stringify(call(3, 'touch', { name: 'cancelled' }))}\n${JSON.stringify(cancel)}\n`);
        expect(dataOf(await s.request(4, 'tools/call', { name: 'touch', arguments: { name: 'after' } }))).toEqual({
          touched: 'after',
        });
        expect(existsSync(join(d.path, 'touched-after'))).toBe(true);
        expect(existsSync(join(d.path, 'touched-cancelled'))).toBe(false);
        expect(s.lines.filter((l) => (JSON.parse(l) as RawMessage).id === 3)).toEqual([]);
        // no answer is owed for it, so it does not hold the exit at stdin EOF: before, the server waited
        // out the drain and the abort grace (about 2.6 s) for an answer that never comes
        const end = await finishPure(s);
        expect(end.code).toBe(0);
        expect(end.ms).toBeLessThan(DRAIN_MS);
      } finally {
        s.kill();
        d.cleanup();
      }
    },
    T,
  );
});

describe.concurrent('mcp-server over stdio: the transport', () => {
  it(
    'B01: console.log/debug go to the result, late process.stdout.write to stderr, never to stdout; ping still answered',
    async () => {
      const s = rawStdio();
      try {
        await s.init();
        const r2 = await s.request(2, 'tools/call', { name: 'greet', arguments: { name: 'ann' } });
        expect(dataOf(r2)).toEqual({ greeting: 'hello ann' });
        const printed = (r2.result as CallToolResult).content[1] as { text: string };
        expect(printed.text).toBe('hello ann\ninfo-line\ndbg\n');
        const r3 = await s.request(3, 'tools/call', { name: 'later', arguments: {} });
        expect(dataOf(r3)).toEqual({ ok: true });
        await sleep(200);
        expect(await s.request(4, 'ping')).toEqual({ jsonrpc: '2.0', id: 4, result: {} });
        assertPure(s);
        expect(s.lines.some((l) => l.includes('hello ann') && !l.startsWith('{"result"'))).toBe(false);
        expect(s.stderr()).not.toContain('hello ann\n');
        expect(s.stderr()).toContain('late\n');
        const done = await finishPure(s);
        expect(done.code).toBe(0);
      } finally {
        s.kill();
      }
    },
    T,
  );

  it(
    'B17: a request written one byte at a time (2 ms apart) and a 70,000 × "é😀東" result survive intact',
    async () => {
      const s = rawStdio();
      try {
        await s.init();
        const text = 'naïve 😀 東京 — ok';
        const bytes = Buffer.from(`${JSON.stringify(call(2, 'echo', { text }))}\n`, 'utf8');
        for (const b of bytes) {
          s.write(Buffer.from([b]));
          await sleep(2);
        }
        const echoed = dataOf(await s.response(2));
        expect(Buffer.from(echoed.text as string, 'utf8').equals(Buffer.from(text, 'utf8'))).toBe(true);
        s.send(call(3, 'big', {}));
        const big = dataOf(await s.response(3));
        expect((big.text as string).includes('\uFFFD')).toBe(false);
        expect(big.text === BIG).toBe(true);
        const done = await finishPure(s);
        expect(done.code).toBe(0);
      } finally {
        s.kill();
      }
    },
    T,
  );

  it(
    'B17: `big --format json | cat` carries the same text with no U+FFFD',
    async () => {
      const r = await runCasesCli(['big', '--format', 'json']);
      expect(r.code, r.stderr).toBe(0);
      const text = r.stdout.toString('utf8');
      expect(text.includes('\uFFFD')).toBe(false);
      expect((JSON.parse(text) as { data: { text: string } }).data.text === BIG).toBe(true);
    },
    T,
  );

  it(
    'B02: a stdin-reading command gets an empty stream; a child inheriting stdio cannot take the protocol pipe',
    async () => {
      const s = rawStdio();
      try {
        await s.init();
        const t0 = Date.now();
        s.send(call(2, 'import', { file: '-' }));
        s.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
        expect(await s.response(3)).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
        expect(dataOf(await s.response(2))).toEqual({ bytes: 0, source: 'stdin' });
        expect(Date.now() - t0).toBeLessThan(10_000); // a read of the protocol pipe would never return
        // Code that reads process.stdin directly (not ctx.stdin) gets an empty stream too, not the protocol pipe.
        s.send(call(9, 'import-raw', {}));
        s.send({ jsonrpc: '2.0', id: 10, method: 'ping' });
        expect(await s.response(10)).toEqual({ jsonrpc: '2.0', id: 10, result: {} });
        expect(dataOf(await s.response(9, 3000))).toEqual({ bytes: 0, source: 'process.stdin' });
        // Missing file argument: the same fallback.
        expect(dataOf(await s.request(6, 'tools/call', { name: 'import', arguments: {} }))).toEqual({
          bytes: 0,
          source: 'stdin',
        });
        // The child resumes "its" stdin for 300 ms: it must get /dev/null, not the server's fd 0.
        s.send(call(4, 'shell-out', {}));
        s.send({ jsonrpc: '2.0', id: 7, method: 'ping' }); // sent while the child runs: must reach the server, not the child
        expect(await s.response(7)).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
        expect(dataOf(await s.response(4))).toEqual({ ok: true, code: 0 });
        // The child's fd 0 was not the protocol pipe, and what it printed on its stdout went to stderr.
        expect(s.stderr()).toContain('shell-out child: stdin-fifo=false');
        expect(s.stderr()).toContain('child stdout text');
        expect(await s.request(5, 'ping')).toEqual({ jsonrpc: '2.0', id: 5, result: {} });
        expect(dataOf(await s.request(8, 'tools/call', { name: 'status', arguments: {} }))).toEqual({ ok: true });
        const done = await finishPure(s);
        expect(done.code).toBe(0);
      } finally {
        s.kill();
      }
    },
    T,
  );

  it(
    'B15: thrown plain objects, sync throws and late rejections do not take the server down',
    async () => {
      const c = await connectStdio();
      try {
        const t1 = (await c.client.callTool({ name: 'bad-throw', arguments: {} })) as CallToolResult;
        expect(t1.isError).toBe(true);
        const e1 = envelopeOf(t1).error!;
        expect(e1.kind).toBe('internal_error');
        expect(e1.message).toContain('42');
        expect(e1.message).not.toContain('[object Object]');
        const t2 = (await c.client.callTool({ name: 'bad-sync', arguments: {} })) as CallToolResult;
        expect(t2.isError).toBe(true);
        expect(envelopeOf(t2).error!.message).toBe('sync failure before any await');
        const t3 = (await c.client.callTool({ name: 'bad-late', arguments: {} })) as CallToolResult;
        expect(t3.isError).toBeFalsy();
        expect(envelopeOf(t3).data).toEqual({ ok: true });
        await sleep(100);
        expect(alive(c.pid)).toBe(true);
        const t4 = (await c.client.callTool({ name: 'ok', arguments: {} })) as CallToolResult;
        expect(envelopeOf(t4).data).toEqual({ ok: true });
        await c.client.ping();
        await c.waitStderr('late rejection nobody awaits');
        expect(c.stderr()).toMatch(/unhandled rejection .*late rejection nobody awaits/);
      } finally {
        await c.close();
      }
    },
    T,
  );

  it(
    "stdin EOF: exits within the 3 s shutdown budget with code 0 despite a call that never settles, which is answered `interrupted`; a running child is reaped (and its call's timely result stands)",
    async () => {
      const s = rawStdio();
      try {
        await s.init();
        expect(dataOf(await s.request(2, 'tools/call', { name: 'status', arguments: {} }))).toEqual({ ok: true });
        s.send(call(3, 'shell-out', { ms: 30_000 }));
        s.send(call(4, 'hang', {}));
        const pid = Number(/child-pid=(\d+)/.exec(await s.waitStderr(/child-pid=\d+/))![1]);
        expect(alive(pid)).toBe(true);
        const done = await finishPure(s);
        expect(done.code).toBe(0);
        expect(done.ms).toBeLessThan(3000 + 500); // SHUTDOWN_BUDGET_MS, plus the exit itself
        expect((envelopeOf((await s.response(4, 10)).result as CallToolResult).error as { kind: string }).kind).toBe(
          'interrupted',
        );
        // shell-out returns once its child is reaped, within the grace: a result that arrives in time stands
        expect(envelopeOf((await s.response(3, 10)).result as CallToolResult).data).toEqual({ ok: true, code: null });
        expect(await until(() => !alive(pid), 1000)).toBe(true);
      } finally {
        s.kill();
      }
    },
    T,
  );

  it(
    'SIGTERM: exits promptly and leaves no child behind',
    async () => {
      const s = rawStdio();
      try {
        await s.init();
        s.send(call(2, 'shell-out', { ms: 30_000 }));
        s.send(call(3, 'build', { seconds: 30, marker: 'never' }));
        const pid = Number(/child-pid=(\d+)/.exec(await s.waitStderr(/child-pid=\d+/))![1]);
        expect(alive(pid)).toBe(true);
        const t0 = Date.now();
        s.child.kill('SIGTERM');
        const ex = await s.exited;
        expect(ex.at - t0).toBeLessThan(2000);
        expect(ex.code).toBe(0);
        assertPure(s);
        expect(await until(() => !alive(pid), 1000)).toBe(true);
      } finally {
        s.kill();
      }
    },
    T,
  );
});

describe.concurrent('mcp-server: fail-closed startup (exit 2, validation_error on stderr, nothing on stdout)', () => {
  const variants: [string, string][] = [
    ['dev-version', 'placeholder_version'],
    ['long-instructions', 'invalid_instructions'],
    ['dup-decl', 'duplicate_declaration'],
    ['collision', 'tool_name_collision'],
  ];
  for (const [variant, reason] of variants) {
    it(
      `${variant} → ${reason}`,
      async () => {
        // stdin stays open: the server must refuse on its own, before serving anything.
        const s = rawStdio(['mcp-server'], { env: { MCP_CASES_VARIANT: variant } });
        try {
          const ex = await s.exited;
          expect(ex.code).toBe(2);
          expect(s.stdoutBytes().length).toBe(0);
          const last = JSON.parse(s.stderr().trimEnd().split('\n').pop()!) as {
            error: { kind: string; exit_code: number; context: Record<string, unknown> };
          };
          expect(last.error.kind).toBe('validation_error');
          expect(last.error.exit_code).toBe(2);
          expect(last.error.context.reason).toBe(reason);
          if (variant === 'dup-decl') expect(last.error.context.commands).toEqual(['yourcli', 'yourcli other']);
          if (variant === 'collision')
            expect(last.error.context.commands).toEqual(
              expect.arrayContaining(['yourcli user get', 'yourcli user-get']),
            );
        } finally {
          s.kill();
        }
      },
      T,
    );
  }

  it(
    'tree-level faults are refused by `__schema --as=mcp` the same way',
    async () => {
      for (const [variant, reason] of [
        ['dup-decl', 'duplicate_declaration'],
        ['collision', 'tool_name_collision'],
      ]) {
        const r = await runCasesCli(['__schema', '--as=mcp'], { env: { MCP_CASES_VARIANT: variant! } });
        expect(r.code).toBe(2);
        expect(r.stdout.length).toBe(0);
        expect(
          (JSON.parse(r.stderr.trimEnd().split('\n').pop()!) as { error: { context: { reason: string } } }).error
            .context.reason,
        ).toBe(reason);
      }
    },
    T,
  );
});
