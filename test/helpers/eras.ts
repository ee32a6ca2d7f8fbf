/**
 * Real clients of both MCP protocol eras on every MCP path, for table-driven tests: the v1 SDK's
 * `Client` (a 2025-era client: `initialize`, sessions) and the v2 SDK's `Client` pinned to 2026-07-28
 * (`server/discover`, `_meta` on every request), each over stdio (the client starts the server) and
 * over Streamable HTTP to a server started with and without `--stateless`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { SCOPE } from './scope.ts';
import { announcedUrl, REPO, TSX_LOADER } from './spawn.ts';

/** The MCP paths: stdio, HTTP with sessions, HTTP `--stateless`. */
export type McpPath = 'stdio' | 'http' | 'http-stateless';
export const PATHS: readonly McpPath[] = ['stdio', 'http', 'http-stateless'];
/** `legacy`: the 2025 era; `modern`: 2026-07-28. */
export type EraName = 'legacy' | 'modern';
export const ERAS: readonly EraName[] = ['legacy', 'modern'];
/** Every path with every era. */
export const ALL_PATHS_BY_ERAS: [McpPath, EraName][] = PATHS.flatMap((p) =>
  ERAS.map((e): [McpPath, EraName] => [p, e]),
);
/**
 * The cells a table runs, for `describe.each` (test/helpers/scope.ts): under `npm test`, one era per
 * path, so both eras and every transport are still met — stdio and stateless HTTP with a 2026-07-28
 * client, HTTP with sessions with a 2025-era client, the era each is most used with; under
 * `npm run test:rest`, the other cells; in a run of everything, every path with every era.
 */
export const PATHS_BY_ERAS: [McpPath, EraName][] = ALL_PATHS_BY_ERAS.filter(([p, e]) => {
  const quick = e === (p === 'http' ? 'legacy' : 'modern');
  return SCOPE === 'all' || (SCOPE === 'quick') === quick;
});

/** The revision a modern client pins. */
export const MODERN = '2026-07-28';

/** A server over HTTP, started for a test file. */
export interface HttpFixture {
  url: string;
  stderr(): string;
  /** What the server process wrote to its own stdout. */
  stdout(): string;
  stop(): Promise<void>;
}

/**
 * Starts `cli <server…> --transport http --addr 127.0.0.1:0 ...flags` and waits for its URL;
 * `server` is the command's words (default `mcp-server`; `grp mcp-server` for one mounted under `grp`).
 */
export async function startHttp(
  cli: string,
  flags: string[] = [],
  env: NodeJS.ProcessEnv = {},
  server: string[] = ['mcp-server'],
): Promise<HttpFixture> {
  const proc: ChildProcess = spawn(
    process.execPath,
    ['--import', TSX_LOADER, cli, ...server, '--transport', 'http', '--addr', '127.0.0.1:0', ...flags],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
  );
  let out = '';
  proc.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  const announced = announcedUrl(proc);
  const url = await announced.url;
  return {
    url,
    stderr: announced.stderr,
    stdout: () => out,
    stop: async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

/** One connected client of one era on one path, with what both SDKs share. */
export interface EraClient {
  era: EraName;
  path: McpPath;
  /** The SDK client itself (v1 for legacy, v2 for modern). */
  client: LegacyClient | ModernClient;
  /** Log notifications received, in order. */
  logs: { level: string; data: unknown }[];
  listTools(): Promise<Record<string, any>>;
  callTool(name: string, args?: Record<string, unknown>, meta?: Record<string, unknown>): Promise<Record<string, any>>;
  readResource(uri: string): Promise<Record<string, any>>;
  close(): Promise<void>;
}

/** Options of {@link connectEra}. */
export interface ConnectOptions {
  /** The fixture CLI (stdio: the client starts it). */
  cli: string;
  /** HTTP: the server's URL (its mode decides stateful or stateless). */
  url?: string;
  /** Environment of a stdio server (added to PATH and HOME). */
  env?: Record<string, string>;
  /** Client capabilities to declare (modern: sent in every request's `_meta`). */
  capabilities?: Record<string, unknown>;
  /** stdio: the server command's words after the CLI (default `mcp-server`). */
  server?: string[];
}

/** Connects a client of `era` on `path` (HTTP paths need `url`). */
export async function connectEra(era: EraName, path: McpPath, o: ConnectOptions): Promise<EraClient> {
  const stdioParams = {
    command: process.execPath,
    args: ['--import', TSX_LOADER, o.cli, ...(o.server ?? ['mcp-server'])],
    cwd: REPO,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...o.env },
    stderr: 'ignore' as const,
  };
  const logs: EraClient['logs'] = [];
  const info = { name: `eras-${era}-${path}`, version: '1.0.0' };
  const capabilities = { capabilities: o.capabilities ?? {} };
  if (era === 'legacy') {
    const client = new LegacyClient(info, capabilities);
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
    await client.connect(path === 'stdio' ? new LegacyStdio(stdioParams) : new LegacyHttp(new URL(o.url!)));
    return {
      era,
      path,
      client,
      logs,
      listTools: () => client.listTools() as Promise<Record<string, any>>,
      callTool: (name, args = {}, meta) =>
        client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) }) as Promise<Record<string, any>>,
      readResource: (uri) => client.readResource({ uri }) as Promise<Record<string, any>>,
      close: () => client.close(),
    };
  }
  const client = new ModernClient(info, { ...capabilities, versionNegotiation: { mode: { pin: MODERN } } });
  client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params));
  await client.connect(path === 'stdio' ? new ModernStdio(stdioParams) : new ModernHttp(new URL(o.url!)));
  return {
    era,
    path,
    client,
    logs,
    listTools: () => client.listTools() as Promise<Record<string, any>>,
    callTool: (name, args = {}, meta) =>
      client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) }) as Promise<Record<string, any>>,
    readResource: (uri) => client.readResource({ uri }) as Promise<Record<string, any>>,
    close: () => client.close(),
  };
}

/** What a test file's table over every MCP path shares ({@link eraServers}). */
export interface EraServers {
  /** The HTTP server of `path` (with sessions, or `--stateless`), once started. */
  server(path: 'http' | 'http-stateless'): HttpFixture;
  /** A client of `era` on `path`: stdio starts the server itself, HTTP reaches the file's server. */
  connect(era: EraName, path: McpPath, more?: Omit<ConnectOptions, 'cli' | 'url' | 'env'>): Promise<EraClient>;
}

/**
 * The servers a test file over every MCP path shares: `cli`'s `mcp-server` over HTTP with sessions
 * and `--stateless` (with `env`), started before the file's tests (vitest's `beforeAll`) and stopped
 * after them, then `cleanup` (a temporary directory removed); and a client of any era on any path.
 */
export function eraServers(cli: string, env: Record<string, string> = {}, cleanup?: () => void): EraServers {
  const servers: Partial<Record<'http' | 'http-stateless', HttpFixture>> = {};
  beforeAll(async () => {
    [servers.http, servers['http-stateless']] = await Promise.all([
      startHttp(cli, [], env),
      startHttp(cli, ['--stateless'], env),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([servers.http?.stop(), servers['http-stateless']?.stop()]);
    cleanup?.();
  });
  const server = (path: 'http' | 'http-stateless'): HttpFixture => servers[path]!;
  return {
    server,
    connect: (era, path, more = {}) =>
      connectEra(era, path, { ...more, cli, env, ...(path === 'stdio' ? {} : { url: server(path).url }) }),
  };
}

/** The envelope in a tools/call result's first text item. */
export function envelopeOf(result: Record<string, any>): Record<string, any> {
  return JSON.parse((result.content as { text: string }[])[0]!.text) as Record<string, any>;
}
