/**
 * The TypeScript type of a payload, read from a command's `output.schema` when TypeScript can see
 * the schema's literal shape (an object literal in the declaration: `new Command` infers it as
 * `const`), so that `run` returning `{id: 42}` for `{id: {type: 'string'}}` fails to compile. What
 * it cannot read — a schema built by a function (`Record<string, unknown>`), `$ref`, keywords it
 * does not model — is `unknown`: no constraint, never a false error. The run-time check
 * (lib/parse/output-check.ts) holds every schema whatever its type. docs/contract.md "Output schema".
 */

/** Depth guard: schemas nest; TypeScript's instantiation depth does not. */
type Deeper = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];

/** The payload type a JSON Schema (2020-12) describes, as far as it can be read; `unknown` otherwise. */
export type FromSchema<S, D extends number = 0> = D extends 10
  ? unknown
  : S extends { const: infer C }
    ? C
    : S extends { enum: readonly (infer E)[] }
      ? E
      : S extends { anyOf: readonly (infer X)[] }
        ? FromSchema<X, Deeper[D]>
        : S extends { oneOf: readonly (infer X)[] }
          ? FromSchema<X, Deeper[D]>
          : S extends { type: infer T }
            ? T extends readonly (infer U)[]
              ? OfType<U, S, D>
              : OfType<T, S, D>
            : unknown;

type OfType<T, S, D extends number> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? S extends { items: infer I }
            ? FromSchema<I, Deeper[D]>[]
            : unknown[]
          : T extends 'object'
            ? ObjectOf<S, D>
            : unknown;

type Required_<S> = S extends { required: readonly (infer R)[] } ? R : never;

type Flatten<T> = { [K in keyof T]: T[K] } & {};

type ObjectOf<S, D extends number> = S extends { properties: infer P }
  ? Flatten<
      { -readonly [K in keyof P & string as K extends Required_<S> ? K : never]: FromSchema<P[K], Deeper[D]> } & {
        -readonly [K in keyof P & string as K extends Required_<S> ? never : K]?: FromSchema<P[K], Deeper[D]>;
      }
    > &
      (S extends { additionalProperties: false } ? unknown : { [key: string]: unknown })
  : { [key: string]: unknown };

/**
 * What a `run` handler may return for an output declaration `O`: the schema's payload type (a
 * promise of it; for a stream, an iterable or async iterable of items), or anything when the
 * payload type cannot be read or the output is opaque.
 */
export type RunResultOf<O> = O extends { kind: 'opaque' }
  ? unknown
  : O extends { schema: infer S }
    ? unknown extends FromSchema<S>
      ? unknown
      : O extends { kind: 'stream' }
        ? Iterable<FromSchema<S>> | AsyncIterable<FromSchema<S>> | Promise<Iterable<FromSchema<S>>>
        : FromSchema<S> | Promise<FromSchema<S>>
    : unknown;
