/**
 * The Tasks extension (`io.modelcontextprotocol/tasks`) for 2026-07-28 clients: a command declared
 * `task: 'optional' | 'required'` answers a client that declares the extension with a task handle
 * at once (`resultType: "task"`) and runs on; `tasks/get` reports its status, the questions it
 * waits on (`input_required`, answered by `tasks/update`) and, once terminal, its result or error;
 * `tasks/cancel` aborts its `ctx.signal`. The state lives in the idempotency store's documents
 * (the file store, or Redis across replicas: a task started through one replica is polled,
 * answered and cancelled through another); a store without documents keeps it in memory.
 * Source: MCP SEP-2663 (the Tasks extension); docs/mcp-server.md#tasks.
 */
import { randomUUID } from 'node:crypto';
import { AxError } from '../../lib/contract/errors.ts';
import type { ElicitAnswer, Interaction, SampleResult } from '../../lib/tree/interaction.ts';
import { rpcError } from '../base/eras.ts';
import { elicitAnswer, sampleAnswer, type InputRequest } from './input-required.ts';
import { formCapable, rootsAnswer, samplingParams } from './interact.ts';
import { POLL_INTERVAL_MS, TASK_TTL_MS, type TaskBoard } from './task-board.ts';

export { TaskBoard } from './task-board.ts';

/** The extension's name, in capabilities (`extensions`) and errors. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The form of the task ids this server issues (a random UUID v4); any other id is refused before anything is read. */
export const TASK_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type Status = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
const TERMINAL: Status[] = ['completed', 'failed', 'cancelled'];

/** A task's state as kept in the store. */
interface TaskDoc {
  taskId: string;
  status: Status;
  createdAt: string;
  lastUpdatedAt: string;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  inputRequests?: Record<string, InputRequest>;
}

/** Whether a request's client capabilities declare the extension. */
export function tasksDeclared(capabilities: Record<string, unknown> | undefined): boolean {
  const ext = capabilities?.extensions as Record<string, unknown> | undefined;
  return !!ext && typeof ext === 'object' && ext[TASKS_EXTENSION] !== undefined;
}

/** -32021 naming the extension (a task-only tool, or a tasks/* method, from a client that did not declare it). */
export function tasksRequired(what: string): Error {
  return rpcError(
    -32021,
    `Missing required client capability: ${what} needs the ${TASKS_EXTENSION} ` +
      `extension, which the request's clientCapabilities do not declare`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

/** A task as `tasks/get` and the creating call show it (no `requestState`, no v1 names). */
function wire(doc: TaskDoc): Record<string, unknown> {
  return {
    taskId: doc.taskId,
    status: doc.status,
    createdAt: doc.createdAt,
    lastUpdatedAt: doc.lastUpdatedAt,
    ttlMs: TASK_TTL_MS,
    pollIntervalMs: POLL_INTERVAL_MS,
  };
}

/**
 * Starts a task for `caller` (its session or client, docs/mcp-server.md#tasks): admitted under the
 * board's limits (else -32000, nothing started); its state is stored (so `tasks/get` finds it at
 * once, on any replica) before the handle is returned; then `run` goes on in the background with
 * the task's own signal and interaction. `run` resolves with the tool's result; a JSON-RPC error
 * it throws fails the task. A run that ended before a `tasks/cancel` reached it keeps its outcome.
 */
export async function startTask(
  board: TaskBoard,
  capabilities: Record<string, unknown>,
  caller: string,
  run: (signal: AbortSignal, interaction: Interaction) => Promise<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  board.admit(caller);
  const now = new Date().toISOString();
  const doc: TaskDoc = { taskId: randomUUID(), status: 'working', createdAt: now, lastUpdatedAt: now };
  const ac = new AbortController();
  board.enroll(doc.taskId, caller, ac); // counted at once: a flood cannot pass the limit while saves are pending
  try {
    await board.save(doc);
  } catch (e) {
    board.settle(doc.taskId);
    throw e;
  }
  const pending: Record<string, InputRequest> = {};
  // the runner's writes go one after the other, each with the state at its turn, and none after
  // the terminal one: two questions asked together never leave the older list as the last word
  let chain: Promise<void> = Promise.resolve();
  let finished = false;
  const write = (next: () => TaskDoc | undefined) =>
    (chain = chain.then(async () => {
      const d = next();
      if (d) await board.save(d).catch(() => {});
    }));
  const show = () =>
    write(() => {
      if (finished) return undefined;
      const open = Object.keys(pending).length > 0;
      return {
        ...doc,
        status: open ? 'input_required' : 'working',
        ...(open ? { inputRequests: { ...pending } } : {}),
      };
    });
  const interaction = taskInteraction(capabilities, async (key, request, parse) => {
    pending[key] = request;
    await show();
    try {
      if (ac.signal.aborted) throw new AxError('interrupted', 'the task was cancelled');
      const value = parse(
        await board.waitAnswer(doc.taskId, key).catch(() => {
          throw new AxError('interrupted', 'the task was cancelled');
        }),
      );
      if (typeof value === 'string')
        throw new AxError('validation_error', `the answer to ${key} is malformed: it ${value}`, {
          context: { reason: 'invalid_answer' },
        });
      return value;
    } finally {
      delete pending[key];
      await show();
    }
  });
  void (async () => {
    const ran = await runToEnd(doc, ac.signal, () => run(ac.signal, interaction));
    // from here a tasks/cancel finds nothing to abort: the outcome stands
    board.settle(doc.taskId);
    const end: TaskDoc = ran.cancelled ? { ...doc, status: 'cancelled' } : ran.end;
    finished = true;
    await write(() => end);
  })();
  return { resultType: 'task', ...wire(doc) };
}

/**
 * Runs a task's work to its end: completed with its result, or failed with the JSON-RPC error it
 * threw; `cancelled` when the signal was aborted while it ran (unless the command succeeded all the same).
 */
async function runToEnd(
  doc: TaskDoc,
  signal: AbortSignal,
  work: () => Promise<Record<string, unknown>>,
): Promise<{ end: TaskDoc; cancelled: boolean }> {
  let end: TaskDoc;
  let cancelled: boolean;
  try {
    const result = await work();
    // aborted while it ran: cancelled, unless the command succeeded all the same (what it did stands)
    cancelled = signal.aborted && result.isError === true;
    end = { ...doc, status: 'completed', result };
  } catch (e) {
    cancelled = signal.aborted;
    const { code, message, data } = e as { code?: unknown; message?: unknown; data?: unknown };
    end = {
      ...doc,
      status: 'failed',
      error: {
        code: typeof code === 'number' ? code : -32603,
        message: typeof message === 'string' ? message : 'Internal error',
        ...(data !== undefined ? { data } : {}),
      },
    };
  }
  return { end, cancelled };
}

type Ask = <T>(key: string, request: InputRequest, parse: (a: unknown) => T | string) => Promise<T>;

/** The questions a task's run asks: each waits for `tasks/update` (only what the creating request declared). */
function taskInteraction(capabilities: Record<string, unknown>, ask: Ask): Interaction {
  const counts = new Map<string, number>();
  const unique = (k: string) => {
    const n = (counts.get(k) ?? 0) + 1;
    counts.set(k, n);
    return n === 1 ? k : `${k}-${n}`;
  };
  const out: Interaction = {};
  if (formCapable(capabilities))
    out.elicit = (message, schema, _s, key) =>
      ask<ElicitAnswer>(
        unique(key),
        { method: 'elicitation/create', params: { message, requestedSchema: schema as never } },
        elicitAnswer,
      );
  if (capabilities.sampling)
    out.sample = (req, _s, key) =>
      ask<SampleResult>(unique(key), { method: 'sampling/createMessage', params: samplingParams(req) }, sampleAnswer);
  if (capabilities.roots) out.roots = (_s, key) => ask(unique(key), { method: 'roots/list', params: {} }, rootsAnswer);
  return out;
}

/** `tasks/get`: the task's status, its open questions, or its result or error once terminal. */
export async function getTask(board: TaskBoard, taskId: string): Promise<Record<string, unknown>> {
  const doc = await known(board, taskId);
  const out: Record<string, unknown> = { resultType: 'complete', ...wire(doc) };
  if (doc.status === 'completed' && doc.result) out.result = doc.result;
  if (doc.status === 'failed' && doc.error) out.error = doc.error;
  if (doc.status === 'input_required' && doc.inputRequests) {
    // a question answered through another replica is not asked again while the run picks it up
    const open: Record<string, InputRequest> = {};
    for (const [k, r] of Object.entries(doc.inputRequests))
      if ((await board.answer(taskId, k)) === undefined) open[k] = r;
    if (Object.keys(open).length) out.inputRequests = open;
    else out.status = 'working';
  }
  return out;
}

/** `tasks/update`: keeps the answers to the task's open questions (others are ignored); an empty ack. */
export async function updateTask(
  board: TaskBoard,
  taskId: string,
  inputResponses: Record<string, unknown> | undefined,
): Promise<Record<string, unknown>> {
  const doc = await known(board, taskId);
  for (const [k, v] of Object.entries(inputResponses ?? {}))
    if (doc.inputRequests?.[k] && v !== null && typeof v === 'object') await board.setAnswer(taskId, k, v);
  return { resultType: 'complete' };
}

/** `tasks/cancel`: asks the run to stop (here, or on the replica that runs it); an empty ack, terminal or not. */
export async function cancelTask(board: TaskBoard, taskId: string): Promise<Record<string, unknown>> {
  const doc = await known(board, taskId);
  if (!TERMINAL.includes(doc.status)) {
    await board.setCancelled(taskId);
    board.abort(taskId);
  }
  return { resultType: 'complete' };
}

/**
 * The task, or -32602: for an id not of the form this server issues (nothing is read for it), or
 * for an id no task has (unknown, expired).
 */
async function known(board: TaskBoard, taskId: string): Promise<TaskDoc> {
  if (typeof taskId !== 'string' || !TASK_ID.test(taskId)) {
    const shown = JSON.stringify(String(taskId).slice(0, 80));
    throw rpcError(
      -32602,
      `Invalid task id: ${shown} is not a task id this server issues (a UUID from a task handle)`,
      {
        reason: 'invalid_task_id',
      },
    );
  }
  const doc = await board.load<TaskDoc>(taskId);
  if (!doc) throw rpcError(-32602, `Unknown task: ${taskId}`, { taskId });
  return doc;
}
