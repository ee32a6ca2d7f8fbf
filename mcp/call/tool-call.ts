/**
 * One `tools/call`, as an object whose steps are named in the order they run
 * (docs/mcp-server.md#toolscall): **resolve** the tool, **check** the arguments against its
 * inputSchema, the **task** step (a task handle instead of a result, when the client runs the call as
 * a task), the **round** step (the answers a retried call carries, checked before anything runs),
 * **run** the command in-process as `--format json` would run it, and **shape** its outcome as the
 * result. The task and round steps, and the shape, are the client's era's (era.ts).
 */
import type { CallToolResult, Server, ServerContext } from '@modelcontextprotocol/server';
import { errorEnvelope } from '../../lib/contract/envelope.ts';
import { endSpan, startTrace } from '../../lib/observe/trace.ts';
import type { NotificationLevel } from '../../lib/observe/logger.ts';
import { AxError, toAxError } from '../../lib/contract/errors.ts';
import type { Interaction } from '../../lib/tree/interaction.ts';
import { invokeCommand, type InvokeResult } from '../../lib/run/invoke.ts';
import { CallSignal } from '../../lib/run/call-signal.ts';
import type { ToolDef, ToolRef } from '../../lib/schema/walk.ts';
import { callScope } from '../isolate/children.ts';
import { collectPrinted } from '../isolate/printed.ts';
import { LOG_LEVELS, rpcError } from '../base/eras.ts';
import { runOnce } from './answered.ts';
import { failureResult, toolResult } from './results.ts';
import { checkedValues, errorOf, traceEnvOf, unknownTool, unloadedTool } from './tools.ts';
import { callPlan, spanWriter, type CallPlan } from './call-plan.ts';
import type { CallExtra, CallState, Era, InputRound } from './era.ts';
import type { McpModel, McpServerOptions } from './model.ts';

/** A tools/call request's params, as the server's CALL_PARAMS let them through. */
export interface CallParams {
  name: string;
  arguments?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/**
 * The extras of one tools/call request: progress notifications when it has a `progressToken`, log
 * lines at or above its era's floor (named by `logger`, the tool a progressive call runs), its
 * trace context, and how its era lets it ask the client.
 */
export function requestExtra(
  era: Era,
  server: Server,
  ctx: ServerContext,
  params: CallParams,
  sessionFloor: number,
  logger: string,
): CallExtra {
  const token = params._meta?.progressToken as string | number | undefined;
  const notify = ctx.mcpReq.notify;
  const progress =
    token === undefined
      ? undefined
      : (done: number, total?: number, message?: string) => {
          void notify({
            method: 'notifications/progress',
            params: {
              progressToken: token,
              progress: done,
              ...(total !== undefined ? { total } : {}),
              ...(message ? { message } : {}),
            },
          }).catch(() => {});
        };
  const floor = era.logFloor(sessionFloor, ctx.mcpReq.envelope as Record<string, unknown> | undefined);
  const log =
    floor < 0
      ? undefined
      : (level: NotificationLevel, data: unknown) => {
          if (LOG_LEVELS.indexOf(level) < floor) return;
          void notify({ method: 'notifications/message', params: { level, logger, data } }).catch(() => {});
        };
  const meta = params._meta;
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const trace = { traceparent: str(meta?.traceparent), tracestate: str(meta?.tracestate) };
  return { era, signal: ctx.mcpReq.signal, progress, log, trace, ...era.asking(server, ctx) };
}

/** What the check step gives: the values to run with, or the refusal that answers the call. */
type Checked = { values: Record<string, unknown> } | { refusal: CallToolResult };

/**
 * One tools/call. {@link ToolCall.answer} runs the steps; it never throws for a command's failure
 * (an `isError` result), and throws a JSON-RPC error for an unknown tool and for what the era's
 * steps refuse (docs/mcp-server.md#toolscall).
 */
export class ToolCall implements CallState {
  private resolved?: { ref: ToolRef; plan: CallPlan };
  /** When the call arrived (epoch ms): the error line of a call refused before it ran measures duration_ms from it. */
  readonly startedAt = Date.now();

  constructor(
    readonly model: McpModel,
    readonly options: McpServerOptions,
    readonly name: string,
    readonly args: unknown,
    readonly extra: CallExtra,
  ) {}

  /** The tool called (once resolved). */
  get ref(): ToolRef {
    return this.resolved!.ref;
  }

  /** Its 2025-era definition, whose inputSchema checks the arguments. */
  get def(): ToolDef {
    return this.resolved!.plan.def;
  }

  /** Runs the steps in order: resolve, check, task, round, run, shape. */
  async answer(): Promise<CallToolResult> {
    const unloaded = this.resolve();
    if (unloaded) return unloaded;
    // a step that has nothing to wait for answers at once: no await, so no turn of the microtask queue
    let checked = this.check(this.args);
    if (checked instanceof Promise) checked = await checked;
    if ('refusal' in checked) return checked.refusal;
    const era = this.extra.era;
    let round: InputRound | undefined;
    if (!this.extra.inTask) {
      const tasked = era.task(this);
      const handle = tasked instanceof Promise ? await tasked : tasked;
      if (handle) return handle;
      const opened = era.round(this);
      round = opened instanceof Promise ? await opened : opened;
    }
    const filled = round?.stopAnswer;
    if (filled && filled !== 'declined') {
      checked = await this.check({ ...(this.args as Record<string, unknown>), ...filled });
      if ('refusal' in checked) return checked.refusal;
    }
    // an answered round runs once: a repeat of its state gets the first result (answered.ts)
    const values = checked.values;
    if (round?.answering)
      return runOnce(this.model, this.options, this.name, round.answering, this.extra.signal, () =>
        this.run(values, round),
      ).catch((e: unknown) => {
        if (e instanceof AxError)
          return failureResult(this.ref, errorOf(this.model, this.options, this.extra, e, this.startedAt), era);
        throw e;
      });
    return this.run(values, round);
  }

  /** The same call, run again as a task's work (the task step's). */
  asTask(signal: AbortSignal, interaction: Interaction): Promise<CallToolResult> {
    const { era, capabilities, toolVia } = this.extra;
    return new ToolCall(this.model, this.options, this.name, this.args, {
      era,
      capabilities,
      toolVia,
      signal,
      interaction,
      inTask: true,
    }).answer();
  }

  /**
   * Step 1, resolve: the tool of the name. @returns the answer for a tool below a lazy subtree that
   * failed to load (its load error, not "unknown"), else undefined. @throws -32602 for a name that
   * is no tool.
   */
  private resolve(): CallToolResult | undefined {
    const ref = this.model.byName.get(this.name);
    if (ref) {
      this.resolved = { ref, plan: callPlan(this.model, this.options, ref) };
      return undefined;
    }
    const broken = unloadedTool(this.model, this.name);
    if (!broken) throw unknownTool(this.model, this.name);
    const envelope = errorOf(this.model, this.options, this.extra, broken, this.startedAt);
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(envelope) }] };
  }

  /**
   * Step 2, check: the arguments as values by property, or the refusal that answers the call (its
   * span ended); a promise only while the validator loads (the server's first call).
   */
  private check(args: unknown): Checked | Promise<Checked> {
    let values: Record<string, unknown> | Promise<Record<string, unknown>>;
    try {
      values = checkedValues(this.ref, this.def, this.name, args, this.options);
    } catch (e) {
      return { refusal: this.refused(e) };
    }
    if (!(values instanceof Promise)) return { values };
    return values.then(
      (v) => ({ values: v }),
      (e: unknown) => ({ refusal: this.refused(e) }),
    );
  }

  /**
   * Steps 5 and 6, run and shape: the command run in the call's scope (its children and stdin are
   * the call's, and what it prints is captured), then its outcome as the result — or, after an
   * input round, the question the round still has for the client.
   */
  private async run(values: Record<string, unknown>, round: InputRound | undefined): Promise<CallToolResult> {
    const { extra, model, options } = this;
    // the call's signal follows the client's cancellation and the server's shutdown; its AbortController
    // and the listener on the client's signal are made only if the run reads it (call-signal.ts)
    const call = new CallSignal(extra.signal);
    const untrack = options.track?.(call);
    const takePrinted = collectPrinted(call);
    let printed: string | undefined;
    const asking = round ? { ...extra, interaction: round.interaction } : extra;
    try {
      const r = await callScope.run(call, invokeCall, model, this.resolved!, values, call, asking, this.name);
      printed = takePrinted();
      const settling = round?.settle(r);
      const question = settling instanceof Promise ? await settling : settling;
      if (question) return question;
      if (extra.inTask && r.error?.kind === 'internal_error')
        throw rpcError(-32603, `Internal error: ${r.error.message}`);
      const undeclared = extra.era.undeclared(this, r);
      if (undeclared) throw undeclared;
      const result = toolResult(this.ref, this.name, r, extra.era, printed);
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

  /** A call refused before it ran (its arguments): the error result, its span ended. */
  private refused(e: unknown): CallToolResult {
    const { model, options, extra, name } = this;
    const err = toAxError(e);
    const env = traceEnvOf(options);
    const trace = startTrace(env, extra.trace);
    void endSpan(
      trace,
      env,
      () => ({
        name: this.ref.command.commandPath(),
        program: model.root.name,
        version: options.version,
        exitCode: err.exitCode,
        errorKind: err.kind,
        description: err.message,
        tool: name,
      }),
      undefined,
      spanWriter(options),
    );
    const meta = {
      trace_id: trace.traceId,
      tool: model.root.name,
      version: options.version,
      startedAt: this.startedAt,
    };
    return failureResult(this.ref, errorEnvelope(err, meta), extra.era);
  }
}

/** The in-process run of one call (inside the call's scope, so its children and stdin are the call's). */
function invokeCall(
  model: McpModel,
  { ref, plan }: { ref: ToolRef; plan: CallPlan },
  values: Record<string, unknown>,
  call: CallSignal,
  extra: CallExtra,
  name: string,
): Promise<InvokeResult> {
  // the server's part of the options is the tool's plan (call-plan.ts); the rest is this call's
  const p = plan.invoke;
  return invokeCommand(model.root, ref.command, values, {
    signal: call,
    onProgress: extra.progress,
    onLog: extra.log,
    interaction: extra.interaction,
    env: p.env,
    version: p.version,
    presets: p.presets,
    traceparent: extra.trace?.traceparent,
    tracestate: extra.trace?.tracestate,
    traceEnv: p.traceEnv,
    tool: name,
    onSpan: p.onSpan,
    toolBase: p.toolBase,
    toolVia: extra.toolVia,
    idempotencyStore: p.idempotencyStore,
    idempotencyTtlMs: p.idempotencyTtlMs,
  });
}
