/**
 * The two suites (docs/architecture.md#tests). `npm test` runs every file but those below, which
 * only `npm run test:all` (AX_TEST_FULL=1, what `.ci/run` calls) adds: they are the long ones —
 * peers' suites, real infrastructure, installs of whole projects, stress loops. The cross-runtime
 * suite is `npm run test:runtimes` (AX_TEST_RUNTIMES=1), the last step of `test:all`.
 */
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/** Files only the full run has, with why they are long. */
const FULL_ONLY = [
  'test/e2e/conformance.test.ts', // the MCP conformance suites of both eras, every path (~5 min)
  'test/e2e/cluster.test.ts', // three replicas behind nginx sharing redis-server (.ci/run starts them)
  'test/e2e/inspector.test.ts', // the MCP Inspector's CLI, one process per call
  'test/e2e/killloop.test.ts', // signals sent in a loop at every phase of a run
  'test/e2e/contract-races.test.ts', // concurrent replays and cancellations, repeated
  'test/build/recipes.test.ts', // docs/shipping.md's recipes with pnpm, Yarn 4 and postject
];
const RUNTIMES = 'test/build/runtimes.test.ts';

const full = process.env.AX_TEST_FULL === '1';
const runtimes = process.env.AX_TEST_RUNTIMES === '1';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: runtimes ? [RUNTIMES] : ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(runtimes ? [] : [RUNTIMES]), ...(full || runtimes ? [] : FULL_ONLY)],
    testTimeout: runtimes ? 300_000 : 60_000,
    hookTimeout: runtimes ? 900_000 : 60_000,
  },
});
