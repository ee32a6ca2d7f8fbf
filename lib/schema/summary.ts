/**
 * Summaries (docs/schema.md#budgets-and-summaries): what a whole-tree (or drill-in) answer is above
 * the character budget — each command's path, its one line and how to drill in, as many levels deep
 * as the budget holds. A shape that has a summary builds it from these entries (documents.ts): the
 * JSON form here, SKILL.md's command list in {@link skillSummary}. The tree is loaded before a
 * summary is made, so a lazy subtree is summarized exactly like the same subtree declared eagerly.
 */
import type { Command } from '../tree/command.ts';
import { validationError } from '../contract/errors.ts';
import { BUILTIN_ANNOTATION } from '../tree/marks.ts';
import { AX_SCHEMA_VERSION } from './ax.ts';
import { defaultToolName, isReserved, toolStatus } from './walk.ts';
import { skillMarkdown } from './skill.ts';

/** Most characters of a command's one line in a summary. */
const SUMMARY_SHORT = 100;

/** How a summary names its shape, given by the registry (shapes.ts), never written by a shape. */
export interface ShapeWords {
  /** The shape's `--as` value, as the summary names it. */
  readonly shape: string;
  /** ` --as=<shape>` in a drill-in line, `''` for `__schema`'s default shape (asFlagOf). */
  readonly asFlag: string;
}

/** What a shape's summary lists, and how its drill-in command lines are written. */
export interface SummaryStyle extends ShapeWords {
  /** Reserved commands (`mcp-server`, `completion`) are listed: the shape has them (they are no tools). */
  readonly listsReserved: boolean;
  /** Each entry carries its MCP tool name. */
  readonly toolNames: boolean;
}

/** Why an answer is a summary: the whole answer's size over the budget. */
export interface SummaryReason {
  budget: number;
  size: number;
}

/** One entry of a summary: a command, its one line, and how to read more of it. */
export interface SummaryEntry {
  path: string;
  short: string;
  runnable: boolean;
  /** Its MCP tool name, in an mcp or llms summary. */
  tool?: string;
  /** How many commands are below it, when they are not listed here. */
  commands?: number;
  /** The command that prints its document. */
  drill: string;
}

/** The children a summary lists: visible, not ax-ts's own, reserved ones only where the shape has them. */
function listed(cmd: Command, style: SummaryStyle): Command[] {
  return cmd
    .commands()
    .filter(
      (c) => !c.hidden && c.annotations[BUILTIN_ANNOTATION] !== 'true' && (style.listsReserved || !isReserved(c)),
    );
}

/** How many commands are below `cmd` (visible ones). */
function countBelow(cmd: Command, style: SummaryStyle): number {
  return listed(cmd, style).reduce((n, c) => n + 1 + countBelow(c, style), 0);
}

function oneLine(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}

function entryOf(root: Command, style: SummaryStyle, cmd: Command, shortMax: number): SummaryEntry {
  const e: SummaryEntry = {
    path: cmd.commandPath(),
    short: oneLine(cmd.short || cmd.long.split('\n')[0] || '', shortMax),
    runnable: cmd.runnable(),
    drill: `${root.name} __schema${style.asFlag}${cmd === root ? '' : ` ${cmd.pathNames().slice(1).join(' ')}`}`,
  };
  if (style.toolNames && toolStatus(cmd) === 'tool') e.tool = defaultToolName(cmd);
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
  style: SummaryStyle,
  room: number,
): { entries: SummaryEntry[]; omitted: number } {
  const size = (es: SummaryEntry[]) => JSON.stringify(es).length;
  const atDepth = (depth: number, shortMax: number): SummaryEntry[] => {
    const out: SummaryEntry[] = [];
    const walk = (c: Command, d: number) => {
      for (const k of listed(c, style)) {
        const e = entryOf(root, style, k, shortMax);
        const deeper = d < depth;
        if (!deeper && listed(k, style).length) e.commands = countBelow(k, style);
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

/** The head of a JSON summary: what it is, why, and the command lines that read more. */
function summaryHead(
  root: Command,
  target: Command,
  style: SummaryStyle,
  version: string,
  why: SummaryReason,
): Record<string, unknown> {
  const words = target === root ? '' : ` ${target.pathNames().slice(1).join(' ')}`;
  const head: Record<string, unknown> = {
    schema_version: AX_SCHEMA_VERSION,
    tool: root.name,
    version,
    summary: {
      shape: style.shape,
      reason: 'budget',
      budget: why.budget,
      full_size: why.size,
      full: `${root.name} __schema${style.asFlag} --full${words}`,
      command: `${root.name} __schema${style.asFlag} <command…>`,
      field: `${root.name} __schema${style.asFlag} <command…> --field <a.b>`,
      explain: `${root.name} <command…> --explain <flag>`,
    },
  };
  if (target !== root) head.path = target.commandPath();
  else head.short = oneLine(root.short || root.long.split('\n')[0] || '', SUMMARY_SHORT);
  return head;
}

/** Room the entries of a summary keep beside its head (the list's brackets, `omitted`). */
const SLACK = 40;

/**
 * A summary as a JSON document (the ax, mcp and llms shapes share it), as `__schema` prints it.
 * @throws AxError `validation_error` (reason `budget_too_small`) when the budget cannot hold even a
 *   summary without entries; `context.minimum` is the smallest budget that can.
 */
export function jsonSummary(
  root: Command,
  target: Command,
  style: SummaryStyle,
  version: string,
  why: SummaryReason,
): string {
  const head = summaryHead(root, target, style, version, why);
  const headSize = JSON.stringify(head).length;
  // the head names the budget: the smallest one that holds it is measured with its own digits
  const first = headSize + SLACK;
  const minimum = Math.max(
    first,
    JSON.stringify(summaryHead(root, target, style, version, { ...why, budget: first })).length + SLACK,
  );
  if (why.budget < minimum) throw budgetTooSmall(why.budget, minimum);
  const { entries, omitted } = summaryEntries(root, target, style, why.budget - headSize - SLACK);
  return `${JSON.stringify({ ...head, commands: entries, ...(omitted ? { omitted } : {}) })}\n`;
}

/**
 * A summary as SKILL.md: the skill, with the summary's entries as its command list.
 * @throws AxError `validation_error` (reason `budget_too_small`) as {@link jsonSummary}.
 */
export function skillSummary(
  root: Command,
  target: Command,
  version: string,
  why: SummaryReason,
  words: ShapeWords,
): string {
  const style: SummaryStyle = { ...words, listsReserved: false, toolNames: false };
  const note =
    `This list is a summary (the whole SKILL.md is over ${why.budget} characters): \`${root.name} ` +
    `__schema${words.asFlag} --full\` prints it all; drill into a command as its line says.`;
  const minimum = skillMarkdown(root, version, { commands: [note, ''] }).length + 200;
  if (why.budget < minimum) throw budgetTooSmall(why.budget, minimum);
  const room = why.budget - minimum;
  const { entries, omitted } = summaryEntries(root, target, style, room * 0.8);
  const lines = [
    note,
    '',
    ...entries.map(
      (e) => `- \`${e.path}\` — ${e.short}${e.commands ? ` (${e.commands} commands below)` : ''}: \`${e.drill}\``,
    ),
    ...(omitted ? [`- …and ${omitted} more: \`${root.name} --help\` lists them.`] : []),
  ];
  return skillMarkdown(root, version, { commands: lines });
}

function budgetTooSmall(budget: number, minimum: number) {
  return validationError(
    `--budget ${budget} cannot hold even a summary of this answer: the smallest is ${minimum} characters`,
    'budget_too_small',
    {
      fix: `Use --budget ${minimum} or more, or --budget 0 (no limit), or --full.`,
      context: { budget, minimum },
    },
  );
}
