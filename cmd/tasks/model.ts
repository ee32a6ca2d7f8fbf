/**
 * Shared pieces of the `tasks` commands: the task's JSON Schema, field names, value checks and the
 * store path of an invocation.
 */
import type { RunContext } from '../../lib/index.ts';
import { invalidValue, notFound, withStore } from './errors.ts';
import { resolveStorePath, type StoreData, type Task } from './store.ts';

export type { Task } from './store.ts';

/** Task fields, in display order; the choices of `list --fields`. */
export const TASK_FIELDS = ['id', 'title', 'status', 'tags', 'due', 'created_at', 'done_at'] as const;
export type TaskField = (typeof TASK_FIELDS)[number];

const TASK_PROPERTIES = {
  id: { type: 'integer', minimum: 1, description: 'Task id, assigned in creation order, never reused.' },
  title: { type: 'string', description: 'What to do.' },
  status: { type: 'string', enum: ['open', 'done'], description: 'open until marked done.' },
  tags: { type: 'array', items: { type: 'string' }, description: 'Labels, in the order given.' },
  // nullable as anyOf branches of one type each: a type array is less portable (Gemini's subset)
  due: {
    anyOf: [{ type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }, { type: 'null' }],
    description: 'Due date (YYYY-MM-DD) or null.',
  },
  created_at: { type: 'string', description: 'Creation time, ISO-8601 UTC.' },
  done_at: {
    anyOf: [{ type: 'string' }, { type: 'null' }],
    description: 'When it was marked done (ISO-8601 UTC), or null.',
  },
} as const;

/** JSON Schema (2020-12) of one task. */
export function taskSchema(): Record<string, unknown> {
  return {
    type: 'object',
    properties: structuredClone(TASK_PROPERTIES),
    required: [...TASK_FIELDS],
    additionalProperties: false,
  };
}

/** JSON Schema of a task as `list` returns it: only the selected fields (see --fields), so none is required. */
export function partialTaskSchema(): Record<string, unknown> {
  return { type: 'object', properties: structuredClone(TASK_PROPERTIES), additionalProperties: false };
}

/** The store file of this invocation: --store, then TASKS_FILE, then the XDG/HOME default. */
export function storePath(ctx: RunContext): string {
  const flag = typeof ctx.flags.store === 'string' ? ctx.flags.store : undefined;
  return withStore(() => resolveStorePath(flag, ctx.env));
}

/**
 * Checks a task id argument (declared `type: 'int'`, so already an integer on every path): it must
 * be positive. @throws validation_error
 */
export function parseId(id: number): number {
  if (!Number.isSafeInteger(id) || id < 1) {
    throw invalidValue(
      `invalid task id ${id}: expected a positive integer`,
      "Pass a task id such as 1; run 'tasks list --status all' to see ids.",
      {
        reason: 'invalid_argument',
        argument: 'id',
        value: id,
      },
    );
  }
  return id;
}

/** Whether `s` is a real calendar date written YYYY-MM-DD. */
export function isIsoDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** The task with `id`, or a not_found error pointing at `tasks list --status all`. */
export function findTask(data: StoreData, id: number): Task {
  const task = data.tasks.find((t) => t.id === id);
  if (!task) {
    throw notFound(`no task with id ${id}`, {
      fix: "Run 'tasks list --status all' to see ids.",
      context: { id },
    });
  }
  return task;
}

/** A copy of `task` with only `fields` (in the order given); all fields when `fields` is empty. */
export function project(task: Task, fields: readonly string[]): Partial<Task> {
  if (fields.length === 0) return task;
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = task[f as TaskField];
  return out as Partial<Task>;
}
