/**
 * `ax-ts/commander`: gives a commander (14, 15) program what ax-ts gives a native `Command` tree —
 * `__schema`, `mcp-server`, `--args-json`, `__complete` and the machine contract for json-mode
 * callers — while a person's invocation runs exactly as before (docs/frontends.md). This module is
 * light: ax-ts's runtime loads only when a call asks for it.
 */
import type { Command as CommanderCommand, ParseOptions } from 'commander';
import { asksForAxWords } from '../shared/route.ts';

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

/**
 * Installs the front end on a commander program: its `parse` and `parseAsync` give every
 * invocation that asks for ax-ts (see {@link asksForAx}) to ax-ts — the program's native twin, run
 * as ax-ts's `main` (exit code on `process.exitCode`) — and every other invocation to commander,
 * untouched (same help, errors and exit codes, byte for byte). Declare effects and outputs with
 * {@link ax}. A name collision is refused when ax-ts is asked (`validation_error`, exit 2).
 * @returns the program, for chaining.
 */
export function withAx<C extends CommanderCommand>(program: C): C {
  const target = program as CommanderCommand;
  const own = { parse: target.parse, parseAsync: target.parseAsync };
  const viaAx = async (words: string[]) => {
    const { runAx } = await import('./bridge.ts');
    await runAx(program, words, process.env);
    return program;
  };
  target.parseAsync = async (argv?: readonly string[], options?: ParseOptions) => {
    const words = userWords(argv, options);
    if (!asksForAx(program, words)) return own.parseAsync.call(program, argv, options);
    return viaAx(words);
  };
  target.parse = (argv?: readonly string[], options?: ParseOptions) => {
    const words = userWords(argv, options);
    if (!asksForAx(program, words)) return own.parse.call(program, argv, options);
    void viaAx(words);
    return program;
  };
  return program;
}
