/**
 * The commander front end's heavy half, loaded only when a call asks for ax-ts (`__schema`,
 * `mcp-server`, `__complete`, `--format`, `--args-json`, `AGENT_MODE=json`): the program's native
 * twin, run as ax-ts's `main` by the bridge every front end shares.
 */
import type { Command as CommanderCommand } from 'commander';
import { runTwinMain } from '../shared/bridge.ts';
import { twinTree } from './twin.ts';

/**
 * Runs one invocation of a commander program through ax-ts. `args` are the user's words (after the
 * program name). @returns the exit code (also set on `process.exitCode`).
 */
export function runAx(
  program: CommanderCommand,
  args: readonly string[],
  env: Record<string, string | undefined>,
): Promise<number> {
  return runTwinMain(
    {
      name: program.name(),
      build: (serving) => twinTree(program, { serving }),
      ownsMcpServer: program.commands.some((c) => c.name() === 'mcp-server'),
    },
    args,
    env,
  );
}
