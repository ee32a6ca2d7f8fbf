/**
 * The processes below a child a handler started, so that cancelling its call or stopping the server
 * stops what that child started in turn (`exec('npm test')`: a shell, npm, the test runner and its
 * workers), not the child alone. Used by children.ts, in the server and in its reaper (the small
 * process that stops children once the server is gone, even by SIGKILL).
 *
 * The reaper runs {@link signalTree}'s own source (`Function#toString`, as `node -e`), so that
 * function must stay self-contained: nothing from this module's scope or imports, built-ins through
 * `process.getBuiltinModule` (which both an ES module and `node -e` have).
 */

/** One process found below a root: its pid and its start time (`/proc/<pid>/stat` field 22; '' where unknown). */
export type TreeMember = [pid: number, start: string];

/**
 * Sends `signal` to every process below `root` (its children, theirs, and so on; not `root` itself)
 * and to each of `known` (an earlier call's result) that is still the same process — same pid and
 * same start time — though its parent may have exited since. The tree is read from `/proc` (Linux)
 * or else from `ps -A -o pid=,ppid=`; with neither (or on Node < 20.16), nothing is signalled.
 *
 * Not followed: a process whose parent exited before this look, unless `known` has it (Linux
 * reparents it to init or to a subreaper), and processes of another user (they cannot be signalled).
 *
 * @param root the pid whose descendants are signalled; undefined: only `known` (a root that has
 *   exited, whose pid may belong to another process by now)
 * @param signal e.g. `'SIGTERM'`, then `'SIGKILL'` after a grace with the first call's result as `known`;
 *   0 signals nothing (which of them still run)
 * @returns the processes signalled, for a later call's `known`
 */
export function signalTree(root: number | undefined, signal: NodeJS.Signals | 0, known: readonly TreeMember[] = []): TreeMember[] {
  if (typeof process.getBuiltinModule !== 'function') return []; // Node < 20.16: the child alone is signalled
  const kids = new Map<number, number[]>();
  const starts = new Map<number, string>();
  const fs = process.getBuiltinModule('node:fs');
  let proc = true;
  try {
    for (const name of fs.readdirSync('/proc')) {
      const pid = Number(name);
      if (!Number.isSafeInteger(pid) || pid <= 0) continue;
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      } catch {
        continue; // exited while we looked
      }
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so fields count from the last ')'
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      const siblings = kids.get(ppid);
      if (siblings) siblings.push(pid);
      else kids.set(ppid, [pid]);
      starts.set(pid, fields[19] ?? '');
    }
  } catch {
    proc = false;
  }
  if (!proc) {
    try {
      const ps = process.getBuiltinModule('node:child_process').execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 });
      for (const line of ps.split('\n')) {
        const [pid, ppid] = line.trim().split(/\s+/).map(Number);
        if (!pid || !Number.isSafeInteger(pid) || ppid === undefined) continue;
        const siblings = kids.get(ppid);
        if (siblings) siblings.push(pid);
        else kids.set(ppid, [pid]);
        starts.set(pid, '');
      }
    } catch {
      /* no ps either: nothing can be found */
    }
  }
  const found: TreeMember[] = [];
  const seen = new Set<number>();
  const queue = root === undefined ? [] : [root];
  if (root !== undefined) seen.add(root);
  for (let i = 0; i < queue.length; i++) {
    for (const pid of kids.get(queue[i]!) ?? []) {
      if (seen.has(pid)) continue;
      seen.add(pid);
      queue.push(pid);
      found.push([pid, starts.get(pid) ?? '']);
    }
  }
  for (const [pid, start] of known) {
    if (seen.has(pid) || starts.get(pid) !== start) continue; // already found, gone, or another process now
    seen.add(pid);
    found.push([pid, start]);
  }
  for (const [pid] of found) {
    try {
      process.kill(pid, signal);
    } catch {
      /* exited meanwhile, or not ours to signal */
    }
  }
  return found;
}
