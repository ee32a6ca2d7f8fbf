/**
 * `ctx.eachItem` (docs/contract.md#per-item-results-ctxeachitem): a variadic command's work done item
 * by item, each outcome kept — the data of those that succeeded, the error kind and message of those
 * that failed — so a failure half-way says exactly what was done. Every item succeeded: the results
 * are the handler's data. Some failed: the run's error is `partial_failure` (exit 23) with the
 * results in its context.
 */
import { AxError, toAxError } from '../contract/errors.ts';
import type { ItemResults } from '../tree/run-context.ts';

/** One item's outcome in `context.results`. */
type ItemOutcome<T, R> =
  { item: T; ok: true; data: R } | { item: T; ok: false; error: { kind: string; message: string } };

/** Runs `work` on each item in turn; see RunContext.eachItem. */
export async function eachItem<T, R>(
  items: readonly T[],
  work: (item: T, index: number) => R | Promise<R>,
  signal: AbortSignal,
): Promise<ItemResults<T, R>> {
  if (!Array.isArray(items)) throw new TypeError('ctx.eachItem: items must be an array (e.g. ctx.args.ids)');
  if (typeof work !== 'function') throw new TypeError('ctx.eachItem: work must be a function');
  const results: ItemOutcome<T, R>[] = [];
  for (const [i, item] of items.entries()) {
    signal.throwIfAborted();
    try {
      const data = await work(item, i);
      results.push({ item, ok: true, data: data === undefined ? (null as R) : data });
    } catch (e) {
      // an interrupt is the run's, not the item's
      if (signal.aborted) throw e;
      const err = toAxError(e);
      results.push({ item, ok: false, error: { kind: err.kind, message: err.message } });
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
