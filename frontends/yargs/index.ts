/**
 * `ax-ts/yargs`: gives a yargs 18 program what ax-ts gives a native `Command` tree — `__schema`,
 * `mcp-server`, `--args-json`, `__complete` and the machine contract for json-mode callers — while
 * a person's invocation runs exactly as before (docs/frontends.md#yargs-programs). This module is
 * light: ax-ts's runtime loads only when a call asks for it.
 */
import { CallReporter, takeCallFd } from '../shared/child-report.ts';
import { asksForAxWords } from '../shared/route.ts';
import { exitWhenDone, stopProgramHere } from '../shared/takeover.ts';
import { childParse } from './child.ts';
import type { WithAxOptions } from './declare.ts';
import { internalsOf, rootCommands, type YargsProgram } from './internals.ts';

export { ax, type WithAxOptions, type YargsCommandModule } from './declare.ts';
export type { AxDeclarations } from '../shared/declare.ts';
export type { YargsProgram } from './internals.ts';

/**
 * Whether an invocation of a yargs program asks for ax-ts: an ax-ts command word the program does
 * not have itself, `--format`/`--args-json` where the program has no such option, or `AGENT_MODE`
 * set to a json value. `program` is the instance built for these words.
 */
export function asksForAx(
  program: YargsProgram,
  words: readonly string[],
  env: Record<string, string | undefined> = process.env,
): boolean {
  const y = internalsOf(program);
  const keys = y.getOptions().key;
  const ownsOption = (long: string) => Object.prototype.hasOwnProperty.call(keys, long.replace(/^--/, ''));
  return asksForAxWords({ commands: rootCommands(y), ownsOption }, words, env);
}

/** A yargs program with the front end installed: {@link withAx} returns it. */
export interface AxYargs {
  /**
   * Runs one invocation. A person's: `factory(args).parse()`, untouched (yargs' return value as
   * is). One that asks for ax-ts is ax-ts's: the process ends with its exit code when it is done,
   * and the program's code after `parse()` does not run (docs/frontends.md#how-a-call-runs).
   * `args` default: `process.argv.slice(2)` (yargs' `hideBin` for node).
   */
  parse(args?: readonly string[]): unknown;
  /** As {@link AxYargs.parse}, a person's run being `factory(args).parseAsync()`. */
  parseAsync(args?: readonly string[]): Promise<unknown>;
}

/**
 * Installs the front end on a yargs program given as its factory, `(args) => yargs(args)…` (the
 * program is built again for each call an agent makes, and once per command for `__schema`, as
 * yargs builds a command's options when it is entered). Every invocation that asks for ax-ts (see
 * {@link asksForAx}) goes to the program's native twin, run as ax-ts's `main`; every other goes to
 * yargs untouched (same help, errors and exit codes, byte for byte). Declare effects and outputs
 * with `ax` or `options.commands`. A name collision is refused when ax-ts is asked
 * (`validation_error`, exit 2). @returns the program with `parse` and `parseAsync`.
 */
export function withAx(factory: (args: string[]) => YargsProgram, options: WithAxOptions = {}): AxYargs {
  if (typeof factory !== 'function') throw notAFactory(factory);
  const callFd = takeCallFd();
  if (callFd !== undefined) {
    // this process is one call of a server (../shared/child-call.ts): the program's own parse runs it
    const reporter = new CallReporter(callFd);
    const words = (args: readonly string[] | undefined) => [...(args ?? process.argv.slice(2))];
    return {
      parse: (args) => childParse(factory, words(args), reporter, true),
      parseAsync: async (args) => childParse(factory, words(args), reporter, false),
    };
  }
  // `release`: a synchronous parse() holds the program's code until the runtime is loaded (takeover.ts)
  type ViaAx = (release?: () => void) => Promise<number>;
  const route = (args: readonly string[] | undefined): { program: YargsProgram } | { viaAx: ViaAx } => {
    const words = [...(args ?? process.argv.slice(2))];
    const program = factory([...words]);
    if (!asksForAx(program, words)) return { program };
    return {
      viaAx: (release = () => {}) =>
        import('./bridge.ts').then(({ runAx }) => {
          release();
          return runAx(factory, options, words, process.env);
        }),
    };
  };
  return {
    parse(args) {
      const r = route(args);
      if ('program' in r) return r.program.parse();
      return stopProgramHere(r.viaAx);
    },
    async parseAsync(args) {
      const r = route(args);
      if ('program' in r) return r.program.parseAsync();
      await exitWhenDone(r.viaAx());
      return undefined;
    },
  };
}

/**
 * The refusal of a program given as something other than a factory (a yargs instance, most often):
 * a plain Error with a code, naming what to pass instead.
 */
function notAFactory(given: unknown): Error {
  const what =
    given !== null && typeof given === 'object' && 'getInternalMethods' in given
      ? 'a yargs instance'
      : given === null
        ? 'null'
        : typeof given;
  return Object.assign(
    new Error(
      `ax-ts/yargs: withAx takes the program's factory, (args) => ` +
        `yargs(args)…, so that each call builds it afresh; got ${what}`,
    ),
    { code: 'ax_ts.not_a_factory' },
  );
}
