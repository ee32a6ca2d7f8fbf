/**
 * The flag-kind registry: one {@link FlagKind} per {@link FlagType}. Everything that depends on a
 * flag's type — reading argv text and JSON values, defaults, the inputSchema, help, the clispec
 * type, write-back as arguments, completion — asks its kind here, so a type added to FLAG_TYPES
 * does not compile until it has a kind, and a kind does not compile until it has every member. A
 * positional's type is a kind of this registry too: a type in ARG_TYPES has an {@link ArgKind}
 * (docs/architecture.md#a-new-positional-type).
 * See docs/architecture.md#a-new-flag-type.
 */
import type { ArgType, FlagSpec, FlagType, FlagValueOf } from '../flag-spec.ts';
import type { ArgKind, FlagKind } from './kind.ts';
import { jsonKind } from './json.ts';
import {
  boolSliceKind,
  durationSliceKind,
  floatSliceKind,
  intSliceKind,
  stringArrayKind,
  stringSliceKind,
  uintSliceKind,
} from './lists.ts';
import { stringToIntKind, stringToStringKind } from './maps.ts';
import { boolKind, countKind, durationKind, floatKind, intKind, stringKind, uintKind } from './scalars.ts';

export type { ArgKind, FlagKind, JsonFail, PositionalKind, SchemaNode } from './kind.ts';

/**
 * The kind of type T: a {@link FlagKind} holding T's value, and for a type a positional may have
 * (ARG_TYPES) an {@link ArgKind}, which also reads a command-line word as a positional.
 */
export type KindOf<T extends FlagType> = T extends ArgType ? ArgKind<FlagValueOf<T>> : FlagKind<FlagValueOf<T>>;

/** Every flag type's kind, typed so that each type has one, holding that type's value. */
export const FLAG_KINDS: { readonly [T in FlagType]: KindOf<T> } = {
  string: stringKind,
  bool: boolKind,
  int: intKind,
  uint: uintKind,
  float: floatKind,
  duration: durationKind,
  count: countKind,
  stringSlice: stringSliceKind,
  stringArray: stringArrayKind,
  intSlice: intSliceKind,
  uintSlice: uintSliceKind,
  boolSlice: boolSliceKind,
  floatSlice: floatSliceKind,
  durationSlice: durationSliceKind,
  stringToString: stringToStringKind,
  stringToInt: stringToIntKind,
  json: jsonKind,
};

/** The kind of a declared flag (its `type` was checked when the flag was declared: checkFlagDecl). */
export function kindOf(spec: Pick<FlagSpec, 'type'>): FlagKind {
  return FLAG_KINDS[spec.type] as FlagKind;
}

/**
 * The kind of a declared positional argument: its `type`'s, `string` when none is given (the type
 * was checked when the command was declared: checkArgDecls).
 */
export function argKindOf(arg: { readonly type?: ArgType | undefined }): ArgKind {
  return FLAG_KINDS[arg.type ?? 'string'] as ArgKind;
}
