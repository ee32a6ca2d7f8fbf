/**
 * Paging a paged command's answer (`output.paging`, docs/contract.md#paging---limit---cursor): the
 * page a call asks for (`--limit`, `--cursor`, checked before anything runs), the page cut from what
 * the handler returned, `meta.pagination`, the next page's step and the human footer. Cursors are
 * opaque and checked: a checksum over the program, the command and the position, so a cursor of
 * another command or a garbled one is refused (`bad_cursor`), never taken for the first page. The
 * checksum guards against mistakes, not against a caller forging positions (a position is no secret).
 */
export type { Pagination } from '../contract/envelope.ts';
import { validationError } from '../contract/errors.ts';
import type { NextStep } from '../contract/errors.ts';
import type { Pagination } from '../contract/envelope.ts';
import type { Invocation } from '../parse/parse.ts';
import { flagLabel } from '../parse/validate.ts';
import { flagWordsOf } from '../parse/flag-words.ts';
import { markPage, pageReplyOf, pagingSettings, type PageRequest } from '../tree/paging.ts';
import { propertyName } from '../tree/flags.ts';
import type { Command } from '../tree/command.ts';
import { retryStep, shellWord, type ToolVia } from '../schema/next-steps.ts';

/** A page cut from a handler's result: its items and what `meta.pagination` says of it. */
export interface Paged {
  items: unknown[];
  pagination: Pagination;
}

/** Where a page starts: an offset into the whole list (ax-ts slices) or the handler's own cursor. */
type Position = { o: number } | { h: string };

/**
 * The cursor's checksum. `node:crypto` is loaded here, on a paged answer's first cursor, through
 * `process.getBuiltinModule`: a static import would load it on every run (docs/performance.md).
 */
function checksum(cmd: Command, payload: string): string {
  const { createHash } = process.getBuiltinModule('node:crypto');
  return createHash('sha256')
    .update(`ax-ts page\0${cmd.root().name}\0${cmd.commandPath()}\0${payload}`)
    .digest('base64url')
    .slice(0, 12);
}

/** The opaque cursor of `pos` on `cmd`. */
export function encodeCursor(cmd: Command, pos: Position): string {
  const payload = JSON.stringify(pos);
  return `${Buffer.from(payload).toString('base64url')}.${checksum(cmd, payload)}`;
}

/** The position a cursor of `cmd` holds, or undefined when it is no cursor of `cmd`. */
function decodeCursor(cmd: Command, cursor: string): Position | undefined {
  const dot = cursor.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const payload = Buffer.from(cursor.slice(0, dot), 'base64url').toString();
  if (checksum(cmd, payload) !== cursor.slice(dot + 1)) return undefined;
  try {
    const p = JSON.parse(payload) as Record<string, unknown>;
    if (typeof p.o === 'number' && Number.isSafeInteger(p.o) && p.o >= 0) return { o: p.o };
    if (typeof p.h === 'string' && p.h !== '') return { h: p.h };
  } catch {
    // not JSON: no cursor of ours
  }
  return undefined;
}

const requests = new WeakMap<Invocation, PageRequest>();

/**
 * The page a call of a paged command asks for, checked; undefined for a command that does not page.
 * Memoized per invocation (the runner checks it before anything runs; `ctx.page` reads it again).
 * @throws AxError `validation_error` exit 2: `bad_limit` for a limit outside 1..max (naming the
 *   range), `bad_cursor` for a cursor that is not one of this command's.
 */
export function pageRequestOf(inv: Invocation): PageRequest | undefined {
  const cmd = inv.command;
  const settings = pagingSettings(cmd.output);
  if (!settings || !inv.resolved.inForce('limit')) return undefined; // most commands: nothing kept
  const known = requests.get(inv);
  if (known) return known;
  const given = inv.values.get('limit');
  const limit = given === undefined ? settings.defaultLimit : given;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1 || limit > settings.maxLimit) {
    const label = flagLabel(inv, 'limit');
    throw validationError(
      `${label} must be a whole number from 1 to ${settings.maxLimit} (got ${JSON.stringify(limit)})`,
      'bad_limit',
      {
        context: { command: cmd.commandPath(), flag: label, min: 1, max: settings.maxLimit, given: limit },
        fix: `Give ${label} a value from 1 to ${settings.maxLimit} (default ${settings.defaultLimit}).`,
      },
    );
  }
  const raw = inv.values.get('cursor');
  let pos: Position = { o: 0 };
  if (typeof raw === 'string' && raw.trim() !== '') {
    const p = decodeCursor(cmd, raw.trim());
    if (!p) {
      const label = flagLabel(inv, 'cursor');
      throw validationError(
        `${label} is not a cursor of ${cmd.commandPath()}: it was changed on the way, or comes from another command`,
        'bad_cursor',
        {
          context: { command: cmd.commandPath(), flag: label },
          fix: `Pass ${label} exactly as meta.pagination.next_cursor of this command's page before gave it, or leave it out for the first page.`,
        },
      );
    }
    pos = p;
  }
  const req: PageRequest = {
    limit,
    offset: 'o' in pos ? pos.o : 0,
    ...('h' in pos ? { cursor: pos.h } : {}),
    reply: markPage,
  };
  requests.set(inv, req);
  return req;
}

/**
 * The page of a handler's result: its own page (`ctx.page.reply`), else the whole list sliced at
 * the request's offset and limit.
 * @throws TypeError when the result is no list, or a reply holds more items than the limit.
 */
export function pageOf(cmd: Command, result: unknown, req: PageRequest): Paged {
  if (!Array.isArray(result))
    throw new TypeError(
      `${cmd.commandPath()} pages its answer (output.paging): run must return the list, or ctx.page.reply(items, {next, total})`,
    );
  const reply = pageReplyOf(result);
  if (reply) {
    if (result.length > req.limit)
      throw new TypeError(
        `${cmd.commandPath()}: ctx.page.reply got ${result.length} items for a limit of ${req.limit}`,
      );
    const next = typeof reply.next === 'string' ? encodeCursor(cmd, { h: reply.next }) : null;
    return {
      items: result,
      pagination: {
        ...(reply.total !== undefined ? { total: reply.total } : {}),
        returned: result.length,
        truncated: next !== null || req.cursor !== undefined,
        has_more: next !== null,
        next_cursor: next,
      },
    };
  }
  const end = req.offset + req.limit;
  const items = result.slice(req.offset, end);
  const more = end < result.length;
  return {
    items,
    pagination: {
      total: result.length,
      returned: items.length,
      truncated: more || req.offset > 0,
      has_more: more,
      next_cursor: more ? encodeCursor(cmd, { o: end }) : null,
    },
  };
}

/**
 * The step that fetches the next page, in the caller's words: its own command line with `--cursor
 * <c>` (an earlier `--cursor` and `--idempotency-key` dropped: the next page is another call), the
 * `--args-json` object or MCP tool arguments with `cursor`. Tool names relative to `base`; an MCP
 * call through `via`.
 */
export function nextPageStep(
  inv: Invocation,
  program: string,
  cursor: string,
  base?: Command,
  via?: ToolVia,
): NextStep | undefined {
  const dropped = ['cursor', 'idempotency-key'];
  const drop = (o: Record<string, unknown> | undefined) =>
    o && Object.fromEntries(Object.entries(o).filter(([k]) => !dropped.map(propertyName).includes(k)));
  const bare: Invocation = {
    ...inv,
    argv: inv.argv && !inv.argsJson ? withoutFlags(inv, dropped) : inv.argv,
    argsJson: drop(inv.argsJson),
    arguments: drop(inv.arguments),
  };
  return retryStep(bare, program, { cursor }, [], 'the next page', base, via);
}

/**
 * `inv.argv` without the words of the flags `names`, as the parse read them ({@link flagWordsOf}): a
 * word that is another flag's value (`--tag --cursor=x`) stays, with its flag.
 */
function withoutFlags(inv: Invocation, names: readonly string[]): string[] {
  const gone = new Set<number>();
  for (const f of flagWordsOf(inv))
    if (f.names.length > 0 && f.names.every((n) => names.includes(n))) for (let i = f.from; i <= f.to; i++) gone.add(i);
  return inv.argv!.filter((_, i) => !gone.has(i));
}

/** The footer a human-mode answer ends with on stderr when the list goes on: where the next page is. */
export function pageFooter(p: Pagination, step: NextStep | undefined): string {
  if (!p.has_more) return '';
  const of = p.total !== undefined ? ` of ${p.total}` : '';
  const next = step?.argv ? step.argv.map(shellWord).join(' ') : `--cursor ${p.next_cursor}`;
  return `Showing ${p.returned}${of} items; next page: ${next}\n`;
}
