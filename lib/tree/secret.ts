/**
 * Secret flags (`FlagSpec.secret`, docs/security.md#secret-flags): which flags of a command hold
 * secrets, how a command line names a secret without holding it (`@path`, `-`), and the words and
 * arguments a next step repeats with the secret's value replaced by a placeholder.
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
    for (const f of flags) {
      const long = `--${f.name}`;
      const short = f.spec.short ? `-${f.spec.short}` : undefined;
      if ((w === long || w === short) && i + 1 < out.length) {
        if (!isSecretReference(out[i + 1])) out[i + 1] = `<${f.name}>`;
        i++;
      } else if (w.startsWith(`${long}=`) && !isSecretReference(w.slice(long.length + 1))) {
        out[i] = `${long}=<${f.name}>`;
      } else if (short && w.startsWith(short) && w.length > 2 && !w.startsWith('--')) {
        const v = w.slice(2).replace(/^=/, '');
        if (!isSecretReference(v)) out[i] = `${short}<${f.name}>`;
      }
    }
  }
  return out;
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
