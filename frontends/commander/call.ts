/**
 * One call of a commander program on behalf of an agent: the argv commander itself parses, rebuilt
 * from the values ax-ts parsed (so the program's own parsing, defaults, custom parsers and hooks run
 * as on the command line), then run with its printed output captured and the action's return value
 * kept. docs/frontends.md#how-a-call-runs.
 */
import type { Command as CommanderCommand, Option as CommanderOption } from 'commander';
import { AxError } from '../../lib/index.ts';
import { captured, refusedCall, type CallOutcome } from '../shared/call.ts';
import { guardParsers } from './parsers.ts';

/** The commander fields a call needs that commander's typings keep private (stable in commander 14 and 15). */
export interface CommanderInternals {
  _hidden?: boolean;
  _actionHandler?: ((args: unknown[]) => unknown) | null;
  _exitCallback?: ((err: Error) => void) | null;
  _version?: string;
  _versionOptionName?: string;
  _allowExcessArguments?: boolean;
}

/** The commander fields of a command a call reads or swaps for its duration. */
export function internals(cmd: CommanderCommand): CommanderInternals {
  return cmd as unknown as CommanderInternals;
}

/** One option as it is given back to commander: its spelling and how a value is written. */
export interface MappedOption {
  /** The ax-ts flag name (the long name without dashes, else the short letter). */
  name: string;
  option: CommanderOption;
  /** The value ax-ts gives for the option given alone (`[value]` options), else undefined. */
  alone?: string;
}

/**
 * The words that give an option its value again, each value attached to its option so that no
 * value can be read as an option, help or a command (docs/frontends.md#how-a-call-runs):
 * `--name=value`, or for a short-only option `-cvalue` (an empty value, which cannot be attached,
 * as the next word: commander takes it as the value, and an empty word is no option).
 */
export function optionWords(m: MappedOption, value: unknown): string[] {
  const o = m.option;
  const spelling = (o.long ?? o.short)!;
  if (!o.required && !o.optional) return value === false ? [] : [spelling];
  if (m.alone !== undefined && value === m.alone) return [spelling];
  const values = Array.isArray(value) ? value.map(String) : [String(value)];
  return values.flatMap((v) => (o.long ? [`${o.long}=${v}`] : v === '' ? [spelling, v] : [`${spelling}${v}`]));
}

/**
 * Runs `program.parseAsync(argv, {from: 'user'})` once, alone, with stdout and stderr captured when
 * `capture` is set (the shared {@link captured}: commander keeps a parse's values on the command objects);
 * never started when `signal` aborted while it waited.
 * @throws AxError `validation_error` (exit 2) when commander refuses the words or a custom parser
 *   throws before the action runs; the action's own error as thrown.
 */
export function callCommander(
  program: CommanderCommand,
  leaf: CommanderCommand,
  argv: string[],
  capture: boolean,
  signal?: AbortSignal,
): Promise<CallOutcome> {
  return captured(
    capture,
    async (running) => {
      const all = everyCommand(program);
      const exits = all.map((c) => internals(c)._exitCallback);
      for (const c of all) c.exitOverride();
      const restoreParsers = guardParsers(all);
      const li = internals(leaf);
      const action = li._actionHandler;
      let returned: unknown;
      if (action) {
        li._actionHandler = (args: unknown[]) => {
          running.started();
          const r = action(args);
          returned = r;
          return r;
        };
      }
      try {
        // the prototype's parseAsync: the instance's is withAx's, which would route the call back here
        await (Object.getPrototypeOf(program) as CommanderCommand).parseAsync.call(program, argv, { from: 'user' });
        return { returned };
      } finally {
        if (action) li._actionHandler = action;
        restoreParsers();
        all.forEach((c, i) => (internals(c)._exitCallback = exits[i] ?? null));
      }
    },
    refusal,
    signal,
  );
}

function everyCommand(c: CommanderCommand): CommanderCommand[] {
  return [c, ...c.commands.flatMap(everyCommand)];
}

/** commander's refusals (a `CommanderError`) and a parser's throw before the action: `validation_error`. */
function refusal(e: unknown, printedErr: string, started: boolean): unknown {
  const code = (e as { code?: unknown } | null)?.code;
  const commanderError = typeof code === 'string' && code.startsWith('commander.');
  // once the action runs, a CommanderError is the action's own (`this.error(msg, {exitCode})`): its
  // outcome, read as any error carrying exitCode (failedCall), never a refusal of the arguments
  if (e instanceof AxError || started) return e;
  const reason = commanderError ? snake((code as string).replace(/^commander\./, '')) : 'invalid_argument';
  return refusedCall(e, printedErr, reason);
}

/** commander's error codes are camelCase (`invalidArgument`); the contract's reasons are snake_case. */
function snake(code: string): string {
  return code.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
