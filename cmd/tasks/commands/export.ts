/** `tasks export`: every task as a stream (NDJSON envelopes in json mode, one tab-separated line each in text). */
import { Command } from '../../../lib/index.ts';
import { withStore } from '../errors.ts';
import { storePath, taskSchema, type Task } from '../model.ts';
import { taskLine } from '../render.ts';
import { readStore } from '../store.ts';

export function exportCommand(): Command {
  return new Command({
    use: 'export',
    short: 'Stream every task',
    long:
      'Write every task, in id order, whatever its status. In json mode each task is one line (NDJSON):\n' +
      '{"data":<task>,"meta":{...}}. In text mode each task is one tab-separated line: id, status, due, title, tags.',
    example: ['tasks export > tasks.ndjson', 'tasks export --format text'].join('\n'),
    effects: 'read_only',
    output: { kind: 'stream', schema: taskSchema() },
    run: function* (ctx) {
      const file = storePath(ctx);
      const data = withStore(() => readStore(file));
      for (const t of [...data.tasks].sort((a, b) => a.id - b.id)) {
        if (ctx.signal.aborted) return;
        yield t;
      }
    },
    render: (item) => taskLine(item as Task),
  });
}
