/**
 * Readable default rendering of payloads in human mode, used when a command has no `render`.
 * Plain text only: no colour, no escape codes (so `| cat` and logs stay clean).
 */
import { visible } from '../contract/envelope.ts';

function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(cell).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return visible(String(v).replace(/[\r\n\t]+/g, ' '));
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A left-aligned table with an upper-case header row, columns in first-seen key order. */
export function renderTable(rows: Record<string, unknown>[]): string {
  const cols: string[] = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!cols.includes(k)) cols.push(k);
  const cells = rows.map((r) => cols.map((c) => cell(r[c])));
  const widths = cols.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const line = (vals: string[]) =>
    vals
      .map((v, i) => (i === vals.length - 1 ? v : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd() + '\n';
  return line(cols.map((c) => c.toUpperCase())) + cells.map(line).join('');
}

/**
 * Default text for a payload: strings as they are; arrays of objects as a table; other arrays one
 * item a line; objects as `key: value` lines (a key whose value is undefined is left out, as the
 * JSON envelope leaves it out; a null value shows as an empty field); null/undefined as nothing.
 */
export function renderDefault(data: unknown): string {
  if (data === undefined || data === null) return '';
  if (typeof data === 'string') return visible(data.endsWith('\n') ? data : `${data}\n`);
  if (Array.isArray(data)) {
    if (data.length === 0) return '(none)\n';
    if (data.every(isRecord)) return renderTable(data);
    return data.map((d) => `${cell(d)}\n`).join('');
  }
  if (isRecord(data)) {
    const keys = Object.keys(data).filter((k) => data[k] !== undefined);
    const w = Math.max(0, ...keys.map((k) => k.length)) + 1;
    return keys.map((k) => `${`${k}:`.padEnd(w)} ${cell(data[k])}`.trimEnd() + '\n').join('');
  }
  return `${String(data)}\n`;
}
