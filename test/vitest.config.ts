/**
 * The parts of the suite (docs/architecture.md#tests, test/helpers/scope.ts). `npm test` runs every
 * file but the long ones below; `npm run test:rest` runs the long ones and, again, every file with a
 * table over MCP paths and eras (`PATHS_BY_ERAS`), for the cells `npm test` leaves out. The two make
 * `npm run test:all`, what `.ci/run` calls, with the cross-runtime suite (`AX_TEST_RUNTIMES=1`) last.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Files only the full run has, with why they are long. */
const LONG = [
  'test/e2e/conformance.test.ts', // the MCP conformance suites of both eras, every path (~5 min)
  'test/e2e/cluster.test.ts', // three replicas behind nginx sharing redis-server (.ci/run starts them)
  'test/e2e/inspector.test.ts', // the MCP Inspector's CLI, one process per call
  'test/e2e/killloop.test.ts', // signals sent in a loop at every phase of a run
  'test/e2e/contract-races.test.ts', // concurrent replays and cancellations, repeated
  'test/build/recipes.test.ts', // docs/shipping.md's recipes with pnpm, Yarn 4 and postject
  'test/frontends/child-calls.test.ts', // front-end calls as processes: 8 in flight, stuck ones killed (~90 s)
  'test/build/user-project.test.ts', // npm pack installed into a fresh project, built and run (~70 s)
  'test/e2e/args-json-parity.test.ts', // every command twice, as flags and as --args-json (~50 s)
  'test/store/records.test.ts', // every output kind recorded and replayed in every store (~45 s)
  'test/mcp/stdio-in-place.test.ts', // built programs serving stdio in place, each a process (~40 s)
  'test/run/main-fd.test.ts', // fd output under slow and closed readers (~40 s)
  'test/mcp/print-config-types.test.ts', // the printed command started for every flag kind (~35 s)
  'test/mcp/http-held.test.ts', // connections held at the cap (~27 s)
];
const RUNTIMES = 'test/build/runtimes.test.ts';

/** Every test file whose tables run over `PATHS_BY_ERAS` (test/helpers/eras.ts). */
function eraTables(dir = join(root, 'test')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name.startsWith('.') || e.name === 'node_modules' ? [] : eraTables(path);
    return e.name.endsWith('.test.ts') && readFileSync(path, 'utf8').includes('PATHS_BY_ERAS')
      ? [relative(root, path)]
      : [];
  });
}

const scope = process.env.AX_TEST_SCOPE ?? 'quick';
const runtimes = process.env.AX_TEST_RUNTIMES === '1';

function include(): string[] {
  if (runtimes) return [RUNTIMES];
  if (scope === 'rest') return [...LONG, ...eraTables()];
  return ['test/**/*.test.ts'];
}

export default defineConfig({
  root,
  test: {
    include: include(),
    exclude: [
      ...configDefaults.exclude,
      ...(runtimes ? [] : [RUNTIMES]),
      ...(scope === 'quick' && !runtimes ? LONG : []),
    ],
    // most tests wait on the processes they start: two files at once even on 2 cores (vitest's
    // default there is one), 9.0 instead of 12.2 minutes for npm test's files, the same results
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // the agent running the suite (if any) leaves no mark on what the tests see
    setupFiles: ['test/helpers/clean-env.ts'],
    testTimeout: runtimes ? 300_000 : 60_000,
    hookTimeout: runtimes ? 900_000 : 60_000,
  },
});
