/**
 * Running a tree: `execute(root, options)` parses argv, detects the mode, runs the handler and
 * writes the envelope or the error line; `main(root)` wires it to the real process.
 * Source: docs/contract.md; cobra's Execute; ax-go contract.
 */
import type { Command } from '../tree/command.ts';
import { builtinsReachable, checkGroups, installBuiltins } from '../builtins/builtins.ts';
import { installDoctor } from './doctor.ts';
import { detectMode } from '../contract/mode.ts';
import type { Mode } from '../contract/mode.ts';
import type { OutputStream } from '../contract/envelope.ts';
import { injectedInForce } from '../tree/flagset.ts';
import { findCommand, loadPath, parseArgv, scanFormat } from '../parse/parse.ts';
import { toAxError } from '../contract/errors.ts';
import { argsJsonInvocation } from './args-json.ts';
import { reportError, runInvocation } from './run.ts';
import { writeOutcome } from './output.ts';
import { runEnv, type RunEnv } from './run-env.ts';
import { endSpan, type MissingSdkWarning } from '../observe/trace.ts';
import { COMPLETE_COMMAND, COMPLETE_NO_DESC_COMMAND } from '../completion/directives.ts';
import { BUILTIN_ANNOTATION } from '../tree/marks.ts';
import type { ExecuteOptions } from './options.ts';
import { checkNodeFloor } from '../platform/builtin.ts';

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
  let spanName = root.name;
  let selected: Command | undefined; // the command the words select
  // shell completion asks on every TAB: it exports no span (nor waits for a flush)
  let traced = true;
  const finish = async (env: RunEnv, code: number, errorKind?: string) => {
    if (traced)
      await endSpan(
        env.trace,
        env.env,
        () => ({ name: spanName, program: root.name, version: env.version(), exitCode: code, errorKind }),
        // a failed run's error line stays the last line of stderr
        code === 0 ? (w) => missingSdkLine(env, spanName, w) : undefined,
        env.spanShown ? undefined : (line) => void writeOutcome(env.stderr, line),
      );
    return code;
  };
  try {
    // the lazy subtrees these words select (docs/performance.md); the completion command loads its
    // own words' subtrees, and answers `:1` when one fails
    if (argv[0] !== COMPLETE_COMMAND && argv[0] !== COMPLETE_NO_DESC_COMMAND) await loadPath(root, argv);
    // inside the try: a declaration error (a groupId no group has) is reported, not thrown
    checkGroups(root);
    if (builtinsReachable(root, argv)) {
      installBuiltins(root);
      installDoctor(root);
    }
    const { command } = findCommand(root, argv);
    selected = command;
    spanName = command.commandPath();
    traced = !(
      command.annotations[BUILTIN_ANNOTATION] === 'true' &&
      (command.name === COMPLETE_COMMAND || command.name === COMPLETE_NO_DESC_COMMAND)
    );
    if (injectedInForce(command, 'format')) fmt = scanFormat(command, argv);
    mode = fmt?.trim() ? detectMode(fmt, undefined, tty) : detectMode(undefined, envVars.AGENT_MODE, tty);
    checkNodeFloor(); // below package.json engines some paths hang: refused before anything runs, exit 1
  } catch (e) {
    const env = runEnv(root, options, mode, givenTrace(options));
    env.spanName = spanName;
    return finish(env, reportError(e, env), kindOf(e));
  }
  const env = runEnv(root, options, mode, givenTrace(options));
  env.spanName = spanName;
  options.onReporter?.((e) => reportError(e, env), { mode, command: selected ?? root });
  try {
    let inv = parseArgv(root, argv);
    spanName = env.spanName = inv.command.commandPath();
    if (inv.values.has('args-json') && inv.resolved.inForce('args-json'))
      inv = await argsJsonInvocation(inv, env.root.name);
    const out = await runInvocation(inv, env);
    return finish(env, out.exitCode, out.error?.kind);
  } catch (e) {
    return finish(env, reportError(e, env), kindOf(e));
  }
}

function kindOf(e: unknown): string {
  return toAxError(e).kind;
}

/**
 * Tells a run that its span was not exported because the OpenTelemetry SDK is not installed: one
 * line on stderr, shaped as a `ctx.logger` line at level warn (docs/observability.md#exporting-spans-otlphttp).
 */
function missingSdkLine(env: RunEnv, command: string, w: MissingSdkWarning): void {
  const line =
    env.mode === 'json'
      ? JSON.stringify({
          level: 'warn',
          time: new Date().toISOString(),
          program: env.root.name,
          version: env.version(),
          command,
          trace_id: env.traceId,
          span_id: env.spanId,
          package: w.package,
          fix: w.fix,
          msg: w.message,
        })
      : `warn: ${w.message} fix=${JSON.stringify(w.fix)}`;
  env.stderr.write(`${line}\n`);
}

/** The trace context the caller gave this run (`options.traceparent`), if any. */
function givenTrace(options: ExecuteOptions): { traceparent?: string; tracestate?: string } | undefined {
  return options.traceparent === undefined
    ? undefined
    : {
        traceparent: options.traceparent,
        ...(options.tracestate !== undefined ? { tracestate: options.tracestate } : {}),
      };
}
