/**
 * One server's table in a TOML file (Codex's `config.toml`: `[mcp_servers.<name>]`), written or
 * removed as text, so every other line — comments, other servers, other settings — stays byte for
 * byte (./install.ts). The table is its header line and the lines up to the next header, with its
 * sub-tables (`[mcp_servers.<name>.env]`). Source: TOML 1.0 (tables, basic strings, inline tables).
 */

/** A TOML key: bare when it can be, else a basic (JSON-compatible) string. */
function tomlKey(k: string): string {
  return /^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k);
}

/** A TOML value: strings as basic strings (JSON's escapes are TOML's), arrays, inline tables. */
function tomlValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(tomlValue).join(', ')}]`;
  if (v && typeof v === 'object')
    return `{ ${Object.entries(v)
      .map(([k, x]) => `${tomlKey(k)} = ${tomlValue(x)}`)
      .join(', ')} }`;
  throw new TypeError(`no TOML form for ${typeof v}`);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The line range [start, end) of `[<key>.<name>]` and its sub-tables, or undefined. */
function tableRange(lines: readonly string[], key: string, name: string): [number, number] | undefined {
  const nameForms = [name, JSON.stringify(name), `'${name}'`].map(escapeRe).join('|');
  const head = new RegExp(`^\\s*\\[\\s*${escapeRe(key)}\\s*\\.\\s*(?:${nameForms})\\s*(\\.[^\\]]*)?\\]\\s*(#.*)?$`);
  const start = lines.findIndex((l) => head.test(l) && head.exec(l)![1] === undefined);
  if (start < 0) return undefined;
  let end = start + 1;
  for (; end < lines.length; end++) {
    const l = lines[end]!;
    if (/^\s*\[/.test(l) && !head.test(l)) break;
  }
  // the blank lines and comments before the next table stay with it (a note about that table)
  while (end > start + 1 && (lines[end - 1]!.trim() === '' || lines[end - 1]!.trim().startsWith('#'))) end--;
  return [start, end];
}

/**
 * Whether `name` is also defined some other way than its own table — an inline table or dotted
 * keys under `[<key>]`, or `<key>.<name>… =` at the top — which a table of its own would declare
 * twice (TOML forbids it, and the client would then read no config at all).
 */
export function tomlDefinedElsewhere(text: string, key: string, name: string): boolean {
  const nameForms = [name, JSON.stringify(name), `'${name}'`].map(escapeRe).join('|');
  const dotted = new RegExp(`^\\s*${escapeRe(key)}\\s*\\.\\s*(?:${nameForms})\\s*[.=]`);
  const inner = new RegExp(`^\\s*(?:${nameForms})\\s*[.=]`);
  const parent = new RegExp(`^\\s*\\[\\s*${escapeRe(key)}\\s*\\]\\s*(#.*)?$`);
  let table: 'top' | 'parent' | 'other' = 'top';
  for (const line of text.split('\n')) {
    if (/^\s*\[/.test(line)) table = parent.test(line) ? 'parent' : 'other';
    else if ((table === 'top' && dotted.test(line)) || (table === 'parent' && inner.test(line))) return true;
  }
  return false;
}

/** The table's lines for `entry`. */
function tableLines(key: string, name: string, entry: Record<string, unknown>): string[] {
  return [`[${key}.${tomlKey(name)}]`, ...Object.entries(entry).map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`)];
}

/** `text` with `[<key>.<name>]` set to `entry`; `before`: the table's text as it was, if any. */
export function tomlWith(
  text: string,
  key: string,
  name: string,
  entry: Record<string, unknown>,
): { before: string | undefined; text: string } {
  const eol = eolOf(text);
  const lines = text.split(eol);
  const range = tableRange(lines, key, name);
  const table = tableLines(key, name, entry);
  if (range) {
    const before = lines.slice(...range).join('\n');
    lines.splice(range[0], range[1] - range[0], ...table);
    return { before, text: lines.join(eol) };
  }
  const body = text === '' || text.endsWith(eol) ? text : `${text}${eol}`;
  const gap = body === '' || body.endsWith(eol + eol) ? '' : eol;
  return { before: undefined, text: `${body}${gap}${table.join(eol)}${eol}` };
}

/** The file's line ending (Windows editors write CRLF): the lines written keep it. */
function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** `text` without `[<key>.<name>]` (and the blank line that set it apart); `before` as {@link tomlWith}. */
export function tomlWithout(text: string, key: string, name: string): { before: string | undefined; text: string } {
  const eol = eolOf(text);
  const lines = text.split(eol);
  const range = tableRange(lines, key, name);
  if (!range) return { before: undefined, text };
  const before = lines.slice(...range).join('\n');
  let [start, end] = range;
  if (start > 0 && lines[start - 1]!.trim() === '') start--;
  else if (end < lines.length && lines[end]!.trim() === '') end++;
  lines.splice(start, end - start);
  return { before, text: lines.join(eol) };
}
