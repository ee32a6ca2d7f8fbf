/**
 * Secret flags (`FlagSpec.secret`, docs/security.md#secret-flags): which flags of a command hold
 * secrets, how a command line names a secret without holding it (`@path`, `-`), and the arguments
 * a next step repeats with the secret's value replaced by a placeholder (the words of a command line:
 * lib/parse/flag-words.ts).
 */
import type { Command } from './command.ts';
import type { Flag } from './flags.ts';
import { flagsOf } from './flagset.ts';
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
