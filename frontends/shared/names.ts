/**
 * The names a twin gives agents: a flag or argument's MCP property (`dry-run` → `dry_run`) and its
 * handler key (`dry-run` → `dryRun`), as ax-ts spells them, and the refusal of names that would
 * mean two things (docs/frontends.md#what-does-not-map).
 */
import { AxError } from '../../lib/index.ts';

/**
 * The flags ax-ts adds to every twin (`--help` and the injected persistent flags, docs/contract.md,
 * but `--dry-run`: a twin declares no dry run): an option spelled like one of them after
 * snake-casing, but not the same, is refused.
 */
const INJECTED = ['help', 'format', 'idempotency-key', 'args-json', 'yes', 'strict', 'explain', 'timeout'];

/** The MCP property name of a flag or argument name (`dry-run` → `dry_run`), as ax-ts spells it. */
export function property(name: string): string {
  return name.replace(/-/g, '_');
}

/** The key ax-ts's handlers read a flag or argument under (`dry-run` → `dryRun`). */
export function camel(name: string): string {
  return name.replace(/[-_]+([a-zA-Z0-9])/g, (_, ch: string) => ch.toUpperCase());
}

/** One name a command gives agents, and what it is (`the option`, `the argument`). */
export interface NamedInput {
  name: string;
  what: string;
}

/**
 * Refuses names that would mean two things to an agent: two options (or an option and an argument)
 * of one command whose property names are equal, or an option spelled like an injected flag after
 * snake-casing but not the same. `path` names the command; `reach`, the declaration keys of the
 * commands its options reach (itself, and every command below it when they are inherited), which
 * the fix withholds. @throws AxError `validation_error` (reason `name_collision`) naming both.
 */
export function checkNames(
  path: string,
  names: readonly NamedInput[],
  reach: readonly string[] = [path.split(' ').slice(1).join(' ')],
): void {
  const seen = new Map<string, NamedInput>();
  for (const n of [...INJECTED.map((name) => ({ name, what: 'the flag ax-ts injects' })), ...names]) {
    const p = property(n.name).toLowerCase();
    const before = seen.get(p);
    if (before && !(before.what.startsWith('the flag ax-ts') && before.name === n.name)) {
      throw new AxError(
        'validation_error',
        `${path}: ${n.what} ${JSON.stringify(n.name)} collides ` +
          `with ${before.what} ${JSON.stringify(before.name)} (both ` +
          `are the property ${JSON.stringify(property(n.name))})`,
        {
          context: { reason: 'name_collision', command: path, first: before.name, second: n.name },
          fix: collisionFix(reach),
        },
      );
    }
    seen.set(p, n);
  }
}

/** The fix of a name collision: rename, or (a program one cannot change) withhold what the options reach. */
function collisionFix(reach: readonly string[]): string {
  const file = JSON.stringify(Object.fromEntries(reach.map((k) => [k, { withheld: true }])));
  const docs = '(docs/frontends.md#ax-ts-wrap-a-program-you-do-not-own)';
  const rename = 'Rename one of them in the program so each has its own property name';
  if (reach.length > 1 && reach[0] === '')
    return (
      `${rename}: the program's own options reach every command, so a program you cannot change ` +
      `(ax-ts wrap) serves no tool until then; withholding them all in its declarations file, ` +
      `${file}, lets it start with none ${docs}.`
    );
  const which = reach.length > 1 ? 'these commands (its options reach each of them) are' : 'this command is';
  return (
    `${rename}; a program you cannot change (ax-ts wrap) serves the rest once ${which} withheld from ` +
    `agents in its declarations file: ${file} ${docs}.`
  );
}
