/**
 * `tasks add <title...> [--tag t]... [--due YYYY-MM-DD]`: create a task (dry-run aware; retries
 * replay through ax-ts).
 */
import { Command, type RunContext } from '../../../lib/index.ts';
import { invalidValue, withStore } from '../errors.ts';
import { isIsoDate, storePath, taskSchema } from '../model.ts';
import { taskRef } from '../render.ts';
import { readStore, updateStore, type Task } from '../store.ts';

interface AddArgs {
  title: string;
  tags: string[];
  due: string | null;
}

/** Checks and normalises the arguments. @throws validation_error */
function addArgs(ctx: RunContext, words: string[], tagsIn: string[], dueIn: string | undefined): AddArgs {
  const title = words.join(' ');
  if (title.trim() === '') {
    throw invalidValue('the task title is empty', "Give the title as words after 'add', e.g. tasks add buy milk.", {
      reason: 'invalid_argument',
      argument: 'title',
    });
  }
  const tags: string[] = [];
  for (const t of tagsIn) {
    if (t.trim() === '') {
      throw invalidValue(
        `invalid value "" for ${ctx.flagLabel('tag')}: a tag cannot be empty`,
        `Pass a non-empty tag, e.g. ${ctx.flagLabel('tag')} home.`,
        {
          reason: 'invalid_flag_value',
          flag: ctx.flagLabel('tag'),
          value: t,
        },
      );
    }
    if (!tags.includes(t)) tags.push(t);
  }
  if (dueIn !== undefined && !isIsoDate(dueIn)) {
    throw invalidValue(
      `invalid value ${JSON.stringify(dueIn)} for ${ctx.flagLabel('due')}: expected a date YYYY-MM-DD`,
      `Pass the due date as YYYY-MM-DD, e.g. ${ctx.flagLabel('due')} 2030-01-31.`,
      {
        reason: 'invalid_flag_value',
        flag: ctx.flagLabel('due'),
        value: dueIn,
      },
    );
  }
  return { title, tags, due: dueIn ?? null };
}

function newTask(id: number, a: AddArgs): Task {
  return {
    id,
    title: a.title,
    status: 'open',
    tags: [...a.tags],
    due: a.due,
    created_at: new Date().toISOString(),
    done_at: null,
  };
}

export function addCommand(): Command {
  return new Command({
    use: 'add <title...>',
    short: 'Add a task',
    long:
      'Add a task. The title is every word after "add", joined with one space (quote it or not).\n' +
      'Use --tag (repeatable) to label it and --due for a due date (YYYY-MM-DD).\n' +
      'With --dry-run nothing is written and the task that would be created is shown.\n' +
      'A due date in the past is accepted with a warning (code due_in_past in meta.warnings).\n' +
      'With --idempotency-key a retry with the same key and arguments ' +
      'returns the first result instead of adding a second task.',
    example: [
      'tasks add buy milk',
      'tasks add "file taxes" --due 2030-04-15 -t admin -t money',
      'tasks add --dry-run call mum',
      'tasks add --idempotency-key 7c1d water plants',
      'tasks add -- --not-a-flag',
    ].join('\n'),
    args: [{ name: 'title', description: 'title words, joined with one space', variadic: true }],
    flags: {
      tag: { type: 'stringArray', short: 't', usage: 'tag for the task (repeat for several)' },
      due: { type: 'string', usage: 'due date, YYYY-MM-DD' },
    },
    effects: 'non_idempotent',
    dryRun: true, // the handler rehearses with ctx.guard
    destructive: false, // it only adds a task: clients need not treat it as destructive
    output: { schema: taskSchema(), cardinality: 'single', nonDeterministic: ['created_at'] },
    // A retry with the same --idempotency-key and arguments replays the first result: ax-ts records
    // it (effects non_idempotent), so the handler below runs at most once per key.
    run: async (ctx) => {
      const a = addArgs(ctx, ctx.args.title, ctx.flags.tag, ctx.flags.due);
      // a structured warning ({code, message} in meta.warnings): the task is added all the same,
      // and --strict turns the warning into a failure before anything is written
      if (a.due !== null && a.due < new Date().toISOString().slice(0, 10))
        ctx.warn(`the due date ${a.due} is in the past`, { code: 'due_in_past' });
      const file = storePath(ctx);
      if (ctx.dryRun) {
        const data = withStore(() => readStore(file));
        ctx.guard(`add task ${data.next_id} (${JSON.stringify(a.title)})`);
        return newTask(data.next_id, a);
      }
      return withStore(() =>
        updateStore(
          file,
          (data) => {
            const task = newTask(data.next_id, a);
            data.next_id += 1;
            data.tasks.push(task);
            return task;
          },
          { signal: ctx.signal },
        ),
      );
    },
    render: (data, ctx) => `${ctx.dryRun ? 'Would add' : 'Added'} ${taskRef(data as Task)}`,
  });
}
