/**
 * Unknown keys in a declaration are refused: a misspelled key (`defualt`, `optional`, `shrot`)
 * would otherwise be ignored in silence — TypeScript's excess-property check does not reach through
 * the generic `flags`/`args` inference — and the declaration would mean something else than its
 * author wrote (a default that never applies, a positional that stays required). The lists are
 * checked against the interfaces at compile time, so a new option cannot be forgotten here.
 */
import type { ArgSpec } from './args.ts';
import type { CommandConfigOf } from './command-config.ts';
import type { FlagSpec } from './flags.ts';
import { suggestionsFor } from './suggest.ts';

/** Every key of T is in the list L (a compile-time check: `never` otherwise). */
type Covers<T, L extends readonly string[]> = Exclude<keyof T, L[number]> extends never ? L : never;

const FLAG_KEYS = [
  'type',
  'short',
  'usage',
  'default',
  'choices',
  'required',
  'hidden',
  'deprecated',
  'shorthandDeprecated',
  'noOptDefVal',
  'negatable',
  'completer',
  'fileExts',
  'dirname',
  'mcp',
  'schema',
  'env',
  'config',
  'examples',
  'secret',
  'secretArgv',
] as const;
const ARG_KEYS = ['name', 'description', 'required', 'variadic', 'choices', 'type', 'completer', 'examples'] as const;

/** The keys a flag declaration accepts (FlagSpec). */
export const FLAG_SPEC_KEYS: Covers<FlagSpec, typeof FLAG_KEYS> = FLAG_KEYS;
/** The keys a positional declaration accepts (ArgSpec). */
export const ARG_SPEC_KEYS: Covers<ArgSpec, typeof ARG_KEYS> = ARG_KEYS;

/**
 * @throws TypeError `<where>: unknown <what> key "k" (did you mean "…"?); accepted: …` for the first
 * own key of `decl` not in `known`.
 */
export function checkKnownKeys(where: string, what: string, decl: object, known: readonly string[]): void {
  for (const k of Object.keys(decl)) {
    if (known.includes(k)) continue;
    const near = HINTS[k] ?? suggestionsFor(k, known)[0];
    throw new TypeError(
      `${where}: unknown ${what} ` +
        `key ${JSON.stringify(k)}${near ? ` (did you mean ${near.includes(':') ? near : JSON.stringify(near)}?)` : ''}; accepted: ${known.join(', ')}`,
    );
  }
}

/** Keys other toolkits use, and what ax-ts calls them. */
const HINTS: Record<string, string> = { optional: 'required: false', shorthand: 'short', alias: 'aliases' };

/** Compile-time check for the command configuration's key list (command.ts passes its list here). */
export function commandKeys<L extends readonly string[]>(
  list: Covers<CommandConfigOf<unknown, unknown, unknown>, L>,
): readonly string[] {
  return list;
}
