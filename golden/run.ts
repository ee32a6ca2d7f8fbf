/**
 * `ax-ts/golden`: running a CLI for a golden test — a tree in-process through `execute`, or a real
 * process — and what one run printed (see index.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { Command, execute } from '../lib/index.ts';
import { ENVELOPE_NON_DETERMINISTIC, nonDeterministicFields } from '../lib/schema/nondeterministic.ts';
import { findCommand } from '../lib/parse/parse.ts';

// ---------------------------------------------------------------------------------------------
// Running a CLI
// ---------------------------------------------------------------------------------------------

/** What one run printed and how it ended. */
export interface GoldenResult {
  /** Exit code (the process's, or what `execute` returned). */
  code: number;
  stdout: string;
  stderr: string;
  /** The arguments the program was given (after the program name). */
  args: string[];
  /** The program name shown by {@link transcript}: the root's name, or the spawned entry's base name. */
  program: string;
  /**
   * What varies in this run's output: {@link fieldsFor} of the tree for an in-process run,
   * `options.fields` for a spawned one (undefined when not given). Pass them to
   * {@link maskVolatile} to mask exactly those.
   */
  fields?: string[];
}

/** Options of {@link goldenRun}. */
export interface GoldenRunOptions {
  /**
   * Environment of the run. Default: empty in-process; for a spawned process only `PATH` (and
   * `SYSTEMROOT` on Windows) of the current process, plus these. `AGENT_MODE`, `HOME` etc. never
   * leak in unless given here (or `inheritEnv` is set). When it sets neither `XDG_STATE_HOME` nor
   * `HOME`, runs get `XDG_STATE_HOME` = a private temporary directory, one per test process
   * (removed when it exits), so a run with `--idempotency-key` records and replays as in real use;
   * give your own `XDG_STATE_HOME` to keep runs of different tests apart.
   */
  env?: Record<string, string | undefined>;
  /** Spawned process: start from the whole `process.env` instead of the minimal one. Default false. */
  inheritEnv?: boolean;
  /** Text on stdin. Default empty (stdin is at end-of-file at once). */
  stdin?: string;
  /** In-process: whether stdout claims to be a terminal (→ human mode). Default false (→ json mode). */
  tty?: boolean;
  /** In-process: the version passed to `execute` (error lines' `meta.version`). */
  version?: string;
  /** Spawned process: working directory. Default `process.cwd()`. */
  cwd?: string;
  /** Spawned process: program name shown by {@link transcript}. Default: the entry's base name without extension. */
  program?: string;
  /** Kills the run (spawned: SIGKILL; in-process: aborts its signal) after this many ms. Default 30000. */
  timeoutMs?: number;
  /** What varies in the output, for {@link GoldenResult.fields} (spawned runs: e.g. {@link fieldsFor} of the program's tree; in-process runs read the tree). */
  fields?: readonly string[];
}

/**
 * The locators that vary in what `args` can print: the `meta` ids every envelope and error line
 * carries (`meta.idempotency_key`, `meta.span_id`, `meta.trace_id` — also for a group's `--version`
 * envelope or a usage error) plus the `data.*` paths the command named by `args` declares
 * (`non_deterministic_fields` of `__schema --as=ax`). Sorted.
 */
export function fieldsFor(root: Command, args: readonly string[]): string[] {
  return [
    ...new Set([...ENVELOPE_NON_DETERMINISTIC, ...nonDeterministicFields(findCommand(root, args).command)]),
  ].sort();
}

/** What {@link goldenRun} can run: a command tree (or a factory of one) in-process, or a command line to spawn. */
export type GoldenTarget = Command | (() => Command) | readonly string[];

/**
 * The command line that runs a Node entry file as a process: `[node, '--import', 'tsx', entry]`
 * for a `.ts`/`.mts` file (needs `tsx` installed), `[node, entry]` otherwise.
 */
export function nodeCommand(entry: string): string[] {
  return /\.[mc]?ts$/.test(entry) ? [process.execPath, '--import', 'tsx', entry] : [process.execPath, entry];
}

/** A string-capturing output stream (what an in-process run writes to; also used by the test helpers). */
export function captureStream(isTTY = false): { write(s: string): boolean; isTTY: boolean; text(): string } {
  let buf = '';
  return {
    write(s: string) {
      buf += s;
      return true;
    },
    isTTY,
    text: () => buf,
  };
}

/**
 * Runs a CLI once and captures what it printed.
 *
 * - A {@link Command} (or a function returning one, called once per run so runs share no state) runs
 *   in-process through `execute()` with string-capturing stdout/stderr, the given stdin text, an
 *   isolated environment (`options.env`, default `{}`) and a non-TTY stdout (json mode) unless
 *   `options.tty`.
 * - A command line (`['node', 'dist/cli.js']`, or {@link nodeCommand}`('src/main.ts')`) is spawned
 *   without a shell; `args` are appended. Its stdout and stderr are pipes (so json mode applies).
 *
 * @returns `{code, stdout, stderr, args, program}`. Never rejects for a non-zero exit code.
 * @throws Error when the process cannot be started, is killed by a signal, or exceeds `timeoutMs`.
 */
export async function goldenRun(
  target: GoldenTarget,
  args: readonly string[],
  options: GoldenRunOptions = {},
): Promise<GoldenResult> {
  if (Array.isArray(target)) return spawnRun(target as readonly string[], args, options);
  const root =
    typeof target === 'function' && !(target instanceof Command) ? (target as () => Command)() : (target as Command);
  const stdout = captureStream(options.tty === true);
  const stderr = captureStream(false);
  const ac = new AbortController();
  const timeoutMs = options.timeoutMs ?? 30000;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ac.abort(new Error(`goldenRun: timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  try {
    const code = await execute(root, {
      args: [...args],
      stdout,
      stderr,
      stdin: Readable.from([options.stdin ?? '']),
      stdinIsTTY: false,
      env: withStateHome({ ...options.env }),
      version: options.version,
      signal: ac.signal,
    });
    if (timedOut)
      throw new Error(
        `goldenRun: ${[root.name, ...args].join(' ')} did not finish within ${timeoutMs} ms\nstderr:\n${stderr.text()}`,
      );
    const fields = options.fields ? [...options.fields] : fieldsFor(root, args);
    return { code, stdout: stdout.text(), stderr: stderr.text(), args: [...args], program: root.name, fields };
  } finally {
    clearTimeout(timer);
  }
}

let stateHome: string | undefined;

/**
 * `env` with `XDG_STATE_HOME` set to this process's private state directory when it has neither
 * `XDG_STATE_HOME` nor `HOME` (where a run records its idempotency keys).
 */
function withStateHome(env: Record<string, string | undefined>): Record<string, string | undefined> {
  if (env.XDG_STATE_HOME !== undefined || env.HOME !== undefined) return env;
  if (!stateHome) {
    const dir = (stateHome = mkdtempSync(join(tmpdir(), 'ax-golden-state-')));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return { ...env, XDG_STATE_HOME: stateHome };
}

function baseEnv(inherit: boolean): Record<string, string | undefined> {
  if (inherit) return { ...process.env };
  const env: Record<string, string | undefined> = {};
  for (const k of ['PATH', 'Path', 'SYSTEMROOT', 'SystemRoot'])
    if (process.env[k] !== undefined) env[k] = process.env[k];
  return env;
}

function spawnRun(
  command: readonly string[],
  args: readonly string[],
  options: GoldenRunOptions,
): Promise<GoldenResult> {
  if (command.length === 0) throw new TypeError('goldenRun: the command line is empty');
  const [file, ...pre] = command as [string, ...string[]];
  const env = Object.fromEntries(
    Object.entries(withStateHome({ ...baseEnv(options.inheritEnv === true), ...options.env })).filter(
      ([, v]) => v !== undefined,
    ),
  ) as Record<string, string>;
  const program = options.program ?? basename(command[command.length - 1]!).replace(/\.[^.]*$/, '');
  const timeoutMs = options.timeoutMs ?? 30000;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(file, [...pre, ...args], {
      cwd: options.cwd ?? process.cwd(),
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`goldenRun: cannot start ${JSON.stringify(file)}: ${e.message}`, { cause: e }));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      if (timedOut)
        return reject(
          new Error(
            `goldenRun: ${[program, ...args].join(' ')} did not finish within ${timeoutMs} ms\nstderr:\n${stderr}`,
          ),
        );
      if (code === null)
        return reject(
          new Error(`goldenRun: ${[program, ...args].join(' ')} was killed by ${signal}\nstderr:\n${stderr}`),
        );
      resolvePromise({
        code,
        stdout,
        stderr,
        args: [...args],
        program,
        ...(options.fields ? { fields: [...options.fields] } : {}),
      });
    });
    child.stdin.on('error', () => {
      /* the program may exit without reading stdin (EPIPE) */
    });
    child.stdin.end(options.stdin ?? '');
  });
}
