/**
 * A protocol era as one implementation of {@link Era}: everything a server does differently for a
 * 2025-era client (revisions up to 2025-11-25) and a 2026-07-28 one (docs/mcp-server.md#protocol-eras)
 * — listing tools, shaping results and failures, asking the client, the log floor, tasks. The eras
 * themselves are mcp/protocol/eras/ (one file each), collected in a registry typed by
 * {@link EraName}, so the compiler refuses a server until a new era implements every member here; no
 * other file tests which era it serves (test/arch/eras.test.ts).
 */
import type { ToolVia } from '../../lib/schema/next-steps.ts';
import type { CallToolResult, Server, ServerContext, Transport } from '@modelcontextprotocol/server';
import type { Interaction } from '../../lib/tree/interaction.ts';
import type { InvokeResult } from '../../lib/run/invoke.ts';
import type { ToolDef, ToolRef } from '../../lib/schema/walk.ts';
import type { OutputWrapping } from '../../lib/schema/tool.ts';
import type { NotificationLevel } from '../../lib/observe/logger.ts';
import type { EraName } from '../base/eras.ts';
import type { Answering } from './answered.ts';
import type { McpModel, McpServerOptions } from './model.ts';
import type { RoundInput } from './input-required.ts';

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
  /** 2026-07-28: who calls, for the per-caller task limit (the session, else the authenticated client, else `""`). */
  caller?: string;
  /** 2026-07-28: the request's multi round-trip material (answers, `requestState`). */
  round?: Omit<RoundInput, 'capabilities'>;
  /** The run of a task (tasks.ts): asks through `interaction`, and a handler's crash fails the task. */
  inTask?: boolean;
  /** How a stop's next steps call a tool (progressive discovery: through its call tools); default by its name. */
  toolVia?: ToolVia;
}

/** A tool as `tools/list` (and progressive discovery's `describe_tool`) shows it. */
export type ListedTool = ToolDef;

/** The call an era's steps work on (a ToolCall, tool-call.ts), once its tool is resolved and its arguments checked. */
export interface CallState {
  readonly model: McpModel;
  readonly options: McpServerOptions;
  /** The tool's name, as called. */
  readonly name: string;
  /** The arguments, as sent. */
  readonly args: unknown;
  readonly ref: ToolRef;
  readonly def: ToolDef;
  readonly extra: CallExtra;
  /** The same call, run again as a task's work (with the task's signal and interaction). */
  asTask(signal: AbortSignal, interaction: Interaction): Promise<CallToolResult>;
}

/**
 * An input round (2026-07-28 multi round-trip requests, input-required.ts): the questions a run
 * asks answered from the request, and what it left unanswered given back as an
 * `input_required` result.
 */
export interface InputRound {
  /** What the run asks through: the answers the request carries. */
  interaction: Interaction;
  /** The client's answer to a stop's form (stop-input.ts): values to join the arguments, or its refusal. */
  stopAnswer: Record<string, unknown> | 'declined' | undefined;
  /** The state this call answers, when it echoed one: the answered round runs once (answered.ts). */
  answering: Answering | undefined;
  /**
   * After the run: the `input_required` result asking what the run needed (a stop the client can
   * answer among it), or undefined when nothing is left to ask. @throws -32602 for a malformed answer.
   */
  settle(r: InvokeResult): CallToolResult | undefined | Promise<CallToolResult | undefined>;
}

/** The request-scoped part of one tools/call's extras: how it may ask its client. */
export type Asking = Pick<CallExtra, 'interaction' | 'capabilities' | 'round' | 'caller'>;

/** One protocol era: what a server of this era lists, answers, asks and registers. */
export interface Era {
  /** The era's name, as the SDK gives it when a connection or request reveals it. */
  readonly name: EraName;
  /** Adds what this era advertises to the server's `capabilities` (in place, after the common ones). */
  advertise(capabilities: Record<string, object>): void;
  /** The transport a server of this era connects to, as this era's wire wants it. */
  wire(transport: Transport): Transport;
  /** `tools/list`'s tools (computed on the first list, then kept on the model). */
  toolList(model: McpModel): ListedTool[];
  /** One tool as listed. */
  toolEntry(model: McpModel, ref: ToolRef): ListedTool;
  /**
   * The lowest log level a request's `notifications/message` carry, as an index of LOG_LEVELS
   * (-1: none): `sessionFloor` is what `logging/setLevel` set; `meta` is the request's `_meta`.
   */
  logFloor(sessionFloor: number, meta: Record<string, unknown> | undefined): number;
  /** How one tools/call request may ask its client. */
  asking(server: Server, ctx: ServerContext): Asking;
  /**
   * The task step: a task handle for a call the client runs as a task, else undefined (an era with
   * nothing to wait for answers without a promise). @throws -32021
   */
  task(call: CallState): CallToolResult | undefined | Promise<CallToolResult | undefined>;
  /**
   * The round step: the call's input round, its answers checked before anything runs; undefined when
   * none (an era with nothing to wait for answers without a promise).
   */
  round(call: CallState): InputRound | undefined | Promise<InputRound | undefined>;
  /** After the run: the protocol error for what the run needed and the client did not declare, else undefined. */
  undeclared(call: CallState, r: InvokeResult): Error | undefined;
  /** `structuredContent` of a successful result whose output is not an object (a payload, a stream's items). */
  structured(wrapping: 'result' | 'items', value: unknown): unknown;
  /** Whether a failed call of a tool with this output wrapping carries the envelope as `structuredContent`. */
  failureStructured(wrapping: OutputWrapping | undefined): boolean;
  /**
   * A cacheable result of an extension's method as this era's wire has it: 2026-07-28 adds
   * `resultType: "complete"` and the cache hints (`ttlMs`, `cacheScope`), which the SDK adds only to
   * the base protocol's results; the 2025 era has neither.
   */
  extensionResult<T extends Record<string, unknown>>(result: T): T;
  /** Registers the era's own methods on a server (2026-07-28: `tasks/*`). */
  register(server: Server, model: McpModel, options: McpServerOptions): void;
}
