/**
 * Positional arguments: named declarations (beyond ax-go) and Cobra's Args validators.
 * Source: spf13/cobra args.go.
 */
import { validationError, type AxError } from '../contract/errors.ts';
import { ARG_TYPES, type ArgType } from './flag-spec.ts';
import { argKindOf } from './flag-kinds/index.ts';
import type { Completer } from './flags.ts';

/** Declaration of one positional argument. Order of declaration is the order on the command line. */
export interface ArgSpec {
  /** Name, shown as `<name>` in usage and used as the MCP property (snake_case) and `ctx.args` key (camelCase). */
  name: string;
  /** One line of help. */
  description?: string;
  /** Must be given. Default true. A required argument may not follow an optional one. */
  required?: boolean;
  /** Takes every remaining positional (only the last argument). Its value is a string array. */
  variadic?: boolean;
  /** Closed set of accepted values (string arguments). */
  choices?: readonly string[];
  /**
   * Value type: `string` (default), `int` or `float`. A typed argument is checked when parsed, reaches
   * the handler as a number (`ctx.args`), and is an `integer`/`number` in the inputSchema, so an agent
   * can send `{"id": 7}` (beyond ax-go, which has untyped positionals). What each type means is its
   * kind's, in the flags' registry (lib/tree/flag-kinds/).
   */
  type?: ArgType;
  /** Dynamic completion of values (shell completion). */
  completer?: Completer;
  /**
   * Example values (strings, or numbers for an `int`/`float` argument): the inputSchema's
   * `examples`, clispec's, `__schema`'s and help's. Checked when the command is built.
   */
  examples?: readonly (string | number)[];
}

/** What an Args validator sees: the command's display path and its declarations. */
export interface ArgsTarget {
  /** Full command path, e.g. `tasks show`. */
  commandPath: string;
  /** Cobra's ValidArgs for {@link OnlyValidArgs}. */
  validArgs?: readonly string[];
  /** Named positional declarations. */
  args: readonly ArgSpec[];
}

/** Cobra's PositionalArgs: throws a `validation_error` when the positionals do not fit. */
export type ArgsValidator = (target: ArgsTarget, args: readonly string[]) => void;

function usageError(target: ArgsTarget, message: string, reason: string, extra: Record<string, unknown> = {}) {
  return validationError(message, reason, {
    context: { command: target.commandPath, ...extra },
    fix: `Run '${target.commandPath} --help' to see the arguments it takes.`,
    usage: target.commandPath,
  });
}

/** Accepts any positionals. */
export const ArbitraryArgs: ArgsValidator = () => {};

/** Refuses any positional (`unknown command` for the first, like Cobra). */
export const NoArgs: ArgsValidator = (t, args) => {
  if (args.length > 0) {
    throw usageError(
      t,
      `unknown command ${JSON.stringify(args[0])} for ${JSON.stringify(t.commandPath)}`,
      'unknown_command',
      { received: args[0] },
    );
  }
};

/** Exactly n positionals. */
export function ExactArgs(n: number): ArgsValidator {
  return (t, args) => {
    if (args.length !== n) {
      throw usageError(
        t,
        `accepts ${n} arg(s), received ${args.length}`,
        args.length < n ? 'missing_argument' : 'too_many_arguments',
        { expected: n, received: args.length },
      );
    }
  };
}

/** At least n positionals. */
export function MinimumNArgs(n: number): ArgsValidator {
  return (t, args) => {
    if (args.length < n)
      throw usageError(t, `requires at least ${n} arg(s), only received ${args.length}`, 'missing_argument', {
        min: n,
        received: args.length,
      });
  };
}

/** At most n positionals. */
export function MaximumNArgs(n: number): ArgsValidator {
  return (t, args) => {
    if (args.length > n)
      throw usageError(t, `accepts at most ${n} arg(s), received ${args.length}`, 'too_many_arguments', {
        max: n,
        received: args.length,
      });
  };
}

/** Between min and max positionals, inclusive. */
export function RangeArgs(min: number, max: number): ArgsValidator {
  return (t, args) => {
    if (args.length < min || args.length > max) {
      throw usageError(
        t,
        `accepts between ${min} and ${max} arg(s), received ${args.length}`,
        args.length < min ? 'missing_argument' : 'too_many_arguments',
        { min, max, received: args.length },
      );
    }
  };
}

/**
 * Every positional must be in the command's `validArgs` (an entry's text after a tab is its
 * description, as in Cobra). Like Cobra, a command without `validArgs` accepts any positional.
 */
export const OnlyValidArgs: ArgsValidator = (t, args) => {
  const valid = (t.validArgs ?? []).map((v) => v.split('\t')[0]!);
  if (valid.length === 0) return;
  for (const a of args) {
    if (!valid.includes(a)) {
      throw usageError(
        t,
        `invalid argument ${JSON.stringify(a)} for ${JSON.stringify(t.commandPath)}`,
        'invalid_argument',
        { argument: a, valid },
      );
    }
  }
};

/** No positional may be given twice (Cobra's NoDuplicateArgs). */
export const NoDuplicateArgs: ArgsValidator = (t, args) => {
  const seen = new Set<string>();
  for (const a of args) {
    if (seen.has(a))
      throw usageError(
        t,
        `duplicate argument ${JSON.stringify(a)} for ${JSON.stringify(t.commandPath)}`,
        'invalid_argument',
        { argument: a },
      );
    seen.add(a);
  }
};

/**
 * Exactly n positionals, each in `validArgs` (Cobra's deprecated ExactValidArgs =
 * MatchAll(ExactArgs(n), OnlyValidArgs)).
 */
export function ExactValidArgs(n: number): ArgsValidator {
  return MatchAll(ExactArgs(n), OnlyValidArgs);
}

/** Runs every validator in turn (Cobra's MatchAll). */
export function MatchAll(...validators: ArgsValidator[]): ArgsValidator {
  return (t, args) => {
    for (const v of validators) v(t, args);
  };
}

/**
 * The validator implied by named declarations: each required argument must be present (the error
 * names the first missing one), at most as many as declared unless the last is variadic, and
 * declared choices are enforced.
 */
export const DeclaredArgs: ArgsValidator = (t, args) => {
  const decls = t.args;
  let required = 0;
  for (const d of decls) if (d.required !== false) required += 1;
  if (args.length < required) {
    const missing = decls[args.length]!;
    const variadic = missing.variadic ? '...' : '';
    throw usageError(t, `missing required argument <${missing.name}${variadic}>`, 'missing_argument', {
      argument: missing.name,
      position: args.length + 1,
    });
  }
  const variadic = decls.length > 0 && decls[decls.length - 1]!.variadic;
  if (!variadic && args.length > decls.length) {
    throw usageError(
      t,
      decls.length === 0
        ? `${JSON.stringify(t.commandPath)} takes no arguments, received ${JSON.stringify(args[0])}`
        : `too many arguments: ${JSON.stringify(t.commandPath)} takes at most ${decls.length}, received ${args.length}`,
      'too_many_arguments',
      { max: decls.length, received: args.length, unexpected: args[decls.length] },
    );
  }
  for (let i = 0; i < args.length; i++) {
    const value = args[i]!;
    const d = decls[Math.min(i, decls.length - 1)];
    const kind = d && argKindOf(d).positional;
    if (kind && kind.fromWord(value) === null) {
      // a whole number past ±2^53 is an integer JavaScript cannot hold exactly: say so, as flags do
      const expected = `${kind.expected}${kind.pastRange(value) ? ' within ±2^53' : ''}`;
      throw usageError(
        t,
        `invalid value ${JSON.stringify(value)} for <${d.name}>: expected ${expected}`,
        'invalid_argument',
        { argument: d.name, value, expected },
      );
    }
    if (d?.choices && !d.choices.includes(value)) {
      throw usageError(
        t,
        `invalid value ${JSON.stringify(value)} for <${d.name}>: expected one of ${d.choices.join('|')}`,
        'invalid_argument',
        { argument: d.name, value },
      );
    }
  }
};

/**
 * The value a positional's word gives the handler, as its kind reads it (a number for an `int` or
 * `float` argument); the word itself when it is not one (the run refuses it: {@link DeclaredArgs}).
 */
export function argValue(d: ArgSpec, word: string): string | number {
  return (argKindOf(d).positional.fromWord(word) as string | number | null) ?? word;
}

/** Whether the positional's kind takes a JSON value (its `fromJson`), from `choices` when given. */
function jsonAccepts(d: ArgSpec, choices: readonly string[] | undefined, value: unknown): boolean {
  try {
    argKindOf(d).fromJson({ type: d.type ?? 'string', ...(choices ? { choices } : {}) }, value, REFUSED);
    return true;
  } catch (e) {
    if (e === refused) return false;
    throw e;
  }
}
/** The mark `jsonAccepts` has a kind throw for a value it refuses (never seen outside this module). */
let refused: AxError | undefined;
const REFUSED = () => (refused ??= validationError('refused', 'invalid_argument'));

/**
 * Whether `value` is a value of the positional's type as structured input (MCP arguments,
 * `--args-json`): a JSON number for an `int` (a safe integer) or `float` (finite) one, else a string.
 * Its choices are checked later, with the command line's words ({@link DeclaredArgs}).
 */
export function argJsonOk(d: ArgSpec, value: unknown): boolean {
  return jsonAccepts(d, undefined, value);
}

/**
 * Reads argument declarations from a `use` line: `<id>` required, `[id]` optional, a trailing `...`
 * variadic (`<title...>`, `[files...]`). Words that are not bracketed (the name, `[flags]`) are ignored.
 */
export function argsFromUse(use: string): ArgSpec[] {
  const out: ArgSpec[] = [];
  for (const m of use.matchAll(/([<[])([A-Za-z0-9_-]+)(\.\.\.)?[>\]](\.\.\.)?/g)) {
    if (m[2] === 'flags' && m[1] === '[') continue;
    out.push({ name: m[2]!, required: m[1] === '<', variadic: Boolean(m[3] || m[4]) });
  }
  return out;
}

/**
 * Checks a declaration list: names unique and well-formed, only the last variadic, no required
 * after optional. @throws TypeError naming the command and the problem.
 */
export function checkArgDecls(commandPath: string, decls: readonly ArgSpec[]): void {
  const seen = new Set<string>();
  let optionalSeen = false;
  decls.forEach((d, i) => {
    if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(d.name))
      throw new TypeError(
        `${commandPath}: argument name ${JSON.stringify(d.name)} must match ^[A-Za-z][A-Za-z0-9_-]*$`,
      );
    if (seen.has(d.name)) throw new TypeError(`${commandPath}: argument ${d.name} declared twice`);
    seen.add(d.name);
    if (d.type !== undefined && !(ARG_TYPES as readonly unknown[]).includes(d.type))
      throw new TypeError(
        `${commandPath}: argument ${d.name} has type ${JSON.stringify(d.type)}; ` +
          `a positional is one of ${ARG_TYPES.join(', ')}`,
      );
    if (d.variadic && i !== decls.length - 1)
      throw new TypeError(`${commandPath}: only the last argument may be variadic (${d.name} is not last)`);
    if (
      d.examples !== undefined &&
      (!Array.isArray(d.examples) || d.examples.length === 0 || d.examples.some((x) => !jsonAccepts(d, d.choices, x)))
    )
      throw new TypeError(
        `${commandPath}: examples of argument ${d.name} must be a non-empty list ` +
          `of ${argKindOf(d).positional.expectedItems}${d.choices ? ' from its choices' : ''}`,
      );
    if (d.required === false) optionalSeen = true;
    else if (optionalSeen) throw new TypeError(`${commandPath}: required argument ${d.name} follows an optional one`);
  });
}
