/**
 * The columns of the feature × feature table (test/e2e/compose.test.ts) and how a cell calls on
 * them: the CLI process, `--args-json`, in-process `execute`, and MCP over stdio, HTTP and stateless
 * HTTP with each era's SDK client — and, for the rows that need them, the same paths in progressive
 * discovery, on a server mounted under `grp`, as a 2026-07-28 task (raw requests declaring the Tasks
 * extension), and over the commander twin (test/fixtures/compose-commander.ts).
 *
 * Every MCP server of the table runs with `--strict --timeout 3s`: over MCP both are the server's
 * presets (docs/contract.md), so a cell that does not warn or wait is unaffected by them, and the
 * command-line columns pass the same flags in the cells that need them.
 */
import { appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildComposeCli } from '../fixtures/compose-tree.ts';
import { connectEra, startHttp, type EraClient, type EraName, type HttpFixture, type McpPath } from './eras.ts';
import { rawStdio, type RawServer } from './mcp.ts';
import type { Outcome } from './paths.ts';
import { runCli } from './run.ts';
import { runScript } from './spawn.ts';
import { logEntries } from './effects-log.ts';
import { TASKS, taskWire } from './tasks-wire.ts';

type Json = Record<string, any>;

export const COMPOSE_CLI = fileURLToPath(new URL('../fixtures/compose-cli.ts', import.meta.url));
export const COMPOSE_COMMANDER = fileURLToPath(new URL('../fixtures/compose-commander.ts', import.meta.url));
export const dir = mkdtempSync(join(tmpdir(), 'ax-compose-'));
const LOG = join(dir, 'effects.log');
appendFileSync(LOG, '');
/** One state directory and one side-effect log for every path. */
export const ENV = { COMPOSE_LOG: LOG, XDG_STATE_HOME: join(dir, 'state'), AGENT_MODE: 'json' };
/** The presets every MCP server of the table runs with. */
export const PRESETS = ['--strict', '--timeout', '3s'];

/** The side effects logged so far for `name`. */
export function effects(name: string): Json[] {
  return logEntries(LOG).filter((e) => e.name === name || e.cmd === name);
}

/** A column of the table: a path, and over MCP an era. */
export interface Column {
  path: 'cli' | 'args-json' | 'in-process' | McpPath;
  era?: EraName;
}
export const columnName = (c: Column): string => (c.era ? `mcp-${c.path} ${c.era}` : c.path);

/** Where a call goes: the server's variant and the program. */
export interface Where {
  lazy?: boolean;
  mounted?: boolean;
  progressive?: boolean;
  task?: boolean;
  frontEnd?: boolean;
}

/** One call: the command (words below the root, or below `grp` when mounted), its properties. */
export interface Call {
  cmd: string;
  name?: string;
  /** The tool's properties / the command's flags (snake_case; `true` is a bare flag). */
  props?: Json;
  /** Command line only: positionals after `name` (over MCP and in --args-json, a property says them). */
  args?: string[];
  /** Command line only: `--strict` (over MCP the server's preset). */
  strict?: boolean;
  /** Command line only: `--timeout 3s` (over MCP the server's preset). */
  timeout?: boolean;
}

const flagWords = (props: Json): string[] =>
  Object.entries(props).flatMap(([k, v]) => {
    const flag = `--${k.replace(/_/g, '-')}`;
    return v === true ? [flag] : v === false ? [] : [flag, String(v)];
  });

function fromProcess(r: { code: number | null; stdout: string; stderr: string }): Outcome {
  const code = r.code ?? -1;
  const last = r.stderr.trimEnd().split('\n').pop() ?? '';
  let error: Json | undefined;
  try {
    error = code === 0 ? undefined : (JSON.parse(last) as Json);
  } catch {
    error = undefined;
  }
  return { code, stdout: r.stdout, stderr: r.stderr, ...(error ? { error } : {}) };
}

/** A tools/call result as an {@link Outcome}. */
export function fromTool(result: Json): Outcome {
  const texts = ((result.content ?? []) as { type: string; text?: string }[]).flatMap((c) =>
    c.type === 'text' ? [c.text!] : [],
  );
  if (result.isError) {
    const error = JSON.parse(texts[0]!) as Json;
    return { code: error.error.exit_code as number, stdout: '', error, isError: true, texts };
  }
  return { code: 0, stdout: texts[0] ?? '', isError: false, texts };
}

/** Runs calls and next steps on one column, at one place. */
export interface Runner {
  column: Column;
  mcp: boolean;
  /** The commander twin: its options are text (`--delay-ms` is a string property). */
  frontEnd: boolean;
  call(c: Call): Promise<Outcome>;
  /** A stop's next step, run as given (a command line on the CLI paths, a tool call over MCP). */
  step(step: Json): Promise<Outcome>;
}

/** Opens what the table's MCP cells share, started on first use and closed by {@link closeAll}. */
const opened = new Map<string, Promise<unknown>>();
function once<T>(key: string, open: () => Promise<T>): Promise<T> {
  let p = opened.get(key) as Promise<T> | undefined;
  if (!p) opened.set(key, (p = open()));
  return p;
}
const closers: (() => Promise<void>)[] = [];

/** Stops every server and client the table opened. */
export async function closeAll(): Promise<void> {
  await Promise.allSettled(closers.map((c) => c()));
}

function serverWords(w: Where): string[] {
  return [
    ...(w.mounted ? ['grp'] : []),
    'mcp-server',
    ...(w.progressive ? ['--discovery', 'progressive'] : []),
    ...PRESETS,
  ];
}
const programOf = (w: Where) => (w.frontEnd ? COMPOSE_COMMANDER : COMPOSE_CLI);
const keyOf = (w: Where, extra = '') =>
  `${w.frontEnd ? 'fe' : 'native'}-${w.mounted ? 'grp' : 'root'}-${w.progressive ? 'prog' : 'flat'}${extra}`;

function httpServer(path: McpPath, w: Where): Promise<HttpFixture> {
  return once(`http ${path} ${keyOf(w)}`, async () => {
    const words = serverWords(w);
    const at = words.indexOf('mcp-server');
    const server = await startHttp(
      programOf(w),
      [...words.slice(at + 1), ...(path === 'http-stateless' ? ['--stateless'] : [])],
      ENV,
      words.slice(0, at + 1),
    );
    closers.push(() => server.stop());
    return server;
  });
}

function eraClient(c: Column, w: Where): Promise<EraClient> {
  return once(`client ${columnName(c)} ${keyOf(w)}`, async () => {
    const path = c.path as McpPath;
    const url = path === 'stdio' ? undefined : (await httpServer(path, w)).url;
    const client = await connectEra(c.era!, path, { cli: programOf(w), url, env: ENV, server: serverWords(w) });
    closers.push(() => client.close());
    return client;
  });
}

function rawServer(w: Where): Promise<RawServer> {
  return once(`raw ${keyOf(w)}`, async () => {
    const raw = rawStdio(serverWords(w), { cli: programOf(w), env: ENV });
    closers.push(async () => {
      raw.kill();
      await raw.exited;
    });
    return raw;
  });
}

/** One raw 2026-07-28 request declaring the Tasks extension (the SDK clients make no task calls). */
async function taskRequest(c: Column, w: Where, method: string, params: Json): Promise<Json> {
  const path = c.path as McpPath;
  // one wire per place (its request ids count per raw stdio server); its servers start on first use
  const wire = await once(`wire ${keyOf(w)}`, async () => {
    const servers: Partial<Record<McpPath, HttpFixture>> = {};
    const raw = { current: undefined as RawServer | undefined };
    return { servers, raw, send: taskWire(() => raw.current!, servers).send };
  });
  if (path === 'stdio') wire.raw.current = await rawServer(w);
  else wire.servers[path] = await httpServer(path, w);
  return wire.send(path, method, params, TASKS);
}

/** A tool call as a task: the handle, then tasks/get until it ends; the task's result as an outcome. */
async function asTask(c: Column, w: Where, name: string, args: Json): Promise<Outcome> {
  const made = await taskRequest(c, w, 'tools/call', { name, arguments: args });
  if (made.error) throw new Error(`tools/call as a task: ${JSON.stringify(made.error)}`);
  const handle = made.result as Json;
  if (handle.resultType !== 'task') return fromTool(handle); // answered at once (not a task)
  for (const t0 = Date.now(); Date.now() - t0 < 15_000;) {
    const got = (await taskRequest(c, w, 'tasks/get', { taskId: handle.taskId })).result as Json;
    if (got.status === 'completed') return { ...fromTool(got.result as Json), task: handle.taskId } as Outcome;
    if (got.status !== 'working') throw new Error(`task ended ${JSON.stringify(got)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('task did not end within 15 s');
}

/** The tool a call names at this place (relative to `grp` when mounted, under `lz` when lazy). */
export const toolOf = (c: Call, w: Where): string => `${w.lazy ? 'lz_' : ''}${c.cmd}`;

/** The runner of one column at one place. */
export function runner(column: Column, w: Where): Runner {
  const words = (c: Call) => [...(w.mounted ? ['grp'] : []), ...(w.lazy ? ['lz'] : []), c.cmd];
  const args = (c: Call): Json => ({ ...(c.name !== undefined ? { name: c.name } : {}), ...c.props });
  const presets = (c: Call) => [...(c.strict ? ['--strict'] : []), ...(c.timeout ? ['--timeout', '3s'] : [])];
  const mcpCall = async (tool: string, a: Json): Promise<Outcome> => {
    // in progressive mode a task goes through the call tool (every call of this table changes state
    // or waits: `call_tool`, as describe_tool says)
    if (w.task)
      return w.progressive ? asTask(column, w, 'call_tool', { name: tool, arguments: a }) : asTask(column, w, tool, a);
    const client = await eraClient(column, w);
    if (!w.progressive) return fromTool(await client.callTool(tool, a));
    const described = (await client.callTool('describe_tool', { name: tool })).structuredContent as Json;
    return fromTool(await client.callTool(described.call_with as string, { name: tool, arguments: a }));
  };
  const line = async (argv: string[]): Promise<Outcome> => {
    if (column.path === 'in-process') return fromProcess(await runCli(buildComposeCli(), argv, { env: ENV }));
    return fromProcess(await runScript(programOf(w), argv, { PATH: process.env.PATH ?? '', ...ENV }));
  };
  return {
    column,
    mcp: column.era !== undefined,
    frontEnd: w.frontEnd === true,
    call: (c) => {
      if (column.era) return mcpCall(toolOf(c, w), args(c));
      if (column.path === 'args-json')
        return line([...words(c), ...presets(c), '--args-json', JSON.stringify(args(c))]);
      return line([
        ...words(c),
        ...(c.name !== undefined ? [c.name] : []),
        ...(c.args ?? []),
        ...flagWords(c.props ?? {}),
        ...presets(c),
      ]);
    },
    step: async (step) => {
      if (!column.era) return line((step.argv as string[]).slice(1));
      const client = await eraClient(column, w);
      return fromTool(await client.callTool(step.tool as string, step.arguments as Json));
    },
  };
}
