/**
 * The MCP projection of a command tree on the SDK's low-level `Server` (tools carry raw JSON
 * Schema): tools/list and tools/call, prompts/list and prompts/get, resources/list, resources/read
 * and resources/templates/list, all from the one tree walk of lib/walk.ts that `__schema --as=mcp`
 * prints. Source: SPEC §8; MCP 2025-06-18 server features.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  CompleteRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Command } from '../lib/tree/command.ts';
import { errorEnvelope } from '../lib/contract/envelope.ts';
import { endSpan, startTrace } from '../lib/observe/trace.ts';
import type { NotificationLevel } from '../lib/observe/logger.ts';
import { toAxError, validationError } from '../lib/contract/errors.ts';
import { readDeclared } from '../lib/tree/declarations.ts';
import type { Interaction } from '../lib/tree/interaction.ts';
import { completeValue } from '../lib/completion/completion.ts';
import { injectedInForce } from '../lib/tree/flagset.ts';
import type { IdempotencyStore } from '../lib/replay/idempotency.ts';
import { invokeCommand, type InvokeOptions, type InvokeResult } from '../lib/run/invoke.ts';
import { CallSignal } from '../lib/run/call-signal.ts';
import type { Abortable } from './lifecycle.ts';
import {
  declarations,
  promptListEntry,
  resourceListEntry,
  toolDef,
  toolRefs,
  toolWrapping,
  type ToolDef,
  type ToolRef,
} from '../lib/schema/walk.ts';
import { toolProperties } from '../lib/tree/properties.ts';
import { callScope } from './children.ts';
import { attachmentItem, bytesItem, promptMessages, resourceContents } from './content.ts';
import { interactionFor } from './interact.ts';
import { CLIENT_ERROR, discoverError, rpcError } from './revisions.ts';

/** Options of the MCP server. */
export interface McpServerOptions {
  /** serverInfo.name. Default: the root command's name. */
  name?: string;
  /** serverInfo.version (must not be a placeholder; checked by the caller at start). */
  version: string;
  /** `instructions` returned by initialize (≤ 8 KiB UTF-8). */
  instructions?: string;
  /** Environment handed to handlers. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Called with what aborts every in-flight call (its CallSignal), so shutdown can abort them; returns the unregister function. */
  track?: (call: Abortable) => () => void;
  /** Where to log diagnostics (stray rejections, transport errors). Default stderr. */
  log?: (line: string) => void;
  /** Flag values applied to every call (the persistent flags given to `mcp-server`); see InvokeOptions.presets. */
  presets?: InvokeOptions['presets'];
  /**
   * A preview server (`mcp-server --dry-run`): every tools/call runs as a dry run, whatever the
   * client sends as `dry_run`; results carry `meta.dry_run: true`; the instructions say so.
   */
  dryRun?: boolean;
  /** Where replayed retries are recorded; default the file store (see ExecuteOptions.idempotencyStore). */
  idempotencyStore?: IdempotencyStore;
  /** How long a recorded outcome replays, ms. Default 24 h. */
  idempotencyTtlMs?: number;
}

/** The tree's MCP view, computed once per server process and shared by every session. */
export interface McpModel {
  root: Command;
  refs: ToolRef[];
  byName: Map<string, ToolRef>;
  prompts: ReturnType<typeof declarations>['prompts'];
  resources: ReturnType<typeof declarations>['resources'];
  /** tools/list result, computed on the first list. */
  toolList?: ToolDef[];
  /** inputSchema per tool, computed on the tool's first call. */
  defs: Map<string, ToolDef>;
}

/**
 * Walks the tree once. @throws AxError `validation_error` on tool-name collisions, invalid names or
 * duplicate declarations (the server fails closed at start, exit 2).
 */
export function buildModel(root: Command): McpModel {
  const refs = toolRefs(root);
  for (const r of refs) toolProperties(r.command); // property-name collisions refuse the start too (fail closed)
  const { prompts, resources } = declarations(root);
  return { root, refs, byName: new Map(refs.map((r) => [r.name, r])), prompts, resources, defs: new Map() };
}

/** MCP log levels, lowest first (RFC 5424 severities). */
const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** A zod issue list as one line: `params.name: Invalid input: expected string, received number`. */
export function issuesLine(issues: { path: PropertyKey[]; message: string }[]): string {
  return issues
    .map((i) => `${i.path.map(String).join('.') || 'request'}: ${i.message}`)
    .join('; ')
    .replace(/\s+/g, ' ');
}

type RequestSchema = Parameters<Server['setRequestHandler']>[0];
type Handler = (request: unknown, extra: unknown) => Promise<unknown>;

/**
 * The low-level Server, with prompt/resource list methods answered even when nothing is declared,
 * and requests whose params do not match the method's schema refused with -32602 and a one-line
 * message (the SDK answers some with -32603 and a multi-line validation dump).
 */
class AxServer extends Server {
  protected override assertRequestHandlerCapability(method: string): void {
    if (method.startsWith('prompts/') || method.startsWith('resources/') || method.startsWith('completion/')) return; // answered (empty) whatever is advertised (B26)
    super.assertRequestHandlerCapability(method);
  }

  override setRequestHandler(schema: RequestSchema, handler: Parameters<Server['setRequestHandler']>[1]): void {
    super.setRequestHandler(schema, handler as never);
    const method = (schema as unknown as { shape?: { method?: { value?: unknown } } }).shape?.method?.value;
    const handlers = (this as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
    const inner = typeof method === 'string' ? handlers?.get(method) : undefined;
    if (!inner || !handlers) return;
    // The SDK's handler parses the request against this schema before anything else and throws the
    // ZodError synchronously: turned into -32602 here, so a valid request is parsed once, not twice.
    handlers.set(method as string, (request, extra) => {
      try {
        return inner(request, extra);
      } catch (e) {
        const issues = (e as { issues?: unknown } | null)?.issues;
        if (Array.isArray(issues))
          return Promise.reject(
            new McpError(
              ErrorCode.InvalidParams,
              `Invalid params for ${String(method)}: ${issuesLine(issues as { path: PropertyKey[]; message: string }[])}`,
            ),
          );
        throw e;
      }
    });
  }
}

function defOf(model: McpModel, ref: ToolRef): ToolDef {
  let d = model.defs.get(ref.name);
  if (!d) {
    d = toolDef(ref);
    model.defs.set(ref.name, d);
  }
  return d;
}

function unknownTool(model: McpModel, name: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`, { available: model.refs.map((r) => r.name) });
}

/** The argument validator's module, once loaded (a dynamic import per call costs a namespace object each time). */
let argumentsModule: typeof import('../lib/parse/arguments.ts') | undefined;

/** The extras of one tools/call (from the SDK's request and its `extra`). */
export interface CallExtra {
  signal: AbortSignal;
  progress?: (done: number, total?: number, message?: string) => void;
  log?: (level: NotificationLevel, data: unknown) => void;
  /** `_meta.traceparent` / `_meta.tracestate` of the request (W3C trace context). */
  trace?: { traceparent?: string; tracestate?: string };
  /** What the client can be asked (elicitation, sampling), from its declared capabilities. */
  interaction?: Interaction;
}

/** Runs one tools/call and shapes its result (SPEC §8; cases B08, B13). Never throws for command failures. */
export async function callTool(
  model: McpModel,
  options: McpServerOptions,
  name: string,
  args: unknown,
  extra: CallExtra,
): Promise<CallToolResult> {
  const ref = model.byName.get(name);
  if (!ref) throw unknownTool(model, name);
  const def = defOf(model, ref);
  let values: Record<string, unknown>;
  try {
    const { validateArguments } = (argumentsModule ??= await import('../lib/parse/arguments.ts')); // ajv loads on the first call, not at start
    values = validateArguments(ref.command, def.inputSchema, args);
    if (options.dryRun) {
      // a preview server: the client cannot turn the dry run off
      if (!injectedInForce(ref.command, 'dry-run')) {
        throw validationError(
          `${name} cannot run as a dry run (its own dry_run flag replaces the standard one), and this server only previews`,
          'dry_run_unavailable',
          {
            context: { tool: name },
            fix: 'Ask the user to run the server without --dry-run to call this tool.',
          },
        );
      }
      values = { ...values, dry_run: true };
    }
  } catch (e) {
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
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(errorEnvelope(err, meta)) }] };
  }
  // the call's signal follows the client's cancellation and the server's shutdown; its AbortController
  // and the listener on the client's signal are made only if the run reads it (call-signal.ts)
  const call = new CallSignal(extra.signal);
  const untrack = options.track?.(call);
  try {
    return toolResult(ref, name, await callScope.run(call, invokeCall, model, ref, values, call, extra, options, name));
  } finally {
    call.dispose();
    untrack?.();
  }
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
    idempotencyStore: options.idempotencyStore,
    idempotencyTtlMs: options.idempotencyTtlMs,
  });
}

/** A finished call as the tools/call result: isError with the error line, or the envelope and structuredContent. */
function toolResult(ref: ToolRef, name: string, r: InvokeResult): CallToolResult {
  if (r.exitCode !== 0) {
    const text = r.errorEnvelope ? JSON.stringify(r.errorEnvelope) : r.stderr.trim();
    return { isError: true, content: [{ type: 'text', text }] };
  }
  const output = ref.command.output;
  const attached = r.attachments?.length ? r.attachments.map(attachmentItem) : undefined;
  if (output?.kind === 'opaque' && r.payload instanceof Uint8Array) {
    // bytes: the item itself is the result (there is no text to give); attachments follow
    return {
      content: [bytesItem(r.payload, output.mediaType, name), ...(attached ?? [])] as CallToolResult['content'],
    };
  }
  const text = { type: 'text' as const, text: r.stdout };
  const result: CallToolResult = { content: (attached ? [text, ...attached] : [text]) as CallToolResult['content'] };
  const wrapping = toolWrapping(ref.command);
  if (wrapping === 'object') result.structuredContent = (r.payload ?? {}) as Record<string, unknown>;
  else if (wrapping === 'result') result.structuredContent = { result: r.payload ?? null };
  else if (wrapping === 'items') result.structuredContent = { items: r.items ?? [] };
  return result;
}

/** The sentence a preview server (`--dry-run`) adds to its `instructions`. */
export const PREVIEW_INSTRUCTIONS =
  'This server is a preview (started with --dry-run): every tool call runs as a dry run and nothing will be changed; results carry meta.dry_run: true and meta.would lists what a real call would do.';

/** The `instructions` of initialize: the author's, and for a preview server the note that nothing will be changed. */
export function serverInstructions(options: Pick<McpServerOptions, 'instructions' | 'dryRun'>): string | undefined {
  if (!options.dryRun) return options.instructions;
  return options.instructions ? `${options.instructions}\n\n${PREVIEW_INSTRUCTIONS}` : PREVIEW_INSTRUCTIONS;
}

/** A connected-ready SDK Server for one session (stdio: the only one; HTTP: one per session). */
export function createServer(model: McpModel, options: McpServerOptions): Server {
  const capabilities: Record<string, object> = { tools: { listChanged: false }, logging: {} };
  if (model.prompts.length) capabilities.prompts = { listChanged: false };
  if (model.resources.length) capabilities.resources = { listChanged: false, subscribe: false };
  if (model.prompts.length || model.resources.some((r) => r.decl.uriTemplate)) capabilities.completions = {};
  const server = new AxServer(
    { name: options.name ?? model.root.name, version: options.version },
    { capabilities, ...(serverInstructions(options) ? { instructions: serverInstructions(options) } : {}) },
  );
  // A client's mistake the transport has already answered (400, 406, 415…) is not the server's
  // error: it leaves no line on stderr unless AX_DEBUG is set.
  server.onerror = (e) => {
    if (CLIENT_ERROR.test(e.message) && !(options.env ?? process.env).AX_DEBUG) return;
    (options.log ?? ((l) => process.stderr.write(`${l}\n`)))(`mcp-server: ${e.message}`);
  };
  // A newer revision's probe (`server/discover`) gets -32022 with the revisions spoken here, so its
  // client falls back to initialize; any other unknown method is -32601, as without this handler.
  server.fallbackRequestHandler = async (request) => {
    if (request.method === 'server/discover') throw discoverError();
    throw rpcError(ErrorCode.MethodNotFound, 'Method not found'); // the SDK's own answer, word for word
  };

  // logging/setLevel: the lowest level forwarded for this session (RFC 5424 order; default info).
  let minLevel = LOG_LEVELS.indexOf('info');
  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    minLevel = LOG_LEVELS.indexOf(request.params.level);
    return {};
  });

  // completion/complete: a prompt argument or template variable is completed from the positional or
  // flag of that name on the command the prompt/resource is declared on — the same choices and
  // completer callbacks that shell completion uses (lib/completion completeValue).
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const ref = request.params.ref;
    const owner =
      ref.type === 'ref/prompt'
        ? model.prompts.find((p) => p.decl.name === ref.name)
        : model.resources.find((r) => r.decl.uriTemplate === ref.uri || r.decl.uri === ref.uri);
    if (!owner)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown ${ref.type === 'ref/prompt' ? 'prompt' : 'resource'}: ${ref.type === 'ref/prompt' ? ref.name : ref.uri}`,
      );
    const arg = request.params.argument;
    const known =
      'template' in owner.decl
        ? (owner.decl.arguments ?? []).some((a) => a.name === arg.name)
        : new RegExp(`\\{${arg.name.replace(/[^A-Za-z0-9_]/g, '')}\\}`).test(owner.decl.uriTemplate ?? '');
    if (!known)
      throw new McpError(
        ErrorCode.InvalidParams,
        `${ref.type === 'ref/prompt' ? `Prompt ${ref.name}` : `Resource template ${ref.uri}`} has no argument ${JSON.stringify(arg.name)}`,
      );
    let values: string[];
    try {
      values = (await completeValue(owner.command, arg.name, arg.value)).map((c) => c.value);
    } catch (e) {
      throw new McpError(
        ErrorCode.InternalError,
        `completion of ${arg.name} failed: ${(e as Error)?.message ?? String(e)}`,
      );
    }
    return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } };
  });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (model.toolList ??= model.refs.map((r) => defOf(model, r))) as never,
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const token = request.params._meta?.progressToken;
    const progress =
      token === undefined
        ? undefined
        : (done: number, total?: number, message?: string) => {
            void extra
              .sendNotification({
                method: 'notifications/progress',
                params: {
                  progressToken: token,
                  progress: done,
                  ...(total !== undefined ? { total } : {}),
                  ...(message ? { message } : {}),
                },
              })
              .catch(() => {});
          };
    const log = (level: NotificationLevel, data: unknown) => {
      if (LOG_LEVELS.indexOf(level) < minLevel) return;
      void extra
        .sendNotification({ method: 'notifications/message', params: { level, logger: request.params.name, data } })
        .catch(() => {});
    };
    const meta = request.params._meta as Record<string, unknown> | undefined;
    const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
    const trace = { traceparent: str(meta?.traceparent), tracestate: str(meta?.tracestate) };
    return callTool(model, options, request.params.name, request.params.arguments, {
      signal: extra.signal,
      progress,
      log,
      trace,
      interaction: interactionFor(server, extra),
    });
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: model.prompts.map((p) => promptListEntry(p.decl)) as never,
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const found = model.prompts.find((p) => p.decl.name === request.params.name);
    if (!found) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    const decl = found.decl;
    const given = request.params.arguments ?? {};
    const declared = (decl.arguments ?? []).map((a) => a.name);
    for (const k of Object.keys(given))
      if (!declared.includes(k))
        throw new McpError(
          ErrorCode.InvalidParams,
          `Prompt ${decl.name} has no argument ${JSON.stringify(k)} (declared: ${declared.join(', ') || 'none'})`,
        );
    // own properties only: an argument named `constructor` or `toString` is a plain name
    for (const a of decl.arguments ?? [])
      if (a.required && (!Object.hasOwn(given, a.name) || given[a.name] === undefined || given[a.name] === null))
        throw new McpError(ErrorCode.InvalidParams, `Prompt ${decl.name} needs the argument ${JSON.stringify(a.name)}`);
    const messages = promptMessages(
      decl,
      given,
      model.resources.map((r) => r.decl),
    );
    return { ...(decl.description ? { description: decl.description } : {}), messages: messages as never };
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: model.resources.filter((r) => r.decl.uri).map((r) => resourceListEntry(r.decl)) as never,
  }));

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: model.resources.filter((r) => r.decl.uriTemplate).map((r) => resourceListEntry(r.decl)) as never,
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    let rc;
    try {
      rc = readDeclared(
        model.resources.map((r) => r.decl),
        uri,
      );
    } catch {
      // a malformed percent-escape in a variable: the client's fault, not an internal error
      throw new McpError(
        ErrorCode.InvalidParams,
        `Malformed URI ${JSON.stringify(uri)}: a percent-escape is not valid UTF-8 or not two hex digits`,
        { uri },
      );
    }
    if (rc) return { contents: [resourceContents(rc) as never] };
    throw new McpError(-32002, `Resource not found: ${uri}`, { uri });
  });

  return server;
}

/** Re-exported for callers of this module (it now lives with the declarations). */
export { matchTemplate } from '../lib/tree/declarations.ts';
