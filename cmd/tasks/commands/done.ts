/** `tasks done <id>`: mark a task done (idempotent: done twice keeps the first done_at). */
import { Command } from '../../../lib/index.ts';
import { withStore } from '../errors.ts';
import { findTask, parseId, storePath, taskSchema, type Task } from '../model.ts';
import { taskRef } from '../render.ts';
import { readStore, updateStore } from '../store.ts';
import { ID_ARG } from './show.ts';

/** Marks a task done unless it is. @returns whether it changed. */
function markDone(task: Task): boolean {
  if (task.status === 'done') return false;
  task.status = 'done';
  task.done_at = new Date().toISOString();
  return true;
}

export function doneCommand(): Command {
  return new Command({
    use: 'done <id>',
    short: 'Mark a task done',
    long:
      'Mark a task done and record when. Marking a done task again ' +
      'changes nothing (done_at is kept), so retrying is safe;\n' +
      'meta.changed says whether this call changed the task.',
    example: ['tasks done 1', 'tasks done 1 --dry-run'].join('\n'),
    args: ID_ARG,
    effects: 'idempotent',
    dryRun: true, // the handler rehearses with ctx.guard
    output: { schema: taskSchema(), cardinality: 'single', nonDeterministic: ['done_at'] },
    run: async (ctx) => {
      const id = parseId(ctx.args.id);
      const file = storePath(ctx);
      if (ctx.dryRun) {
        const task = findTask(
          withStore(() => readStore(file)),
          id,
        );
        if (task.status !== 'done') ctx.guard(`mark task ${id} done`);
        const copy = structuredClone(task);
        markDone(copy);
        return copy;
      }
      return withStore(() =>
        updateStore(
          file,
          (data) => {
            const task = findTask(data, id);
            ctx.setChanged(markDone(task)); // meta.changed: false when it was already done
            return structuredClone(task);
          },
          { signal: ctx.signal },
        ),
      );
    },
    render: (data, ctx) => `${ctx.dryRun ? 'Would mark' : 'Marked'} ${taskRef(data as Task)} done`,
  });
}
