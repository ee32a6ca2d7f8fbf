/** `tasks rm <id> [--yes]`: delete a task, after confirmation (never prompts where nobody can answer). */
import { AxError, Command } from '../../../lib/index.ts';
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
      'Delete a task for good and print it. Asks for confirmation ' +
      'on a terminal, or through an MCP client that supports\n' +
      'elicitation; where nobody can be asked (pipes, CI, agents) it stops with action_required and its next steps\n' +
      '(delete with --yes, or keep the task and mark it done) unless --yes is given.\n' +
      '--dry-run shows the task that would be deleted.',
    example: ['tasks rm 3', 'tasks rm 3 --yes', 'tasks rm 3 --dry-run'].join('\n'),
    args: ID_ARG,
    confirmationFlag: 'yes',
    effects: 'non_idempotent',
    dryRun: true, // the handler rehearses with ctx.guard
    capabilities: ['delete'],
    output: { schema: taskSchema(), cardinality: 'single' },
    run: async (ctx) => {
      const id = parseId(ctx.args.id);
      const file = storePath(ctx);
      const task = findTask(
        withStore(() => readStore(file)),
        id,
      );
      if (!ctx.guard(`delete task ${id}`)) return task;
      try {
        await ctx.confirm(`delete task ${id}? [y/N]`);
      } catch (e) {
        // nobody could be asked: a stop whose next steps offer the alternative, not only --yes
        if (e instanceof AxError && e.kind === 'confirmation_required' && e.context?.outcome === 'prompt_required')
          throw ctx.actionRequired({
            reason: 'confirm_delete',
            message:
              `deleting task ${id} (${JSON.stringify(task.title)}) ` + `cannot be undone: confirm it, or keep the task`,
            next: [
              { args: ['rm', String(id), '--yes'], description: "delete it (only with the user's consent)" },
              { args: ['done', String(id)], description: 'keep it, marked done' },
            ],
          });
        throw e;
      }
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
