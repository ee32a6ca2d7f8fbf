/**
 * Cobra's run-hook order for one command: which persistent hooks apply (the nearest, or with
 * `enableTraverseRunHooks` on the root every one on the path) and in which order they run.
 * The commands ax-ts injects (help, completion, __complete, __schema, schema, mcp-server) run none
 * of the author's hooks — a difference from Cobra (docs/cobra-differences.md): an agent must be able
 * to read the schema, and a person to get help or completion, whatever the author's set-up needs
 * (a login, a config file), and `mcp-server` runs the hooks for each tool call, where they belong.
 * Source: spf13/cobra command.go (execute, EnableTraverseRunHooks).
 */
import type { Command, RunContext } from '../tree/command.ts';
import type { RunHook } from '../tree/hooks.ts';
import { isReserved } from '../schema/walk.ts';

type Hook = RunHook<RunContext<any, any>>;

/** The hooks of a command with none (shared, frozen: the common case builds nothing per run). */
const NO_HOOKS: { pre: Hook[]; post: Hook[] } = Object.freeze({
  pre: Object.freeze([]) as unknown as Hook[],
  post: Object.freeze([]) as unknown as Hook[],
});

/**
 * The hooks to run before `run` (persistentPreRun(s) then preRun) and after it (postRun then
 * persistentPostRun(s)); none for an injected command.
 */
export function hooksOf(cmd: Command): { pre: Hook[]; post: Hook[] } {
  // one walk up first: an injected command runs none, and a path without any hook needs no arrays
  let any = false;
  for (let c: Command | undefined = cmd; c; c = c.parent) {
    if (isReserved(c)) return NO_HOOKS; // an injected command, or under one
    if (c.persistentPreRun || c.persistentPostRun) any = true;
  }
  if (!any && !cmd.preRun && !cmd.postRun) return NO_HOOKS;
  const traverse = cmd.root().enableTraverseRunHooks;
  const path: Command[] = [];
  for (let c: Command | undefined = cmd; c; c = c.parent) path.push(c); // cmd first, root last
  const persistent = (key: 'persistentPreRun' | 'persistentPostRun', order: Command[]): Hook[] => {
    const found = order.map((c) => c[key]).filter((h): h is Hook => typeof h === 'function');
    return traverse ? found : found.slice(0, 1);
  };
  // without traversal the nearest hook wins (searched from cmd up); with it, pre hooks run root first
  const prePersistent = traverse
    ? persistent('persistentPreRun', [...path].reverse())
    : persistent('persistentPreRun', path);
  const pre = [...prePersistent, ...(cmd.preRun ? [cmd.preRun] : [])];
  const post = [...(cmd.postRun ? [cmd.postRun] : []), ...persistent('persistentPostRun', path)];
  return { pre, post };
}
