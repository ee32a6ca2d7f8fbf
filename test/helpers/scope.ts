/**
 * Which suite runs: the README's `npm test` (unit, contract and golden tests, one protocol era per
 * MCP path) or `npm run test:all` (`AX_TEST_FULL=1`: every era on every path, conformance, the
 * cluster, the shipping recipes and the stress files). docs/architecture.md#tests says which file is
 * where; test/vitest.config.ts holds the list of files only the full run has.
 */

/** True under `npm run test:all` (and `.ci/run`). */
export const FULL = process.env.AX_TEST_FULL === '1';
