/**
 * Running a tree: `execute(root, options)` parses argv, detects the mode, runs the handler and
 * writes the envelope or the error line; `main(root)` wires it to the real process.
 * Source: SPEC §2; cobra's Execute; ax-go contract.
 */
import type { Readable } from 'node:stream';
import type { Command } from './command.ts';
import { installBuiltins } from './builtins.ts';
import { detectMode } from './contract.ts';
import type { Mode, OutputStream } from './context.ts';
import { injectedInForce } from './flagset.ts';
import { findCommand, parseArgv, scanFormat, type Invocation } from './parse.ts';
import { validationError } from './errors.ts';
import { inputSchema } from './input-schema.ts';
import { bindValues } from './validate.ts';
import { reportError, runEnv, runInvocation } from './run.ts';

/** Options of {@link execute}. Everything defaults to the real process. */
export interface ExecuteOptions {
  /** Arguments after the program name. Default `process.argv.slice(2)`. */
  args?: readonly string[];
  /** Where the payload goes. Default `process.stdout`. Its `isTTY` feeds mode detection. */
  stdout?: OutputStream;
  /** Where diagnostics and the error line go. Default `process.stderr`. */
  stderr?: OutputStream;
  /** Input stream. Default `process.stdin` (opened only if a handler reads it). */
  stdin?: Readable;
  /** Whether stdin is a terminal (prompts are allowed only then). Default: `process.stdin.isTTY` when stdin is the real one (read only when a prompt needs it), else false. */
  stdinIsTTY?: boolean;
  /** Environment (`AGENT_MODE`, the handler's `ctx.env`). Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Program version; placeholders are skipped (see resolveVersion). */
  version?: string;
  /** Aborting it interrupts the run: exit 130, kind `interrupted`. */
  signal?: AbortSignal;
  /** Receives `ctx.progress` reports. */
  onProgress?: (done: number, total?: number, message?: string) => void;
  /**
   * Receives, once the mode is known, a function that reports an error per the contract (error line
   * or human text on this run's stderr) and returns its exit code. `main()` uses it for failures it
   * must report itself (a second signal, a broken stdout).
   */
  onReporter?: (report: (error: unknown) => number) => void;
}

function stdoutIsTTY(s: OutputStream): boolean {
  return s.isTTY === true;
}

/**
 * Parses `options.args` against the tree, runs the command and writes its output per the contract.
 * Never calls `process.exit` and never throws: every failure becomes an error line and an exit code.
 *
 * Mode: `--format` > `AGENT_MODE` > stdout TTY (human) / not a TTY (json). A bad mode value is a
 * `validation_error` (exit 2), reported in the mode the other sources give.
 * @returns the exit code: 0 success, 1 internal, 2 usage/validation, 3 network, 4 auth, 130 interrupted,
 *   or an author-defined code.
 */
export async function execute(root: Command, options: ExecuteOptions = {}): Promise<number> {
  installBuiltins(root);
  const argv = options.args ?? process.argv.slice(2);
  const envVars = options.env ?? process.env;
  const tty = stdoutIsTTY(options.stdout ?? process.stdout);
  let mode: Mode = tty ? 'human' : 'json';
  let fmt: string | undefined;
  try {
    mode = detectMode(undefined, envVars.AGENT_MODE, tty);
  } catch {
    /* reported below */
  }
  try {
    const { command } = findCommand(root, argv);
    if (injectedInForce(command, 'format')) fmt = scanFormat(command, argv);
    mode = fmt?.trim() ? detectMode(fmt, undefined, tty) : detectMode(undefined, envVars.AGENT_MODE, tty);
  } catch (e) {
    return reportError(e, runEnv(root, options, mode));
  }
  const env = runEnv(root, options, mode);
  options.onReporter?.((e) => reportError(e, env));
  try {
    let inv = parseArgv(root, argv);
    if (inv.values.has('args-json') && injectedInForce(inv.command, 'args-json')) inv = await argsJsonInvocation(inv);
    const out = await runInvocation(inv, env);
    return out.exitCode;
  } catch (e) {
    return reportError(e, env);
  }
}

/**
 * Rebuilds an invocation from `--args-json '<object>'`: the object is validated against the command's
 * inputSchema exactly as MCP `tools/call` arguments are (same module, same errors), then bound
 * without any text parsing. Other flags (but `--format`) and positionals may not be combined with it.
 * @throws AxError `validation_error` (reasons `args_json_conflict`, `invalid_args_json`, or the
 *   argument validation reasons).
 */
async function argsJsonInvocation(inv: Invocation): Promise<Invocation> {
  const cmd = inv.command;
  if (!cmd.runnable()) {
    throw validationError(`${JSON.stringify(cmd.commandPath())} is a group of commands; --args-json needs a command that runs`, 'args_json_conflict', {
      context: { command: cmd.commandPath() },
      fix: `Name a subcommand: ${cmd.commandPath()} <command> --args-json '{…}' (see ${cmd.root().name} __schema --as=llms).`,
    });
  }
  const others = [...inv.values.keys()].filter((k) => k !== 'args-json' && !(k === 'format' && injectedInForce(cmd, 'format')));
  if (others.length || inv.positionals.length) {
    const what = [...others.map((k) => `--${k}`), ...inv.positionals.map((p) => JSON.stringify(p))];
    throw validationError(`--args-json carries every argument; it cannot be combined with ${what.join(', ')}`, 'args_json_conflict', {
      context: { command: cmd.commandPath(), extra: what },
      fix: 'Put every argument in the --args-json object (see __schema --as=llms), or drop --args-json.',
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(inv.values.get('args-json')));
  } catch (e) {
    throw validationError(`--args-json is not valid JSON: ${(e as Error).message}`, 'invalid_args_json', {
      fix: 'Pass one JSON object, quoted for the shell: --args-json \'{"name":"value"}\'.',
    });
  }
  const { validateArguments } = await import('./arguments.ts');
  const values = validateArguments(cmd, inputSchema(cmd), parsed);
  return bindValues(cmd, values);
}
