/**
 * The commander front end's heavy half, loaded only when a call asks for ax-ts (`__schema`,
 * `mcp-server`, `__complete`, `--format`, `--args-json`, `AGENT_MODE=json`): the program's native
 * twin, run as ax-ts's `main` by the bridge every front end shares.
 */
import type { Command as CommanderCommand } from 'commander';
import { AxError } from '../../lib/index.ts';
import { runTwinMain } from '../shared/bridge.ts';
import type { AxDeclarations } from '../shared/declare.ts';
import { declare } from './declare.ts';
import type { CallsMode, ChildProgram } from '../shared/call.ts';
import { internals } from './call.ts';
import { twinTree } from './twin.ts';

/**
 * Runs one invocation of a commander program through ax-ts. `args` are the user's words (after the
 * program name); `calls`: how an agent's call runs (docs/frontends.md#how-a-call-runs); `run`: the
 * program each call runs when it is not this process's entry (`ax-ts wrap`); `commands`: `withAx`'s
 * declarations by command path.
 * @returns the exit code (also set on `process.exitCode`).
 */
export function runAx(
  program: CommanderCommand,
  args: readonly string[],
  env: Record<string, string | undefined>,
  calls: CallsMode = 'child',
  run?: ChildProgram,
  commands: Readonly<Record<string, AxDeclarations>> = {},
): Promise<number> {
  return runTwinMain(
    {
      name: program.name(),
      build: (serving) => {
        declareByPath(program, commands);
        return twinTree(program, { serving, calls, ...(run ? { program: run } : {}) });
      },
      ownsMcpServer: program.commands.some((c) => c.name() === 'mcp-server'),
    },
    versionWords(program, args),
    env,
  );
}

/**
 * The words with commander's version option (`-V`, `--version`, or the spelling given to
 * `.version(v, '-v, --vers')`) written as ax-ts's `--version`, which answers it: only the words
 * before the first command word (the program's option) and before `--` (operands).
 */
function versionWords(program: CommanderCommand, args: readonly string[]): readonly string[] {
  const name = internals(program)._versionOptionName;
  const option = name === undefined ? undefined : program.options.find((o) => o.attributeName() === name);
  if (!option) return args;
  const spellings = [option.short, option.long].filter((s): s is string => !!s && s !== '--version');
  const commands = new Set(program.commands.flatMap((c) => [c.name(), ...c.aliases()]));
  const out = [...args];
  for (let i = 0; i < out.length; i++) {
    const w = out[i]!;
    if (w === '--' || commands.has(w)) break;
    if (spellings.includes(w)) out[i] = '--version';
  }
  return out;
}

/**
 * Records `withAx`'s declarations by command path (`'remote add'`; `'$0'` the program itself).
 * @throws AxError `validation_error` (reason `unknown_command`) for a path the program does not have.
 */
function declareByPath(program: CommanderCommand, commands: Readonly<Record<string, AxDeclarations>>): void {
  for (const [path, decl] of Object.entries(commands)) {
    let at: CommanderCommand | undefined = program;
    if (path !== '$0') for (const w of path.split(' ').filter(Boolean)) at = at?.commands.find((c) => c.name() === w);
    if (!at) {
      throw new AxError('validation_error', `withAx: the program has no command ${JSON.stringify(path)}`, {
        context: { reason: 'unknown_command', command: path },
        fix: "Name a command by the words after the program's name (`remote add`), or `$0` for the program itself.",
      });
    }
    declare(at, decl);
  }
}
