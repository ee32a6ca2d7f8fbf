/**
 * The `ax-ts` tool's own commands (everything but `ax-ts wrap`): ax-ts's runtime and the tool's
 * command tree, loaded by cmd/ax-ts/main.ts only when the first word is not `wrap`, so that a
 * person's invocation through `ax-ts wrap` loads none of it (docs/frontends.md#ax-ts-wrap).
 */
import { main } from '../../lib/index.ts';
import { buildAxTsCli } from './cli.ts';

/** Runs the tool's command line (`process.argv`), as `main()` does for any ax-ts program. */
export function runTool(): void {
  void main(buildAxTsCli());
}
