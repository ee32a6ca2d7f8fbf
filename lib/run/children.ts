/**
 * The children a run starts with `ctx.spawn` (docs/contract.md#child-processes-ctxspawn): each in a
 * process group of its own, so that SIGINT, SIGTERM or SIGHUP to the program, `--timeout` or the run's end
 * reaches what it started in turn. When the run's signal aborts, the groups and every process below
 * each child (lib/platform/process-tree.ts, which also finds a process that left the group) get
 * SIGTERM at once; when the run ends, {@link RunChildren.end} does the same for what still runs and
 * waits for it, with SIGKILL after {@link KILL_GRACE_MS}. No process-wide patch: only the children
 * started through `ctx.spawn` are the run's (under `mcp-server` every child of a call is, through
 * its own guard).
 */
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { builtinModule } from '../platform/builtin.ts';
import { signalTree, type ProcessTable, type TreeMember } from '../platform/process-tree.ts';

/** Most milliseconds the end waits, after SIGKILL, for the killed processes to be gone. */
const KILLED_WAIT_MS = 500;

/** Milliseconds between SIGTERM and SIGKILL, as under `mcp-server`. */
export const KILL_GRACE_MS = 1000;

/** A child of the run and what was found below it at the SIGTERM (for the SIGKILL). */
interface Owned {
  child: ChildProcess;
  below: TreeMember[];
  termed: boolean;
}

/** One run's children. */
export class RunChildren {
  readonly #owned = new Set<Owned>();
  readonly #signal: AbortSignal;
  #onAbort: (() => void) | undefined = undefined;

  constructor(signal: AbortSignal) {
    this.#signal = signal;
  }

  /** `spawn` of node:child_process (read at the call, so a server's guard sees it), the child owned by the run. */
  spawn(command: string, args: readonly string[] = [], options: SpawnOptions = {}): ChildProcess {
    if (typeof command !== 'string' || command === '')
      throw new TypeError('ctx.spawn: command must be a non-empty string (e.g. "git")');
    if (!Array.isArray(args) || args.some((a) => typeof a !== 'string'))
      throw new TypeError('ctx.spawn: args must be a list of strings');
    // its own process group: a signal to the group reaches what the child starts (not on Windows,
    // where `detached` opens a console)
    const detached = process.platform !== 'win32';
    const child = builtinModule('node:child_process').spawn(command, [...args], { ...options, detached });
    const owned: Owned = { child, below: [], termed: false };
    // kept after it exits: what it started may still run in its group
    this.#owned.add(owned);
    child.on('error', () => {}); // a spawn failure is the handler's to see (its own 'error' listener)
    if (this.#signal.aborted) this.#term(owned, {});
    else if (!this.#onAbort) {
      this.#onAbort = () => {
        const table: ProcessTable = {};
        for (const o of this.#owned) this.#term(o, table);
      };
      this.#signal.addEventListener('abort', this.#onAbort, { once: true });
    }
    return child;
  }

  /**
   * Ends the run's children: SIGTERM to each one's group and tree (if not sent yet), then waits for
   * them, with SIGKILL to what still runs after {@link KILL_GRACE_MS}. Resolves when none is left.
   */
  async end(): Promise<void> {
    if (this.#onAbort) this.#signal.removeEventListener('abort', this.#onAbort);
    const table: ProcessTable = {};
    for (const o of this.#owned) this.#term(o, table);
    if (this.#owned.size === 0) return;
    const deadline = Date.now() + KILL_GRACE_MS;
    while (Date.now() < deadline && [...this.#owned].some(running)) await new Promise((r) => setTimeout(r, 20));
    const killed = [...this.#owned].filter(running);
    for (const o of killed) {
      killGroup(o.child.pid!, 'SIGKILL');
      signalTree(alive(o.child) ? o.child.pid : undefined, 'SIGKILL', o.below);
    }
    // a killed process is gone only once the kernel has taken it down: the run's end (and the
    // program's exit) waits for that too, bounded (a zombie nobody reaps answers as running)
    const gone = Date.now() + KILLED_WAIT_MS;
    while (Date.now() < gone && killed.some(running)) await new Promise((r) => setTimeout(r, 10));
    this.#owned.clear();
  }

  #term(o: Owned, table: ProcessTable): void {
    if (o.termed || o.child.pid === undefined) return;
    o.termed = true;
    // an exited child's pid names no process of ours any more, but still its group while the group lives
    if (alive(o.child)) o.below = signalTree(o.child.pid, 'SIGTERM', [], table);
    killGroup(o.child.pid, 'SIGTERM');
  }
}

function alive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Whether a child, a process of its group, or a process found below it still runs. */
function running(o: Owned): boolean {
  if (o.child.pid === undefined) return false;
  if (alive(o.child) || killGroup(o.child.pid, 0)) return true;
  return signalTree(undefined, 0, o.below).length > 0;
}

/**
 * A signal to the child's process group (its pid is the group's id), or to the child alone off
 * Unix; 0 signals nothing. @returns whether the group (or child) was there to signal.
 */
function killGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, signal);
    return true;
  } catch {
    return false; // the group is gone
  }
}
