/**
 * One call of a commander program on behalf of an agent: the argv commander itself parses, rebuilt
 * from the values ax-ts parsed (so the program's own parsing, defaults, custom parsers and hooks run
 * as on the command line), then run with its printed output captured and the action's return value
 * kept. docs/frontends.md#how-a-call-runs.
 */
import type { Command as CommanderCommand, Option as CommanderOption } from 'commander';
import { AxError } from '../../lib/index.ts';

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

/** The words that give an option its value again, commander's spelling (`--name=value`, `-n value`). */
export function optionWords(m: MappedOption, value: unknown): string[] {
  const o = m.option;
  const spelling = (o.long ?? o.short)!;
  if (!o.required && !o.optional) return value === false ? [] : [spelling];
  if (m.alone !== undefined && value === m.alone) return [spelling];
  const values = Array.isArray(value) ? value.map(String) : [String(value)];
  return values.flatMap((v) => (o.long ? [`${o.long}=${v}`] : [spelling, v]));
}

/** What a finished call gives: the action's return value (awaited) and what it printed. */
export interface CallOutcome {
  /** The action's return value, `undefined` when it returned nothing (or no action ran). */
  returned: unknown;
  /** Everything written to stdout during the call (the action's `console.log`, commander's output). */
  printed: string;
  /** Everything written to stderr during the call. */
  printedErr: string;
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs `program.parseAsync(argv, {from: 'user'})` once, alone (calls are queued: commander keeps a
 * parse's values on the command objects), with stdout and stderr captured when `capture` is set.
 * @throws AxError `validation_error` (exit 2) when commander refuses the words or a custom parser
 *   throws before the action runs; the action's own error as thrown.
 */
export function callCommander(
  program: CommanderCommand,
  leaf: CommanderCommand,
  argv: string[],
  capture: boolean,
): Promise<CallOutcome> {
  const run = queue.then(() => callAlone(program, leaf, argv, capture));
  queue = run.catch(() => undefined);
  return run;
}

function everyCommand(c: CommanderCommand): CommanderCommand[] {
  return [c, ...c.commands.flatMap(everyCommand)];
}

async function callAlone(
  program: CommanderCommand,
  leaf: CommanderCommand,
  argv: string[],
  capture: boolean,
): Promise<CallOutcome> {
  const all = everyCommand(program);
  const exits = all.map((c) => internals(c)._exitCallback);
  for (const c of all) c.exitOverride();
  const li = internals(leaf);
  const action = li._actionHandler;
  let started = false;
  let returned: unknown;
  if (action) {
    li._actionHandler = (args: unknown[]) => {
      started = true;
      const r = action(args);
      returned = r;
      return r;
    };
  }
  let printed = '';
  let printedErr = '';
  const out = process.stdout.write;
  const err = process.stderr.write;
  if (capture) {
    const into = (add: (s: string) => void) =>
      ((chunk: unknown, encoding?: unknown, cb?: unknown) => {
        add(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
        const done = [encoding, cb].find((a) => typeof a === 'function') as (() => void) | undefined;
        if (done) queueMicrotask(done);
        return true;
      }) as typeof process.stdout.write;
    process.stdout.write = into((s) => (printed += s));
    process.stderr.write = into((s) => (printedErr += s));
  }
  try {
    // the prototype's parseAsync: the instance's is withAx's, which would route the call back here
    await (Object.getPrototypeOf(program) as CommanderCommand).parseAsync.call(program, argv, { from: 'user' });
    return { returned: await returned, printed, printedErr };
  } catch (e) {
    throw refusal(e, started, printedErr);
  } finally {
    if (capture) {
      process.stdout.write = out;
      process.stderr.write = err;
    }
    if (action) li._actionHandler = action;
    all.forEach((c, i) => (internals(c)._exitCallback = exits[i] ?? null));
  }
}

/** commander's refusals (a `CommanderError`) and a parser's throw before the action: `validation_error`. */
function refusal(e: unknown, started: boolean, printedErr: string): unknown {
  const code = (e as { code?: unknown } | null)?.code;
  const commanderError = typeof code === 'string' && code.startsWith('commander.');
  if (e instanceof AxError || (started && !commanderError)) return e;
  const said = e instanceof Error ? e.message : String(e);
  const message = said.replace(/^error: /, '').trim() || printedErr.replace(/^error: /, '').trim();
  return new AxError('validation_error', message || 'the program refused the arguments', {
    context: {
      reason: commanderError ? snake((code as string).replace(/^commander\./, '')) : 'invalid_argument',
    },
    fix: "Check the arguments against the command's inputSchema (__schema) and send them again.",
    cause: e,
  });
}

/** commander's error codes are camelCase (`invalidArgument`); the contract's reasons are snake_case. */
function snake(code: string): string {
  return code.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
