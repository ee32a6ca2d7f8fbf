/**
 * Cobra's run-hook order for one command: which persistent hooks apply (the nearest, or with
 * `enableTraverseRunHooks` on the root every one on the path) and in which order they run.
 * Source: spf13/cobra command.go (execute, EnableTraverseRunHooks).
 */
import type { Command, RunContext } from '../tree/command.ts';
import type { RunHook } from '../tree/hooks.ts';

type Hook = RunHook<RunContext<any, any>>;

/** The hooks to run before `run` (persistentPreRun(s) then preRun) and after it (postRun then persistentPostRun(s)). */
export function hooksOf(cmd: Command): { pre: Hook[]; post: Hook[] } {
  const traverse = cmd.root().enableTraverseRunHooks;
  const path: Command[] = [];
  for (let c: Command | undefined = cmd; c; c = c.parent) path.push(c); // cmd first, root last
  const persistent = (key: 'persistentPreRun' | 'persistentPostRun', order: Command[]): Hook[] => {
    const found = order.map((c) => c[key]).filter((h): h is Hook => typeof h === 'function');
    return traverse ? found : found.slice(0, 1);
  };
  // without traversal the nearest hook wins (searched from cmd up); with it, pre hooks run root first
  const prePersistent = traverse ? persistent('persistentPreRun', [...path].reverse()) : persistent('persistentPreRun', path);
  const pre = [...prePersistent, ...(cmd.preRun ? [cmd.preRun] : [])];
  const post = [...(cmd.postRun ? [cmd.postRun] : []), ...persistent('persistentPostRun', path)];
  return { pre, post };
}
