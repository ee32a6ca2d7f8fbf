/**
 * Which words of a command line belong to which flag, read as the parse reads them (parse.ts:
 * pflag's `--name value`, `--name=value`, `-n value`, `-nvalue`, clusters such as `-vt value`, `--`;
 * Cobra's Find, and Traverse under the root's `traverseChildren`). A step that drops a flag from the
 * caller's own line (the next page drops `--cursor`: docs/contract.md#paging---limit---cursor) needs
 * this, so that a word which is another flag's value (`--tag --cursor=x`) is never taken for a flag.
 */
import type { Command } from '../tree/command.ts';
import { takesValue } from '../tree/flags.ts';
import { flagByShort, flagsOf } from '../tree/flagset.ts';
import { isSecretReference, secretFlags } from '../tree/secret.ts';
import type { Invocation } from './invocation.ts';

/** One flag word and the word it reads as its value, if any: argv[from..to]. */
export interface FlagWords {
  /** The long names the words set: one, or each letter's flag of a shorthand cluster (`-vt`). */
  names: string[];
  /** Index in argv of the flag word. */
  from: number;
  /** Index in argv of the last word read: `from`, or `from + 1` when the next word is the value. */
  to: number;
}

/**
 * The flags of `inv`'s command line (`inv.argv`), each with the words it spans, in order. Words after
 * `--`, command words and positionals belong to no flag; so do all the words of a command that
 * disables flag parsing (they are its positionals).
 */
export function flagWordsOf(inv: Invocation): FlagWords[] {
  const argv = inv.argv ?? [];
  const cmd = inv.command;
  const out: FlagWords[] = [];
  // Cobra's Traverse: the flags before each command word are read by the command before it; Find
  // (the default): every flag is read by the command found (a word a flag reads never names a command)
  let level = cmd.root();
  let routing = level.traverseChildren;
  for (let i = 0; i < argv.length; i++) {
    const w = argv[i]!;
    if (w === '--') break;
    const reader = routing ? level : cmd;
    if (reader === cmd && cmd.disableFlagParsing) break;
    if (w.length > 1 && w[0] === '-') {
      const words = flagWordsAt(reader, argv, i);
      out.push(words);
      i = words.to;
      continue;
    }
    const child = routing ? level.findChild(w) : undefined;
    if (child) level = child;
    else routing = false;
  }
  return out;
}

/** The flag word `argv[i]` of a command line `cmd` reads, with the value word it takes. */
function flagWordsAt(cmd: Command, argv: readonly string[], i: number): FlagWords {
  const w = argv[i]!;
  const hasNext = i + 1 < argv.length;
  if (w.startsWith('--')) {
    const eq = w.indexOf('=');
    const name = eq >= 0 ? w.slice(2, eq) : w.slice(2);
    const f = flagsOf(cmd).get(name);
    const next = eq < 0 && hasNext && f !== undefined && takesValue(f.spec);
    return { names: [name], from: i, to: next ? i + 1 : i };
  }
  const body = w.slice(1);
  const names: string[] = [];
  for (let j = 0; j < body.length; j++) {
    const f = flagByShort(cmd, body[j]!);
    if (!f) break; // the parse refuses the word: it reads no value
    names.push(f.name);
    if (body[j + 1] === '=') break;
    // the first letter that takes a value takes the rest of the word, else the next word
    if (takesValue(f.spec)) return { names, from: i, to: j === body.length - 1 && hasNext ? i + 1 : i };
  }
  return { names, from: i, to: i };
}

/**
 * `inv`'s command line with the value of every secret flag given as the value itself (allowed by
 * `secretArgv`) replaced by `<name>`, the placeholder a caller fills in (docs/security.md#secret-flags);
 * `-` and `@path` are kept (they are no secret). Only the words the parse reads as a secret flag's
 * value are replaced: a word that is another flag's value or a positional (`--note --token x`, where
 * `--token` is the note) is kept.
 */
export function redactSecretWords(inv: Invocation): string[] {
  const out = [...(inv.argv ?? [])];
  const secrets = new Set(secretFlags(inv.command).map((f) => f.name));
  if (secrets.size === 0) return out;
  for (const { names, from, to } of flagWordsOf(inv)) {
    const name = names.at(-1)!; // the flag that reads a value is the last one a word sets
    if (!secrets.has(name)) continue;
    const w = out[from]!;
    if (to > from) {
      if (!isSecretReference(out[to])) out[to] = `<${name}>`;
    } else if (w.startsWith('--')) {
      const eq = w.indexOf('=');
      if (eq >= 0 && !isSecretReference(w.slice(eq + 1))) out[from] = `${w.slice(0, eq)}=<${name}>`;
    } else {
      const letters = names.length; // -vk<value> or -vk=<value>: the value follows the letters
      const value = w.slice(1 + letters).replace(/^=/, '');
      if (value !== '' && !isSecretReference(value)) out[from] = `-${w.slice(1, 1 + letters)}<${name}>`;
    }
  }
  return out;
}
