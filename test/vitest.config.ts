/**
 * The parts of the suite (docs/architecture.md#tests, test/helpers/scope.ts). `npm test` runs every
 * file but the long ones below; `npm run test:rest` runs the long ones and, again, every file with a
 * table over MCP paths and eras (`PATHS_BY_ERAS`), for the cells `npm test` leaves out. The two make
 * `npm run test:all`, what `.ci/run` calls; `test:rest` also runs the cross-runtime suite, beside its
 * other files (alone: `npm run test:runtimes`, `AX_TEST_RUNTIMES=1`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { LongestFirst } from './sequencer.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Files only the full run has, with why they are long. A file with a table over paths and eras
 * (`PATHS_BY_ERAS`) cannot be one: `npm test` runs one era of it and `test:rest` the other.
 */
const LONG = [
  'test/e2e/conformance.test.ts', // the MCP conformance suites of both eras, every path (~5 min)
  'test/e2e/cluster.test.ts', // three replicas behind nginx sharing redis-server (.ci/run starts them)
  'test/e2e/inspector.test.ts', // the MCP Inspector's CLI, one process per call
  'test/e2e/killloop.test.ts', // signals sent in a loop at every phase of a run
  'test/e2e/contract-races.test.ts', // concurrent replays and cancellations, repeated
  'test/build/recipes.test.ts', // docs/shipping.md's recipes with pnpm, Yarn 4 and postject
  'test/corpus/corpus.test.ts', // real npm CLIs through ax-ts wrap, each check a process (npm ci --prefix test/corpus)
  'test/frontends/child-calls.test.ts', // front-end calls as processes: 8 in flight, stuck ones killed (~90 s)
  'test/build/user-project.test.ts', // npm pack installed into a fresh project, built and run (~70 s)
  'test/e2e/contract-twins.test.ts', // the contract table over commander and yargs twins, a process per MCP call (~110 s)
  'test/e2e/args-json-parity.test.ts', // every command twice, as flags and as --args-json (~50 s)
  'test/store/records.test.ts', // every output kind recorded and replayed in every store (~45 s)
  'test/mcp/stdio-in-place.test.ts', // built programs serving stdio in place, each a process (~40 s)
  'test/run/main-fd.test.ts', // fd output under slow and closed readers (~40 s)
  'test/mcp/print-config-types.test.ts', // the printed command started for every flag kind (~35 s)
  'test/mcp/http-held.test.ts', // connections held at the cap (~27 s)
  // the front ends' end-to-end files: each front-end call over MCP is a process of the program
  // (commander.test.ts, and the files with tables over paths and eras, stay in npm test)
  'test/frontends/yargs.test.ts', // a yargs program plain and wrapped, every builder (~24 s)
  'test/frontends/queue-timeout.test.ts', // the in-process mode's queue under --timeout (~14 s)
  'test/frontends/commander-imports.test.ts', // module loads of plain, json-mode and served runs (~11 s)
  // shipping: each builds a bundle with esbuild, then runs it as processes
  'test/build/top-level-await.test.ts', // a front-end entry with top-level await, built two ways (~22 s)
  'test/build/bundle-lazy.test.ts', // the built demo's chunk loads per run shape (~21 s)
  'test/build/bundle-shared-state.test.ts', // caches across a bundle's copies of lib (~15 s)
  'test/build/optional-peers.test.ts', // npm pack installed without the optional peers (~14 s)
  'test/completion/shells.test.ts', // the completion scripts sourced in real bash, zsh and fish (~17 s)
  'test/cmd/clispec-scorer.test.ts', // the clispec scorer's checks against the demo, a process each (~18 s)
  'test/mcp/children-tree.test.ts', // process trees below a handler stopped, the reaper by SIGKILL (~27 s)
  // more end-to-end files of processes, so that npm test stays near its 10 minutes on 2 cores
  // (their figures: the clean-clone run's npm test of 2026-12-07, 655 s with them)
  'test/frontends/commander.test.ts', // the commander fixture plain, with the front end and served (~75 s)
  'test/frontends/wrap.test.ts', // ax-ts wrap over small programs, a process per check (~46 s)
  'test/frontends/catch-parse.test.ts', // programs that catch their own parse(), both libraries (~33 s)
  'test/frontends/call-cap.test.ts', // AX_MCP_MAX_CALLS with calls held in flight (~21 s)
  'test/mcp/stdio-switches.test.ts', // a stdio server's processes switched by flags (~49 s)
  'test/store/trust.test.ts', // state directories another user could change, a process each (~43 s)
  'test/mcp/install.test.ts', // --install and mcp install into each client's real file shapes (~40 s)
  'test/mcp/print-config.test.ts', // the printed client command started and called (~23 s)
  'test/observe/trace.test.ts', // trace context across processes and servers (~25 s)
  'test/mcp/http-perimeter.test.ts', // the HTTP server under a hostile local user (~25 s)
  'test/mcp/http-lifecycle.test.ts', // the HTTP server's start and shutdown by signals (~21 s)
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

const tables = eraTables();
const bothParts = LONG.filter((f) => tables.includes(f));
if (bothParts.length)
  throw new Error(`a long file cannot hold a table over eras (its cells are split): ${bothParts.join(', ')}`);

const scope = process.env.AX_TEST_SCOPE ?? 'quick';
const runtimes = process.env.AX_TEST_RUNTIMES === '1';

function include(): string[] {
  if (runtimes) return [RUNTIMES];
  // the cross-runtime suite runs beside the rest (70 s of other runtimes' processes), not after it
  if (scope === 'rest') return [...LONG, ...tables, RUNTIMES];
  return ['test/**/*.test.ts'];
}

export default defineConfig({
  root,
  test: {
    include: include(),
    exclude: [
      ...configDefaults.exclude,
      ...(runtimes || scope === 'rest' || scope === 'all' ? [] : [RUNTIMES]),
      ...(scope === 'quick' && !runtimes ? LONG : []),
    ],
    // most tests wait on the processes they start: three files at once even on 2 cores (vitest's
    // default there is one): on 2 cores npm test's files took 12.2 minutes with one, 9.0 with two
    // (an earlier suite), and with three 501 s against two's 631 s (this suite, the same results)
    maxWorkers: Math.max(3, availableParallelism() + 1),
    // the longest files first (figures: test/durations.json), so that no long file starts last
    sequence: { sequencer: LongestFirst },
    // the agent running the suite (if any) leaves no mark on what the tests see
    setupFiles: ['test/helpers/clean-env.ts'],
    testTimeout: runtimes ? 300_000 : 60_000,
    hookTimeout: runtimes ? 900_000 : 60_000,
  },
});
