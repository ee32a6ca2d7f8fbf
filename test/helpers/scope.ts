/**
 * Which part of the suite runs (docs/architecture.md#tests), from `AX_TEST_SCOPE`:
 * - `quick` (the default, the README's `npm test`): every file but the long ones, each table over MCP
 *   paths and eras on one era per path;
 * - `rest` (`npm run test:rest`): what `quick` leaves out — the long files, and the other era of each
 *   path in the tables — so `npm test` then `npm run test:rest` is the whole suite, as
 *   `npm run test:all` (what `.ci/run` calls) runs it;
 * - `all`: everything in one run.
 * test/vitest.config.ts holds the list of long files.
 */

/** The part of the suite this run is. */
export type Scope = 'quick' | 'rest' | 'all';

function scopeOf(value: string | undefined): Scope {
  if (value === undefined || value === '' || value === 'quick') return 'quick';
  if (value === 'rest' || value === 'all') return value;
  throw new Error(`AX_TEST_SCOPE must be quick, rest or all, not ${JSON.stringify(value)}`);
}

/** This run's scope. */
export const SCOPE: Scope = scopeOf(process.env.AX_TEST_SCOPE);
