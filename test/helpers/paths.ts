/**
 * The paths a command runs by, behind one `call`: the CLI process, `--args-json` (a process),
 * in-process `execute`, and MCP `tools/call` over stdio, HTTP stateful and HTTP stateless, and over
 * stdio in progressive mode through `call_read_only_tool`/`call_tool` (real SDK clients against
 * real server processes). Every path reports the same {@link Outcome}, so one
 * table of rules can run through all of them ("every path means the same").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Command } from '../../lib/index.ts';
import type { IdempotencyStore } from '../../lib/store/index.ts';
import { connectStdio, type StdioConnection } from './mcp.ts';
import { runCli } from './run.ts';
import { runScript, TSX_LOADER } from './spawn.ts';

type Json = Record<string, any>;

/** What one call produced, the same shape on every path. */
export interface Outcome {
  /** The exit code (MCP: `error.exit_code` of an isError result, else 0). */
  code: number;
  /** CLI: stdout; MCP: the text of the result (what `--format json` prints on stdout). */
  stdout: string;
  /** The error line / isError envelope (`{error, meta}`), when the call failed. */
  error?: Json;
  /** MCP only: the result's isError. */
  isError?: boolean;
  /** Process paths: what the process wrote on stderr. */
  stderr?: string;
  /** MCP only: the text of every content item of the result, in order. */
  texts?: string[];
}

/** One call, in both spellings: argv for the CLI paths, the tool's arguments for the JSON paths. */
export interface Call {
  /** The tool name (the command path below the root joined with `_`). */
  tool: string;
  /** The command line after the program name. */
  argv: string[];
  /** The tool's arguments (MCP `arguments`, the `--args-json` object). */
  json: Json;
}

/** A path: how it spells arguments (`argv` or `json`) and how it calls. */
export interface Path {
  name: 'cli' | 'args-json' | 'in-process' | 'mcp-stdio' | 'mcp-http' | 'mcp-http-stateless' | 'mcp-progressive';
  /** Which spelling of a call this path uses. */
  spelling: 'argv' | 'json';
  /** Whether it is an MCP path (tools/list, isError, no `mcp-server` or `__schema` command). */
  mcp: boolean;
  call(c: Call): Promise<Outcome>;
  /** The command-line paths (cli, args-json, in-process): runs the words after the program's name as they are. */
  line?(argv: string[]): Promise<Outcome>;
  /** MCP only: the inputSchema of a tool as listed. */
  inputSchema?(tool: string): Promise<Json>;
  /** MCP only: the initialize instructions. */
  instructions?(): string | undefined;
  /** MCP only: a tools/call of this server's tool `name` with `args`, as given (a next step run verbatim). */
  raw?(name: string, args: Json): Promise<Outcome>;
  close(): Promise<void>;
}

/** Every path's name, in the order the tables run them. */
export const PATH_NAMES = [
  'cli',
  'args-json',
  'in-process',
  'mcp-stdio',
  'mcp-http',
  'mcp-http-stateless',
  'mcp-progressive',
] as const satisfies readonly Path['name'][];

function lastJsonLine(text: string): Json | undefined {
  const last = text.trimEnd().split('\n').pop() ?? '';
  try {
    return JSON.parse(last) as Json;
  } catch {
    return undefined;
  }
}

function fromProcess(r: { code: number | null; stdout: string; stderr: string }): Outcome {
  const code = r.code ?? -1;
  return code === 0
    ? { code, stdout: r.stdout, stderr: r.stderr }
    : { code, stdout: r.stdout, stderr: r.stderr, error: lastJsonLine(r.stderr) };
}

function fromTool(result: Json): Outcome {
  const texts = (result.content as { type: string; text?: string }[]).flatMap((c) =>
    c.type === 'text' ? [c.text!] : [],
  );
  const text = (result.content as { type: string; text: string }[])[0]!.text;
  if (result.isError) {
    const error = JSON.parse(text) as Json;
    // what the command wrote before it failed (a stream's items) follows the error line
    const before = (result.content as { type: string; text: string }[])[1]?.text ?? '';
    return { code: error.error.exit_code as number, stdout: before, error, isError: true, texts };
  }
  return { code: 0, stdout: text, isError: false, texts };
}

/** A process path: `cli` (argv) or `args-json` (the command words, then `--args-json '<json>'`). */
export function processPath(name: 'cli' | 'args-json', script: string, env: Record<string, string>): Path {
  return {
    name,
    spelling: name === 'cli' ? 'argv' : 'json',
    mcp: false,
    call: async (c) => {
      const argv = name === 'cli' ? c.argv : [...c.tool.split('_'), '--args-json', JSON.stringify(c.json)];
      return fromProcess(await runScript(script, argv, { ...minimalEnv(), ...env }));
    },
    line: async (argv) => fromProcess(await runScript(script, argv, { ...minimalEnv(), ...env })),
    close: async () => {},
  };
}

/** The in-process path: `execute` on a fresh tree, with captured streams (and `idempotencyStore`, if given). */
export function inProcessPath(
  build: () => Command,
  env: Record<string, string>,
  idempotencyStore?: IdempotencyStore,
): Path {
  return {
    name: 'in-process',
    spelling: 'argv',
    mcp: false,
    call: async (c) => fromProcess(await runCli(build(), c.argv, { env, idempotencyStore })),
    line: async (argv) => fromProcess(await runCli(build(), argv, { env, idempotencyStore })),
    close: async () => {},
  };
}

/** PATH, TMPDIR, LANG of this process: nothing that changes a CLI's behaviour. */
export function minimalEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of ['PATH', 'TMPDIR', 'LANG']) if (process.env[k] !== undefined) env[k] = process.env[k]!;
  return env;
}

function mcpPath(name: Path['name'], client: Client, close: () => Promise<void>): Path {
  const schemas = new Map<string, Json>();
  return {
    name,
    spelling: 'json',
    mcp: true,
    call: async (c) =>
      fromTool((await client.callTool({ name: c.tool, arguments: c.json }, undefined, { timeout: 60_000 })) as Json),
    inputSchema: async (tool) => {
      if (!schemas.size) for (const t of (await client.listTools()).tools) schemas.set(t.name, t.inputSchema as Json);
      return schemas.get(tool)!;
    },
    instructions: () => client.getInstructions(),
    close,
  };
}

/** MCP over stdio: `<script> mcp-server ...extra` with the SDK's stdio client. */
export async function stdioPath(
  script: string,
  env: Record<string, string>,
  extra: string[] = [],
): Promise<Path & { conn: StdioConnection }> {
  const conn = await connectStdio(['mcp-server', ...extra], env, script);
  return { ...mcpPath('mcp-stdio', conn.client, () => conn.close()), conn };
}

/**
 * MCP over stdio in progressive mode (`mcp-server --discovery progressive`): a call goes through
 * the call tool `describe_tool` names for it (`call_read_only_tool` or `call_tool`) with the tool's
 * name and arguments; its result is the tool's own. The inputSchema is `describe_tool`'s.
 */
export async function progressivePath(
  script: string,
  env: Record<string, string>,
  extra: string[] = [],
): Promise<Path & { conn: StdioConnection }> {
  const conn = await connectStdio(['mcp-server', '--discovery', 'progressive', ...extra], env, script);
  const described = new Map<string, Json>();
  const describe = async (tool: string): Promise<Json> => {
    let d = described.get(tool);
    if (!d) {
      const r = (await conn.client.callTool({ name: 'describe_tool', arguments: { name: tool } })) as Json;
      d = (r.isError ? {} : r.structuredContent) as Json;
      described.set(tool, d);
    }
    return d;
  };
  return {
    name: 'mcp-progressive',
    spelling: 'json',
    mcp: true,
    call: async (c) => {
      const via = ((await describe(c.tool)).call_with as string | undefined) ?? 'call_tool';
      const r = await conn.client.callTool({ name: via, arguments: { name: c.tool, arguments: c.json } }, undefined, {
        timeout: 60_000,
      });
      return fromTool(r as Json);
    },
    inputSchema: async (tool) => (await describe(tool)).inputSchema as Json,
    instructions: () => conn.client.getInstructions(),
    raw: async (name, args) =>
      fromTool((await conn.client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as Json),
    close: () => conn.close(),
    conn,
  };
}

/** A running HTTP server process and its URL. */
export interface HttpServer {
  proc: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/** Starts `<script> mcp-server --transport http --addr 127.0.0.1:0 ...extra` and waits for its URL. */
export function startHttp(script: string, env: Record<string, string>, extra: string[] = []): Promise<HttpServer> {
  const proc = spawn(
    process.execPath,
    ['--import', TSX_LOADER, script, 'mcp-server', '--transport', 'http', '--addr', '127.0.0.1:0', ...extra],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...minimalEnv(), HOME: process.env.HOME ?? '/nonexistent', ...env },
    },
  );
  let err = '';
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`no URL announced; stderr:\n${err}`));
    }, 30_000);
    proc.stderr!.setEncoding('utf8').on('data', (c: string) => {
      err += c;
      const m = /listening on (http:\/\/\S+\/mcp)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve({
          proc,
          url: m[1]!,
          stop: async () => {
            if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
            const force = setTimeout(() => proc.kill('SIGKILL'), 10_000);
            await exited;
            clearTimeout(force);
          },
        });
      }
    });
    void exited.then(() => reject(new Error(`server exited before listening; stderr:\n${err}`)));
  });
}

/** An SDK client session on a running HTTP server (stateful or stateless, as the server was started). */
export async function httpClient(url: string): Promise<Client> {
  const client = new Client({ name: 'ax-ts-paths', version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** MCP over HTTP: one server process, one SDK client session. */
export async function httpPath(
  script: string,
  env: Record<string, string>,
  stateless: boolean,
  extra: string[] = [],
): Promise<Path & { server: HttpServer }> {
  const server = await startHttp(script, env, [...(stateless ? ['--stateless'] : []), ...extra]);
  const client = await httpClient(server.url);
  return {
    ...mcpPath(stateless ? 'mcp-http-stateless' : 'mcp-http', client, async () => {
      await client.close().catch(() => {});
      await server.stop();
    }),
    server,
  };
}
