/**
 * The reaper: a small node process (started on a server run's first child, children.ts) that stops
 * the children handlers started once the server is gone — even by SIGKILL, where no handler of the
 * server runs: no child survives its server (docs/mcp-server.md#stdio, "Children never inherit the
 * protocol pipes").
 *
 * It reads lines on its stdin, a pipe from the server:
 * - `+<pid>:<start>`: a child started, or a process left behind by a child the server is stopping
 *   (stopped at the end with everything below it; the start time, process-tree.ts, leaves alone a
 *   pid another process took meanwhile; `+<pid>` where there is none, off Linux);
 * - `-<pid>`: that one has exited, or has been stopped.
 * When the pipe ends (the server exited), it sends TERM, then KILL after the grace, to those still
 * listed and to every process below each of them, and exits.
 *
 * {@link reaperMain} runs from its own source (`Function#toString`, as `node -e`: see
 * {@link reaperScript}), so it uses only its parameters and globals.
 */
import { signalTree, type ProcessTable, type TreeMember } from '../../lib/platform/process-tree.ts';

/**
 * The reaper's program; see the module comment. `tree` is {@link signalTree} (passed in: no closure
 * survives toString).
 */
export function reaperMain(tree: typeof signalTree, graceMs: number): void {
  // pid → start time ('' for a child: its pid is held until the server reaps it)
  const live = new Map<number, string>();
  const below = new Map<number, TreeMember[]>();
  let buf = '';
  process.on('SIGINT', () => {}); // a terminal's ^C reaches the whole group: the reaper outlives the server by design
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (d: string) => {
    buf += d;
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      const [pid, start] = line.slice(1).split(':');
      const p = Number(pid);
      if (!Number.isSafeInteger(p) || p <= 0) continue;
      if (line[0] === '+') live.set(p, start ?? '');
      else live.delete(p);
    }
  });
  const stop = (signal: NodeJS.Signals) => {
    const table: ProcessTable = {}; // one look at the process table for the whole round
    for (const [p, start] of live) {
      // only if it is still that process (signal 0 only looks)
      if (start !== '' && tree(undefined, 0, [[p, start]], table).length === 0) {
        live.delete(p);
        continue;
      }
      // what is below first: once p is gone, its children belong to init and cannot be found from p
      below.set(p, tree(p, signal, below.get(p), table));
      try {
        process.kill(p, signal);
      } catch {
        live.delete(p);
      }
    }
    // orphans of an exited one
    for (const [p, known] of below) if (!live.has(p)) below.set(p, tree(undefined, signal, known, table));
  };
  process.stdin.on('end', () => {
    if (live.size === 0) process.exit(0);
    stop('SIGTERM');
    setTimeout(() => {
      stop('SIGKILL');
      process.exit(0);
    }, graceMs);
  });
  process.stdin.on('error', () => {});
}

/**
 * The reaper's `node -e` program: {@link reaperMain} called with {@link signalTree}, both from their
 * source. Run from source (tsx, esbuild with keepNames), a named closure's source calls esbuild's
 * `__name` helper, which the program therefore defines as the identity (a bundle never calls it).
 */
export function reaperScript(graceMs: number): string {
  return `var __name=(f)=>f;(${reaperMain.toString()})(${signalTree.toString()}, ${graceMs});`;
}
