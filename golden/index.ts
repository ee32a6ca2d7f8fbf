/**
 * `ax-ts/golden`: pin a CLI's machine contract (its `__schema`, envelopes and error lines) in golden
 * files, in a few lines of any test framework.
 *
 * ```ts
 * import { goldenRun, expectGolden, maskVolatile, transcript, prettyJson } from 'ax-ts/golden';
 *
 * const r = await goldenRun(buildCli(), ['show', '1'], { version: '1.0.0' });
 * expectGolden('show-1', maskVolatile(transcript(r)), { dir: 'test/golden' });
 * ```
 *
 * Golden files are compared byte for byte. They are written only when the environment variable
 * `AX_GOLDEN_UPDATE` is exactly `1` (e.g. `npm run golden:update`); a missing golden file is a
 * failure, never created silently. Nothing here imports a test framework: a mismatch throws an
 * `Error` whose message carries a readable diff.
 */
export * from './run.ts';
export * from './text.ts';
export * from './compare.ts';
export * from './timestamps.ts';
