/**
 * One call of a front-ended program run as its own process (docs/frontends.md#how-a-call-runs): the
 * program's entry started again with the call's words as its argv, its stdout and stderr the call's
 * printed output, and its outcome read from the one line it reports on an extra pipe
 * (child-report.ts) or, when it reports none, from its exit status. The call's signal (its
 * `--timeout`, the client's cancellation, a stopped task) ends the child's whole process group.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { AxError, type RunContext } from '../../lib/index.ts';
import { isStandaloneBinary, relaunchCommand } from '../../lib/platform/relaunch.ts';
import { envProxyForChild } from '../../lib/platform/process-patches.ts';
import { takeSlot } from './call-slots.ts';
import { CALL_FD_ENV, type Report, type ReportedError, type ReportedLink } from './child-report.ts';
import { failedCall, refusedCall, type ChildProgram, type TwinSettings } from './call.ts';

/** Milliseconds between the TERM and the KILL of a call's process group. */
export const CHILD_KILL_GRACE_MS = 1000;

/** Milliseconds between a call's child's looks at whether its parent is still there. */
export const PARENT_POLL_MS = 250;

/** Most bytes kept of each of a child's streams (as native printed output: docs/mcp-server.md#printed-output). */
export const CHILD_PRINTED_MAX = 1 << 20;

/**
 * The mark of an error the person has already been told (lib/contract/errors.ts `ALREADY_SHOWN`, a
 * `Symbol.for` registry key, so front ends need not reach into lib's internals for it).
 */
const ALREADY_SHOWN = Symbol.for('ax-ts.error-already-shown');

/** The environment variables a call's child never inherits: the server's secrets. */
const SECRETS = ['AX_MCP_TOKEN', 'AX_MCP_STATE_KEY'];

/** What a finished child gave. */
interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  report: Report | undefined;
  out: string;
  err: string;
}

/** Most bytes of a child's report read (the action's return value, as JSON). */
const REPORT_MAX = 256 << 20;

/** One stream's bytes, up to `max`, and how many were dropped. */
function collect(
  stream: NodeJS.ReadableStream | null,
  max = CHILD_PRINTED_MAX,
): { text(): string; done: Promise<void> } {
  const parts: Buffer[] = [];
  let kept = 0;
  let dropped = 0;
  const done = new Promise<void>((resolve) => {
    if (!stream) return resolve();
    stream.on('data', (b: Buffer) => {
      const room = max - kept;
      if (room > 0) parts.push(b.subarray(0, room));
      kept += Math.min(room, b.length);
      dropped += Math.max(0, b.length - Math.max(room, 0));
    });
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', () => resolve());
  });
  return {
    text: () =>
      Buffer.concat(parts).toString('utf8') +
      (dropped ? `\n[printed output truncated: ${dropped} more bytes were dropped]\n` : ''),
    done,
  };
}

/** Sends `signal` to the child's process group (it leads one: `detached`), else to the child alone. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* already gone */
    }
  }
}

/**
 * What each call's child loads first (`--import`, a data: URL, nothing written): it watches its
 * parent, and when the parent is gone — killed by SIGKILL, or by a SIGHUP it did not handle — and
 * the child was handed to another (its `ppid` changed), it ends its own process group as the parent
 * would have (TERM, then KILL after {@link CHILD_KILL_GRACE_MS}). The poll is unref'd: it never keeps
 * the call's process alive. Polled, as Node has no PR_SET_PDEATHSIG (https://man7.org/linux/man-pages/man2/prctl.2.html).
 */
export const PARENT_WATCH_SOURCE =
  `const p=process.ppid;const g=()=>{try{process.kill(-process.pid,'SIGTERM')}catch{process.kill(process.pid,'SIGTERM')}};` +
  `const t=setInterval(()=>{if(process.ppid===p)return;clearInterval(t);` +
  `setTimeout(()=>{try{process.kill(-process.pid,'SIGKILL')}catch{}},${CHILD_KILL_GRACE_MS});g()},${PARENT_POLL_MS});t.unref();`;

/** The calls in flight in this process: a SIGHUP to it is sent on to each one's process group. */
const running = new Set<ChildProcess>();

/**
 * Sends a SIGHUP this process receives on to every call's process group, then lets it end this
 * process as it would have (re-raised once no other listener is left), unless another listener
 * (the program's, a server's) handles it.
 */
function onHangup(): void {
  for (const child of running) signalGroup(child, 'SIGHUP');
  process.off('SIGHUP', onHangup);
  if (process.listenerCount('SIGHUP') === 0) process.kill(process.pid, 'SIGHUP');
}

/**
 * The signal a call's process group is sent when the call's `signal` aborts: SIGINT or SIGTERM as
 * this process got it, else SIGTERM.
 */
function forwarded(signal: AbortSignal): NodeJS.Signals {
  const said = (signal.reason as { context?: { signal?: unknown } } | undefined)?.context?.signal;
  return said === 'SIGINT' ? 'SIGINT' : 'SIGTERM';
}

/**
 * The command that runs one call (`words`: its argv after the entry). A wrapped bin (`program`)
 * runs as a person's `node <bin>` would; the front end's own program is started again the way it was
 * started (lib/platform/relaunch.ts): a script through Node with this process's Node options, a
 * single executable or a `bun build --compile` binary as itself (its `argv[1]` is no script). A
 * script is given the parent watch ({@link PARENT_WATCH_SOURCE}); a binary takes no Node options.
 * @throws AxError `validation_error` (reason `no_entry`) when there is no program to start again
 *   (`node -e`, a REPL).
 */
export function childCommand(words: readonly string[], program?: ChildProgram): { command: string; args: string[] } {
  const watch = ['--import', `data:text/javascript,${encodeURIComponent(PARENT_WATCH_SOURCE)}`];
  if (program)
    return { command: process.execPath, args: [...watch, program.entry, ...(program.words?.(words) ?? words)] };
  const again = relaunchCommand(words);
  if (!again) {
    throw new AxError('validation_error', 'this program has no entry script to run a call in its own process', {
      context: { reason: 'no_entry' },
      fix: "Start the program from a script file (node program.js …), or pass withAx's option calls: 'in-process'.",
    });
  }
  return isStandaloneBinary() ? again : { command: again.command, args: [...watch, ...again.args] };
}

/**
 * Starts the program's entry for one call and waits for it to exit. `signal` aborting ends its whole
 * process group (the signal this process got, SIGINT or SIGTERM, else TERM; then KILL after
 * {@link CHILD_KILL_GRACE_MS}); a SIGHUP to this process is sent on to it; the child ends its group
 * itself when this process is gone ({@link PARENT_WATCH_SOURCE}).
 */
function runChild(
  words: readonly string[],
  signal: AbortSignal,
  program: ChildProgram | undefined,
  onStop: (printed: { out: string; err: string }) => void,
  person: boolean,
): Promise<Ended> {
  const started = childCommand(words, program);
  const env: Record<string, string | undefined> = { ...process.env, [CALL_FD_ENV]: '3' };
  for (const k of SECRETS) delete env[k];
  // the program's fetch() and http.request() follow the proxy as a native handler's do (docs/contract.md#proxies)
  Object.assign(env, envProxyForChild());
  const child = spawn(started.command, started.args, {
    // a person's run keeps the terminal: the program reads its stdin and sees its TTY as when run
    // alone; a machine's call gets no stdin (nobody could answer) and its output is the call's
    stdio: person ? ['inherit', 'inherit', 'inherit', 'pipe'] : ['ignore', 'pipe', 'pipe', 'pipe'],
    env,
    detached: true,
    windowsHide: true,
  });
  const out = collect(child.stdout);
  const err = collect(child.stderr);
  const fd3 = collect(child.stdio[3] as NodeJS.ReadableStream | null, REPORT_MAX);
  let killTimer: NodeJS.Timeout | undefined;
  running.add(child);
  if (!process.listeners('SIGHUP').includes(onHangup)) process.on('SIGHUP', onHangup);
  const stop = () => {
    // the call is being answered (timeout, interrupt, cancellation): what was printed so far is
    // handed over now, while the answer can still carry it; what follows is the ended call's
    onStop({ out: out.text(), err: err.text() });
    signalGroup(child, forwarded(signal));
    killTimer = setTimeout(() => signalGroup(child, 'SIGKILL'), CHILD_KILL_GRACE_MS);
    killTimer.unref();
  };
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  return new Promise<Ended>((resolve, reject) => {
    child.once('error', (e) => {
      signal.removeEventListener('abort', stop);
      running.delete(child);
      if (running.size === 0) process.off('SIGHUP', onHangup);
      reject(new AxError('internal_error', `could not start the program for the call: ${e.message}`, { cause: e }));
    });
    child.once('exit', (code, sig) => {
      signal.removeEventListener('abort', stop);
      running.delete(child);
      if (running.size === 0) process.off('SIGHUP', onHangup);
      // what is still in the pipes is read; a grandchild holding them open is not waited for long
      const drained = Promise.all([out.done, err.done, fd3.done]);
      void Promise.race([drained, new Promise((r) => setTimeout(r, 200).unref())]).then(() => {
        if (killTimer && !signal.aborted) clearTimeout(killTimer);
        // the first line; a second is an error that followed a reported value (a postAction hook's
        // throw): that error is the call's outcome (child-report.ts CallReporter)
        const [first = '', second = ''] = fd3.text().split('\n');
        let report: Report | undefined;
        try {
          report = first ? (JSON.parse(first) as Report) : undefined;
          if (second) report = JSON.parse(second) as Report;
        } catch {
          report = {
            error: { message: "the call's reported outcome could not be read (larger than 256 MiB, or not JSON)" },
          };
        }
        for (const s of [child.stdout, child.stderr, child.stdio[3]])
          (s as { destroy?: () => void } | null)?.destroy?.();
        resolve({ code, signal: sig, report, out: out.text(), err: err.text() });
      });
    });
  });
}

/** One reported error rebuilt: an AxError with its fields, else an Error with its name, `exitCode` and errno fields. */
function rebuilt(link: ReportedLink, cause: unknown): Error {
  const options = cause === undefined ? {} : { cause };
  if (link.ax) return new AxError(link.ax.kind, link.message, { ...link.ax, next: link.ax.next as never, ...options });
  const e = Object.assign(new Error(link.message, options), link.errno);
  if (link.name) e.name = link.name;
  return link.exitCode === undefined ? e : Object.assign(e, { exitCode: link.exitCode });
}

/**
 * The error a child reported, rebuilt with its cause chain, then read as an in-process call's thrown
 * value is (an AxError anywhere in the chain, a TimeoutError, a numeric `exitCode`: lib's toAxError
 * and {@link failedCall}).
 */
function errorOf(e: ReportedError): unknown {
  if (e.refused) return refusedCall(new Error(e.message), '', e.refused);
  const chain = e.chain?.length ? e.chain : [{ message: e.message, exitCode: e.exitCode, ax: e.ax }];
  let thrown: unknown = undefined;
  for (let i = chain.length - 1; i >= 0; i--) thrown = rebuilt(chain[i]!, thrown);
  return failedCall(thrown);
}

/**
 * A non-zero exit status (or a signal) as `command_failed` with that exit code; `data`, what the
 * action returned before the process exited so (a linter's report with `process.exitCode = 1`), is
 * kept in its context, as for a native handler that sets `process.exitCode`.
 */
function exitFailure(code: number | null, sig: NodeJS.Signals | null, report: Report | undefined): AxError {
  const exitCode = code ?? 128 + ((sig && constants.signals[sig]) || 0);
  const said = sig ? `was ended by ${sig}` : `exited with status ${exitCode}`;
  return new AxError('command_failed', `the command ${said}`, {
    exitCode: exitCode >= 1 && exitCode <= 255 ? exitCode : 1,
    context: {
      exit_code_set: exitCode,
      ...(sig ? { signal: sig } : {}),
      ...(report && 'data' in report ? { data: report.data } : {}),
    },
  });
}

/**
 * Runs one call of the program in its own process (`words`: its argv after the entry) and answers
 * as an in-process call does: in json mode the action's return value as `data` (`null` when none was
 * reported and the process exited 0), what the process printed — stdout, then stderr (but for a
 * refusal of the words, whose message is the error's) — as the result's printed output (serving
 * MCP) or on stderr (a json-mode command line); a reported error, or a non-zero exit status
 * (`command_failed` with that exit code), thrown. The call waits for a slot first (call-slots.ts).
 */
export async function callInChild(ctx: RunContext, settings: TwinSettings, words: readonly string[]): Promise<unknown> {
  // at most AX_MCP_MAX_CALLS calls run at once; one beyond waits, no longer than its signal allows
  const release = await takeSlot(ctx.signal);
  const json = ctx.mode === 'json';
  const person = !json && !settings.serving;
  let ended: Ended;
  try {
    ended = await runChild(words, ctx.signal, settings.program, (p) => deliver(ctx, settings, p.out, p.err), person);
  } finally {
    release();
  }
  // once the call is answered (its signal aborted: timeout, interrupted), what it printed was handed
  // over as it stopped (above); the rest is the ended call's
  if (ctx.signal.aborted) throw ctx.signal.reason;
  const { report, code, signal } = ended;
  // a refusal of the words: its message is the error's; the parser's own restatement of it on
  // stderr is not repeated
  const refused = report && 'error' in report && report.error.refused !== undefined;
  deliver(ctx, settings, ended.out, refused ? '' : ended.err);
  if (report && 'error' in report) throw errorOf(report.error);
  if (code !== 0) {
    const failure = exitFailure(code, signal, report);
    // a person's run: the program said why on their terminal; its exit status is the answer
    if (person) Object.defineProperty(failure, ALREADY_SHOWN, { value: true });
    throw failure;
  }
  if (!json) return undefined;
  return report && 'data' in report ? report.data : null;
}

/**
 * Writes what a call's process printed where the call's printed output goes: in human mode its
 * stdout and stderr as such; in json mode both as printed output (the result's items when serving
 * MCP, else stderr: stdout holds the envelope alone).
 */
function deliver(ctx: RunContext, settings: TwinSettings, out: string, err: string): void {
  if (ctx.mode !== 'json') {
    ctx.stdout.write(out);
    ctx.stderr.write(err);
  } else if (out + err) (settings.serving ? process.stdout : ctx.stderr).write(out + err);
}
