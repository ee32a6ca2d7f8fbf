/**
 * A front end's heavy half, loaded only when a call asks for ax-ts: builds the program's native
 * twin, adds `mcp-server` unless the program has its own, and runs it as ax-ts's `main`
 * (docs/frontends.md). The same for every front end; each gives its own twin.
 */
import { Command, main } from '../../lib/index.ts';
import { mountMcpServer } from '../../mcp/index.ts';
import { maxCalls } from './call-slots.ts';

/** What a front end gives {@link runTwinMain}: the program's name, its twin, and what it owns. */
export interface TwinSource {
  /** The program's name (the root's `use` of a tree that only reports a refusal). */
  name: string;
  /**
   * Builds the native twin. `serving`: the process serves MCP (printed output then goes to the
   * tool result's text). @throws AxError when the program cannot be described (a name collision).
   */
  build: (serving: boolean) => Command | Promise<Command>;
  /** The program has its own `mcp-server` command: ax-ts's is not added. */
  ownsMcpServer: boolean;
}

/**
 * Runs one invocation through ax-ts. `args` are the user's words (after the program name). In a
 * person's run (no `--format`, no `AGENT_MODE`) the mode stays human whatever stdout is, as the
 * program would have it. @returns the exit code (also set on `process.exitCode`).
 */
export async function runTwinMain(
  source: TwinSource,
  args: readonly string[],
  env: Record<string, string | undefined>,
): Promise<number> {
  const serving = args.includes('mcp-server');
  let root;
  try {
    // a server's call cap is checked as it starts, not at its first call (call-slots.ts)
    if (serving) maxCalls(env);
    root = await source.build(serving);
  } catch (e) {
    // the twin cannot be built (a name collision), or the server cannot start (a bad call cap):
    // reported per the contract by a tree that only fails
    const refused = new Command({
      use: source.name,
      run: () => {
        throw e;
      },
    });
    // a server's refusal is the machine's, as mcp-server's own failures are (json on a pipe)
    return main(refused, { args: [], env: serving ? env : modeOf(env, args) });
  }
  if (!source.ownsMcpServer) mountMcpServer(root);
  return main(root, { args, env: serving ? env : humanUnlessAsked(env, args) });
}

/**
 * The environment with `AGENT_MODE=human` when the caller named no mode: json only when asked.
 * `--args-json` is a machine's way to call: with it the mode is detected as a native tree's is
 * (`--format` > `AGENT_MODE` > stdout a terminal: docs/contract.md), so on a pipe it is json.
 */
function humanUnlessAsked(env: Record<string, string | undefined>, args: readonly string[]) {
  const words = routing(args);
  const given = (flag: string) => words.some((a) => a === flag || a.startsWith(`${flag}=`));
  const asked = given('--format') || given('--args-json') || (env.AGENT_MODE ?? '').trim() !== '';
  return asked ? env : { ...env, AGENT_MODE: 'human' };
}

/** The mode the caller asked for, as `AGENT_MODE` (for a run that reads no `--format`). */
function modeOf(env: Record<string, string | undefined>, args: readonly string[]) {
  const words = routing(args);
  const i = words.findIndex((a) => a === '--format' || a.startsWith('--format='));
  const format = i < 0 ? undefined : words[i]!.includes('=') ? words[i]!.split('=')[1] : words[i + 1];
  return format ? { ...env, AGENT_MODE: format } : humanUnlessAsked(env, args);
}

/** The words before `--` (after it, operands: never a mode). */
function routing(args: readonly string[]): readonly string[] {
  const end = args.indexOf('--');
  return end < 0 ? args : args.slice(0, end);
}
