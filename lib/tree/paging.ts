/**
 * `output.paging`: a command whose answer is a list says how long a page is, and ax-ts gives it
 * `--limit` and `--cursor` (MCP properties `limit`, `cursor`), bounds every answer and says so in
 * `meta.pagination` (docs/contract.md#paging---limit---cursor). This module holds the declaration,
 * its checks and the two injected flags; the run side is lib/run/paging.ts.
 */
import type { FlagSpec } from './flags.ts';

/** The page size a paged command gets when it declares none. */
export const DEFAULT_PAGE_LIMIT = 50;

/** The names of the flags paging injects (and of their MCP properties). */
export const PAGING_FLAGS = ['limit', 'cursor'] as const;

/**
 * How a command pages its list (`output.paging`; `true` takes every default). The handler either
 * returns the whole list, which ax-ts slices, or one page through `ctx.page.reply`.
 */
export interface PagingDecl {
  /** Items per page when the caller gives no `--limit` (default {@link DEFAULT_PAGE_LIMIT}). */
  defaultLimit?: number;
  /** The largest `--limit` a caller may ask for (default: no bound besides 2^31-1). */
  maxLimit?: number;
}

/** A paged command's settings with the defaults filled in. */
export interface PagingSettings {
  defaultLimit: number;
  maxLimit: number;
}

/** The largest limit when none is declared (int32, what every client's integer fits). */
export const NO_MAX_LIMIT = 2 ** 31 - 1;

const settingsMemo = new WeakMap<object, PagingSettings>();

/** The paging settings of an output declaration, or undefined when it does not page. */
export function pagingSettings(output: { paging?: PagingDecl | boolean } | undefined): PagingSettings | undefined {
  const p = output?.paging;
  if (p === undefined || p === false) return undefined;
  if (p === true) return { defaultLimit: DEFAULT_PAGE_LIMIT, maxLimit: NO_MAX_LIMIT };
  let s = settingsMemo.get(p);
  if (!s) {
    const maxLimit = p.maxLimit ?? NO_MAX_LIMIT;
    s = { defaultLimit: p.defaultLimit ?? Math.min(DEFAULT_PAGE_LIMIT, maxLimit), maxLimit };
    settingsMemo.set(p, s);
  }
  return s;
}

const isCount = (v: unknown): v is number =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 && v <= NO_MAX_LIMIT;

/**
 * Checks a command's `output.paging` against the rest of its declaration (`flagNames`: its own
 * local and persistent flags; `argNames`: its positionals).
 * @throws TypeError naming the command: a paging that is not `true` or `{defaultLimit?, maxLimit?}`
 *   of whole numbers ≥ 1 (default ≤ max); paging on a stream or opaque output, or with an output
 *   schema that is not a list (`type: 'array'`); a flag or positional of its own named `limit` or
 *   `cursor` (paging injects those: rename it, or drop `output.paging`).
 */
export function checkPagingDecl(
  name: string,
  output: Record<string, unknown> | undefined,
  flagNames: readonly string[],
  argNames: readonly string[],
): void {
  const p = output?.paging;
  if (p === undefined || p === false) return;
  const where = `Command ${name}: output.paging`;
  if (p !== true) {
    if (p === null || typeof p !== 'object' || Array.isArray(p))
      throw new TypeError(`${where} must be true or {defaultLimit?, maxLimit?}`);
    for (const k of Object.keys(p))
      if (k !== 'defaultLimit' && k !== 'maxLimit')
        throw new TypeError(`${where} has no option ${JSON.stringify(k)} (it has defaultLimit and maxLimit)`);
    const { defaultLimit, maxLimit } = p as PagingDecl;
    if (defaultLimit !== undefined && !isCount(defaultLimit))
      throw new TypeError(`${where}.defaultLimit must be a whole number ≥ 1`);
    if (maxLimit !== undefined && !isCount(maxLimit))
      throw new TypeError(`${where}.maxLimit must be a whole number ≥ 1`);
    if (defaultLimit !== undefined && maxLimit !== undefined && defaultLimit > maxLimit)
      throw new TypeError(`${where}.defaultLimit (${defaultLimit}) is above maxLimit (${maxLimit})`);
  }
  if (output!.kind === 'stream' || output!.kind === 'opaque')
    throw new TypeError(
      `${where} pages a list answered at once: an output of kind ${output!.kind as string} cannot be paged`,
    );
  const schema = output!.schema as Record<string, unknown> | undefined;
  if (schema && schema.type !== 'array')
    throw new TypeError(`${where}: output.schema must describe the list (type: 'array'), of which a page is a slice`);
  for (const n of PAGING_FLAGS) {
    if (flagNames.includes(n)) throw pagingClash(name, `a flag --${n} of its own`);
    if (argNames.includes(n)) throw pagingClash(name, `a positional named ${n}`);
  }
}

/**
 * The declaration error of a paged command that has a flag or positional named `limit` or `cursor`
 * (its own, or a persistent flag it inherits).
 */
export function pagingClash(name: string, what: string): TypeError {
  return new TypeError(
    `Command ${name}: output.paging injects --limit and --cursor, and the command has ${what}; ` +
      `rename it, or drop output.paging and page with your own flags (output.pagination describes them)`,
  );
}

const specMemo = new WeakMap<PagingSettings, { limit: FlagSpec; cursor: FlagSpec }>();

/** The injected `--limit` and `--cursor` of a command paged with `settings`. */
export function pagingFlagSpecs(settings: PagingSettings): { limit: FlagSpec; cursor: FlagSpec } {
  let specs = specMemo.get(settings);
  if (!specs) {
    const range = settings.maxLimit === NO_MAX_LIMIT ? 'at least 1' : `1 to ${settings.maxLimit}`;
    specs = {
      limit: {
        type: 'int',
        default: settings.defaultLimit,
        usage: `items per page (${range})`,
      },
      cursor: {
        type: 'string',
        usage: 'where the page starts: meta.pagination.next_cursor of the page before (opaque)',
      },
    };
    specMemo.set(settings, specs);
  }
  return specs;
}

/** What a handler that pages itself returns besides the page's items (`ctx.page.reply`). */
export interface PageReply {
  /**
   * The handler's own cursor of the next page (ax-ts wraps it). On the last page: absent, or `null`
   * or `''`, as the APIs a handler pages through usually say it (GitHub, Slack).
   */
  next?: string | null;
  /** How many items the whole list has, when known. */
  total?: number;
}

/** The page a caller asked for, as `ctx.page` gives it to a paged command's handler. */
export interface PageRequest {
  /** Items on this page: the caller's `--limit`, else the command's default. */
  readonly limit: number;
  /**
   * Where the page starts in the whole list, when ax-ts slices it (0 on the first page). A handler
   * that returns the whole list can ignore it.
   */
  readonly offset: number;
  /**
   * The handler's own cursor it gave with the page before (`reply(items, {next})`); undefined on the
   * first page and when ax-ts slices.
   */
  readonly cursor?: string;
  /**
   * One page, from a handler that pages itself: returns `items` (type unchanged, so a typed `run`
   * still checks) marked so that ax-ts takes them as the page instead of slicing them.
   * @throws TypeError when `items` is not an array or the reply is malformed.
   */
  reply<T>(items: T[], more?: PageReply): T[];
}

const replies = new WeakMap<object, PageReply>();

/** Marks `items` as one page (the work of {@link PageRequest.reply}). */
export function markPage<T>(items: T[], more: PageReply | undefined): T[] {
  if (!Array.isArray(items)) throw new TypeError('ctx.page.reply: items must be an array (the page)');
  const r = more ?? {};
  if (r === null || typeof r !== 'object') throw new TypeError('ctx.page.reply: pass {next?, total?}');
  // null and '' are how paged APIs say "no next page": the last page, as when next is left out
  const next = r.next === null || r.next === '' ? undefined : r.next;
  if (next !== undefined && typeof next !== 'string')
    throw new TypeError(
      'ctx.page.reply: next must be a string (your cursor of the next page), or null on the last page',
    );
  if (r.total !== undefined && !(Number.isSafeInteger(r.total) && r.total >= 0))
    throw new TypeError('ctx.page.reply: total must be a whole number ≥ 0');
  replies.set(items, {
    ...(next !== undefined ? { next } : {}),
    ...(r.total !== undefined ? { total: r.total } : {}),
  });
  return items;
}

/** The reply marked on a handler's result by {@link markPage}, if it paged itself. */
export function pageReplyOf(result: unknown): PageReply | undefined {
  return result !== null && typeof result === 'object' ? replies.get(result) : undefined;
}
