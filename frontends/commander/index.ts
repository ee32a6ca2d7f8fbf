/**
 * `ax-ts/commander`: gives a commander (14, 15) program what ax-ts gives a native `Command` tree —
 * `__schema`, `mcp-server`, `--args-json`, `__complete` and the machine contract for json-mode
 * callers — while a person's invocation runs exactly as before (docs/frontends.md). This module is
 * light: ax-ts's runtime loads only when a call asks for it.
 */
import type { Command as CommanderCommand, ParseOptions } from 'commander';
import type { CallsMode } from '../shared/call.ts';
import type { AxDeclarations } from '../shared/declare.ts';
import { CallReporter, takeCallFd } from '../shared/child-report.ts';
import { asksForAxWords } from '../shared/route.ts';
import { exitWhenDone, stopProgramHere } from '../shared/takeover.ts';
import { childParse } from './child.ts';

export { ax, AxChain, type AxDeclarations } from './declare.ts';

/** The user's words of a parse call, as commander reads them (`from: 'node'` by default). */
function userWords(argv: readonly string[] | undefined, options: ParseOptions | undefined): string[] {
  // commander takes any values (a number is parsed as its text): the words compared here are strings
  const words = (argv ?? process.argv).map(String);
  switch (options?.from ?? 'node') {
    case 'user':
      return [...words];
    case 'electron':
      return words.slice((process as { defaultApp?: boolean }).defaultApp ? 2 : 1);
    case 'node':
      return words.slice(2);
  }
}

/**
 * Whether an invocation asks for ax-ts: an ax-ts command word the program does not have itself,
 * `--format`/`--args-json` where neither the root nor a command the words reach has such an option,
 * or `AGENT_MODE` set to a json value. Words after `--` are operands, never read.
 */
export function asksForAx(
  program: CommanderCommand,
  words: readonly string[],
  env: Record<string, string | undefined> = process.env,
): boolean {
  const commands = new Set(program.commands.flatMap((c) => [c.name(), ...c.aliases()]));
  const ownsOption = (long: string, routing: readonly string[]) =>
    reached(program, routing).some((c) => c.options.some((o) => o.long === long));
  return asksForAxWords({ commands, ownsOption }, words, env);
}

/** The commands the words reach, from the root: each word naming a subcommand of the last one. */
function reached(program: CommanderCommand, words: readonly string[]): CommanderCommand[] {
  const path = [program];
  for (const w of words) {
    const next = path.at(-1)!.commands.find((c) => c.name() === w || c.aliases().includes(w));
    if (next) path.push(next);
  }
  return path;
}

/** The options of {@link withAx} for a commander program. */
export interface WithAxOptions {
  /**
   * Declarations by command path, the words after the program's name (`'remote add'`; `'$0'`: the
   * program itself), for commands a program adds late or that {@link ax} cannot reach; merged over
   * `ax(cmd)`'s, field by field. A path the program does not have is refused when ax-ts is asked
   * (`validation_error`, reason `unknown_command`).
   */
  commands?: Readonly<Record<string, AxDeclarations>>;
  /**
   * How an agent's call (`mcp-server`) runs (docs/frontends.md#how-a-call-runs). `'child'` (the
   * default): each call runs the program's own entry in its own process — calls run concurrently, a
   * call's timeout or cancellation ends its process tree, late prints stay in their call.
   * `'in-process'`: in the server process, one call at a time, with the program's printed output
   * captured — for programs whose actions are call-safe (no state kept between parses, no work left
   * running after the action returns).
   */
  calls?: CallsMode;
}

/**
 * Installs the front end on a commander program: its `parse` and `parseAsync` give every
 * invocation that asks for ax-ts (see {@link asksForAx}) to ax-ts — the program's native twin, run
 * as ax-ts's `main`, after which the process ends with its exit code (the program's code after
 * its parse call does not run: docs/frontends.md#how-a-call-runs) — and every other invocation to commander,
 * untouched (same help, errors and exit codes, byte for byte). Declare effects and outputs with
 * {@link ax}. A name collision is refused when ax-ts is asked (`validation_error`, exit 2). In a
 * process a server started for one call, the parse runs that call and reports its outcome.
 * @returns the program, for chaining.
 * @throws Error (code `ax_ts.not_a_command`) naming what was given when `program` is not a
 *   commander `Command`.
 */
export function withAx<C extends CommanderCommand>(program: C, options: WithAxOptions = {}): C {
  const target = program as CommanderCommand;
  if (
    target === null ||
    typeof target !== 'object' ||
    typeof target.parse !== 'function' ||
    typeof target.parseAsync !== 'function' ||
    !Array.isArray(target.commands)
  )
    throw notACommand(program);
  const own = { parse: target.parse, parseAsync: target.parseAsync };
  const callFd = takeCallFd();
  if (callFd !== undefined) {
    // this process is one call of a server (../shared/child-call.ts): the program's own parse runs it
    const reporter = new CallReporter(callFd);
    // the words are the program's own parse argv, as on a terminal: the call's words, unless the
    // program itself changes what it parses
    target.parseAsync = async (argv?: readonly string[], o?: ParseOptions) =>
      (await childParse(target, userWords(argv, o), reporter, false)) as C;
    target.parse = (argv?: readonly string[], o?: ParseOptions) =>
      childParse(target, userWords(argv, o), reporter, true) as C;
    return program;
  }
  // `release`: a synchronous parse() holds the program's code until the runtime is loaded (takeover.ts)
  const viaAx = (words: string[], release: () => void = () => {}) =>
    import('./bridge.ts').then(({ runAx }) => {
      release();
      return runAx(program, words, process.env, options.calls ?? 'child', undefined, options.commands);
    });
  target.parseAsync = async (argv?: readonly string[], o?: ParseOptions) => {
    const words = userWords(argv, o);
    if (!asksForAx(program, words)) return own.parseAsync.call(program, argv, o);
    return exitWhenDone(viaAx(words));
  };
  target.parse = (argv?: readonly string[], o?: ParseOptions) => {
    const words = userWords(argv, o);
    if (!asksForAx(program, words)) return own.parse.call(program, argv, o);
    return stopProgramHere((release) => viaAx(words, release));
  };
  return program;
}

/** The refusal of a value that is not a commander program (a plain Error with a code, no TypeError). */
function notACommand(given: unknown): Error {
  const what =
    given === null ? 'null' : typeof given === 'object' ? 'an object that is not a commander Command' : typeof given;
  return Object.assign(
    new Error(`ax-ts/commander: withAx takes a commander Command (new Command() or commander's program); got ${what}`),
    { code: 'ax_ts.not_a_command' },
  );
}
