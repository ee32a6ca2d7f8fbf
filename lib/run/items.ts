/**
 * `ctx.eachItem` (docs/contract.md#per-item-results-ctxeachitem): a variadic command's work done item
 * by item, each outcome kept — the data of those that succeeded, the error of those that failed (its
 * kind, message, `retryable` and fix) — so a failure half-way says exactly what was done. Every item
 * succeeded: the results are the handler's data. Some failed: the run's error is `partial_failure`
 * (exit 23) with the results in its context. A stop (`--timeout`, an interrupt) before the end
 * reports the results so far in its context ({@link withItemResults}).
 */
import { AxError, toAxError } from '../contract/errors.ts';
import type { ItemResults } from '../tree/run-context.ts';
import { withContext } from './failures.ts';

/** A failed item's error: the error line's own fields (docs/contract.md#errors). */
interface ItemError {
  kind: string;
  message: string;
  retryable: boolean;
  actionable_fix?: string;
}

/** One item's outcome in `context.results`. */
type ItemOutcome<T, R> = { item: T; ok: true; data: R } | { item: T; ok: false; error: ItemError };

/** Runs `work` on each item in turn; see RunContext.eachItem. */
export async function eachItem<T, R>(
  items: readonly T[],
  work: (item: T, index: number) => R | Promise<R>,
  signal: AbortSignal,
  started: (results: readonly ItemOutcome<T, R>[]) => void = () => {},
): Promise<ItemResults<T, R>> {
  if (!Array.isArray(items)) throw new TypeError('ctx.eachItem: items must be an array (e.g. ctx.args.ids)');
  if (typeof work !== 'function') throw new TypeError('ctx.eachItem: work must be a function');
  const results: ItemOutcome<T, R>[] = [];
  started(results); // the run reads them, as they grow, when it stops before the end
  for (const [i, item] of items.entries()) {
    signal.throwIfAborted();
    try {
      const data = await work(item, i);
      results.push({ item, ok: true, data: data === undefined ? (null as R) : data });
    } catch (e) {
      // an interrupt is the run's, not the item's
      if (signal.aborted) throw e;
      const err = toAxError(e);
      const error: ItemError = { kind: err.kind, message: err.message, retryable: err.retryable };
      if (err.fix !== undefined) error.actionable_fix = err.fix;
      results.push({ item, ok: false, error });
    }
  }
  const failed = results.filter((r) => !r.ok).length;
  if (failed === 0) return { results: results as ItemResults<T, R>['results'] };
  const succeeded = results.length - failed;
  const named = results.filter((r) => !r.ok).map((r) => (typeof r.item === 'string' ? r.item : JSON.stringify(r.item)));
  const which = named.length <= 5 ? named.join(', ') : `${named.slice(0, 5).join(', ')}, …`;
  throw new AxError(
    'partial_failure',
    `${failed} of ${results.length} items failed (${which})` + (succeeded ? `; ${succeeded} succeeded` : ''),
    {
      context: { results, succeeded, failed },
      fix:
        'Read context.results: retry only the items with ok false, after fixing what their error says; ' +
        'the others are done.',
    },
  );
}

/**
 * A stop of the run (`timeout`, `interrupted`) with the per-item results done before it in
 * `context.results` (the shape of the success answer's `results`), when the handler ran
 * `ctx.eachItem`: the items done are done, and the caller retries only the others.
 */
export function withItemResults(err: AxError, results: readonly unknown[] | undefined): AxError {
  if (!results || (err.kind !== 'timeout' && err.kind !== 'interrupted') || err.context?.results !== undefined)
    return err;
  return withContext(err, { results: [...results] });
}

/**
 * A stop's fix, when items were done before it: a retry runs every item again (a stop is not
 * replayed), so the fix first says which are done. Applied last, over the stop's own fix.
 */
export function withDoneItemsFix(err: AxError): AxError {
  const results = err.context?.results;
  if ((err.kind !== 'timeout' && err.kind !== 'interrupted') || !Array.isArray(results)) return err;
  if (!results.some((r) => (r as { ok?: unknown } | null)?.ok === true)) return err;
  const done = 'The items in context.results with ok: true are done: retry with the others only.';
  return withContext(err, {}, err.fix ? `${done} ${err.fix}` : done);
}
