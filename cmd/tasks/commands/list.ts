/** `tasks list`: tasks filtered by status and tag, paged with --limit/--offset, projected with --fields. */
import { Command, type RunContext } from '../../../lib/index.ts';
import { invalidValue, withStore } from '../errors.ts';
import { partialTaskSchema, project, storePath, TASK_FIELDS, type Task } from '../model.ts';
import { taskTable } from '../render.ts';
import { readStore } from '../store.ts';

function atLeast(ctx: RunContext, flag: string, value: number, min: number): void {
  if (value < min) {
    const label = ctx.flagLabel(flag);
    throw invalidValue(
      `invalid value ${value} for ${label}: expected an integer >= ${min}`,
      `Pass ${label} ${min} or more.`,
      {
        reason: 'invalid_flag_value',
        flag: label,
        value,
      },
    );
  }
}

/** Field names of a --fields value, without repeats, in the order given. */
function fieldList(fields: string[]): string[] {
  return [...new Set(fields)];
}

export function listCommand(): Command {
  return new Command({
    use: 'list',
    aliases: ['ls'],
    short: 'List tasks',
    long:
      'List tasks in id order. By default only open tasks are shown ' +
      '(--status done or --status all for the others, --all for all).\n' +
      '--tag keeps tasks carrying that tag. Results are paged: --limit (default 50) and --offset (default 0).\n' +
      '--fields selects the fields of each task (' +
      TASK_FIELDS.join(', ') +
      ').',
    example: [
      'tasks list',
      'tasks list --status all --tag home',
      'tasks list --limit 10 --offset 20',
      'tasks list --fields id,title --format json',
    ].join('\n'),
    flags: {
      status: { type: 'string', choices: ['open', 'done', 'all'], default: 'open', usage: 'which tasks to show' },
      all: { type: 'bool', short: 'a', usage: 'show tasks of every status (same as --status all)' },
      tag: { type: 'string', usage: 'only tasks with this tag' },
      limit: { type: 'int', default: 50, usage: 'at most this many tasks' },
      offset: { type: 'int', default: 0, usage: 'skip this many tasks first' },
      fields: { type: 'stringSlice', choices: TASK_FIELDS, usage: 'only these fields of each task' },
    },
    mutuallyExclusive: [['status', 'all']],
    effects: 'read_only',
    output: {
      schema: { type: 'array', items: partialTaskSchema() },
      cardinality: 'unbounded',
      pagination: { style: 'offset', limitFlag: 'limit', offsetFlag: 'offset' },
      fieldsFlag: 'fields',
    },
    run: (ctx) => {
      atLeast(ctx, 'limit', ctx.flags.limit, 1);
      atLeast(ctx, 'offset', ctx.flags.offset, 0);
      const status = ctx.flags.all ? 'all' : ctx.flags.status;
      const tag = ctx.flags.tag;
      const file = storePath(ctx);
      const data = withStore(() => readStore(file));
      const fields = fieldList(ctx.flags.fields);
      return [...data.tasks]
        .sort((a, b) => a.id - b.id)
        .filter((t) => (status === 'all' || t.status === status) && (tag === undefined || t.tags.includes(tag)))
        .slice(ctx.flags.offset, ctx.flags.offset + ctx.flags.limit)
        .map((t) => project(t, fields));
    },
    render: (data, ctx) =>
      taskTable(data as Partial<Task>[], fieldList((ctx.flags.fields as string[] | undefined) ?? [])),
  });
}
