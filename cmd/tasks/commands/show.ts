/** `tasks show <id>`: one task. */
import { Command } from '../../../lib/index.ts';
import { withStore } from '../errors.ts';
import { findTask, parseId, storePath, taskSchema, type Task } from '../model.ts';
import { taskDetails } from '../render.ts';
import { readStore } from '../store.ts';

/** The positional every single-task command takes. */
export const ID_ARG = [
  { name: 'id', type: 'int', description: 'task id, a positive integer (list with status all shows every id)' },
] as const;

export function showCommand(): Command {
  return new Command({
    use: 'show <id>',
    short: 'Show one task',
    long:
      'Show every field of one task. Unknown ids fail with ' +
      'not_found (exit 5); list with status all shows every id.',
    example: ['tasks show 1', 'tasks show 1 --format json'].join('\n'),
    args: ID_ARG,
    effects: 'read_only',
    output: { schema: taskSchema(), cardinality: 'single' },
    run: (ctx) => {
      const id = parseId(ctx.args.id);
      const file = storePath(ctx);
      const data = withStore(() => readStore(file));
      return findTask(data, id);
    },
    render: (data) => taskDetails(data as Task),
  });
}
