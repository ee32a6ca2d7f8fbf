/**
 * Tools: `tools/list` from the one tree walk `__schema --as=mcp` prints, and `tools/call` — the
 * arguments validated against the advertised inputSchema, the command run in-process as
 * `--format json` would run it, the outcome shaped for the client's era (docs/mcp-server.md#toolscall).
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { errorEnvelope } from '../../lib/contract/envelope.ts';
import { endSpan, startTrace } from '../../lib/observe/trace.ts';
import type { NotificationLevel } from '../../lib/observe/logger.ts';
import { toAxError, validationError, type AxError } from '../../lib/contract/errors.ts';
import type { Interaction } from '../../lib/tree/interaction.ts';
import { injectedInForce } from '../../lib/tree/flagset.ts';
import { invokeCommand, type InvokeResult } from '../../lib/run/invoke.ts';
import { CallSignal } from '../../lib/run/call-signal.ts';
import { toolDef, toolWrapping, type ToolDef, type ToolRef } from '../../lib/schema/walk.ts';
import { anyRootOutputSchema } from '../../lib/schema/tool.ts';
import { callScope } from '../isolate/children.ts';
import { collectPrinted } from '../isolate/printed.ts';
import { attachmentItem, bytesItem } from '../base/content.ts';
import { rpcError, type Era } from '../base/eras.ts';
import { Round, type RoundInput } from './input-required.ts';
import { formCapable } from './interact.ts';
import { STOP_KEY, stopForm } from './stop-input.ts';
import { startTask, TaskBoard, tasksDeclared, tasksRequired } from './tasks.ts';
import { storeFor } from '../../lib/store/replay.ts';
import type { IdempotencyStore } from '../../lib/store/idempotency.ts';
import type { McpModel, McpServerOptions } from './model.ts';

/** The tool's definition for a 2025-era client (the `__schema --as=mcp` entry), computed once. */
function defOf(model: McpModel, ref: ToolRef): ToolDef {
  let d = model.defs.get(ref.name);
  if (!d) {
    d = toolDef(ref);
    model.defs.set(ref.name, d);
  }
  return d;
}

/**
 * The `tools/list` result's tools for an era, computed on the first list: the 2025 era's are
 * `__schema --as=mcp`'s; a 2026-07-28 client gets the same, except that the outputSchema of a
 * command whose output is not an object is the declared schema itself (a stream's: an array of its
 * items) instead of one wrapped in an object.
 */
export function toolList(model: McpModel, era: Era): ToolDef[] {
  if (era === 'legacy') return (model.toolList ??= model.refs.map((r) => defOf(model, r)));
  return (model.modernToolList ??= model.refs.map((r) => toolEntry(model, r, era)));
}

/** One tool as `tools/list` shows it to a client of `era` (see {@link toolList}). */
export function toolEntry(model: McpModel, ref: ToolRef, era: Era): ToolDef & { execution?: { taskSupport: string } } {
  const def = defOf(model, ref);
  if (era === 'legacy') return def;
  const wrapping = toolWrapping(ref.command);
  const out =
    wrapping === 'result' || wrapping === 'items' ? { ...def, outputSchema: anyRootOutputSchema(ref.command) } : def;
  return ref.command.task ? { ...out, execution: { taskSupport: ref.command.task } } : out;
}

/** The load error of the lazy subtree a tool name is below (or is), when that subtree failed to load. */
export function unloadedTool(model: McpModel, name: string): AxError | undefined {
  return model.unloaded.find((u) => name === u.tool || name.startsWith(`${u.tool}_`))?.error;
}

/** The error envelope of a call that did not run (`{error, meta}`, the call's trace id in meta). */
export function errorOf(model: McpModel, options: McpServerOptions, extra: CallExtra, err: AxError) {
  const trace = startTrace(options.env ?? process.env, extra.trace);
  return errorEnvelope(err, { trace_id: trace.traceId, tool: model.root.name, version: options.version });
}

function unknownTool(model: McpModel, name: string): Error {
  return rpcError(-32602, `Unknown tool: ${name}`, { available: model.refs.map((r) => r.name) });
}

/** The argument validator's module, once loaded (a dynamic import per call costs a namespace object each time). */
let argumentsModule: typeof import('../../lib/parse/arguments.ts') | undefined;

/** The extras of one tools/call (from the SDK's request and its context). */
export interface CallExtra {
  /** The client's era: how the result is shaped, and what a run that needed to ask becomes. */
  era: Era;
  signal: AbortSignal;
  progress?: (done: number, total?: number, message?: string) => void;
  log?: (level: NotificationLevel, data: unknown) => void;
  /** `_meta.traceparent` / `_meta.tracestate` of the request (W3C trace context). */
  trace?: { traceparent?: string; tracestate?: string };
  /** What the client can be asked (elicitation, sampling), from its declared capabilities. */
  interaction?: Interaction;
  /** 2026-07-28: the client capabilities this request declared (its `_meta`). */
  capabilities?: Record<string, unknown>;
  /** 2026-07-28: the request's multi round-trip material (answers, `requestState`). */
  round?: Omit<RoundInput, 'capabilities'>;
  /** The run of a task (tasks.ts): asks through `interaction`, and a handler's crash fails the task. */
  inTask?: boolean;
}

/** The model's task board: task state in the idempotency store's documents (else in memory). */
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
  ));
}

/**
 * Runs one tools/call and shapes its result. Never throws for command failures (they are `isError`
 * results); throws a JSON-RPC error for an unknown tool, and — for a 2026-07-28 client — -32021
 * when the run could only go on by asking the client for what it did not declare it can give.
 */
export async function callTool(
  model: McpModel,
  options: McpServerOptions,
  name: string,
  args: unknown,
  extra: CallExtra,
): Promise<CallToolResult> {
  const ref = model.byName.get(name);
  if (!ref) {
    // a tool below a lazy subtree that failed to load: its load error, not "unknown tool"
    const broken = unloadedTool(model, name);
    if (!broken) throw unknownTool(model, name);
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(errorOf(model, options, extra, broken)) }] };
  }
  const def = defOf(model, ref);
  let values: Record<string, unknown>;
  try {
    values = await checkedValues(ref, def, name, args, options);
  } catch (e) {
    return refused(model, options, ref, name, e, extra);
  }
  // 2026-07-28 and the Tasks extension: a task handle at once, the run going on in the background
  if (extra.capabilities && ref.command.task && !extra.inTask) {
    if (tasksDeclared(extra.capabilities)) {
      return (await startTask(boardOf(model, options), extra.capabilities, (signal, interaction) =>
        callTool(model, options, name, args, {
          era: extra.era,
          capabilities: extra.capabilities,
          signal,
          interaction,
          inTask: true,
        }),
      )) as CallToolResult;
    }
    if (ref.command.task === 'required') throw tasksRequired(`the tool ${name}`);
  }
  // 2026-07-28: the answers and state of a retried call are checked before anything runs
  const round =
    extra.capabilities && !extra.inTask
      ? await Round.open(name, args, { ...extra.round, capabilities: extra.capabilities }, options.env ?? process.env)
      : undefined;
  const run = round ? { ...extra, interaction: round.interaction(extra.capabilities!) } : extra;
  // 2026-07-28: the answer to a stop's form (stop-input.ts) joins the arguments, checked again
  const filled = round?.stopAnswer();
  if (round?.malformed) throw rpcError(-32602, round.malformed, { reason: 'invalid_input_response' });
  if (filled && filled !== 'declined') {
    try {
      values = await checkedValues(ref, def, name, { ...(args as Record<string, unknown>), ...filled }, options);
    } catch (e) {
      return refused(model, options, ref, name, e, extra);
    }
  }
  // the call's signal follows the client's cancellation and the server's shutdown; its AbortController
  // and the listener on the client's signal are made only if the run reads it (call-signal.ts)
  const call = new CallSignal(extra.signal);
  const untrack = options.track?.(call);
  const takePrinted = collectPrinted(call);
  let printed: string | undefined;
  try {
    const r = await callScope.run(call, invokeCall, model, ref, values, call, run, options, name);
    printed = takePrinted();
    if (round?.malformed) throw rpcError(-32602, round.malformed, { reason: 'invalid_input_response' });
    // a stop the client can answer (its one next step is this call with values to fill in) is a
    // form, unless the client has just declined it
    const form = round && filled !== 'declined' && formCapable(extra.capabilities) ? stopForm(name, def, r) : undefined;
    if (form) round!.askStop(STOP_KEY, form.request, form.fill);
    const asking = await round?.result();
    if (asking) return asking as CallToolResult;
    const crash = (r.errorEnvelope as { error?: { kind?: string; message?: string } } | undefined)?.error;
    if (extra.inTask && crash?.kind === 'internal_error')
      throw rpcError(-32603, `Internal error: ${crash.message ?? ''}`);
    if (extra.capabilities) {
      const needed = undeclaredNeed(r, extra.capabilities);
      if (needed) throw missingCapability(needed);
    }
    const result = toolResult(ref, name, r, extra.era, printed);
    printed = undefined; // delivered
    return result;
  } finally {
    // a result that carries no content (a question, a protocol error): what was printed is not
    // dropped but written where a print outside a call goes (printed.ts)
    const left = takePrinted() || printed;
    if (left) process.stdout.write(left);
    call.dispose();
    untrack?.();
  }
}

/**
 * A call's arguments checked against the tool's inputSchema, as values by property; on a preview
 * server (`--dry-run`) with `dry_run: true` forced. @throws AxError validation_error.
 */
async function checkedValues(
  ref: ToolRef,
  def: ToolDef,
  name: string,
  args: unknown,
  options: McpServerOptions,
): Promise<Record<string, unknown>> {
  const { validateArguments } = (argumentsModule ??= await import('../../lib/parse/arguments.ts')); // ajv loads on the first call, not at start
  const values = validateArguments(ref.command, def.inputSchema, args);
  if (!options.dryRun) return values;
  // a preview server: the client cannot turn the dry run off
  if (!injectedInForce(ref.command, 'dry-run')) {
    throw validationError(
      `${name} cannot run as a dry run (${ref.command.dryRun ? 'its own dry_run flag replaces the standard one' : 'it declares no dry run'}), and this server only previews`,
      'dry_run_unavailable',
      {
        context: { tool: name },
        fix: 'Ask the user to run the server without --dry-run to call this tool.',
      },
    );
  }
  return { ...values, dry_run: true };
}

/** A call refused before it ran (its arguments): the error result, its span ended. */
function refused(
  model: McpModel,
  options: McpServerOptions,
  ref: ToolRef,
  name: string,
  e: unknown,
  extra: CallExtra,
): CallToolResult {
  const err = toAxError(e);
  const env = options.env ?? process.env;
  const trace = startTrace(env, extra.trace);
  void endSpan(trace, env, () => ({
    name: ref.command.commandPath(),
    program: model.root.name,
    version: options.version,
    exitCode: err.exitCode,
    errorKind: err.kind,
    tool: name,
  }));
  const meta = { trace_id: trace.traceId, tool: model.root.name, version: options.version };
  return failureResult(ref, errorEnvelope(err, meta), extra.era);
}

/**
 * The capability a failed run needed and the client did not declare, when nothing else could have
 * given it: sampling (`sampling_unavailable`), or a form field no property can set
 * (`input_required` naming more fields than flags). A confirmation is not one: the property that
 * confirms (`yes`) does the same, and the error says which.
 */
function undeclaredNeed(r: InvokeResult, declared: Record<string, unknown>): Record<string, object> | undefined {
  if (r.exitCode === 0) return undefined;
  const error = (r.errorEnvelope as { error?: { kind?: string; context?: Record<string, unknown> } } | undefined)
    ?.error;
  if (error?.kind === 'sampling_unavailable' && !declared.sampling) return { sampling: {} };
  if (error?.kind === 'input_required' && !declared.elicitation) {
    const fields = (error.context?.fields as unknown[] | undefined)?.length ?? 0;
    const flags = (error.context?.flags as unknown[] | undefined)?.length ?? 0;
    if (fields > flags) return { elicitation: {} };
  }
  return undefined;
}

/** MissingRequiredClientCapabilityError (-32021) naming what the client must declare. */
function missingCapability(required: Record<string, object>): Error {
  const names = Object.keys(required).join(', ');
  return rpcError(
    -32021,
    `Missing required client capability: this tool call needs ${names}, which the request's clientCapabilities do not declare`,
    { requiredCapabilities: required },
  );
}

/** The in-process run of one call (inside the call's scope, so its children and stdin are the call's). */
function invokeCall(
  model: McpModel,
  ref: ToolRef,
  values: Record<string, unknown>,
  call: CallSignal,
  extra: CallExtra,
  options: McpServerOptions,
  name: string,
): Promise<InvokeResult> {
  return invokeCommand(model.root, ref.command, values, {
    signal: call,
    onProgress: extra.progress,
    onLog: extra.log,
    interaction: extra.interaction,
    env: options.env,
    version: options.version,
    presets: options.presets,
    traceparent: extra.trace?.traceparent,
    tracestate: extra.trace?.tracestate,
    tool: name,
    toolBase: model.mount,
    idempotencyStore: options.idempotencyStore,
    idempotencyTtlMs: options.idempotencyTtlMs,
  });
}

/**
 * A failed call as the tools/call result: isError, the error envelope (`{error, meta}`: kind,
 * message, `actionable_fix`, `context.reason`, a stop's `next` steps) as the text the model reads,
 * and the same object as `structuredContent` (docs/mcp-server.md#toolscall) — except for a 2025-era
 * client of a tool with an outputSchema: the 2025-era SDK client checks any `structuredContent`
 * against the outputSchema even on an isError result, and would turn the failure into a -32602
 * error that hides it. (2026-07-28 clients check only successful results.)
 */
function failureResult(
  ref: ToolRef,
  envelope: Record<string, unknown>,
  era: Era,
  stdout = '',
  printed = '',
): CallToolResult {
  const content = [{ type: 'text' as const, text: JSON.stringify(envelope) }, ...textItems(stdout, printed)];
  const result: CallToolResult = { isError: true, content };
  if (era === 'modern' || toolWrapping(ref.command) === undefined) result.structuredContent = envelope;
  return result;
}

/**
 * Text items that follow a result's first item, each only when not empty: what a failed command
 * delivered before it failed (a stream's items, as on the CLI's stdout: not dropped), then what the
 * handler printed (printed.ts; docs/mcp-server.md#printed-output).
 */
function textItems(...texts: string[]): { type: 'text'; text: string }[] {
  return texts.filter((t) => t !== '').map((text) => ({ type: 'text', text }));
}

/**
 * A finished call as the tools/call result: isError with the error line, or the envelope and
 * structuredContent — for a 2025-era client always an object (a non-object payload wrapped as
 * `{result}`, a stream's items as `{items}`), for a 2026-07-28 client the payload itself.
 */
function toolResult(ref: ToolRef, name: string, r: InvokeResult, era: Era, printed: string): CallToolResult {
  if (r.exitCode !== 0) {
    if (r.errorEnvelope) return failureResult(ref, r.errorEnvelope, era, r.stdout, printed);
    return { isError: true, content: [{ type: 'text', text: r.stderr.trim() }, ...textItems(r.stdout, printed)] };
  }
  const output = ref.command.output;
  const attached = r.attachments?.length ? r.attachments.map(attachmentItem) : undefined;
  if (output?.kind === 'opaque' && r.payload instanceof Uint8Array) {
    // bytes: the item itself is the result (there is no text to give); attachments follow
    const items = [bytesItem(r.payload, output.mediaType, name), ...(attached ?? []), ...textItems(printed)];
    return { content: items as CallToolResult['content'] };
  }
  const text = { type: 'text' as const, text: r.stdout };
  const items = [text, ...(attached ?? []), ...textItems(printed)];
  const result: CallToolResult = { content: items as CallToolResult['content'] };
  const wrapping = toolWrapping(ref.command);
  if (wrapping === 'object') result.structuredContent = (r.payload ?? {}) as Record<string, unknown>;
  else if (wrapping === 'result')
    result.structuredContent = (era === 'modern' ? (r.payload ?? null) : { result: r.payload ?? null }) as never;
  else if (wrapping === 'items')
    result.structuredContent = (era === 'modern' ? (r.items ?? []) : { items: r.items ?? [] }) as never;
  return result;
}
