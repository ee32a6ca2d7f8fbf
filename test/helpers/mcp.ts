/**
 * Test helpers for driving a real `mcp-server` over stdio: {@link connectStdio} with the SDK's own
 * `Client` + `StdioClientTransport` (the way desktop clients connect), and {@link rawStdio}, a
 * byte-level JSON-RPC client over a spawned process for the checks an SDK client would hide (every
 * stdout line must be JSON-RPC; requests written one byte at a time; exit codes and timing).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Repository root. */
export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The fixture CLI with one command per MCP failure case. */
export const CASES_CLI = join(REPO, 'test/fixtures/mcp-cases-cli.ts');
/** Absolute path of tsx's ESM loader (what `--import tsx` resolves to), for launches that must not depend on cwd. */
export const TSX_LOADER = join(REPO, 'node_modules/tsx/dist/loader.mjs');

/** A connected SDK client and the server it started. */
export interface StdioConnection {
  client: Client;
  transport: StdioClientTransport;
  /** Server pid. */
  pid: number;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  /** Every message the client received, in order (responses and notifications). */
  received: JSONRPCMessage[];
  /** Resolves once the server's stderr contains `text` (rejects after `ms`). */
  waitStderr(text: string | RegExp, ms?: number): Promise<string>;
  /** Closes the client (ends the server's stdin, then TERM/KILL as the SDK does). */
  close(): Promise<void>;
}

/** A minimal environment for the server: PATH/HOME as the SDK passes them, plus `env`. */
function childEnv(env: Record<string, string> = {}): Record<string, string> {
  const base: Record<string, string> = {};
  for (const k of ['PATH', 'HOME', 'TMPDIR', 'LANG']) if (process.env[k] !== undefined) base[k] = process.env[k]!;
  return { ...base, ...env };
}

function stderrWaiter(get: () => string, onData: (fn: () => void) => () => void) {
  return (text: string | RegExp, ms = 10_000) =>
    new Promise<string>((resolvePromise, reject) => {
      const test = () => (typeof text === 'string' ? get().includes(text) : text.test(get()));
      if (test()) return resolvePromise(get());
      const timer = setTimeout(() => {
        off();
        reject(new Error(`stderr did not show ${String(text)} within ${ms} ms; stderr so far:\n${get()}`));
      }, ms);
      const off = onData(() => {
        if (test()) {
          clearTimeout(timer);
          off();
          resolvePromise(get());
        }
      });
    });
}

/**
 * Starts `node --import tsx <cli> ...args` as an MCP server over stdio with the SDK client and
 * completes initialize. `env` is added to a minimal environment (never the test runner's).
 */
export async function connectStdio(
  args: string[] = ['mcp-server'],
  env: Record<string, string> = {},
  cli: string = CASES_CLI,
): Promise<StdioConnection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', TSX_LOADER, cli, ...args],
    env: childEnv(env),
    stderr: 'pipe',
    cwd: REPO,
  });
  let err = '';
  const listeners = new Set<() => void>();
  transport.stderr!.on('data', (c: Buffer) => {
    err += c.toString('utf8');
    for (const l of [...listeners]) l();
  });
  const client = new Client({ name: 'ax-ts-tests', version: '1.0.0' }, { capabilities: {} });
  const received: JSONRPCMessage[] = [];
  await client.connect(transport);
  // Record every incoming message (the Protocol installed its handler on connect).
  const inner = transport.onmessage!;
  transport.onmessage = (m: JSONRPCMessage) => {
    received.push(m);
    inner(m);
  };
  return {
    client,
    transport,
    pid: transport.pid!,
    stderr: () => err,
    received,
    waitStderr: stderrWaiter(
      () => err,
      (fn) => {
        listeners.add(fn);
        return () => listeners.delete(fn);
      },
    ),
    close: () => client.close(),
  };
}

/** A JSON-RPC line as the raw client saw it. */
export type RawMessage = Record<string, unknown> & {
  jsonrpc?: string;
  id?: number | string;
  method?: string;
  result?: unknown;
  error?: unknown;
};

/** A spawned server driven byte by byte. */
export interface RawServer {
  child: ChildProcessWithoutNullStreams;
  /** Every complete stdout line, as received (raw text, without the newline). */
  lines: string[];
  /** stdout bytes received so far (to check that nothing but lines arrived). */
  stdoutBytes(): Buffer;
  stderr(): string;
  /** Writes one message as a JSON line. */
  send(msg: object): void;
  /** Writes raw bytes. */
  write(bytes: Buffer | string): void;
  /** Sends a request and resolves with its response (by id). */
  request(id: number | string, method: string, params?: object): Promise<RawMessage>;
  /** Resolves with the response of `id` once it arrives. */
  response(id: number | string, ms?: number): Promise<RawMessage>;
  /** initialize + notifications/initialized. */
  init(): Promise<RawMessage>;
  waitStderr(text: string | RegExp, ms?: number): Promise<string>;
  /** Resolves with the exit code and signal once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  kill(signal?: NodeJS.Signals): void;
}

/** Options of {@link rawStdio}. */
export interface RawOptions {
  /** Full environment of the server (default: the minimal one plus `env`). */
  fullEnv?: Record<string, string>;
  env?: Record<string, string>;
  cwd?: string;
  /** Node arguments before the script. Default `--import <absolute tsx loader>`. */
  nodeArgs?: string[];
  cli?: string;
}

/** Spawns the fixture server with plain pipes; nothing between the test and the bytes. */
export function rawStdio(args: string[] = ['mcp-server'], opts: RawOptions = {}): RawServer {
  const child = spawn(
    process.execPath,
    [...(opts.nodeArgs ?? ['--import', TSX_LOADER]), opts.cli ?? CASES_CLI, ...args],
    {
      cwd: opts.cwd ?? REPO,
      env: opts.fullEnv ?? childEnv(opts.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  const lines: string[] = [];
  const chunks: Buffer[] = [];
  let pending = Buffer.alloc(0);
  let err = '';
  const waiting = new Map<string, (m: RawMessage) => void>();
  const responses = new Map<string, RawMessage>();
  const errListeners = new Set<() => void>();
  child.stdout.on('data', (c: Buffer) => {
    chunks.push(c);
    pending = Buffer.concat([pending, c]);
    for (let i = pending.indexOf(10); i >= 0; i = pending.indexOf(10)) {
      const line = pending.subarray(0, i).toString('utf8');
      pending = pending.subarray(i + 1);
      lines.push(line);
      let msg: RawMessage | undefined;
      try {
        msg = JSON.parse(line) as RawMessage;
      } catch {
        continue; // the test asserts on `lines`
      }
      if (msg && msg.id !== undefined && msg.method === undefined) {
        const key = String(msg.id);
        responses.set(key, msg);
        waiting.get(key)?.(msg);
        waiting.delete(key);
      }
    }
  });
  child.stderr.on('data', (c: Buffer) => {
    err += c.toString('utf8');
    for (const l of [...errListeners]) l();
  });
  child.stdin.on('error', () => {});
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal, at: Date.now() })),
  );
  const response = (id: number | string, ms = 15_000) =>
    new Promise<RawMessage>((resolvePromise, reject) => {
      const got = responses.get(String(id));
      if (got) return resolvePromise(got);
      const timer = setTimeout(() => reject(new Error(`no response to #${id} within ${ms} ms; stderr:\n${err}`)), ms);
      waiting.set(String(id), (m) => {
        clearTimeout(timer);
        resolvePromise(m);
      });
    });
  const send = (msg: object) => child.stdin.write(`${JSON.stringify(msg)}\n`);
  const raw: RawServer = {
    child,
    lines,
    stdoutBytes: () => Buffer.concat(chunks),
    stderr: () => err,
    send,
    write: (b) => void child.stdin.write(b),
    request: (id, method, params) => {
      send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
      return response(id);
    },
    response,
    init: async () => {
      const r = await raw.request('init', 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      return r;
    },
    waitStderr: stderrWaiter(
      () => err,
      (fn) => {
        errListeners.add(fn);
        return () => errListeners.delete(fn);
      },
    ),
    exited,
    kill: (signal = 'SIGKILL') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
  return raw;
}

/** Runs the fixture CLI once (no MCP) and returns its output. */
export function runCasesCli(
  args: string[],
  opts: { stdin?: string; env?: Record<string, string>; cli?: string } = {},
): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, opts.cli ?? CASES_CLI, ...args], {
      cwd: REPO,
      env: childEnv(opts.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.stdin.on('error', () => {});
    child.once('close', (code) => resolvePromise({ code, stdout: Buffer.concat(out), stderr: err }));
    if (opts.stdin !== undefined) child.stdin.end(opts.stdin);
    else child.stdin.end();
  });
}

/** Whether a process is still alive (signal 0). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether `pid` is a live process, a zombie not (it only waits for its parent to read its status); Linux. */
export function liveProcess(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Pids of the live children of `pid` (Linux: read from /proc; elsewhere an empty list). */
export function childrenOf(pid: number): number[] {
  if (process.platform !== 'linux') return [];
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // state, ppid, ...
      if (Number(fields[1]) === pid && fields[0] !== 'Z') out.push(Number(name));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/** Pids of every live descendant of `pid` (children, their children, …; Linux only). */
export function descendantsOf(pid: number): number[] {
  const out: number[] = [];
  for (const c of childrenOf(pid)) out.push(c, ...descendantsOf(c));
  return out;
}

/** Polls `fn` until it is true or `ms` pass; resolves with the last value. */
export async function until(fn: () => boolean, ms: number, every = 25): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (fn()) return true;
    await new Promise((r) => setTimeout(r, every));
  }
  return fn();
}

/** A fresh temporary directory and its cleanup. */
export function tempDir(prefix = 'ax-mcp-'): { path: string; cleanup(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** The `{data, meta}` envelope of a tool result's first text item. */
export function envelopeOf(result: { content?: unknown }): {
  data?: unknown;
  meta?: Record<string, unknown>;
  error?: Record<string, unknown>;
} {
  const c = (result.content as { type: string; text: string }[] | undefined)?.[0];
  if (!c || c.type !== 'text') throw new Error(`no text content in ${JSON.stringify(result)}`);
  return JSON.parse(c.text) as { data?: unknown; meta?: Record<string, unknown>; error?: Record<string, unknown> };
}

/** Whether a parsed value is a JSON-RPC 2.0 message (request, notification, result or error). */
export function isJsonRpc(v: unknown): boolean {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const m = v as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return false;
  if (typeof m.method === 'string') return m.id === undefined || typeof m.id === 'string' || typeof m.id === 'number';
  const hasId = typeof m.id === 'string' || typeof m.id === 'number' || m.id === null;
  return hasId && 'result' in m !== 'error' in m;
}
