/** `tasks rm <id> [--yes]`: delete a task, after confirmation (never prompts without a terminal). */
import { Command } from '../../../lib/index.ts';
import { withStore } from '../errors.ts';
import { findTask, parseId, storePath, taskSchema, type Task } from '../model.ts';
import { taskRef } from '../render.ts';
import { readStore, updateStore } from '../store.ts';
import { ID_ARG } from './show.ts';

export function rmCommand(): Command {
  return new Command({
    use: 'rm <id>',
    short: 'Delete a task',
    long:
      'Delete a task for good and print it. Asks for confirmation on a terminal, or through an MCP client that supports\n' +
      'elicitation; otherwise (pipes, CI, agents) it fails with confirmation_required unless --yes is given.\n' +
      '--dry-run shows the task that would be deleted.',
    example: ['tasks rm 3', 'tasks rm 3 --yes', 'tasks rm 3 --dry-run'].join('\n'),
    args: ID_ARG,
    flags: {
      yes: { type: 'bool', short: 'y', usage: 'delete without asking for confirmation' },
    },
    confirmationFlag: 'yes',
    effects: 'non_idempotent',
    output: { schema: taskSchema(), cardinality: 'single' },
    run: async (ctx) => {
      const id = parseId(ctx.args.id);
      const file = storePath(ctx);
      const task = findTask(
        withStore(() => readStore(file)),
        id,
      );
      if (!ctx.guard(`delete task ${id}`)) return task;
      await ctx.confirm(`delete task ${id}? [y/N]`, 'yes');
      return withStore(() =>
        updateStore(
          file,
          (data) => {
            const gone = findTask(data, id);
            data.tasks = data.tasks.filter((t) => t.id !== id);
            return gone;
          },
          { signal: ctx.signal },
        ),
      );
    },
    render: (data, ctx) => `${ctx.dryRun ? 'Would delete' : 'Deleted'} ${taskRef(data as Task)}`,
  });
}
