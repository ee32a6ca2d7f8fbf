/**
 * The repair of an `--args-json` object that generated text got almost right (docs/llms.md#--args-json):
 * single-quoted strings, unquoted keys, Python's `True`/`False`/`None`, and a semicolon or a remark
 * after the object. Each repair has one reading, so the result is what the caller meant; anything
 * else (an unbalanced brace, a second value after the first, an unknown word) gets no repair. The
 * repaired text is JSONC (comments and trailing commas are left for the JSONC reader); whether it
 * then parses is the caller's check. Source: the CLI Agent Spec, §67 "Agent-Generated Input Syntax
 * Rejection" (github.com/cli-agent-spec/cli-agent-spec).
 */

/** What a repair changed, as `context.repairs` names it. */
export type JsonRepair = 'single_quotes' | 'unquoted_keys' | 'python_literals' | 'trailing_text';

/** Python's literals, as JSON spells them. */
const PYTHON: Record<string, string> = { True: 'true', False: 'false', None: 'null' };
const WORD_START = /[A-Za-z_$]/;
const WORD = /[A-Za-z0-9_$]/;

/**
 * `text` (an object: its first non-blank character is `{`) with the slips above repaired.
 * @returns the repaired text and what was repaired (in the order of the list above), or undefined
 *   when nothing was repaired or a repair would be a guess.
 */
export function repairJson(text: string): { text: string; repairs: JsonRepair[] } | undefined {
  if (text.trimStart()[0] !== '{') return undefined;
  const done = new Set<JsonRepair>();
  const out: string[] = [];
  const stack: string[] = [];
  let prev = ''; // the last punctuation outside strings and comments: `{`, `[`, `,`, `:` or a value's end
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      const end = text[i + 1] === '/' ? text.indexOf('\n', i) : text.indexOf('*/', i + 2);
      if (end < 0 && text[i + 1] === '*') return undefined;
      const stop = end < 0 ? text.length : text[i + 1] === '/' ? end : end + 2;
      out.push(text.slice(i, stop));
      i = stop;
    } else if (c === '"' || c === "'") {
      const end = stringEnd(text, i);
      if (end < 0) return undefined;
      const body = text.slice(i + 1, end);
      if (c === "'") done.add('single_quotes');
      out.push(c === '"' ? `"${body}"` : `"${doubleQuoted(body)}"`);
      prev = 'value';
      i = end + 1;
    } else if (WORD_START.test(c)) {
      let end = i + 1;
      while (end < text.length && WORD.test(text[end]!)) end++;
      const word = text.slice(i, end);
      const keyPlace = stack.at(-1) === '{' && (prev === '{' || prev === ',');
      if (keyPlace && /^\s*:/.test(text.slice(end))) {
        done.add('unquoted_keys');
        out.push(`"${word}"`);
      } else if (!keyPlace && PYTHON[word]) {
        done.add('python_literals');
        out.push(PYTHON[word]);
      } else out.push(word);
      prev = 'value';
      i = end;
    } else {
      out.push(c);
      i++;
      if (c === '{' || c === '[') stack.push(c);
      else if (c === '}' || c === ']') {
        if (stack.pop() !== (c === '}' ? '{' : '[')) return undefined;
        if (!stack.length) return ending(text.slice(i), out, done);
      }
      if (!/\s/.test(c)) prev = c === '}' || c === ']' || /[0-9.+-]/.test(c) ? 'value' : c;
    }
  }
  return undefined; // the object never closed
}

/** The end of the top-level object: what follows it is blank, comments, or a remark to drop. */
function ending(rest: string, out: string[], done: Set<JsonRepair>): ReturnType<typeof repairJson> {
  const remark = rest.trim();
  // a comment after the object is JSONC; anything that could be a second value is a guess
  if (remark && !remark.startsWith('//') && !remark.startsWith('/*')) {
    if (/[{["']/.test(remark) || remark.startsWith(',')) return undefined;
    done.add('trailing_text');
  } else out.push(rest);
  if (!done.size) return undefined;
  const order: JsonRepair[] = ['single_quotes', 'unquoted_keys', 'python_literals', 'trailing_text'];
  return { text: out.join(''), repairs: order.filter((r) => done.has(r)) };
}

/** The index of the quote that closes the string opened at `start` (a backslash escapes one character), or -1. */
function stringEnd(text: string, start: number): number {
  const q = text[start];
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === q) return i;
  }
  return -1;
}

/** The body of a single-quoted string as a double-quoted one: `\'` is `'`, a bare `"` is escaped. */
function doubleQuoted(body: string): string {
  let s = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '\\') {
      s += body[i + 1] === "'" ? "'" : c + (body[i + 1] ?? '');
      i++;
    } else s += c === '"' ? '\\"' : c;
  }
  return s;
}
