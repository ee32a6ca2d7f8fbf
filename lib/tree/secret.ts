/**
 * Secret flags (`FlagSpec.secret`, docs/security.md#secret-flags): which flags of a command hold
 * secrets, how a command line names a secret without holding it (`@path`, `-`), and the words and
 * arguments a next step repeats with the secret's value replaced by a placeholder.
 */
import type { Command } from './command.ts';
import { takesValue, type Flag } from './flags.ts';
import { flagByShort, flagsOf } from './flagset.ts';
import { resolvedView } from './resolved.ts';

/** The flags of `cmd` declared `secret: true` (cached until the tree changes; most commands have none). */
export function secretFlags(cmd: Command): readonly Flag[] {
  return (resolvedView(cmd).secrets ??= [...flagsOf(cmd).values()].filter((f) => f.spec.secret === true));
}

/** Whether a secret flag's text names where the value is instead of being it: `-` (stdin) or `@path` (a file). */
export function isSecretReference(text: unknown): boolean {
  return text === '-' || (typeof text === 'string' && text.length > 1 && text.startsWith('@'));
}

/**
 * `argv` with the value of every secret flag given as the value itself (allowed by `secretArgv`)
 * replaced by `<name>`, the placeholder a caller fills in; `-` and `@path` are kept (they are no
 * secret). Words after `--` are positionals and kept.
 */
export function redactSecretArgv(cmd: Command, argv: readonly string[]): string[] {
  const flags = secretFlags(cmd);
  if (flags.length === 0) return [...argv];
  const out = [...argv];
  for (let i = 0; i < out.length; i++) {
    const w = out[i]!;
    if (w === '--') break;
    if (!w.startsWith('--')) {
      if (w.length > 1 && w.startsWith('-')) i = redactShorthands(cmd, out, i);
      continue;
    }
    for (const f of flags) {
      const long = `--${f.name}`;
      if (w === long && i + 1 < out.length) {
        if (!isSecretReference(out[i + 1])) out[i + 1] = `<${f.name}>`;
        i++;
      } else if (w.startsWith(`${long}=`) && !isSecretReference(w.slice(long.length + 1))) {
        out[i] = `${long}=<${f.name}>`;
      }
    }
  }
  return out;
}

/**
 * The shorthand word `out[i]` read as pflag reads it (`-k v`, `-kv`, `-k=v`, and a cluster such as
 * `-vk v` or `-vkv`, where the first letter that takes a value takes the rest of the word, else the
 * next word), with a secret's value replaced by `<name>` in `out`.
 * @returns the index of the last word the shorthands read.
 */
function redactShorthands(cmd: Command, out: string[], i: number): number {
  const body = out[i]!.slice(1);
  for (let j = 0; j < body.length; j++) {
    const f = flagByShort(cmd, body[j]!);
    if (!f) return i; // pflag refuses the word: there is no value to hide
    const eq = body[j + 1] === '=';
    if (!eq && !takesValue(f.spec)) continue;
    const rest = body.slice(j + (eq ? 2 : 1));
    if (rest === '' && !eq) {
      if (i + 1 >= out.length) return i;
      if (f.spec.secret === true && !isSecretReference(out[i + 1])) out[i + 1] = `<${f.name}>`;
      return i + 1;
    }
    if (f.spec.secret === true && !isSecretReference(rest)) out[i] = `-${body.slice(0, j + 1)}<${f.name}>`;
    return i;
  }
  return i;
}

/**
 * `args` (MCP tool arguments or an `--args-json` object, keyed by property) with every secret's
 * value replaced by its `<property>` placeholder. Over MCP (`references` false) every value is the
 * secret itself; in an `--args-json` object `-` and `@path` are kept.
 */
export function redactSecretArgs(
  cmd: Command,
  args: Record<string, unknown>,
  references: boolean,
): Record<string, unknown> {
  const flags = secretFlags(cmd);
  if (flags.length === 0) return args;
  const out = { ...args };
  for (const f of flags) {
    const p = f.name.replace(/-/g, '_');
    const v = out[p];
    if (v === undefined || v === null || (references && isSecretReference(v))) continue;
    out[p] = `<${p}>`;
  }
  return out;
}
