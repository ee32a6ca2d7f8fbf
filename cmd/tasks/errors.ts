/**
 * Error kinds of the `tasks` demo CLI (declared with defineError, so `__schema` lists them) and the
 * mapping of the store's StoreError onto them. Exit codes 5–9 are the tool's own range: 0–4 and 130
 * are the framework's fixed table.
 */
import { AxError, defineError } from '../../lib/index.ts';
import { StoreError } from './store.ts';

/** A task id that is not in the store. Exit 5. */
export const notFound = defineError({
  kind: 'not_found',
  exitCode: 5,
  description: 'No task has the given id (it never existed or was deleted). Nothing was changed.',
});

/** The store file exists but is not a valid tasks store. Exit 7. */
export const storeCorrupt = defineError({
  kind: 'store_corrupt',
  exitCode: 7,
  description: 'The task store file is not valid JSON or not a tasks store; it was left untouched.',
});

/** Another process held the store lock for too long. Exit 8, retryable. */
export const storeLocked = defineError({
  kind: 'store_locked',
  exitCode: 8,
  description: 'Another tasks process held the store lock for too long; retrying later may succeed.',
  retryable: true,
});

/** Any other store failure (I/O, permissions, no place for the store). Exit 9. */
export const storeError = defineError({
  kind: 'store_error',
  exitCode: 9,
  description: 'The task store could not be read or written (permissions, disk, no HOME); see context.path.',
});

/** Turns a StoreError into the matching AxError; anything else is returned unchanged. */
export function fromStoreError(e: unknown): unknown {
  if (!(e instanceof StoreError)) return e;
  const options = { fix: e.fix, cause: e, context: { path: e.path, reason: e.code } };
  switch (e.code) {
    case 'store_corrupt':
      return storeCorrupt(e.message, options);
    case 'store_locked':
      return storeLocked(e.message, { ...options, retryAfterSeconds: 1 });
    case 'store_io':
    case 'store_path_unknown':
      return storeError(e.message, options);
  }
}

/**
 * Runs a store operation, mapping StoreError to the tool's error kinds: a synchronous one
 * ({@link readStore}) returns its value or throws; an asynchronous one (`updateStore`) returns a
 * promise that rejects with the mapped error.
 */
export function withStore<T>(op: () => T): T {
  try {
    const r = op();
    return (r instanceof Promise ? r.catch((e: unknown) => Promise.reject(fromStoreError(e))) : r) as T;
  } catch (e) {
    throw fromStoreError(e);
  }
}

/** A `validation_error` about one flag or argument value (context.reason `invalid_flag_value`/`invalid_argument`). */
export function invalidValue(message: string, fix: string, context: Record<string, unknown>): AxError {
  return new AxError('validation_error', message, { fix, context });
}
