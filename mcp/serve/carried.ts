/**
 * What a server started for a client keeps of this command line: the ancestors' persistent flags
 * given with `mcp-server` (`tasks --store X mcp-server`), as the presets of every tool call and as
 * the words of the command `--print-config` and `--install` write (docs/mcp-server.md#connecting-a-client).
 */
import { isAbsolute, resolve } from 'node:path';
import type { RunContext } from '../../lib/tree/command.ts';
import { flagsOf } from '../../lib/tree/flagset.ts';
import { camelCase, type Flag, type FlagSpec } from '../../lib/tree/flags.ts';
import { flagArgv } from '../../lib/tree/flag-values.ts';

/** Injected persistent flags that have no meaning for a server a client starts (or are refused by mcp-server). */
const NOT_CARRIED = new Set(['format', 'args-json', 'idempotency-key']);

/** The ancestors' persistent flags given on this command line (those a started server should keep). */
export function givenPersistent(ctx: RunContext): Flag[] {
  return [...flagsOf(ctx.command).values()].filter(
    (f) => f.inherited && f.persistent && !NOT_CARRIED.has(f.name) && ctx.changed(f.name),
  );
}

/**
 * The values every tool call gets from the server's own command line (`tasks --store X mcp-server`
 * serves store X to every call): see InvokeOptions.presets.
 */
export function presetFlags(ctx: RunContext): Map<string, { spec: FlagSpec; value: unknown; builtin: boolean }> {
  return new Map(
    givenPersistent(ctx).map((f) => [
      f.name,
      { spec: f.spec, value: ctx.flags[camelCase(f.name)], builtin: f.builtin },
    ]),
  );
}

/**
 * The persistent flags given on this command line (`tasks --store X mcp-server --print-config`),
 * as the words that give each its value again, for the printed `args`, so the server the client
 * starts runs with them. Each value is written back by its flag kind (`--name=1m30s`, one
 * `--name=<item>` per list item, one `--name=k=v` per map pair, JSON text for json). A secret flag
 * is never written (a client's config file is no place for it): the started server reads it from the
 * flag's env or config source (docs/security.md#secret-flags).
 */
export function carriedFlags(ctx: RunContext): string[] {
  return givenPersistent(ctx)
    .filter((f) => f.spec.secret !== true)
    .flatMap((f) => flagArgv(f.name, f.spec, absolutePaths(f.spec, ctx.flags[camelCase(f.name)])));
}

/**
 * A value of a flag declared as a file or directory (`fileExts`, `dirname`) made absolute against
 * the working directory, item by item for a list: a client starts the printed command in a
 * directory of its own (a desktop client in `/`), where a relative path names another file. `-`
 * (stdin/stdout by convention) and empty values stay as given; other flags are carried as given.
 */
function absolutePaths(spec: FlagSpec, value: unknown): unknown {
  if (spec.fileExts === undefined && spec.dirname === undefined) return value;
  const abs = (v: unknown) => (typeof v === 'string' && v !== '' && v !== '-' && !isAbsolute(v) ? resolve(v) : v);
  return Array.isArray(value) ? value.map(abs) : abs(value);
}
