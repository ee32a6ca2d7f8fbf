/**
 * Child processes started by handlers while the server runs: each is tied to the call that started
 * it (killed — TERM, then KILL after a grace — when that call is cancelled, and at shutdown), and
 * under stdio it never inherits the protocol pipes: an inherited stdin becomes `ignore`, an inherited
 * stdout goes to stderr. This patches `node:child_process` for the life of the server (through
 * lib/platform/process-patches.ts, the one home of the process patches), justified like the stdout
 * guard: the protocol pipe must stay the server's (docs/mcp-server.md#stdio).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ChildProcess } from 'node:child_process';
import type { CallSignal } from '../../lib/run/call-signal.ts';
import { patchChildProcess, type ChildProcessFunctions } from '../../lib/platform/process-patches.ts';
import { signalTree, startOf, type ProcessTable, type TreeMember } from '../../lib/platform/process-tree.ts';
import { reaperScript } from './reaper.ts';

/** The tool call a piece of code runs for (its signal, made when read: call-signal.ts). */
export const callScope = new AsyncLocalStorage<CallSignal>();

/**
 * The empty per-call stand-ins for `process.stdin` under stdio (see stdio.ts emptyStdinPerCall); a
 * child given one gets `ignore`.
 */
export const scopedStdins = new WeakSet<object>();

/** Milliseconds between TERM and KILL. */
export const KILL_GRACE_MS = 1000;

type Stdio = unknown;

function fixStdio(stdio: Stdio, defaults: 'pipe' | 'inherit', realStdin: unknown): Stdio {
  const arr: unknown[] = Array.isArray(stdio)
    ? [...stdio]
    : typeof stdio === 'string'
      ? [stdio, stdio, stdio]
      : [defaults, defaults, defaults];
  const in0 = arr[0];
  if (
    in0 === 'inherit' ||
    in0 === 0 ||
    in0 === realStdin ||
    (typeof in0 === 'object' && in0 !== null && scopedStdins.has(in0))
  )
    arr[0] = 'ignore';
  if (arr[1] === 'inherit' || arr[1] === 1 || arr[1] === process.stdout) arr[1] = 2;
  return arr;
}

/** What {@link installChildGuard} returns. */
export interface ChildGuard {
  /**
   * Kills every child still running (TERM, then KILL after {@link KILL_GRACE_MS}); resolves when all
   * have exited or been killed.
   */
  killAll(): Promise<void>;
  /** Undoes the patch. */
  restore(): void;
}

/**
 * Patches spawn/fork/exec/execFile (and their sync forms' stdio) for the server's life.
 * @param protectStdio under stdio: keep children off fd 0 and fd 1.
 */
export function installChildGuard(protectStdio: boolean): ChildGuard {
  let originals = {} as ChildProcessFunctions;
  const live = new Set<ChildProcess>();
  const realStdin = process.stdin; // read outside any call: the real one, under the stdio guard too
  let reaper: ChildProcess | undefined;
  const tellReaper = (line: string) => {
    if (!reaper) {
      reaper = originals.spawn(process.execPath, ['-e', reaperScript(KILL_GRACE_MS)], {
        stdio: ['pipe', 'ignore', 'ignore'],
        windowsHide: true,
      }) as ChildProcess;
      reaper.on('error', () => {});
      reaper.stdin!.on('error', () => {});
      reaper.unref();
      (reaper.stdin as unknown as { unref?: () => void }).unref?.();
    }
    if (reaper.stdin!.writable) reaper.stdin!.write(`${line}\n`);
  };

  const track = (child: ChildProcess) => {
    live.add(child);
    // the start time: a pid reused later is left alone
    if (child.pid !== undefined) tellReaper(`+${child.pid}:${startOf(child.pid)}`);
    child.once('exit', () => {
      live.delete(child);
      if (child.pid !== undefined) tellReaper(`-${child.pid}`);
    });
    const signal = callScope.getStore()?.signal;
    if (signal) {
      const kill = () => void terminate(child, tellReaper);
      if (signal.aborted) kill();
      else {
        signal.addEventListener('abort', kill, { once: true });
        child.once('exit', () => signal.removeEventListener('abort', kill));
      }
    }
    return child;
  };

  const withOptions = (args: unknown[], defaults: 'pipe' | 'inherit') =>
    protectStdio ? withStdio(args, defaults, realStdin) : args;

  const unpatch = patchChildProcess((given) => {
    originals = given;
    return {
      spawn: (...a: unknown[]) => track(originals.spawn(...withOptions(a, 'pipe')) as ChildProcess),
      fork: (...a: unknown[]) => {
        const args = withOptions(a, 'inherit');
        if (protectStdio) {
          const i = optionsIndex(args);
          const o = args[i] as { stdio: unknown[] };
          if (!o.stdio.includes('ipc')) o.stdio.push('ipc');
        }
        return track(originals.fork(...args) as ChildProcess);
      },
      exec: (...a: unknown[]) => track(originals.exec(...a) as ChildProcess),
      execFile: (...a: unknown[]) => track(originals.execFile(...a) as ChildProcess),
      spawnSync: (...a: unknown[]) => originals.spawnSync(...withOptions(a, 'pipe')),
      execSync: (...a: unknown[]) => originals.execSync(...withOptions(a, 'pipe')),
      execFileSync: (...a: unknown[]) => originals.execFileSync(...withOptions(a, 'pipe')),
    };
  });

  return {
    async killAll() {
      const table: ProcessTable = {}; // one look at the process table for every child
      await Promise.all([...live].map((c) => terminate(c, tellReaper, table)));
    },
    restore() {
      unpatch();
      reaper?.stdin?.end();
    },
  };
}

/** Where a child-process call's options object is in its arguments (-1: none). */
function optionsIndex(args: unknown[]): number {
  return args.findIndex((a, i) => i > 0 && a !== null && typeof a === 'object' && !Array.isArray(a));
}

/** A child-process call's arguments with stdio kept off the protocol pipes (an options object added if needed). */
function withStdio(args: unknown[], defaults: 'pipe' | 'inherit', realStdin: NodeJS.ReadStream): unknown[] {
  const out = [...args];
  let i = optionsIndex(out);
  if (i < 0) {
    // insert an options object after the args array (or the command) so stdio can be set
    i = Array.isArray(out[1]) ? 2 : 1;
    if (typeof out[i] === 'function') out.splice(i, 0, {});
    else out[i] = out[i] ?? {};
  }
  const opts = { ...(out[i] as Record<string, unknown>) };
  opts.stdio = fixStdio(opts.stdio, defaults, realStdin);
  out[i] = opts;
  return out;
}

/**
 * TERM to the child and to every process below it (process-tree.ts), then KILL after
 * {@link KILL_GRACE_MS} to those still running — the child, what was below it (even if the child has
 * exited since), and what is below it then. Resolves when the child has exited; the KILL of what it
 * leaves behind still comes after the grace (a timer that does not keep the process alive), and
 * the reaper is told of them meanwhile (`tell`, reaper.ts), so they are stopped even if the server
 * exits first. `table` is the look at the process table to use for the TERM (one for all the
 * children a shutdown stops); the KILL takes a fresh one.
 */
export function terminate(child: ChildProcess, tell?: (line: string) => void, table: ProcessTable = {}): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const pid = child.pid;
  let below: TreeMember[] = pid === undefined ? [] : signalTree(pid, 'SIGTERM', [], table);
  return new Promise<void>((resolve) => {
    let exited = false;
    let killed = false;
    let told: TreeMember[] = [];
    const timer = setTimeout(() => {
      killed = true;
      // an exited child's pid may be another process's by now: then only what was below it, and what is below those
      below = signalTree(exited ? undefined : pid, 'SIGKILL', below);
      for (const [p] of told) tell?.(`-${p}`);
      told = [];
      if (!exited) {
        try {
          child.kill('SIGKILL');
        } catch {
          /* already gone */
        }
      }
    }, KILL_GRACE_MS);
    child.once('exit', () => {
      exited = true;
      if (below.length === 0 || killed)
        clearTimeout(timer); // after the KILL, nothing is left to tell
      else {
        timer.unref(); // what the child left behind gets its KILL, without holding the server open…
        told = below;
        for (const [p, start] of told) tell?.(`+${p}:${start}`); // …or from the reaper, if the server exits first
      }
      resolve();
    });
    try {
      child.kill('SIGTERM');
    } catch {
      clearTimeout(timer);
      resolve();
    }
  });
}
