/**
 * The lean ax document written out in full (docs/schema.md#reading-a-lean-document): every field
 * the document leaves out because it follows from the name, sits at its default or is declared once
 * higher up, put back in place. `ax-ts schema-diff` compares expanded documents, so a lean document
 * and one written before it compare field by field; a consumer that wants every command's complete
 * flag list reads the expanded form. Pure JSON in, JSON out: no tree, no program (ax-ts's own error
 * kinds get their descriptions from the catalogue this copy of ax-ts has).
 */
import { propertyName } from '../tree/flags.ts';
import { keyUsageFor } from '../tree/flagset.ts';
import { BUILTIN_ERRORS } from '../contract/errors.ts';
import { TOOL_NAME_ANNOTATION } from '../tree/marks.ts';

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const byName = (a: Json, b: Json) => (String(a.name) < String(b.name) ? -1 : String(a.name) > String(b.name) ? 1 : 0);

/** Whether a document is already in full (written before documents were lean: its commands carry `path`). */
export function isExpanded(doc: Json): boolean {
  return isObj(doc.command) && typeof doc.command.path === 'string';
}

/** A flag entry in full: `cli`, `property` (unless `mcp: false`), `usage`, `required`, `persistent`. */
function fullFlag(f: Json, inherited: boolean, persistent = inherited): Json {
  const out: Json = { name: f.name, cli: `--${String(f.name)}` };
  if (f.mcp !== false) out.property = propertyName(String(f.name));
  for (const [k, v] of Object.entries(f)) if (k !== 'name' && k !== 'inherited') out[k] = v;
  out.usage ??= '';
  out.required ??= false;
  out.persistent ??= persistent;
  if (out.shorthand === '') delete out.shorthand;
  if (inherited) out.inherited = true;
  return out;
}

/** The injected `--help` (every command) or `--version` (the root), as the lean document leaves them out. */
function injected(name: 'help' | 'version', cmdName: string, shorts: Set<unknown>, letter: string): Json {
  const f: Json = { name, cli: `--${name}`, property: name, type: 'bool' };
  if (!shorts.has(letter)) f.shorthand = letter;
  return { ...f, usage: `${name} for ${cmdName}`, required: false, persistent: false, builtin: true };
}

/** What the walk carries down: the persistent flags in force (name → full entry) and the path. */
interface Scope {
  persistent: Map<string, Json>;
  path: string;
  /** Path words below the program's root, for default tool names. */
  below: string[];
}

/**
 * The `mcp` of an entry in full: as written (a command that is no tool for a reason other than
 * being a group), else `{tool: null, reason: "group"}`, else the tool's name: the explicit one
 * (`ax-ts/mcp/name`), else the path below the root joined with `_` (the root: the program's name).
 */
function mcpOf(cmd: Json, scope: Scope, runnable: boolean, rootName: string): Json {
  if (isObj(cmd.mcp)) return cmd.mcp;
  if (!runnable) return { tool: null, reason: 'group' };
  const ann = isObj(cmd.annotations) ? cmd.annotations : {};
  if (typeof ann[TOOL_NAME_ANNOTATION] === 'string') return { tool: ann[TOOL_NAME_ANNOTATION] };
  return { tool: scope.below.length === 0 ? rootName : scope.below.join('_') };
}

function expandCommand(cmd: Json, scope: Scope, isRoot: boolean, rootName: string): Json {
  const name = String(cmd.name);
  const runnable = cmd.runnable !== false;
  const own = (Array.isArray(cmd.flags) ? cmd.flags : []).filter(isObj);
  const local: Json[] = [];
  const refs = new Map<string, Json>();
  const traversed: Json[] = [];
  for (const f of own) {
    if (f.traversed_from !== undefined) traversed.push(fullFlag(f, true, false));
    else if (f.inherited === true) refs.set(String(f.name), f);
    else local.push(fullFlag(f, false));
  }
  const localNames = new Set(local.map((f) => f.name));
  const shorts = new Set([...local, ...scope.persistent.values()].map((f) => f.shorthand));
  if (!localNames.has('help')) local.push(injected('help', name, shorts, 'h'));
  if (isRoot && !localNames.has('version')) local.push(injected('version', name, shorts, 'v'));
  local.sort(byName);
  // the flags this command inherits: every persistent flag above, as declared, unless shadowed here
  const inherited: Json[] = [];
  for (const [n, decl] of scope.persistent) {
    if (localNames.has(n) || (n === 'dry-run' && cmd.dry_run === false && decl.builtin === true)) continue;
    const ref = refs.get(n);
    refs.delete(n);
    if (ref && ref.persistent !== undefined) inherited.push(fullFlag(ref, true));
    else inherited.push(ref ? fullFlag({ ...decl, ...ref }, true) : { ...decl, inherited: true });
    // the injected key's words say per command whether a retry replays (lib/tree/flagset.ts)
    if (n === 'idempotency-key' && decl.builtin === true && !ref)
      inherited[inherited.length - 1]!.usage = keyUsageFor(cmd.replays === true, cmd.effects as string, runnable);
  }
  for (const ref of refs.values()) inherited.push(fullFlag(ref, true));
  inherited.sort(byName);
  // below this command: its own persistent flags join (or replace) those above
  const persistent = new Map(scope.persistent);
  for (const f of [...local, ...inherited]) if (f.persistent === true) persistent.set(String(f.name), f);
  const out: Json = {
    name,
    path: scope.path,
    use: cmd.use,
    short: cmd.short ?? '',
    long: cmd.long ?? '',
    example: cmd.example ?? '',
  };
  for (const [k, v] of Object.entries(cmd)) if (!(k in out) && k !== 'commands') out[k] = v;
  out.runnable = runnable;
  out.mcp = mcpOf(cmd, scope, runnable, rootName);
  if (isObj(cmd.output)) out.output = { kind: 'data', ...cmd.output };
  if (!runnable) delete out.non_deterministic_fields;
  out.flags = [...local, ...inherited, ...traversed];
  out.args = (Array.isArray(cmd.args) ? cmd.args : []).filter(isObj).map((a, i) => ({
    name: a.name,
    property: propertyName(String(a.name)),
    position: i + 1,
    type: a.type ?? 'string',
    description: a.description ?? '',
    required: a.required !== false,
    variadic: a.variadic === true,
    ...Object.fromEntries(Object.entries(a).filter(([k]) => ['choices', 'examples'].includes(k))),
  }));
  out.commands = (Array.isArray(cmd.commands) ? cmd.commands : []).filter(isObj).map((c) =>
    expandCommand(
      c,
      {
        persistent,
        path: `${scope.path} ${String(c.name)}`,
        below: [...scope.below, String(c.name)],
      },
      false,
      rootName,
    ),
  );
  return out;
}

/** Every JSON Pointer `$ref` (`#/…`) of the document's output schemas replaced by what it points to. */
function resolveRefs(doc: Json, v: unknown, depth = 0): unknown {
  if (Array.isArray(v)) return v.map((x) => resolveRefs(doc, x, depth));
  if (!isObj(v)) return v;
  if (typeof v.$ref === 'string' && v.$ref.startsWith('#/') && Object.keys(v).length === 1 && depth < 64) {
    let at: unknown = doc;
    for (const t of v.$ref.slice(2).split('/')) {
      const key = t.replace(/~1/g, '/').replace(/~0/g, '~');
      at = Array.isArray(at) ? at[Number(key)] : isObj(at) ? at[key] : undefined;
    }
    if (at !== undefined) return resolveRefs(doc, at, depth + 1);
  }
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolveRefs(doc, x, depth)]));
}

/**
 * A lean ax document (whole tree or one command's) in full: each command with `path`, `runnable`,
 * `mcp`, every flag it accepts (its own, the injected `--help`/`--version`, each inherited one as
 * declared above), each flag and positional with `cli`/`property`/`position` and its defaults, and
 * output schemas with their references resolved. A document already in full is returned as it is.
 */
export function expandAxDocument(doc: Json): Json {
  if (!isObj(doc.command) || isExpanded(doc)) return doc;
  const resolved = resolveRefs(doc, doc) as Json;
  const top = resolved.command as Json;
  const rootName = String(resolved.tool ?? top.name);
  const path = typeof resolved.path === 'string' ? resolved.path : String(top.name);
  const below = path.split(' ').slice(1);
  const out: Json = { ...resolved };
  if (Array.isArray(resolved.errors))
    out.errors = resolved.errors.filter(isObj).map((e) => {
      const builtin = BUILTIN_ERRORS.find((b) => b.kind === e.kind);
      return {
        kind: e.kind,
        exit_code: e.exit_code,
        retryable: e.retryable === true,
        description: e.description ?? builtin?.description ?? '',
      };
    });
  out.command = expandCommand(top, { persistent: new Map(), path, below }, below.length === 0, rootName);
  return out;
}
