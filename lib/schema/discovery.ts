/**
 * Progressive discovery (docs/schema.md#budgets-and-summaries): what `__schema [command…]` and
 * `schema [command…] [--field a.b]` answer. The whole tree, one command's subtree, or one field of
 * it; lazy subtrees are loaded for it, so a lazy subtree answers exactly as the same subtree declared
 * eagerly (a built program answers a bare `__schema` from its schema manifest instead, without
 * loading the tree). An answer over the character budget is the shape's summary, which says so;
 * `--full` prints the whole document whatever its size. What each shape renders, and whether it has
 * a summary, is the shape's own (documents.ts).
 */
import type { Command } from '../tree/command.ts';
import { validationError } from '../contract/errors.ts';
import { loadTree } from '../tree/lazy.ts';
import { BUILTIN_ANNOTATION } from '../tree/marks.ts';
import { findCommand, loadPath, unknownCommandError } from '../parse/parse.ts';
import { suggestionsFor } from '../tree/suggest.ts';
import { asFlagOf, SHAPES, type SchemaShape } from './shapes.ts';
import { shapeRender, type ShapeRender } from './documents.ts';

/** What one discovery call asks for. */
export interface DiscoveryRequest {
  /** The document shape (`--as`). */
  shape: SchemaShape;
  /** The command words below the root (`deploy`, `db migrate`); none: the whole tree. */
  words: readonly string[];
  /** `--full`: the whole document whatever its size. */
  full?: boolean;
  /** Most characters of the answer before it is a summary; 0: no budget. */
  budget: number;
  /** `--field a.b`: one field of the (full) answer, printed as JSON. */
  field?: string;
}

/**
 * The command that `words` select (loading the lazy subtrees on the way), for a drill-in.
 * @throws AxError `validation_error` (reason `unknown_command`, with suggestions) when the words
 *   name no command, or a hidden or built-in one (those are in no document).
 */
export async function selectCommand(root: Command, words: readonly string[]): Promise<Command> {
  await loadPath(root, words);
  const { command, rest } = findCommand(root, words);
  if (rest.length) throw unknownCommandError(command, rest[0]!);
  for (let c: Command | undefined = command; c && c !== root; c = c.parent)
    if (c.hidden || c.annotations[BUILTIN_ANNOTATION] === 'true') throw unknownCommandError(c.parent!, c.name);
  return command;
}

/** `a, b or c`. */
const orList = (xs: string[]) => (xs.length > 1 ? `${xs.slice(0, -1).join(', ')} or ${xs.at(-1)!}` : xs.join(''));

/** The whole answer of a shape for `target` (the root: the whole document). Loads what it describes. */
async function fullText(root: Command, target: Command, render: ShapeRender, version: string): Promise<string> {
  await loadTree(target);
  return target === root ? render.whole(root, version) : render.within(root, target, version);
}

/**
 * One field of a JSON document, by a dotted path: object keys; in a list, an index or the entry
 * whose `name` is the segment (`flags.region`, `args.--region`); `options` reads `flags` (ax) or
 * `args` (clispec) when the object has no such key.
 * @throws AxError `validation_error` (reason `unknown_field`) naming the segment and what is there.
 */
export function selectField(doc: unknown, field: string): unknown {
  let cur = doc;
  const done: string[] = [];
  for (const seg of field.split('.').filter((s) => s !== '')) {
    let next: unknown;
    let found = false;
    if (Array.isArray(cur)) {
      const byName = cur.find(
        (x) =>
          x &&
          typeof x === 'object' &&
          ((x as { name?: unknown }).name === seg || (x as { name?: unknown }).name === `--${seg}`),
      );
      if (byName !== undefined) [next, found] = [byName, true];
      else if (/^\d+$/.test(seg) && Number(seg) < cur.length) [next, found] = [cur[Number(seg)], true];
    } else if (cur !== null && typeof cur === 'object') {
      const o = cur as Record<string, unknown>;
      const key = Object.hasOwn(o, seg)
        ? seg
        : seg === 'options'
          ? ['flags', 'args'].find((k) => Object.hasOwn(o, k))
          : undefined;
      if (key !== undefined) [next, found] = [o[key], true];
    }
    if (!found) {
      const here = Array.isArray(cur)
        ? cur.map((x, i) =>
            x && typeof x === 'object' && typeof (x as { name?: unknown }).name === 'string'
              ? String((x as { name: string }).name)
              : String(i),
          )
        : cur !== null && typeof cur === 'object'
          ? Object.keys(cur)
          : [];
      const at = done.length ? done.join('.') : '(the document)';
      throw validationError(`no field ${JSON.stringify(seg)} in ${at}`, 'unknown_field', {
        suggestions: suggestionsFor(seg, here),
        context: { field, at, available: here.slice(0, 50) },
        fix: here.length
          ? `Pick one of: ${here.slice(0, 20).join(', ')}${here.length > 20 ? ', …' : ''}.`
          : `${at} has no fields.`,
      });
    }
    cur = next;
    done.push(seg);
  }
  return cur;
}

/** A field of the document, else (a drill-in's) of the command it describes (`--field flags.region`). */
function fieldOf(doc: Record<string, unknown>, focus: unknown, field: string): unknown {
  try {
    return selectField(doc, field);
  } catch (e) {
    if (focus === undefined) throw e;
    return selectField(focus, field);
  }
}

/**
 * The answer of one discovery call (`__schema`, `schema`): the document, a summary, or a field, as
 * the text `__schema` prints (JSON and a newline; Markdown for skill and agents).
 * @throws AxError `validation_error` for unknown command words or fields, a field of a Markdown
 *   shape, a budget too small for any summary (reason `budget_too_small`, `context.minimum`), and as
 *   the shapes' renders do (a lazy subtree whose loader throws fails the whole answer with its error).
 */
export async function discoveryAnswer(root: Command, version: string, req: DiscoveryRequest): Promise<string> {
  const target = req.words.length ? await selectCommand(root, req.words) : root;
  const render = shapeRender(req.shape);
  if (req.field !== undefined) {
    if (!render.focus)
      throw validationError(`--field reads JSON documents; --as=${req.shape} is Markdown`, 'field_of_text', {
        fix: `Use --field with --as=${orList(SHAPES.filter((s) => shapeRender(s.name).focus).map((s) => s.name))}.`,
        context: { shape: req.shape },
      });
    const doc = JSON.parse(await fullText(root, target, render, version)) as Record<string, unknown>;
    return `${JSON.stringify(fieldOf(doc, target === root ? undefined : render.focus(doc), req.field))}\n`;
  }
  const text = await fullText(root, target, render, version);
  if (!render.summary || req.full || req.budget <= 0 || text.length <= req.budget) return text;
  const words = { shape: req.shape, asFlag: asFlagOf(req.shape) };
  return render.summary(root, target, version, { budget: req.budget, size: text.length }, words);
}
