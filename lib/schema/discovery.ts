/**
 * Progressive discovery (docs/schema.md#budgets-and-summaries): what `__schema [command…]` and
 * `schema [command…] [--field a.b]` answer. One command's subtree, or one field of it, on request;
 * and for the whole tree (or a big subtree) a summary instead of a document nobody can read, when
 * the document would exceed the character budget or when its lazy subtrees are not loaded (ax-ts
 * never loads them just to describe the whole tree): each command's path, its one line and how to
 * drill in, as many levels deep as the budget holds. The full document stays one flag away
 * (`--full`). The same for `--as=mcp`, `--as=llms` and `--as=skill`; `clispec` and `agents` are
 * always whole.
 */
import type { Command } from '../tree/command.ts';
import { validationError } from '../contract/errors.ts';
import { isUnloaded, loadTree } from '../tree/lazy.ts';
import { BUILTIN_ANNOTATION } from '../tree/marks.ts';
import { findCommand, loadPath, unknownCommandError } from '../parse/parse.ts';
import { suggestionsFor } from '../tree/suggest.ts';
import { AX_SCHEMA_VERSION, axSubtreeDocument, discoveryPointers } from './ax.ts';
import { clispecDocument } from './clispec.ts';
import { llmsDocument } from './llms.ts';
import { skillMarkdown } from './skill.ts';
import { defaultToolName, isReserved, mcpDocument, toolStatus } from './walk.ts';
import type { SchemaShape } from './shapes.ts';
import { schemaDocument } from './documents.ts';

/** Most characters of a command's one line in a summary. */
const SUMMARY_SHORT = 100;

/** What one discovery call asks for. */
export interface DiscoveryRequest {
  /** The document shape (`--as`). */
  shape: SchemaShape;
  /** The command words below the root (`deploy`, `db migrate`); none: the whole tree. */
  words: readonly string[];
  /** `--full`: the whole document whatever its size (loading every lazy subtree). */
  full?: boolean;
  /** Most characters of the answer before it is a summary; 0: no budget. */
  budget: number;
  /** `--field a.b`: one field of the (full) answer, printed as JSON. */
  field?: string;
}

/** One entry of a summary: a command, its one line, and how to read more of it. */
export interface SummaryEntry {
  path: string;
  short: string;
  runnable: boolean;
  /** Its MCP tool name, in an mcp or llms summary. */
  tool?: string;
  /** How many commands are below it, when they are loaded and not listed here. */
  commands?: number;
  /** Its subtree is a lazy one not loaded yet (drill in to load it). */
  lazy?: true;
  /** The command that prints its document. */
  drill: string;
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

/** Whether a subtree still has lazy commands not loaded. */
export function hasUnloaded(cmd: Command): boolean {
  if (isUnloaded(cmd)) return true;
  return cmd.commands().some((c) => !c.hidden && hasUnloaded(c));
}

/** The children a summary lists: visible, not ax-ts's own; for mcp/llms also not reserved. */
function listed(cmd: Command, shape: SchemaShape): Command[] {
  return cmd
    .commands()
    .filter((c) => !c.hidden && c.annotations[BUILTIN_ANNOTATION] !== 'true' && !(shape !== 'ax' && isReserved(c)));
}

/** How many commands are below `cmd` (its loaded subtree, visible ones). */
function countBelow(cmd: Command, shape: SchemaShape): number {
  return listed(cmd, shape).reduce((n, c) => n + 1 + (isUnloaded(c) ? 0 : countBelow(c, shape)), 0);
}

/** `<program> __schema [--as=<shape>] <words>`: the drill-in command line of a command. */
function drillLine(root: Command, shape: SchemaShape, cmd: Command): string {
  return [root.name, '__schema', ...(shape === 'ax' ? [] : [`--as=${shape}`]), ...cmd.pathNames().slice(1)].join(' ');
}

function oneLine(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}

function entryOf(root: Command, shape: SchemaShape, cmd: Command, shortMax: number): SummaryEntry {
  const e: SummaryEntry = {
    path: cmd.commandPath(),
    short: oneLine(cmd.short || cmd.long.split('\n')[0] || '', shortMax),
    runnable: cmd.runnable(),
    drill: drillLine(root, shape, cmd),
  };
  if ((shape === 'mcp' || shape === 'llms') && !isUnloaded(cmd) && toolStatus(cmd) === 'tool')
    e.tool = defaultToolName(cmd);
  return e;
}

/**
 * The entries of a summary of `target`'s subtree: every command to the deepest level that fits in
 * `room` characters (in tree order), each deeper subtree as its top command with how many commands
 * it holds; when not even the first level fits, its first commands and how many were left out.
 */
export function summaryEntries(
  root: Command,
  target: Command,
  shape: SchemaShape,
  room: number,
): { entries: SummaryEntry[]; omitted: number } {
  const size = (es: SummaryEntry[]) => JSON.stringify(es).length;
  const atDepth = (depth: number, shortMax: number): SummaryEntry[] => {
    const out: SummaryEntry[] = [];
    const walk = (c: Command, d: number) => {
      for (const k of listed(c, shape)) {
        const e = entryOf(root, shape, k, shortMax);
        const deeper = d < depth && !isUnloaded(k);
        if (isUnloaded(k)) e.lazy = true;
        else if (!deeper && listed(k, shape).length) e.commands = countBelow(k, shape);
        out.push(e);
        if (deeper) walk(k, d + 1);
      }
    };
    walk(target, 1);
    return out;
  };
  let best = atDepth(1, SUMMARY_SHORT);
  if (size(best) > room) {
    // not even one level: shorter lines, then the first commands only
    best = atDepth(1, 40);
    let omitted = 0;
    while (best.length && size(best) > room) {
      best.pop();
      omitted += 1;
    }
    return { entries: best, omitted };
  }
  for (let depth = 2; ; depth++) {
    const next = atDepth(depth, SUMMARY_SHORT);
    if (next.length === best.length || size(next) > room) break;
    best = next;
  }
  return { entries: best, omitted: 0 };
}

/** A summary as a JSON document (ax, mcp and llms summaries share it). */
function summaryDocument(
  root: Command,
  target: Command,
  shape: SchemaShape,
  version: string,
  why: { reason: 'budget' | 'lazy'; budget: number; size?: number },
): Record<string, unknown> {
  const p = discoveryPointers(root.name);
  const as = shape === 'ax' ? '' : ` --as=${shape}`;
  const head: Record<string, unknown> = {
    schema_version: AX_SCHEMA_VERSION,
    tool: root.name,
    version,
    summary: {
      shape,
      reason: why.reason,
      budget: why.budget,
      ...(why.size !== undefined ? { full_size: why.size } : {}),
      full: `${root.name} __schema${as} --full${target === root ? '' : ` ${target.pathNames().slice(1).join(' ')}`}`,
      command: `${root.name} __schema${as} <command…>`,
      field: p.field,
      explain: p.explain,
    },
  };
  if (target !== root) head.path = target.commandPath();
  else head.short = oneLine(root.short || root.long.split('\n')[0] || '', SUMMARY_SHORT);
  const room = why.budget > 0 ? why.budget - JSON.stringify(head).length - 40 : Number.MAX_SAFE_INTEGER;
  const { entries, omitted } = summaryEntries(root, target, shape, room);
  return { ...head, commands: entries, ...(omitted ? { omitted } : {}) };
}

/** A summary as SKILL.md: the skill, with the summary's entries as its command list. */
function skillSummary(root: Command, target: Command, version: string, budget: number): string {
  const base = skillMarkdown(root, version, { commands: [] });
  const room = budget > 0 ? budget - base.length - 200 : Number.MAX_SAFE_INTEGER;
  const { entries, omitted } = summaryEntries(root, target, 'skill', room * 0.8);
  const lines = [
    `This list is a summary (the whole SKILL.md is over ${budget} characters): \`${root.name} __schema --as=skill --full\` prints it all; drill into a command as its line says.`,
    '',
    ...entries.map(
      (e) =>
        `- \`${e.path}\` — ${e.short}${e.commands ? ` (${e.commands} commands below)` : e.lazy ? ' (more below)' : ''}: \`${e.drill}\``,
    ),
    ...(omitted ? [`- …and ${omitted} more: \`${root.name} --help\` lists them.`] : []),
  ];
  return skillMarkdown(root, version, { commands: lines });
}

/** The whole answer of a shape for `target` (the root: the registry's document). Loads what it describes. */
async function fullText(root: Command, target: Command, shape: SchemaShape, version: string): Promise<string> {
  await loadTree(target);
  if (target === root) return schemaDocument(root, shape, version);
  const json = (doc: unknown) => `${JSON.stringify(doc)}\n`;
  switch (shape) {
    case 'ax':
      return json(axSubtreeDocument(root, target, version));
    case 'mcp':
      return json(mcpDocument(root, target));
    case 'llms':
      return json(llmsDocument(root, target));
    case 'clispec':
      return json(clispecDocument(root, version, target));
    case 'skill':
      return skillMarkdown(root, version, { within: target });
    case 'agents':
      return schemaDocument(root, shape, version);
  }
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

/** The one command a drill-in document describes: the ax `command`, the one clispec command, the one tool. */
function focusOf(doc: Record<string, unknown>, shape: SchemaShape): unknown {
  if (shape === 'ax') return doc.command;
  const list = (shape === 'clispec' ? doc.commands : doc.tools) as unknown[] | undefined;
  const own = shape === 'llms' ? list?.slice(1) : list; // the llms help entry is no command
  return own?.length === 1 ? own[0] : undefined;
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
 *   shape, and as the shapes' renders do.
 */
export async function discoveryAnswer(root: Command, version: string, req: DiscoveryRequest): Promise<string> {
  const target = req.words.length ? await selectCommand(root, req.words) : root;
  const { shape } = req;
  if (req.field !== undefined) {
    if (shape === 'skill' || shape === 'agents')
      throw validationError(`--field reads JSON documents; --as=${shape} is Markdown`, 'field_of_text', {
        fix: 'Use --field with --as=ax, mcp, llms or clispec.',
        context: { shape },
      });
    const doc = JSON.parse(await fullText(root, target, shape, version)) as Record<string, unknown>;
    return `${JSON.stringify(fieldOf(doc, target === root ? undefined : focusOf(doc, shape), req.field))}\n`;
  }
  const budgeted = shape !== 'clispec' && shape !== 'agents' && !req.full && req.budget > 0;
  if (budgeted && hasUnloaded(target))
    return summaryText(root, target, shape, version, { reason: 'lazy', budget: req.budget });
  const text = await fullText(root, target, shape, version);
  if (!budgeted || text.length <= req.budget) return text;
  return summaryText(root, target, shape, version, { reason: 'budget', budget: req.budget, size: text.length });
}

function summaryText(
  root: Command,
  target: Command,
  shape: SchemaShape,
  version: string,
  why: { reason: 'budget' | 'lazy'; budget: number; size?: number },
): string {
  if (shape === 'skill') return skillSummary(root, target, version, why.budget);
  return `${JSON.stringify(summaryDocument(root, target, shape, version, why))}\n`;
}
