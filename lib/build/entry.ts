/**
 * The first code of every program `ax-ts build` makes: compiled by the build into the program's
 * small entry file (`<name>.js`), after one line with the build's facts (`const AX_BUILD = {…};`,
 * facts.ts). In order, it
 * 1. turns into the hand-back helper of serving in place, when its parent started it as one
 *    (hand-back.ts: `AX_MCP_HAND_BACK=1` together with an IPC channel);
 * 2. answers a bare `--version` / `--help` from the answers precomputed at build time, and a bare
 *    `__schema [--as=X]` from the schema manifest, while the build they came from is unchanged
 *    (answers.ts);
 * 3. serves a bare `mcp-server` over pipes in place (in-place.ts);
 * 4. runs the bundle through the V8 code cache (run-bundle.ts, code-cache.ts).
 * On a Node below the runtime floor (node-floor.ts) it only runs the bundle, which refuses that Node.
 * None of them changes a byte of output or the exit code (docs/shipping.md).
 */
import { precomputed } from './answers.ts';
import type { BuildFacts } from './facts.ts';
import { handBack, isHandBackHelper } from './hand-back.ts';
import { serveInPlace } from './in-place.ts';
import { runBundle } from './run-bundle.ts';
import { belowNodeFloor } from '../platform/node-floor.ts';
import { join } from 'node:path';

declare const AX_BUILD: BuildFacts;

if (isHandBackHelper()) handBack();
// below the runtime floor nothing is answered ahead (the code cache needs a newer Node): the
// bundle runs as Node loads it, and its run refuses this Node with one error line, exit 1
// (the entry is CommonJS: its bundle is required as the code cache would run it)
// eslint-disable-next-line @typescript-eslint/no-require-imports
else if (belowNodeFloor()) require(join(__dirname, AX_BUILD.main));
else if (!precomputed(AX_BUILD, __dirname, process.argv.slice(2))) {
  serveInPlace(AX_BUILD.mcp);
  runBundle(AX_BUILD, __dirname, require, module.paths);
}
