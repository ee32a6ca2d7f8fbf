/**
 * The commander front end's heavy half, loaded only when a call asks for ax-ts (`__schema`,
 * `mcp-server`, `__complete`, `--format`, `--args-json`, `AGENT_MODE=json`): builds the program's
 * native twin, adds `mcp-server` unless the program has its own, and runs it as ax-ts's `main`.
 */
import type { Command as CommanderCommand } from 'commander';
import { Command, main } from '../../lib/index.ts';
import { mountMcpServer } from '../../mcp/index.ts';
import { twinTree } from './twin.ts';

/**
 * Runs one invocation of a commander program through ax-ts. `args` are the user's words (after the
 * program name). In a person's run (no `--format`, no `AGENT_MODE`) the mode stays human whatever
 * stdout is, as the program would have it. @returns the exit code (also set on `process.exitCode`).
 */
export async function runAx(
  program: CommanderCommand,
  args: readonly string[],
  env: Record<string, string | undefined>,
): Promise<number> {
  const serving = args.includes('mcp-server');
  let root;
  try {
    root = twinTree(program, { serving });
  } catch (e) {
    // the twin cannot be built (a name collision): reported per the contract by a tree that only fails
    const refused = new Command({
      use: program.name(),
      run: () => {
        throw e;
      },
    });
    return main(refused, { args: [], env: modeOf(env, args) });
  }
  if (!program.commands.some((c) => c.name() === 'mcp-server')) mountMcpServer(root);
  return main(root, { args, env: serving ? env : humanUnlessAsked(env, args) });
}

/** The environment with `AGENT_MODE=human` when the caller named no mode: json only when asked. */
function humanUnlessAsked(env: Record<string, string | undefined>, args: readonly string[]) {
  const asked = args.some((a) => a === '--format' || a.startsWith('--format=')) || (env.AGENT_MODE ?? '').trim() !== '';
  return asked ? env : { ...env, AGENT_MODE: 'human' };
}

/** The mode the caller asked for, as `AGENT_MODE` (for a run that reads no `--format`). */
function modeOf(env: Record<string, string | undefined>, args: readonly string[]) {
  const i = args.findIndex((a) => a === '--format' || a.startsWith('--format='));
  const format = i < 0 ? undefined : args[i]!.includes('=') ? args[i]!.split('=')[1] : args[i + 1];
  return format ? { ...env, AGENT_MODE: format } : humanUnlessAsked(env, args);
}
