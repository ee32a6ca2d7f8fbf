/**
 * Positional arguments: named declarations (beyond ax-go) and Cobra's Args validators.
 * Source: spf13/cobra args.go.
 */
import { validationError } from '../contract/errors.ts';
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
   * can send `{"id": 7}` (beyond ax-go, which has untyped positionals).
   */
  type?: 'string' | 'int' | 'float';
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
    if (d && argNumber(d, value) === null) {
      // a whole number past ±2^53 is an integer JavaScript cannot hold exactly: say so, as flags do
      const past = d.type === 'int' && /^[+-]?\d+$/.test(value.trim());
      const expected = d.type === 'int' ? (past ? 'an integer within ±2^53' : 'an integer') : 'a number';
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
 * The number a typed argument's text stands for: undefined for a string argument, null when the
 * text is not a valid `int` (safe integer) or `float` (finite number).
 */
export function argNumber(d: ArgSpec, text: string): number | null | undefined {
  if (!d.type || d.type === 'string') return undefined;
  const s = text.trim();
  if (d.type === 'int') return /^[+-]?\d+$/.test(s) && Number.isSafeInteger(Number(s)) ? Number(s) : null;
  const n = Number(s);
  return s !== '' && Number.isFinite(n) ? n : null;
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
    if (d.variadic && i !== decls.length - 1)
      throw new TypeError(`${commandPath}: only the last argument may be variadic (${d.name} is not last)`);
    if (
      d.examples !== undefined &&
      (!Array.isArray(d.examples) ||
        d.examples.length === 0 ||
        d.examples.some((x) =>
          d.type === 'int'
            ? !Number.isSafeInteger(x)
            : d.type === 'float'
              ? typeof x !== 'number' || !Number.isFinite(x)
              : typeof x !== 'string' || (d.choices !== undefined && !d.choices.includes(x)),
        ))
    )
      throw new TypeError(
        `${commandPath}: examples of argument ${d.name} must be a non-empty list ` +
          `of ${d.type === 'int' ? 'integers' : d.type === 'float' ? 'numbers' : 'strings'}${d.choices ? ' from its choices' : ''}`,
      );
    if (d.required === false) optionalSeen = true;
    else if (optionalSeen) throw new TypeError(`${commandPath}: required argument ${d.name} follows an optional one`);
  });
}
