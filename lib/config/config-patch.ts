/**
 * RFC 6902 JSON Patch applied to JSONC *text*: every operation becomes a minimal text edit made by
 * Microsoft's `jsonc-parser` (`modify` + `applyEdits`), so comments, blank lines, key order and
 * indentation outside the edited values stay byte for byte. Paths are RFC 6901 JSON Pointers.
 * jsonc-parser is loaded on first use. Source: RFC 6902 (add, remove, replace, move, copy, test;
 * a failed operation fails the whole patch), RFC 6901; ax-go config.Patch (Hujson, comments kept).
 */
import { AxError } from '../contract/errors.ts';
import { builtinModule } from '../platform/builtin.ts';
import { insertMember, removeMember } from './jsonc-members.ts';

type Jsonc = typeof import('jsonc-parser');
let jsonc: Jsonc | undefined;
/**
 * jsonc-parser, required on first use (an ordinary run never loads it; nor `node:module`, taken
 * through `process.getBuiltinModule` then: a static import costs every start ~0.2 ms, docs/performance.md).
 */
function jsoncParser(): Jsonc {
  // `require` itself in a built program (the bundler sees it and makes jsonc-parser a chunk of its own)
  return (jsonc ??= (
    typeof require === 'function'
      ? // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundler must see a literal require
        require('jsonc-parser')
      : builtinModule('node:module').createRequire(import.meta.url)('jsonc-parser')
  ) as Jsonc);
}

/** One RFC 6902 operation. */
export type PatchOperation =
  | { op: 'add' | 'replace' | 'test'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; from: string; path: string };

/** A parse failure of JSONC text: the first error, with its 1-based line and column. */
export interface JsoncError {
  error: string;
  offset: number;
  line: number;
  column: number;
}

/**
 * Parses JSONC (comments, trailing commas). Objects are plain objects whose keys are all own
 * properties, as `JSON.parse` makes them: a `"__proto__"` key is a property named `__proto__`, never
 * the object's prototype (so `{"__proto__": {"isAdmin": true}}` gives no inherited `isAdmin`).
 * @returns the value, or the first syntax error.
 */
export function parseJsonc(text: string): { value: unknown; error?: JsoncError } {
  const p = jsoncParser();
  const errors: import('jsonc-parser').ParseError[] = [];
  const options = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false };
  // jsonc-parser assigns keys (`obj[key] = v`), which makes a "__proto__" key the prototype: such a
  // text is built again from its syntax tree with every key defined as an own property
  const value = text.includes('__proto__')
    ? ownValue(p.parseTree(text, errors, options))
    : p.parse(text, errors, options);
  if (!errors.length) return { value };
  const e = errors[0]!;
  const before = text.slice(0, e.offset).split('\n');
  return {
    value,
    error: {
      error: p.printParseErrorCode(e.error),
      offset: e.offset,
      line: before.length,
      column: before.at(-1)!.length + 1,
    },
  };
}

/**
 * The first key along `path` (object keys from the top) that the JSONC `text` defines more than once
 * in the same object, with the path to it — where readers disagree (most keep the last, an edit
 * finds the first) — else undefined. A text that does not parse has none.
 */
export function duplicateKey(text: string, path: readonly string[]): string[] | undefined {
  let node = jsoncParser().parseTree(text, [], { allowTrailingComma: true });
  for (let i = 0; i < path.length && node?.type === 'object'; i++) {
    const members = (node.children ?? []).filter((m) => m.children?.[0]?.value === path[i]);
    if (members.length > 1) return path.slice(0, i + 1);
    node = members[0]?.children?.[1];
  }
  return undefined;
}

/** The value of a jsonc-parser syntax tree node, every object key an own, enumerable data property. */
function ownValue(node: import('jsonc-parser').Node | undefined): unknown {
  if (!node) return undefined;
  switch (node.type) {
    case 'object': {
      const obj: Record<string, unknown> = {};
      for (const prop of node.children ?? []) {
        const [key, val] = prop.children ?? [];
        if (key?.type !== 'string') continue;
        Object.defineProperty(obj, key.value as string, {
          value: ownValue(val),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return obj;
    }
    case 'array':
      return (node.children ?? []).map(ownValue);
    case 'property':
      return ownValue(node.children?.[1]);
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
      return node.value as unknown;
  }
}

function patchError(message: string, index: number, op: unknown, reason: string): AxError {
  return new AxError('config_patch_invalid', message, {
    context: { reason, operation: index, op },
    fix:
      'Fix the patch (RFC 6902: op add|remove|replace|move|copy|test, ' +
      'path a JSON Pointer such as /server/port); nothing was written.',
  });
}

/** Decodes an RFC 6901 pointer into segments (`/a~1b/0` → `['a/b', '0']`); undefined when malformed. */
function pointer(p: unknown): string[] | undefined {
  if (typeof p !== 'string') return undefined;
  if (p === '') return [];
  if (!p.startsWith('/')) return undefined;
  return p
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

type Json = unknown;
/** The value at `segs`, with a typed path for jsonc-parser (array indices as numbers). */
function lookup(root: Json, segs: string[]): { found: boolean; value?: Json; path: (string | number)[] } {
  let cur: Json = root;
  const path: (string | number)[] = [];
  for (const s of segs) {
    if (Array.isArray(cur)) {
      if (!/^(0|[1-9]\d*)$/.test(s) || Number(s) >= cur.length) return { found: false, path };
      path.push(Number(s));
      cur = cur[Number(s)];
    } else if (cur !== null && typeof cur === 'object' && Object.prototype.hasOwnProperty.call(cur, s)) {
      path.push(s);
      cur = (cur as Record<string, Json>)[s];
    } else return { found: false, path };
  }
  return { found: true, value: cur, path };
}

function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return false;
  if (Array.isArray(a)) return a.length === (b as Json[]).length && a.every((x, i) => deepEqual(x, (b as Json[])[i]));
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return (
    ka.length === kb.length &&
    ka.every(
      (k) =>
        Object.prototype.hasOwnProperty.call(b, k) &&
        deepEqual((a as Record<string, Json>)[k], (b as Record<string, Json>)[k]),
    )
  );
}

/** Indentation and line ending of the text, so inserted members look like their neighbours. */
function formatting(text: string): import('jsonc-parser').FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return {
    insertSpaces: !indent.startsWith('\t'),
    tabSize: indent.startsWith('\t') ? 1 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

/**
 * Applies an RFC 6902 patch to JSONC text. Operations run in order on the result of the previous
 * one; if any fails, the whole patch fails (the input text is untouched).
 * @param patch an array of operations, or its JSON text.
 * @returns the new text.
 * @throws AxError `config_invalid` when `text` is not valid JSONC; `config_patch_invalid` (exit 2)
 *   when the patch is not an array of operations, a pointer is malformed, a target is missing, a
 *   `test` fails, or the result would not be valid JSONC.
 */
export function applyJsoncPatch(text: string, patch: readonly PatchOperation[] | string): string {
  const p = jsoncParser();
  let ops: unknown = patch;
  if (typeof patch === 'string') {
    try {
      ops = JSON.parse(patch);
    } catch (e) {
      throw patchError(`the patch is not JSON: ${(e as Error).message}`, -1, null, 'not_json');
    }
  }
  if (!Array.isArray(ops)) throw patchError('a JSON Patch is an array of operations', -1, ops, 'not_an_array');
  const parsed = parseJsonc(text);
  if (parsed.error)
    throw new AxError(
      'config_invalid',
      `the config is not valid JSONC: ${parsed.error.error} at ` +
        `line ${parsed.error.line}, column ${parsed.error.column}`,
      { context: { ...parsed.error }, fix: 'Fix the syntax of the config file first.' },
    );
  const fmt = formatting(text);
  let out = text;
  let doc = parsed.value;
  const edit = (path: (string | number)[], value: unknown, insert = false) => {
    out = p.applyEdits(out, p.modify(out, path, value, { formattingOptions: fmt, isArrayInsertion: insert }));
    doc = parseJsonc(out).value;
  };
  (ops as unknown[]).forEach((raw, i) => {
    const op = raw as Record<string, unknown>;
    if (op === null || typeof op !== 'object' || Array.isArray(op))
      throw patchError(`operation ${i} is not an object`, i, raw, 'not_an_operation');
    const name = op.op;
    const segs = pointer(op.path);
    if (!segs)
      throw patchError(
        `operation ${i}: path ${JSON.stringify(op.path)} is not a JSON Pointer (RFC 6901)`,
        i,
        op,
        'invalid_pointer',
      );
    const needValue = name === 'add' || name === 'replace' || name === 'test';
    if (needValue && !('value' in op))
      throw patchError(`operation ${i} (${String(name)}) needs a value`, i, op, 'missing_value');
    const add = (value: unknown) => {
      if (segs.length === 0) return edit([], value);
      const parent = lookup(doc, segs.slice(0, -1));
      const last = segs.at(-1)!;
      if (!parent.found || parent.value === null || typeof parent.value !== 'object')
        throw patchError(
          `operation ${i}: the parent of ${JSON.stringify(op.path)} does not exist`,
          i,
          op,
          'path_not_found',
        );
      if (Array.isArray(parent.value)) {
        const idx = last === '-' ? parent.value.length : /^(0|[1-9]\d*)$/.test(last) ? Number(last) : NaN;
        if (!(idx <= parent.value.length))
          throw patchError(
            `operation ${i}: ${JSON.stringify(last)} is not an index of the array at ${JSON.stringify(op.path)}`,
            i,
            op,
            'path_not_found',
          );
        return edit([...parent.path, idx], value, true);
      }
      if (!Object.hasOwn(parent.value, last)) {
        const edits = insertMember(p, out, parent.path, last, value, fmt);
        if (edits) {
          out = p.applyEdits(out, edits);
          doc = parseJsonc(out).value;
          return;
        }
      }
      return edit([...parent.path, last], value);
    };
    switch (name) {
      case 'add':
        return add(op.value);
      case 'replace':
      case 'remove': {
        const t = lookup(doc, segs);
        if (!t.found)
          throw patchError(`operation ${i} (${name}): nothing at ${JSON.stringify(op.path)}`, i, op, 'path_not_found');
        if (name === 'replace') return edit(t.path, op.value);
        if (segs.length === 0)
          throw patchError(`operation ${i}: the whole document cannot be removed`, i, op, 'path_not_found');
        const last = t.path.at(-1);
        const edits = typeof last === 'string' ? removeMember(p, out, t.path.slice(0, -1), last) : undefined;
        if (!edits) return edit(t.path, undefined);
        out = p.applyEdits(out, edits);
        doc = parseJsonc(out).value;
        return;
      }
      case 'test': {
        const t = lookup(doc, segs);
        if (!t.found || !deepEqual(t.value, op.value))
          throw patchError(
            `operation ${i} (test) failed: the value at ${JSON.stringify(op.path)} is not ${JSON.stringify(op.value)}`,
            i,
            op,
            'test_failed',
          );
        return;
      }
      case 'move':
      case 'copy': {
        const from = pointer(op.from);
        if (!from)
          throw patchError(
            `operation ${i}: from ${JSON.stringify(op.from)} is not a JSON Pointer (RFC 6901)`,
            i,
            op,
            'invalid_pointer',
          );
        const src = lookup(doc, from);
        if (!src.found)
          throw patchError(`operation ${i} (${name}): nothing at ${JSON.stringify(op.from)}`, i, op, 'path_not_found');
        if (name === 'move') {
          if (segs.length > from.length && from.every((s, k) => segs[k] === s))
            throw patchError(
              `operation ${i}: cannot move ${JSON.stringify(op.from)} into itself`,
              i,
              op,
              'invalid_move',
            );
          if (from.length === segs.length && from.every((s, k) => segs[k] === s)) return;
          if (from.length === 0)
            throw patchError(`operation ${i}: the whole document cannot be moved`, i, op, 'invalid_move');
          edit(src.path, undefined);
        }
        return add(structuredClone(src.value));
      }
      default:
        throw patchError(
          `operation ${i}: unknown op ${JSON.stringify(name)} (RFC 6902: add, remove, replace, move, copy, test)`,
          i,
          op,
          'unknown_op',
        );
    }
  });
  const check = parseJsonc(out);
  if (check.error)
    throw patchError(`the patched config would not be valid JSONC (${check.error.error})`, -1, null, 'invalid_result');
  return out;
}
