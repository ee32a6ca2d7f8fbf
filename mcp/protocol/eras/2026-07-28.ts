/**
 * The 2026-07-28 era (docs/mcp-server.md#protocol-eras): no handshake; each request carries the
 * client's capabilities and its log level in `_meta`. A call asks the client through multi
 * round-trip requests (`input_required` results, input-required.ts; a stop the client can answer as
 * a form, stop-input.ts), may run as a task (the Tasks extension, tasks.ts), and a result's
 * `structuredContent` is the payload itself. Source: MCP 2026-07-28 specification.
 */
import type { CallToolResult, Server, ServerContext, StandardSchemaV1 } from '@modelcontextprotocol/server';
import type { InvokeResult } from '../../../lib/run/invoke.ts';
import { toolWrapping } from '../../../lib/schema/walk.ts';
import { anyRootOutputSchema } from '../../../lib/schema/tool.ts';
import {
  CACHE_TTL_MS,
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
  LOG_LEVELS,
  rpcError,
} from '../../base/eras.ts';
import { Round } from '../../call/input-required.ts';
import { formCapable } from '../../call/interact.ts';
import { STOP_KEY, stopForm } from '../../call/stop-input.ts';
import {
  cancelTask,
  getTask,
  startTask,
  TASKS_EXTENSION,
  tasksDeclared,
  tasksRequired,
  updateTask,
  type TaskBoard,
} from '../../call/tasks.ts';
import { boardOf, defOf } from '../../call/tools.ts';
import type { CallState, Era, InputRound } from '../../call/era.ts';
import { stateKeyOf } from '../../call/model.ts';

/** The client capabilities a request declared (its `_meta`), `{}` when none. */
function declared(ctx: ServerContext): Record<string, unknown> {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return (envelope?.[CLIENT_CAPABILITIES_META_KEY] as Record<string, unknown> | undefined) ?? {};
}

/** The 2026-07-28 era. */
export const ERA_2026_07_28: Era = {
  name: 'modern',
  advertise(capabilities) {
    capabilities.extensions = { [TASKS_EXTENSION]: {} };
  },
  wire: (transport) => transport,
  toolList: (model) => (model.modernToolList ??= model.refs.map((r) => ERA_2026_07_28.toolEntry(model, r))),
  // the 2025 era's entry, except that the outputSchema of a command whose output is not an object
  // is the declared schema itself (a stream's: an array of its items). No `execution`: the era
  // deleted it (task creation is the server's choice per request, SEP-2663), and the SDK strips it.
  toolEntry(model, ref) {
    const def = defOf(model, ref);
    const wrapping = toolWrapping(ref.command);
    return wrapping === 'result' || wrapping === 'items'
      ? { ...def, outputSchema: anyRootOutputSchema(ref.command) }
      : def;
  },
  extensionResult: (result) => ({ resultType: 'complete', ...result, ttlMs: CACHE_TTL_MS, cacheScope: 'public' }),
  // a request names its own level in `_meta`, and without one gets no log lines
  logFloor: (_sessionFloor, meta) =>
    typeof meta?.[LOG_LEVEL_META_KEY] === 'string' ? LOG_LEVELS.indexOf(meta[LOG_LEVEL_META_KEY]) : -1,
  asking: (_server, ctx) => ({
    capabilities: declared(ctx),
    caller: ctx.sessionId ?? ctx.http?.authInfo?.clientId ?? '',
    round: {
      inputResponses: ctx.mcpReq.inputResponses,
      dropped: ctx.mcpReq.droppedInputResponseKeys,
      requestState: ctx.mcpReq.requestState(),
    },
  }),
  // the Tasks extension: a task handle at once, the run going on in the background
  task(call) {
    // a tool that declares no task: decided by the tool, so no promise per call
    return call.ref.command.task ? taskStep(call) : undefined;
  },
  round: openRound,
  undeclared(call, r) {
    const needed = undeclaredNeed(r, call.extra.capabilities ?? {});
    return needed ? missingCapability(needed) : undefined;
  },
  structured: (_wrapping, value) => value,
  // 2026-07-28 clients check only successful results against the outputSchema
  failureStructured: () => true,
  register: (server, model, options) => registerTasks(server, () => boardOf(model, options)),
};

/** The task step of a tool that declares `task`: a task handle when the client runs tasks. */
async function taskStep(call: CallState): Promise<CallToolResult | undefined> {
  const task = call.ref.command.task;
  const capabilities = call.extra.capabilities ?? {};
  if (tasksDeclared(capabilities))
    return (await startTask(
      boardOf(call.model, call.options),
      capabilities,
      call.extra.caller ?? '',
      (signal, interaction) => call.asTask(signal, interaction),
    )) as CallToolResult;
  if (task === 'required') throw tasksRequired(`the tool ${call.name}`);
  return undefined;
}

/**
 * The round step: the answers and state of a retried call checked before anything runs; a stop
 * the client can answer (its one next step is this call with values to fill in) is offered as a
 * form, unless the client has just declined it. @throws -32602 for a malformed answer.
 */
function openRound(call: CallState): InputRound | Promise<InputRound> {
  const capabilities = call.extra.capabilities ?? {};
  const opened = Round.open(call.name, call.args, { ...call.extra.round, capabilities }, stateKeyOf(call.options));
  // a call that echoes no state opens its round without a promise
  return opened instanceof Promise
    ? opened.then((round) => inputRound(call, round, capabilities))
    : inputRound(call, opened, capabilities);
}

/** The round step's {@link InputRound} over an opened round. */
function inputRound(call: CallState, round: Round, capabilities: Record<string, unknown>): InputRound {
  const { name, def } = call;
  const interaction = round.interaction(capabilities);
  const stopAnswer = round.stopAnswer();
  if (round.malformed) throw rpcError(-32602, round.malformed, { reason: 'invalid_input_response' });
  return {
    interaction,
    stopAnswer,
    answering: round.answering(),
    settle(r: InvokeResult) {
      if (round.malformed) throw rpcError(-32602, round.malformed, { reason: 'invalid_input_response' });
      const form = stopAnswer !== 'declined' && formCapable(capabilities) ? stopForm(name, def, r) : undefined;
      if (form) round.askStop(STOP_KEY, form.request, form.fill);
      return round.result() as Promise<CallToolResult> | undefined; // nothing asked: no promise
    },
  };
}

/**
 * The capability a failed run needed and the client did not declare, when nothing else could have
 * given it: sampling (`sampling_unavailable`), or a form field no property can set
 * (`input_required` naming more fields than flags). A confirmation is not one: the property that
 * confirms (`yes`) does the same, and the error says which.
 */
function undeclaredNeed(r: InvokeResult, declared: Record<string, unknown>): Record<string, object> | undefined {
  if (r.exitCode === 0) return undefined;
  const error = r.error;
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
    `Missing required client capability: this tool call needs ${names}, ` +
      `which the request's clientCapabilities do not declare`,
    { requiredCapabilities: required },
  );
}

/** A tasks/* request's params: a string `taskId`, `inputResponses` an object when present. */
const TASK_PARAMS: StandardSchemaV1<
  Record<string, unknown>,
  { taskId: string; inputResponses?: Record<string, unknown> }
> = {
  '~standard': {
    version: 1,
    vendor: 'ax-ts',
    validate: (v) => {
      const p = v as Record<string, unknown>;
      if (typeof p.taskId !== 'string')
        return { issues: [{ message: 'Invalid input: expected string', path: ['params', 'taskId'] }] };
      return { value: p as { taskId: string; inputResponses?: Record<string, unknown> } };
    },
  },
};

/**
 * tasks/get, tasks/update and tasks/cancel of the Tasks extension (tasks.ts), each refused with
 * -32021 unless the request's capabilities declare the extension. tasks/result and tasks/list
 * (removed from the extension) stay unknown methods (-32601).
 */
function registerTasks(server: Server, board: () => TaskBoard): void {
  const gated =
    (
      method: string,
      fn: (
        board: TaskBoard,
        p: { taskId: string; inputResponses?: Record<string, unknown> },
      ) => Promise<Record<string, unknown>>,
    ) =>
    async (p: { taskId: string; inputResponses?: Record<string, unknown> }, ctx: ServerContext) => {
      if (!tasksDeclared(declared(ctx))) throw tasksRequired(method);
      return fn(board(), { ...p, inputResponses: p.inputResponses ?? ctx.mcpReq.inputResponses }) as never;
    };
  server.setRequestHandler(
    'tasks/get',
    { params: TASK_PARAMS },
    gated('tasks/get', (b, p) => getTask(b, p.taskId)),
  );
  server.setRequestHandler(
    'tasks/update',
    { params: TASK_PARAMS },
    gated('tasks/update', (b, p) => updateTask(b, p.taskId, p.inputResponses)),
  );
  server.setRequestHandler(
    'tasks/cancel',
    { params: TASK_PARAMS },
    gated('tasks/cancel', (b, p) => cancelTask(b, p.taskId)),
  );
}
