/**
 * The `flags` of an ax document's command entry (docs/schema.md#flags), lean: a persistent flag is
 * written once, where it is declared (the injected ones on the root), and applies to every command
 * below; a command lists an inherited flag again only where it differs there (a reference: `name`,
 * `type`, `inherited: true` and what differs). ax-go's fields keep their names and meaning; ax-ts's
 * own are written only where they say something. The injected `--help` (every command) and
 * `--version` (the root) are left out in their standard form, as ax-go's documents leave Cobra's out.
 */
import type { Command } from '../tree/command.ts';
import type { Flag } from '../tree/flags.ts';
import { flagsOf, visibleFlags } from '../tree/flagset.ts';

type Json = Record<string, unknown>;

/**
 * A flag's entry where it is declared (or, on the root, injected): ax-go's `name`, `type`,
 * `shorthand`, `default`, `usage`, `required`, then ax-ts's additions, each only when it says
 * something: never `--name` or the property name (both follow from the name), never a mark at its
 * default.
 */
export function flagEntry(f: Flag, inherited: boolean): Json {
  const e: Json = { name: f.name, type: f.spec.type };
  if (f.spec.short) e.shorthand = f.spec.short;
  if (f.spec.default !== undefined) e.default = f.spec.default;
  if (f.spec.usage) e.usage = f.spec.usage;
  if (f.spec.required === true) e.required = true;
  if (f.spec.choices) e.choices = [...f.spec.choices];
  if (f.spec.examples) e.examples = [...f.spec.examples];
  if (f.persistent) e.persistent = true;
  if (f.spec.negatable) e.negatable = true;
  if (f.spec.deprecated) e.deprecated = f.spec.deprecated;
  if (f.spec.shorthandDeprecated !== undefined) e.shorthand_deprecated = f.spec.shorthandDeprecated;
  // a flag kept out of MCP (`mcp: false`) has no property: no tool or --args-json accepts it
  if (f.spec.mcp === false) e.mcp = false;
  if (f.spec.schema) e.schema = f.spec.schema;
  if (f.spec.env !== undefined) e.env = f.spec.env;
  if (f.spec.config !== undefined) e.config_key = f.spec.config;
  if (f.spec.secret) e.secret = f.spec.secretArgv ? 'argv_allowed' : 'env_file_stdin';
  if (f.builtin) e.builtin = true;
  if (f.traversedFrom !== undefined) e.traversed_from = f.traversedFrom;
  if (inherited) e.inherited = true;
  return e;
}

/** The marks a reference never repeats: they are the declaration's, or say it is a reference. */
const REFERENCE_OMITS = new Set(['persistent', 'builtin', 'inherited']);

/**
 * Where the inherited flag `f` of `cmd` is declared within the document (whose top command is
 * `top`): the nearest ancestor that lists it as its own persistent flag (the top lists every flag it
 * inherits), or undefined when none does (an injected flag its root leaves out).
 */
function declarationOf(cmd: Command, f: Flag, top: Command): Flag | undefined {
  for (let a = cmd.parent; a; a = a.parent) {
    const g = flagsOf(a).get(f.name);
    if (g && g.persistent && (a === top || !g.inherited)) return g.spec.hidden ? undefined : g;
    if (a === top) return undefined;
  }
  return undefined;
}

/**
 * An inherited flag's reference: `name`, `type`, `inherited: true` and each field whose value
 * differs from its declaration (`"shorthand": ""` where the letter went to a flag of
 * the command's own). The injected `--idempotency-key`'s usage is never repeated: what it says per
 * command follows from the command's `replays` and `effects`.
 */
function referenceEntry(f: Flag, decl: Flag): Json {
  const own = flagEntry(f, true);
  const base = flagEntry(decl, true);
  const e: Json = { name: f.name, type: f.spec.type, inherited: true };
  for (const [k, v] of Object.entries(own))
    if (!REFERENCE_OMITS.has(k) && !(k in e) && JSON.stringify(v) !== JSON.stringify(base[k]))
      if (!(k === 'usage' && f.builtin && f.name === 'idempotency-key')) e[k] = v;
  if (base.shorthand !== undefined && own.shorthand === undefined) e.shorthand = '';
  return e;
}

/** Whether `f` is the injected `--help` or the root's injected `--version` in its standard form. */
function standardInjected(cmd: Command, f: Flag): boolean {
  if (!f.builtin || f.inherited) return false;
  // a paged command's --limit and --cursor: its output.paging and the document's paging say them once
  if (f.name === 'limit' || f.name === 'cursor') return !f.persistent && !!cmd.output?.paging;
  if (f.name === 'help') return f.spec.short === 'h' && f.spec.usage === `help for ${cmd.name}`;
  if (f.name === 'version') return f.spec.short === 'v' && f.spec.usage === `version for ${cmd.name}`;
  return false;
}

/**
 * The entries of one document, memoized: most commands share their references and the injected
 * flags' entries, the same Flag data each time (docs/performance.md). Shared within one document only.
 */
export class FlagEntries {
  private readonly memo = new WeakMap<Flag['spec'], Map<string, Json>>();
  private readonly top: Command;

  /** @param top the document's top command (the root, or the command a drill-in describes). */
  constructor(top: Command) {
    this.top = top;
  }

  /**
   * The `flags` of `cmd`'s entry: its own flags, then the inherited ones it does not inherit as
   * declared, then traversed ones, each by name.
   */
  of(cmd: Command): Json[] {
    const { local, inherited, traversed } = visibleFlags(cmd);
    const out: Json[] = [];
    for (const f of local) if (!standardInjected(cmd, f)) out.push(this.entry(f, '', () => flagEntry(f, false)));
    for (const f of inherited) {
      const decl = cmd === this.top ? undefined : declarationOf(cmd, f, this.top);
      if (!decl) out.push(this.entry(f, 'i', () => flagEntry(f, true)));
      else if (decl.spec !== f.spec) {
        const ref = this.entry(f, 'r', () => referenceEntry(f, decl));
        if (Object.keys(ref).length > 3) out.push(ref);
      }
    }
    for (const f of traversed) out.push(this.entry(f, `t\0${f.traversedFrom}`, () => flagEntry(f, true)));
    return out;
  }

  /** The memoized entry of `f` (keyed by its spec, name and how it is written). */
  private entry(f: Flag, how: string, make: () => Json): Json {
    let bySpec = this.memo.get(f.spec);
    if (!bySpec) this.memo.set(f.spec, (bySpec = new Map()));
    const key = `${f.name}\0${how}\0${f.persistent ? 1 : 0}${f.builtin ? 1 : 0}`;
    let e = bySpec.get(key);
    if (!e) bySpec.set(key, (e = make()));
    return e;
  }
}
