/**
 * ctx.logger (docs/config.md, part 1): JSON lines on stderr carrying trace_id/span_id, the command path,
 * program, version and the root's labels — never on stdout — on every path (the real CLI,
 * --args-json, in-process execute, MCP over stdio with the SDK client and raw bytes, and HTTP),
 * a readable line in human mode, and under mcp-server notifications/message at the client's
 * logging/setLevel level.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { connectStdio, rawStdio } from '../helpers/mcp.ts';
import { runScript } from '../helpers/spawn.ts';
import { runCli } from '../helpers/run.ts';
import { Command } from '../../lib/index.ts';
import { killAll } from '../fixtures/http-harness.ts';
import { spawn } from 'node:child_process';

const CLI = fileURLToPath(new URL('../fixtures/observe-cli.ts', import.meta.url));
const env = (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '/tmp',
  ...extra,
});

function logLines(stderr: string): Record<string, unknown>[] {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith('{"level"'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const COMMON = { program: 'obs', version: '1.0.0', command: 'obs log', team: 'infra' };

describe('ctx.logger on the CLI paths', () => {
  it.each([
    ['argv', ['log', '--word', 'w1', '--format', 'json']],
    ['--args-json', ['log', '--args-json', '{"word":"w1"}']],
  ])(
    '%s: JSON lines on stderr with the envelope ids, levels at info and above; stdout is the envelope only',
    async (_name, args) => {
      const r = await runScript(CLI, args, env());
      expect(r.code, r.stderr).toBe(0);
      const out = r.stdout.trim().split('\n');
      expect(out).toHaveLength(1);
      const meta = JSON.parse(out[0]!).meta;
      // every stderr line is a log line and parses as JSON
      const raw = r.stderr.trim().split('\n');
      expect(raw.every((l) => typeof JSON.parse(l) === 'object')).toBe(true);
      const lines = logLines(r.stderr);
      expect(lines.map((l) => [l.level, l.msg])).toEqual([
        ['info', 'info line'],
        ['warn', 'warn line'],
        ['error', 'error line'],
        ['info', 'child line'],
      ]);
      for (const l of lines) {
        expect(l).toMatchObject({ ...COMMON, trace_id: meta.trace_id, span_id: meta.span_id });
        expect(new Date(String(l.time)).toISOString()).toBe(l.time);
      }
      expect(lines[0]!.word).toBe('w1');
      expect(lines[3]!.step).toBe(2);
    },
    60_000,
  );

  it('on a Node older than 22.12 (no process.getBuiltinModule): one structured internal_error naming the version, exit 1', async () => {
    const preload = fileURLToPath(new URL('../fixtures/no-get-builtin-module.mjs', import.meta.url));
    const r = await runScript(
      CLI,
      ['log', '--word', 'w1', '--format', 'json'],
      env({ NODE_OPTIONS: `--import ${preload}` }),
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    const e = JSON.parse(lines[lines.length - 1]!).error;
    expect(e.kind).toBe('internal_error');
    expect(e.message).toContain(
      `ax-ts needs Node.js 22.12.0 or later to load node:module on demand (process.getBuiltinModule); this is Node.js ${process.versions.node}`,
    );
    expect(e.actionable_fix).toMatch(/Upgrade Node\.js to 22\.12\.0/);
    // and the package says so where npm reads it
    expect(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).engines.node).toBe(
      '>=22.12',
    );
  }, 60_000);

  it('AX_LOG_LEVEL lowers (trace) or silences the stderr lines', async () => {
    const all = await runScript(CLI, ['log', '--format', 'json'], env({ AX_LOG_LEVEL: 'trace' }));
    expect(logLines(all.stderr).map((l) => l.level)).toEqual(['trace', 'debug', 'info', 'warn', 'error', 'info']);
    const none = await runScript(CLI, ['log', '--format', 'json'], env({ AX_LOG_LEVEL: 'silent' }));
    expect(none.stderr).toBe('');
    expect(JSON.parse(none.stdout).data).toEqual({ logged: true });
  }, 60_000);

  it('human mode prints a readable line per entry, not JSON', async () => {
    const r = await runScript(CLI, ['log', '--format', 'text'], env());
    expect(r.stderr).toBe('info: info line word=hello\nwarn: warn line\nerror: error line\ninfo: child line step=2\n');
    expect(r.stdout).toBe('logged: true\n');
  }, 60_000);

  it('in-process execute: the logging declaration (level, labels) and the injected stderr', async () => {
    const root = new Command({ use: 'app', logging: { level: 'debug', labels: { region: 'eu' } } });
    root.addCommand(
      new Command({
        use: 'go',
        run: (ctx) => (ctx.logger.debug({ n: 1 }, 'dbg'), ctx.logger.trace('hidden'), { ok: true }),
      }),
    );
    const r = await runCli(root, ['go']);
    const [line, ...rest] = logLines(r.stderr);
    expect(rest).toEqual([]);
    const meta = JSON.parse(r.stdout).meta;
    expect(line).toMatchObject({
      level: 'debug',
      msg: 'dbg',
      n: 1,
      region: 'eu',
      program: 'app',
      version: '1.2.3',
      command: 'app go',
      trace_id: meta.trace_id,
      span_id: meta.span_id,
    });
  });

  it('labels may not take the fields ax-ts sets (TypeError at declaration)', () => {
    expect(() => new Command({ use: 'x', logging: { labels: { trace_id: 'no' } } })).toThrow(TypeError);
    expect(() => new Command({ use: 'x', logging: { level: 'loud' as never } })).toThrow(TypeError);
  });
});

describe('ctx.logger under mcp-server', () => {
  afterAll(() => killAll());

  it('stdio (SDK client): lines become notifications/message at the setLevel level, carrying the call ids', async () => {
    const c = await connectStdio(['mcp-server'], {}, CLI);
    try {
      const seen: { level: string; data: any; logger?: string }[] = [];
      c.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void seen.push(n.params as never));
      await c.client.setLoggingLevel('debug');
      const r = (await c.client.callTool({ name: 'log', arguments: { word: 'mcp' } })) as {
        content: { text: string }[];
      };
      const meta = JSON.parse(r.content[0]!.text).meta;
      await new Promise((res) => setTimeout(res, 100));
      expect(seen.map((n) => [n.level, n.data.msg])).toEqual([
        ['debug', 'trace line'],
        ['debug', 'debug line'],
        ['info', 'info line'],
        ['warning', 'warn line'],
        ['error', 'error line'],
        ['info', 'child line'],
      ]);
      for (const n of seen) expect(n.data).toMatchObject({ ...COMMON, trace_id: meta.trace_id, span_id: meta.span_id });
      expect(seen.every((n) => n.logger === 'log')).toBe(true);
      seen.length = 0;
      await c.client.setLoggingLevel('error');
      await c.client.callTool({ name: 'log', arguments: {} });
      await new Promise((res) => setTimeout(res, 100));
      expect(seen.map((n) => n.data.msg)).toEqual(['error line']);
    } finally {
      await c.close();
    }
  }, 60_000);

  it('stdio (raw bytes): not one log byte reaches stdout outside JSON-RPC; the server stderr stays clean', async () => {
    const s = rawStdio(['mcp-server'], { cli: CLI });
    try {
      await s.init();
      const r = await s.request(2, 'tools/call', { name: 'log', arguments: {} });
      expect((r.result as { isError?: boolean }).isError).toBeFalsy();
      await new Promise((res) => setTimeout(res, 100));
      for (const l of s.lines) expect(JSON.parse(l).jsonrpc).toBe('2.0');
      expect(s.stdoutBytes().toString('utf8')).toBe(s.lines.map((l) => `${l}\n`).join(''));
      expect(s.lines.some((l) => l.includes('"notifications/message"'))).toBe(true);
      expect(s.stderr()).not.toContain('"level"');
    } finally {
      s.kill();
    }
  }, 60_000);

  it('HTTP (stateful): the same notifications reach an SDK client', async () => {
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', CLI, 'mcp-server', '--transport', 'http', '--addr', '127.0.0.1:0'],
      { stdio: ['ignore', 'pipe', 'pipe'], env: env() },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = '';
        proc.stderr!.setEncoding('utf8').on('data', (c: string) => {
          err += c;
          const m = /listening on (http:\/\/\S+\/mcp)/.exec(err);
          if (m) resolve(m[1]!);
        });
        proc.once('exit', () => reject(new Error(`server exited: ${err}`)));
      });
      const client = new Client({ name: 'obs-http', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const seen: any[] = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void seen.push(n.params));
      await client.setLoggingLevel('warning');
      await client.callTool({ name: 'log', arguments: {} });
      await new Promise((res) => setTimeout(res, 100));
      expect(seen.map((n) => [n.level, n.data.msg])).toEqual([
        ['warning', 'warn line'],
        ['error', 'error line'],
      ]);
      await client.close();
    } finally {
      proc.kill('SIGKILL');
    }
  }, 60_000);
});
