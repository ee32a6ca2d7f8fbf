/**
 * The processes below a child a handler started, so that cancelling its call, stopping the server or
 * ending a run stops what that child started in turn (`exec('npm test')`: a shell, npm, the test
 * runner and its workers), not the child alone. Used by mcp/isolate/children.ts, in the server and in
 * its reaper (the small process that stops children once the server is gone, even by SIGKILL), and
 * by `ctx.spawn` on the command line (lib/run/children.ts).
 *
 * The reaper runs {@link signalTree}'s own source (`Function#toString`, as `node -e`), so that
 * function must stay self-contained: nothing from this module's scope or imports, built-ins through
 * `process.getBuiltinModule` (which both an ES module and `node -e` have).
 */

/** One process: its pid and its start time (`/proc/<pid>/stat` field 22; '' where unknown, i.e. off Linux). */
export type TreeMember = [pid: number, start: string];

/**
 * One look at the process table, shared by the calls of one stop (each look reads every
 * `/proc/<pid>/stat`: about 1.4 ms with 75 processes, 19 ms with 1,075). Pass `{}`: the first
 * {@link signalTree} that gets it fills it.
 */
export interface ProcessTable {
  kids?: Map<number, number[]>;
  starts?: Map<number, string>;
}

/**
 * Sends `signal` to every process below `root` (its children, theirs, and so on; not `root`
 * itself), to each of `known` (an earlier call's result) that is still the same process — same pid
 * and same start time — though its parent may have exited since, and to every process below
 * those. The table is read from `/proc` (Linux) or else from `ps -A -o pid=,ppid=`; with neither
 * (or on a Node without process.getBuiltinModule), nothing is signalled. Off Linux there is no start
 * time, so a pid another
 * process took since the earlier call is signalled too.
 *
 * Not followed: a process that left the tree before this look (its parent exited: Linux gives it
 * to init or a subreaper) unless `known` has it, and one started after this look.
 *
 * @param root the pid whose descendants are signalled; undefined: only `known` and theirs (a root
 *   that has exited, whose pid may belong to another process by now)
 * @param signal e.g. `'SIGTERM'`, then `'SIGKILL'` after a grace with the first call's result as
 *   `known`; 0 signals nothing (which of them still run)
 * @param table the look to use (see {@link ProcessTable}); default a fresh one
 * @returns the processes signalled, for a later call's `known`
 */
export function signalTree(
  root: number | undefined,
  signal: NodeJS.Signals | 0,
  known: readonly TreeMember[] = [],
  table: ProcessTable = {},
): TreeMember[] {
  // no process.getBuiltinModule: the child alone is signalled
  if (typeof process.getBuiltinModule !== 'function') return [];
  if (!table.kids || !table.starts) {
    const kids = new Map<number, number[]>();
    const starts = new Map<number, string>();
    const add = (pid: number, ppid: number, start: string) => {
      const siblings = kids.get(ppid);
      if (siblings) siblings.push(pid);
      else kids.set(ppid, [pid]);
      starts.set(pid, start);
    };
    const fs = process.getBuiltinModule('node:fs');
    let proc = fs.existsSync('/proc/self/stat'); // an empty /proc (not mounted) is no table
    if (proc) {
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
          add(pid, Number(fields[1]), fields[19] ?? '');
        }
      } catch {
        proc = false;
      }
    }
    if (!proc) {
      try {
        const ps = process.getBuiltinModule('node:child_process').execFileSync('ps', ['-A', '-o', 'pid=,ppid='], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
          timeout: 2000,
        });
        for (const line of ps.split('\n')) {
          const [pid, ppid] = line.trim().split(/\s+/).map(Number);
          if (!pid || !Number.isSafeInteger(pid) || ppid === undefined) continue;
          add(pid, ppid, '');
        }
      } catch {
        /* no ps either: nothing can be found */
      }
    }
    table.kids = kids;
    table.starts = starts;
  }
  const kids = table.kids;
  const starts = table.starts;
  const found: TreeMember[] = [];
  const seen = new Set<number>();
  const queue: number[] = [];
  if (root !== undefined) {
    seen.add(root);
    queue.push(root);
  }
  for (const [pid, start] of known) {
    if (seen.has(pid) || starts.get(pid) !== start) continue; // gone, or another process now
    seen.add(pid);
    queue.push(pid);
    found.push([pid, start]);
  }
  for (let i = 0; i < queue.length; i++) {
    for (const pid of kids.get(queue[i]!) ?? []) {
      if (seen.has(pid)) continue;
      seen.add(pid);
      queue.push(pid);
      found.push([pid, starts.get(pid) ?? '']);
    }
  }
  if (signal !== 0) {
    for (const [pid] of found) {
      try {
        process.kill(pid, signal);
      } catch {
        /* exited meanwhile, or not ours to signal */
      }
    }
  }
  return found;
}

/** The start time of `pid` (see {@link TreeMember}); '' off Linux or when it cannot be read. */
export function startOf(pid: number): string {
  try {
    const stat = process.getBuiltinModule('node:fs').readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}
