/**
 * Where the Tasks extension's state lives (docs/mcp-server.md#tasks): a task's documents in the
 * idempotency store (the file store, or Redis shared by replicas), else this process's memory
 * (pruned of what expired); the runs of this process, bounded per server and per caller; and the
 * one poller that, while any run is going, looks for each run's cancellation and for the answers
 * its open questions wait on — one timer however many tasks run.
 * Source: MCP SEP-2663 (the Tasks extension).
 */
import { validationError } from '../../lib/contract/errors.ts';
import type { IdempotencyStore } from '../../lib/store/idempotency.ts';
import { rpcError } from '../base/eras.ts';

/** How long a task's state is kept after its last change, ms (one hour). */
export const TASK_TTL_MS = 60 * 60_000;
/** The poll interval suggested to clients, and how often the poller looks for answers and cancellation, ms. */
export const POLL_INTERVAL_MS = 250;

/** Environment variable: most tasks running at once in one server process (default {@link DEFAULT_TASK_LIMITS}). */
export const MAX_TASKS_ENV = 'AX_MCP_MAX_TASKS';
/** Environment variable: most tasks one caller has running at once (default {@link DEFAULT_TASK_LIMITS}). */
export const MAX_TASKS_PER_CALLER_ENV = 'AX_MCP_MAX_TASKS_PER_CALLER';

/** How many tasks may run at once: in the server process, and for one caller. */
export interface TaskLimits {
  server: number;
  caller: number;
}

/** The limits when the environment sets none. */
export const DEFAULT_TASK_LIMITS: TaskLimits = { server: 64, caller: 16 };

/**
 * The task limits `env` sets ({@link MAX_TASKS_ENV}, {@link MAX_TASKS_PER_CALLER_ENV}), else the
 * defaults. @throws AxError validation_error for a value that is not a positive integer.
 */
export function taskLimits(env: Record<string, string | undefined>): TaskLimits {
  const read = (name: string, fallback: number) => {
    const v = env[name];
    if (v === undefined || v === '') return fallback;
    if (!/^[1-9][0-9]{0,6}$/.test(v.trim()))
      throw validationError(`${name} must be a positive integer, got ${JSON.stringify(v)}`, 'invalid_task_limit', {
        context: { variable: name },
        fix: `Set ${name} to how many tasks may run at once (e.g. ${fallback}), or unset it.`,
      });
    return Number(v.trim());
  };
  return {
    server: read(MAX_TASKS_ENV, DEFAULT_TASK_LIMITS.server),
    caller: read(MAX_TASKS_PER_CALLER_ENV, DEFAULT_TASK_LIMITS.caller),
  };
}

/** One run of this process: what aborts it, whose it is, and the questions it waits on (key → resolve). */
interface Run {
  ac: AbortController;
  caller: string;
  waits: Map<string, (answer: unknown) => void>;
}

/** Where task state is kept, and the runs of this process. */
export class TaskBoard {
  private readonly memory = new Map<string, { json: string; until: number }>();
  private pruneAt = 0;
  private readonly runs = new Map<string, Run>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private ticking = false;

  constructor(
    private readonly program: string,
    private readonly store: () => Promise<IdempotencyStore | undefined>,
    private readonly limits: TaskLimits = DEFAULT_TASK_LIMITS,
  ) {}

  private async put(id: string, value: unknown): Promise<void> {
    const json = JSON.stringify(value);
    const s = await this.store();
    if (s?.putDocument && s.getDocument) return s.putDocument(`mcp-task:${this.program}:${id}`, json, TASK_TTL_MS);
    const now = Date.now();
    // the memory fallback forgets what expired, at most once a minute
    if (now >= this.pruneAt) {
      this.pruneAt = now + 60_000;
      for (const [k, m] of this.memory) if (m.until <= now) this.memory.delete(k);
    }
    this.memory.set(id, { json, until: now + TASK_TTL_MS });
  }

  private async get<T>(id: string): Promise<T | undefined> {
    const s = await this.store();
    let json: string | undefined;
    if (s?.putDocument && s.getDocument) json = await s.getDocument(`mcp-task:${this.program}:${id}`);
    else {
      const m = this.memory.get(id);
      if (m && m.until > Date.now()) json = m.json;
      else if (m) this.memory.delete(id);
    }
    return json === undefined ? undefined : (JSON.parse(json) as T);
  }

  save = <D extends { taskId: string }>(doc: D) =>
    this.put(doc.taskId, { ...doc, lastUpdatedAt: new Date().toISOString() });
  load = <D>(id: string) => this.get<D>(id);
  answer = (id: string, key: string) => this.get<unknown>(`${id}:answer:${key}`);
  setAnswer = (id: string, key: string, v: unknown) => this.put(`${id}:answer:${key}`, v);
  cancelled = async (id: string) => (await this.get<boolean>(`${id}:cancel`)) === true;
  setCancelled = (id: string) => this.put(`${id}:cancel`, true);

  /**
   * Admits a new run of `caller`, or refuses it: -32000 (`data.reason: "task_limit"`) when this
   * process already runs its limit of tasks, or the caller its own. Nothing is started then.
   */
  admit(caller: string): void {
    const mine = [...this.runs.values()].filter((r) => r.caller === caller).length;
    const scope = this.runs.size >= this.limits.server ? 'server' : mine >= this.limits.caller ? 'caller' : undefined;
    if (!scope) return;
    const limit = this.limits[scope];
    throw rpcError(
      -32000,
      `Too many running tasks: ${scope === 'server' ? `this server runs at most ${limit}` : `one caller may run at most ${limit}`} at once; wait for one to finish (tasks/get) or cancel one (tasks/cancel), then call again`,
      { reason: 'task_limit', scope, limit, variable: scope === 'server' ? MAX_TASKS_ENV : MAX_TASKS_PER_CALLER_ENV },
    );
  }

  /** Enrolls a run (after {@link admit}): the poller watches it until {@link settle}. */
  enroll(id: string, caller: string, ac: AbortController): void {
    this.runs.set(id, { ac, caller, waits: new Map() });
    this.timer ??= setInterval(() => void this.tick(), POLL_INTERVAL_MS);
  }

  /** The run has ended: nothing aborts it any more, and it no longer counts against a limit. */
  settle(id: string): void {
    this.runs.delete(id);
    if (this.runs.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Aborts this process's run of the task, when it runs here and has not ended. */
  abort(id: string): void {
    this.runs.get(id)?.ac.abort();
  }

  /** Waits for the answer to the run's question `key` (found by the poller), until the run is aborted. */
  waitAnswer(id: string, key: string): Promise<unknown> {
    const run = this.runs.get(id);
    if (!run) return Promise.reject(new Error(`task ${id} does not run here`));
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        run.waits.delete(key);
        reject(run.ac.signal.reason);
      };
      if (run.ac.signal.aborted) return onAbort();
      run.ac.signal.addEventListener('abort', onAbort, { once: true });
      run.waits.set(key, (a) => {
        run.ac.signal.removeEventListener('abort', onAbort);
        run.waits.delete(key);
        resolve(a);
      });
    });
  }

  /** One pass of the poller: each run's cancellation, then each open question's answer. */
  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      for (const [id, run] of [...this.runs]) {
        if (run.ac.signal.aborted) continue;
        if (await this.cancelled(id).catch(() => false)) {
          run.ac.abort();
          continue;
        }
        for (const [key, resolve] of [...run.waits]) {
          const a = await this.answer(id, key).catch(() => undefined);
          if (a !== undefined) resolve(a);
        }
      }
    } finally {
      this.ticking = false;
    }
  }
}
