/**
 * Human-mode text of the `tasks` commands: plain text, no colours or escape codes — and none from
 * the data either: a title holding ESC or BEL is shown escaped (visible), never sent to the terminal.
 */
import { visible } from '../../lib/index.ts';
import type { Task } from './store.ts';

const HEADERS: Record<string, string> = {
  id: 'ID',
  title: 'TITLE',
  status: 'STATUS',
  tags: 'TAGS',
  due: 'DUE',
  created_at: 'CREATED',
  done_at: 'DONE AT',
};
const DEFAULT_COLUMNS = ['id', 'status', 'due', 'title', 'tags'];

/** One cell: arrays comma-joined, null as '-', line breaks and tabs flattened to spaces, control characters escaped. */
function cell(v: unknown): string {
  if (v === null || v === undefined) return '-';
  if (Array.isArray(v)) return v.length ? visible(v.map(String).join(',')) : '-';
  return visible(String(v).replace(/[\r\n\t]+/g, ' '));
}

/**
 * A left-aligned table with a header row. Columns: ID, STATUS, DUE, TITLE, TAGS, or the selected
 * fields (in their order) when the rows were projected with --fields.
 */
export function taskTable(rows: Partial<Task>[], fields: readonly string[] = []): string {
  if (rows.length === 0) return 'No tasks.\n';
  const cols = fields.length ? [...fields] : DEFAULT_COLUMNS;
  const grid = [
    cols.map((c) => HEADERS[c] ?? c.toUpperCase()),
    ...rows.map((r) => cols.map((c) => cell((r as Record<string, unknown>)[c]))),
  ];
  const widths = cols.map((_, i) => Math.max(...grid.map((row) => row[i]!.length)));
  return grid
    .map(
      (row) =>
        row
          .map((v, i) => (i === row.length - 1 ? v : v.padEnd(widths[i]!)))
          .join('  ')
          .trimEnd() + '\n',
    )
    .join('');
}

/** `key: value` lines for one task (show). */
export function taskDetails(t: Task): string {
  const lines: [string, unknown][] = [
    ['ID', t.id],
    ['Title', t.title],
    ['Status', t.status],
    ['Tags', t.tags],
    ['Due', t.due],
    ['Created', t.created_at],
    ['Done at', t.done_at],
  ];
  return lines.map(([k, v]) => `${`${k}:`.padEnd(9)} ${cell(v)}`).join('\n') + '\n';
}

/** One tab-separated line per task (export in text mode): id, status, due, title, tags. */
export function taskLine(t: Task): string {
  return `${[t.id, t.status, cell(t.due), cell(t.title), cell(t.tags)].join('\t')}\n`;
}

/** `#3 buy milk` */
export function taskRef(t: Pick<Task, 'id' | 'title'>): string {
  return `#${t.id} ${cell(t.title)}`;
}
