/**
 * commander's custom parsers (`parseArg` of options and arguments), guarded for an agent's call:
 * what they throw always reaches commander as an Error (docs/frontends.md#how-a-call-runs). Light:
 * the child of a call (child.ts) uses it too.
 */
import type { Command as CommanderCommand } from 'commander';

/** A custom parser of an option or argument: commander's `parseArg`. */
interface Parsed {
  parseArg?: ((value: string, previous: unknown) => unknown) | undefined;
}

/** Errors a custom parser threw: a refusal of the words, unlike a hook's throw (see the child's parse). */
export const PARSER_ERRORS = new WeakSet<object>();

/**
 * Wraps every custom parser of the commands' options and arguments for one call: a parser that
 * throws something other than an Error (`throw undefined`, `throw {code: 'x'}`) would make commander
 * itself fail reading it (a TypeError) or give `[object Object]`; it is thrown as a plain Error
 * saying what was thrown. @returns the function that puts the parsers back.
 */
export function guardParsers(commands: CommanderCommand[]): () => void {
  const parsed: Parsed[] = commands.flatMap((c) => [...c.options, ...c.registeredArguments] as Parsed[]);
  const own = parsed.map((p) => p.parseArg);
  for (const p of parsed) {
    const parse = p.parseArg;
    if (!parse) continue;
    p.parseArg = (value, previous) => {
      try {
        return parse(value, previous);
      } catch (e) {
        const err =
          e instanceof Error
            ? e
            : new Error(`invalid value ${JSON.stringify(value)}: the parser refused it (it threw ${thrownText(e)})`, {
                cause: e,
              });
        PARSER_ERRORS.add(err);
        throw err;
      }
    };
  }
  return () => parsed.forEach((p, i) => (p.parseArg = own[i]));
}

/** A short text of a thrown non-Error value: `undefined`, `"text"`, `{"code":"x"}`. */
function thrownText(e: unknown): string {
  if (e === undefined) return 'undefined';
  try {
    return JSON.stringify(e) ?? String(e);
  } catch {
    return Object.prototype.toString.call(e);
  }
}
