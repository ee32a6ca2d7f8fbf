/**
 * The tree's tools as a server knows them: each tool's definition (the `__schema --as=mcp` entry), a
 * name's lookup among the tools and the lazy subtrees that failed to load, a call's arguments
 * checked against the advertised inputSchema, and the task board. A call itself is a ToolCall
 * (tool-call.ts); how a tool is listed and a result shaped is its era's (era.ts;
 * docs/mcp-server.md#toolscall).
 */
import { errorEnvelope } from '../../lib/contract/envelope.ts';
import { startTrace, traceSettings } from '../../lib/observe/trace.ts';
import { validationError, type AxError } from '../../lib/contract/errors.ts';
import { injectedInForce } from '../../lib/tree/flagset.ts';
import { toolDef, type ToolDef, type ToolRef } from '../../lib/schema/walk.ts';
import { rpcError } from '../base/eras.ts';
import { TaskBoard, taskLimits } from './task-board.ts';
import { storeFor } from '../../lib/store/replay.ts';
import type { IdempotencyStore } from '../../lib/store/idempotency.ts';
import type { McpModel, McpServerOptions } from './model.ts';
import type { CallExtra } from './era.ts';

/** The tool's definition for a 2025-era client (the `__schema --as=mcp` entry), computed once. */
export function defOf(model: McpModel, ref: ToolRef): ToolDef {
  let d = model.defs.get(ref.name);
  if (!d) {
    d = toolDef(ref);
    model.defs.set(ref.name, d);
  }
  return d;
}

/**
 * The load error of the lazy subtree a tool name is below (or is), when that subtree failed to load
 * and the name is no loaded tool: a loaded tool whose name merely starts with the stub's (`db_wipe`
 * beside a broken `db`) is that tool, never the stub's fallback.
 */
export function unloadedTool(model: McpModel, name: string): AxError | undefined {
  if (model.byName.has(name)) return undefined;
  return model.unloaded.find((u) => name === u.tool || name.startsWith(`${u.tool}_`))?.error;
}

const traceEnvs = new WeakMap<McpServerOptions, Record<string, string | undefined>>();

/**
 * Where a server's calls read their trace settings: `options.env` when it is its own object (read
 * as each call runs), else `process.env`'s settings read once, on the server's first call
 * (docs/observability.md#a-servers-trace-settings).
 */
export function traceEnvOf(options: McpServerOptions): Record<string, string | undefined> {
  if (options.env && options.env !== process.env) return options.env;
  let t = traceEnvs.get(options);
  if (!t) traceEnvs.set(options, (t = traceSettings(process.env)));
  return t;
}

/**
 * The error envelope of a call that did not run (`{error, meta}`, the call's trace id in meta; its
 * duration_ms from `startedAt`, when the call arrived, else from now).
 */
export function errorOf(
  model: McpModel,
  options: McpServerOptions,
  extra: Pick<CallExtra, 'trace'>,
  err: AxError,
  startedAt?: number,
) {
  const trace = startTrace(traceEnvOf(options), extra.trace);
  const meta = { trace_id: trace.traceId, tool: model.root.name, version: options.version };
  return errorEnvelope(err, { ...meta, startedAt: startedAt ?? trace.startedAt });
}

/** The JSON-RPC error for a name that is no tool (-32602), listing the tools there are. */
export function unknownTool(model: McpModel, name: string): Error {
  return rpcError(-32602, `Unknown tool: ${name}`, { available: model.refs.map((r) => r.name) });
}

/** The argument validator's module, once loaded (a dynamic import per call costs a namespace object each time). */
let argumentsModule: typeof import('../../lib/parse/arguments.ts') | undefined;

/**
 * The model's task board: task state in the idempotency store's documents (else in memory), runs
 * bounded by the limits of `env` (checked at start: serve/startup.ts).
 */
export function boardOf(model: McpModel, options: McpServerOptions): TaskBoard {
  const env = options.env ?? process.env;
  let store: Promise<IdempotencyStore | undefined> | undefined;
  return (model.tasks ??= new TaskBoard(
    model.root.name,
    () =>
      (store ??= storeFor(
        { store: options.idempotencyStore, ttlMs: 0, waitMs: 0 },
        model.root.name,
        env,
        'a task',
      ).catch(() => undefined)),
    taskLimits(env),
  ));
}

/**
 * A call's arguments checked against the tool's inputSchema, as values by property; on a preview
 * server (`--dry-run`) with `dry_run: true` forced; a promise only on the first call, whose validator
 * loads. @throws AxError validation_error (on the first call, the promise rejects with it).
 */
export function checkedValues(
  ref: ToolRef,
  def: ToolDef,
  name: string,
  args: unknown,
  options: McpServerOptions,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  // ajv loads on the first call, not at start; after that the check is synchronous (no promise to await)
  if (argumentsModule) return checkedWith(argumentsModule, ref, def, name, args, options);
  return import('../../lib/parse/arguments.ts').then((m) =>
    checkedWith((argumentsModule = m), ref, def, name, args, options),
  );
}

/** {@link checkedValues} once the validator's module is loaded. */
function checkedWith(
  { validateArguments }: typeof import('../../lib/parse/arguments.ts'),
  ref: ToolRef,
  def: ToolDef,
  name: string,
  args: unknown,
  options: McpServerOptions,
): Record<string, unknown> {
  const values = validateArguments(ref.command, def.inputSchema, args);
  if (!options.dryRun) return values;
  // a preview server: the client cannot turn the dry run off
  if (!injectedInForce(ref.command, 'dry-run')) {
    throw validationError(
      `${name} cannot run as a dry run ` +
        `(${ref.command.dryRun ? 'its own dry_run flag replaces the standard one' : 'it declares no dry run'}), and this server only previews`,
      'dry_run_unavailable',
      {
        context: { tool: name },
        fix: 'Ask the user to run the server without --dry-run to call this tool.',
      },
    );
  }
  return { ...values, dry_run: true };
}
