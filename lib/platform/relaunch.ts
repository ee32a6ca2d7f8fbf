/**
 * How to start this program again, the way it was started: a Node script is `node [Node options]
 * <script> <args>`, but a single executable application (Node SEA) or a `bun build --compile`
 * binary is the program itself: `<binary> <args>` (its `process.argv[1]` is no script: the binary's
 * own path, or a path inside bun's embedded file system). Used by every process ax-ts starts as
 * another copy of the program (the stdio supervisor's server process, the hand-back helper of a
 * built program's entry): docs/mcp-server.md#stdio.
 */

/** Node options never repeated in a second process: a debugger port cannot be taken twice. */
const SKIP_EXEC_ARG = /^--(inspect|inspect-brk|inspect-port|inspect-wait|debug-port)(=|$)/;

/** Whether this process is a Node single executable application (`node:sea` `isSea()`, Node ≥ 20.12). */
function isSea(): boolean {
  try {
    const get = process.getBuiltinModule as ((id: string) => { isSea?: () => boolean } | undefined) | undefined;
    return get?.('node:sea')?.isSea?.() === true;
  } catch {
    return false;
  }
}

/** Whether this process is a binary made by `bun build --compile` (its entry lives in bun's embedded file system). */
function isBunBinary(): boolean {
  const entry = process.argv[1] ?? '';
  return (
    typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined' &&
    (entry.startsWith('/$bunfs/') || /^[A-Za-z]:[\\/]~BUN[\\/]/.test(entry))
  );
}

/** Whether the program is a binary of its own (SEA or bun-compiled) rather than a script run by Node. */
export function isStandaloneBinary(): boolean {
  return isBunBinary() || isSea();
}

/**
 * The command that starts this program again with `args` (the words after the program's name):
 * `process.execPath` and, for a script, its Node options (less debugger ones) and the script first.
 * @returns undefined when there is no program to start again (`node -e`, `-p`, a REPL).
 */
export function relaunchCommand(args: readonly string[]): { command: string; args: string[] } | undefined {
  if (isStandaloneBinary()) return { command: process.execPath, args: [...args] };
  const script = process.argv[1];
  if (typeof script !== 'string' || script === '') return undefined;
  if (process.execArgv.some((a) => a === '-e' || a === '--eval' || a === '-p' || a === '--print')) return undefined;
  return {
    command: process.execPath,
    args: [...process.execArgv.filter((a) => !SKIP_EXEC_ARG.test(a)), script, ...args],
  };
}
