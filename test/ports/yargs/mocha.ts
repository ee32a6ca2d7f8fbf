/**
 * mocha's globals (describe, it, before, after, beforeEach, afterEach) on vitest, for the copied
 * yargs tests: a `done` callback becomes a promise, `this.timeout()` and `this.skip()` work, and
 * each test's name reaches the harness. Installed by suite.test.ts before the copied files load.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, it } from 'vitest';

type Fn = (this: unknown, done?: (err?: unknown) => void) => unknown;

/** Runs a mocha function: with a `done` parameter as a promise, else as it returns. */
function asPromise(fn: Fn, ctx: object): Promise<unknown> {
  if (fn.length === 0) return Promise.resolve(fn.call(ctx));
  return new Promise((resolve, reject) => {
    try {
      fn.call(ctx, (err?: unknown) => (err ? reject(err) : resolve(undefined)));
    } catch (e) {
      reject(e);
    }
  });
}

/**
 * Installs the globals; `starts` is told each test's name (its describe path) before it runs,
 * `finished` is awaited after it; a test whose name ends with a key of `skipped` is skipped (the
 * value says why).
 */
export function installMocha(
  starts: (name: string) => void,
  finished: () => Promise<void>,
  skipped: ReadonlyMap<string, string>,
): void {
  const path: string[] = [];
  const g = globalThis as Record<string, unknown>;
  const ctx = { timeout: () => ctx, skip: () => undefined, slow: () => ctx, retries: () => ctx };
  const suite = (name: string, fn: () => void) =>
    describe(name, () => {
      path.push(name);
      try {
        fn.call(ctx);
      } finally {
        path.pop();
      }
    });
  g.describe = Object.assign(suite, { skip: describe.skip, only: describe.only });
  const test = (name: string, fn?: Fn) => {
    const full = [...path, name].join(' > ');
    if (!fn) return it.todo(name);
    if ([...skipped.keys()].some((k) => full.endsWith(k))) return it.skip(name);
    return it(name, async () => {
      starts(full);
      try {
        await asPromise(fn, ctx);
      } finally {
        await finished();
      }
    });
  };
  g.it = Object.assign(test, { skip: (name: string) => it.skip(name), only: test });
  g.before = (fn: Fn) => beforeAll(() => asPromise(fn, ctx));
  g.after = (fn: Fn) => afterAll(() => asPromise(fn, ctx));
  g.beforeEach = (fn: Fn) => beforeEach(() => asPromise(fn, ctx));
  g.afterEach = (fn: Fn) => afterEach(() => asPromise(fn, ctx));
}
