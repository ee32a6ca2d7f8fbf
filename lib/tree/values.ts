/**
 * The typed values a handler reads: `ctx.flags` and `ctx.args` computed, at the type level, from a
 * command's flag and positional declarations (camelCase keys).
 */
import type { FlagSpec, FlagType, FlagTypeWithZero, FlagValueOf } from './flags.ts';
import type { ArgType } from './flag-spec.ts';
import type { ArgSpec } from './args.ts';

/** Flag declarations of one command, keyed by long name. */
export type FlagDecls = Record<string, FlagSpec>;

/** `max-width` → `maxWidth`, at the type level. */
export type CamelCase<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;

type ValueOfSpec<S extends FlagSpec> = S['choices'] extends readonly (infer C)[]
  ? S['type'] extends 'string'
    ? C
    : FlagValueOf<S['type']>
  : FlagValueOf<S['type'] & FlagType>;
type Defined<S extends FlagSpec> = S['type'] extends FlagTypeWithZero
  ? true
  : S['required'] extends true
    ? true
    : S extends { default: unknown }
      ? true
      : false;

/** The typed `ctx.flags` object for a command's own declarations (camelCase keys). */
export type FlagValues<F extends FlagDecls> = string extends keyof F
  ? Record<string, unknown>
  : {
      -readonly [K in keyof F & string as CamelCase<K>]: Defined<F[K]> extends true
        ? ValueOfSpec<F[K]>
        : ValueOfSpec<F[K]> | undefined;
    };

/** The value type of one positional: its kind's value (a number for `int` and `float`), a string when untyped. */
type ArgValue<D extends ArgSpec> = D['type'] extends ArgType ? FlagValueOf<D['type']> : string;

/** The typed `ctx.args` object for named positionals (camelCase keys; variadic → string[]). */
export type ArgValues<A extends readonly ArgSpec[]> = number extends A['length']
  ? Record<string, string | string[] | number | number[] | undefined>
  : {
      -readonly [D in A[number] as CamelCase<D['name']>]: D['variadic'] extends true
        ? ArgValue<D>[]
        : D['required'] extends false
          ? ArgValue<D> | undefined
          : ArgValue<D>;
    };
