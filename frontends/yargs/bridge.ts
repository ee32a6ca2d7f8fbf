/**
 * The yargs front end's heavy half, loaded only when a call asks for ax-ts (`__schema`,
 * `mcp-server`, `__complete`, `--format`, `--args-json`, `AGENT_MODE=json`): the program's native
 * twin, run as ax-ts's `main` by the bridge every front end shares.
 */
import { runTwinMain } from '../shared/bridge.ts';
import type { WithAxOptions } from './declare.ts';
import { internalsOf, programName, rootCommands, type YargsProgram } from './internals.ts';
import { twinTree } from './twin.ts';

/**
 * Runs one invocation of a yargs program through ax-ts. `args` are the user's words (after the
 * program name). @returns the exit code (also set on `process.exitCode`).
 */
export function runAx(
  factory: (args: string[]) => YargsProgram,
  options: WithAxOptions,
  args: readonly string[],
  env: Record<string, string | undefined>,
): Promise<number> {
  const root = internalsOf(factory([...args]));
  return runTwinMain(
    {
      name: programName(root.$0),
      build: (serving) => twinTree(factory, options, { serving, calls: options.calls ?? 'child' }),
      ownsMcpServer: rootCommands(root).has('mcp-server'),
    },
    args,
    env,
  );
}
