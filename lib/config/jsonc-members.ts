/**
 * Members of a JSONC object added and removed as a person would: a new member on a line of its own,
 * indented like its siblings, after the last one's trailing comment; a removed member's lines taken
 * out whole (its own comment with it), and the comma before it when it was the last — nothing else
 * touched. jsonc-parser's formatted edits reformat the whole line they start on (a sibling written
 * `{ "a": 1 } // note` becomes several lines), and its removal of a last member takes the comment
 * after the one before; either breaks "every byte outside the edited value stays" (config-patch.ts).
 */
type Jsonc = typeof import('jsonc-parser');

const indentOf = (text: string, offset: number) =>
  /^[ \t]*/.exec(text.slice(text.lastIndexOf('\n', offset - 1) + 1))![0];

/**
 * The edits that add `key: value` to the object at `parent` (which must not have `key`), or
 * undefined when the object is written on one line with others (`{"a": 1}`): then the caller's
 * compact insertion is the faithful one.
 */
export function insertMember(
  p: Jsonc,
  text: string,
  parent: (string | number)[],
  key: string,
  value: unknown,
  fmt: import('jsonc-parser').FormattingOptions,
): import('jsonc-parser').Edit[] | undefined {
  const node = parent.length ? p.findNodeAtLocation(p.parseTree(text)!, parent) : p.parseTree(text);
  if (!node || node.type !== 'object') return undefined;
  const eol = fmt.eol ?? '\n';
  const unit = fmt.insertSpaces === false ? '\t' : ' '.repeat(fmt.tabSize ?? 2);
  const open = node.offset;
  const close = node.offset + node.length - 1;
  const render = (indent: string) =>
    `${JSON.stringify(key)}: ${JSON.stringify(value, null, unit).split('\n').join(`${eol}${indent}`)}`;
  const members = node.children ?? [];
  if (!members.length) {
    const inner = text.slice(open + 1, close);
    if (inner.trim() !== '') return undefined; // a comment inside: leave it to the caller
    const outer = indentOf(text, open);
    const indent = outer + unit;
    return [{ offset: open + 1, length: close - open - 1, content: `${eol}${indent}${render(indent)}${eol}${outer}` }];
  }
  const last = members.at(-1)!;
  const end = last.offset + last.length;
  const lineEnd = text.indexOf('\n', end);
  const rest = text.slice(end, lineEnd < 0 ? undefined : lineEnd).replace(/\r$/, '');
  // only whitespace and a comment after the last member on its line: the closing brace is below
  if (lineEnd < 0 || !/^\s*,?\s*(\/\/.*|\/\*.*\*\/\s*)?$/.test(rest) || close < lineEnd) return undefined;
  const indent = indentOf(text, last.offset);
  const at = lineEnd > 0 && text[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd;
  // a file that ends its last member with a comma (JSONC allows it) gets its new last member so too
  if (/^\s*,/.test(rest)) return [{ offset: at, length: 0, content: `${eol}${indent}${render(indent)},` }];
  return [
    { offset: end, length: 0, content: ',' },
    { offset: at, length: 0, content: `${eol}${indent}${render(indent)}` },
  ];
}

/**
 * The edits that remove `key` (a member) from the object at `parent`, or undefined when the member
 * shares a line with another member or a brace: then the caller's removal is the faithful one.
 */
export function removeMember(
  p: Jsonc,
  text: string,
  parent: (string | number)[],
  key: string,
): import('jsonc-parser').Edit[] | undefined {
  const node = parent.length ? p.findNodeAtLocation(p.parseTree(text)!, parent) : p.parseTree(text);
  if (!node || node.type !== 'object') return undefined;
  const members = node.children ?? [];
  const i = members.findIndex((m) => m.children?.[0]?.value === key);
  if (i < 0) return undefined;
  const m = members[i]!;
  const lineStart = text.lastIndexOf('\n', m.offset - 1) + 1;
  if (text.slice(lineStart, m.offset).trim() !== '') return undefined; // something before it on its line
  let end = m.offset + m.length;
  const lineEnd = text.indexOf('\n', end);
  if (lineEnd < 0) return undefined;
  const rest = text.slice(end, lineEnd).replace(/\r$/, '');
  if (!/^\s*,?\s*(\/\/.*|\/\*.*\*\/\s*)?$/.test(rest)) return undefined; // the brace or a sibling follows
  end = lineEnd + 1;
  const edits = [{ offset: lineStart, length: end - lineStart, content: '' }];
  // the one before becomes the last: its comma goes, unless the file ends its last member with one
  if (i === members.length - 1 && i > 0 && !/^\s*,/.test(rest)) {
    const before = members[i - 1]!;
    const after = before.offset + before.length;
    const comma = text.slice(after, lineStart).search(/^\s*,/) === 0 ? text.indexOf(',', after) : -1;
    if (comma >= 0) edits.push({ offset: comma, length: 1, content: '' });
  }
  return edits;
}
