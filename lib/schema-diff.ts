/**
 * Schema diff: classifies every change between two `__schema` documents (both `--as=ax`, or both
 * `--as=mcp`) as breaking, additive or informational, so a CI can fail a release that would break
 * the scripts and agents calling the CLI. Pure data in, data out: no IO, nothing of the MCP SDK.
 *
 * Breaking means "a call that worked against the old CLI may now fail, or mean something else":
 * a command, tool, flag, positional, alias, prompt, resource or error kind removed; a type changed;
 * a new required flag or positional; choices/enum narrowed; a tool renamed or dropped from MCP; a
 * positional reordered; new flag-group constraints; weaker effects; output fields removed or
 * retyped; an error kind's exit code changed. Additive: new commands, flags, optional positionals,
 * choices, tools, prompts, resources, error kinds; constraints relaxed. Info: texts (short, long,
 * usage, descriptions), defaults, deprecations, schema_version.
 */

/** How a change affects existing callers. */
export type Severity = 'breaking' | 'additive' | 'info';

/** One classified change. */
export interface Change {
  /** Stable machine name of the change, e.g. `flag_removed`, `tool_renamed`. */
  kind: string;
  severity: Severity;
  /** Where: `tasks add --due`, `tasks show <id>`, `tool add`, `prompt summarize`, `error not_found`. */
  target: string;
  /** One readable sentence. */
  message: string;
  /** The old value, when there is one worth showing. */
  before?: unknown;
  /** The new value, when there is one worth showing. */
  after?: unknown;
}

/** The result of {@link schemaDiff}: changes in document order, split by severity. */
export interface SchemaDiff {
  /** `ax` or `mcp`: the shape of the two documents. */
  shape: 'ax' | 'mcp';
  breaking: Change[];
  additive: Change[];
  info: Change[];
}

type Json = Record<string, any>;

/** Which `__schema` shape a parsed document has; undefined if it is neither. */
export function schemaShape(doc: unknown): 'ax' | 'mcp' | undefined {
  if (!isObj(doc)) return undefined;
  if (isObj(doc.command) && typeof doc.command.name === 'string') return 'ax';
  if (Array.isArray(doc.tools)) return 'mcp';
  return undefined;
}

function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function eq(a: unknown, b: unknown): boolean {
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}

function canon(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canon);
  if (isObj(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])]));
  return v;
}

function show(v: unknown): string {
  return JSON.stringify(v) ?? 'undefined';
}

class Collector {
  readonly changes: Change[] = [];
  add(severity: Severity, kind: string, target: string, message: string, before?: unknown, after?: unknown): void {
    const c: Change = { kind, severity, target, message };
    if (before !== undefined) c.before = before;
    if (after !== undefined) c.after = after;
    this.changes.push(c);
  }
}

/**
 * Compares two `__schema` documents (parsed JSON).
 * @throws TypeError when a document is not a `__schema` document, or the two have different shapes.
 */
export function schemaDiff(oldDoc: unknown, newDoc: unknown): SchemaDiff {
  const a = schemaShape(oldDoc);
  const b = schemaShape(newDoc);
  if (!a) throw new TypeError('schemaDiff: the old document is not a __schema document (no "command" tree and no "tools" list)');
  if (!b) throw new TypeError('schemaDiff: the new document is not a __schema document (no "command" tree and no "tools" list)');
  if (a !== b) throw new TypeError(`schemaDiff: the documents have different shapes (old: ${a}, new: ${b}); compare __schema --as=${a} with __schema --as=${a}`);
  const c = new Collector();
  if (a === 'ax') diffAx(c, oldDoc as Json, newDoc as Json);
  else diffMcp(c, oldDoc as Json, newDoc as Json);
  return {
    shape: a,
    breaking: c.changes.filter((x) => x.severity === 'breaking'),
    additive: c.changes.filter((x) => x.severity === 'additive'),
    info: c.changes.filter((x) => x.severity === 'info'),
  };
}

// ---------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------

function list(v: unknown): string[] {
  return Array.isArray(v) ? v.map(String) : [];
}

/** Compares closed value sets (choices / enum). `undefined` = open (any value). */
function diffChoices(c: Collector, target: string, what: string, before: unknown, after: unknown): void {
  const oldSet = Array.isArray(before) ? list(before) : undefined;
  const newSet = Array.isArray(after) ? list(after) : undefined;
  if (!oldSet && !newSet) return;
  if (oldSet && !newSet) return c.add('additive', 'choices_removed', target, `${what} no longer restricted to ${oldSet.join('|')}`, oldSet, undefined);
  if (!oldSet && newSet) return c.add('breaking', 'choices_narrowed', target, `${what} now restricted to ${newSet.join('|')} (any value was accepted)`, undefined, newSet);
  const gone = oldSet!.filter((x) => !newSet!.includes(x));
  const added = newSet!.filter((x) => !oldSet!.includes(x));
  if (gone.length) c.add('breaking', 'choices_narrowed', target, `${what} no longer accepts ${gone.join(', ')}`, oldSet, newSet);
  if (added.length) c.add('additive', 'choices_added', target, `${what} now also accepts ${added.join(', ')}`, oldSet, newSet);
}

/** Rank of effects: lower is a stronger promise. */
const EFFECT_RANK: Record<string, number> = { read_only: 0, idempotent: 1, non_idempotent: 2 };

function diffEffects(c: Collector, target: string, before: unknown, after: unknown): void {
  if (before === after) return;
  const ra = typeof before === 'string' ? EFFECT_RANK[before] ?? 3 : 3;
  const rb = typeof after === 'string' ? EFFECT_RANK[after] ?? 3 : 3;
  const name = (v: unknown) => (typeof v === 'string' ? v : 'undeclared');
  if (rb > ra) c.add('breaking', 'effects_weakened', target, `effects weakened from ${name(before)} to ${name(after)} (callers relying on it, e.g. to retry or auto-approve, are affected)`, before ?? null, after ?? null);
  else c.add('additive', 'effects_strengthened', target, `effects strengthened from ${name(before)} to ${name(after)}`, before ?? null, after ?? null);
}

function schemaTypes(s: unknown): string[] | undefined {
  if (!isObj(s) || s.type === undefined) return undefined;
  return (Array.isArray(s.type) ? s.type.map(String) : [String(s.type)]).sort();
}

/**
 * Compares two output (payload) JSON Schemas from the consumer's side: a field removed, retyped or
 * no longer required, or an enum widened, breaks a reader; a new field is additive; any other
 * difference is info.
 */
function diffOutputSchema(c: Collector, target: string, before: unknown, after: unknown, at = ''): void {
  if (eq(before, after)) return;
  const where = at ? `${target} output ${at}` : `${target} output`;
  if (before === undefined) return c.add('additive', 'output_schema_added', where, 'an output schema is now declared');
  if (after === undefined) return c.add('breaking', 'output_schema_removed', where, 'the output schema is no longer declared', before);
  if (!isObj(before) || !isObj(after)) return c.add('info', 'output_schema_changed', where, 'the output schema changed', before, after);
  const ta = schemaTypes(before);
  const tb = schemaTypes(after);
  if (ta && tb && !eq(ta, tb)) {
    const narrowed = tb.filter((t) => !ta.includes(t));
    if (narrowed.length) return c.add('breaking', 'output_type_changed', where, `type changed from ${ta.join('|')} to ${tb.join('|')}`, before.type, after.type);
    c.add('info', 'output_type_narrowed', where, `type narrowed from ${ta.join('|')} to ${tb.join('|')}`, before.type, after.type);
  }
  if (Array.isArray(before.enum) || Array.isArray(after.enum)) {
    const oldE = list(before.enum);
    const newE = list(after.enum);
    const added = Array.isArray(before.enum) ? newE.filter((x) => !oldE.includes(x)) : [];
    if (!Array.isArray(after.enum) || added.length) c.add('breaking', 'output_enum_widened', where, `may now hold ${added.length ? added.join(', ') : 'any value'}`, before.enum, after.enum);
    else if (oldE.some((x) => !newE.includes(x))) c.add('info', 'output_enum_narrowed', where, `no longer holds ${oldE.filter((x) => !newE.includes(x)).join(', ')}`, before.enum, after.enum);
  }
  const pa = isObj(before.properties) ? before.properties : {};
  const pb = isObj(after.properties) ? after.properties : {};
  const ra = list(before.required);
  const rb = list(after.required);
  for (const k of Object.keys(pa)) {
    const path = at ? `${at}.${k}` : k;
    if (!(k in pb)) c.add('breaking', 'output_field_removed', `${target} output ${path}`, `output field ${path} was removed`);
    else diffOutputSchema(c, target, pa[k], pb[k], path);
  }
  for (const k of Object.keys(pb)) if (!(k in pa)) c.add('additive', 'output_field_added', `${target} output ${at ? `${at}.${k}` : k}`, `new output field ${at ? `${at}.${k}` : k}`);
  for (const k of ra) if (!rb.includes(k) && k in pb) c.add('breaking', 'output_field_optional', `${target} output ${at ? `${at}.${k}` : k}`, `output field ${at ? `${at}.${k}` : k} is no longer always present`);
  if (before.items !== undefined || after.items !== undefined) diffOutputSchema(c, target, before.items, after.items, at ? `${at}[]` : '[]');
  const rest = (s: Json) => {
    const { properties: _p, required: _r, items: _i, type: _t, enum: _e, description: _d, title: _ti, ...more } = s;
    return more;
  };
  if (!eq(rest(before), rest(after))) c.add('info', 'output_schema_changed', where, 'other output schema keywords changed', rest(before), rest(after));
}

function diffText(c: Collector, target: string, field: string, before: unknown, after: unknown): void {
  if ((before ?? '') !== (after ?? '')) c.add('info', `${field}_changed`, target, `${field} of ${target} changed`, before ?? '', after ?? '');
}

/** Prompts by name, resources by uri / uriTemplate (both shapes). */
function diffPrompts(c: Collector, before: Json[], after: Json[]): void {
  const byName = (l: Json[]) => new Map(l.filter((p) => typeof p?.name === 'string').map((p) => [p.name as string, p]));
  const pa = byName(before);
  const pb = byName(after);
  for (const [name, p] of pa) {
    const q = pb.get(name);
    const target = `prompt ${name}`;
    if (!q) {
      c.add('breaking', 'prompt_removed', target, `prompt ${name} was removed`);
      continue;
    }
    const argsA = new Map((Array.isArray(p.arguments) ? p.arguments : []).map((x: Json) => [x.name as string, x]));
    const argsB = new Map((Array.isArray(q.arguments) ? q.arguments : []).map((x: Json) => [x.name as string, x]));
    for (const [n, x] of argsA) {
      const y = argsB.get(n);
      if (!y) c.add('breaking', 'prompt_argument_removed', `${target} ${n}`, `argument ${n} of prompt ${name} was removed`);
      else if (!x.required && y.required) c.add('breaking', 'prompt_argument_now_required', `${target} ${n}`, `argument ${n} of prompt ${name} is now required`);
      else if (x.required && !y.required) c.add('additive', 'prompt_argument_now_optional', `${target} ${n}`, `argument ${n} of prompt ${name} is now optional`);
    }
    for (const [n, y] of argsB) {
      if (argsA.has(n)) continue;
      if (y.required) c.add('breaking', 'prompt_required_argument_added', `${target} ${n}`, `prompt ${name} has a new required argument ${n}`);
      else c.add('additive', 'prompt_argument_added', `${target} ${n}`, `prompt ${name} has a new optional argument ${n}`);
    }
    diffText(c, target, 'description', p.description, q.description);
    diffText(c, target, 'template', p.template, q.template);
  }
  for (const name of pb.keys()) if (!pa.has(name)) c.add('additive', 'prompt_added', `prompt ${name}`, `new prompt ${name}`);
}

function diffResources(c: Collector, before: Json[], after: Json[]): void {
  const key = (r: Json) => (typeof r?.uri === 'string' ? r.uri : typeof r?.uriTemplate === 'string' ? r.uriTemplate : undefined);
  const byKey = (l: Json[]) => new Map(l.filter((r) => key(r) !== undefined).map((r) => [key(r)!, r]));
  const ra = byKey(before);
  const rb = byKey(after);
  for (const [k, r] of ra) {
    const s = rb.get(k);
    const target = `resource ${k}`;
    if (!s) c.add('breaking', 'resource_removed', target, `resource ${k} was removed`);
    else {
      if ((r.mimeType ?? '') !== (s.mimeType ?? '')) c.add('breaking', 'resource_mime_type_changed', target, `MIME type changed from ${show(r.mimeType ?? null)} to ${show(s.mimeType ?? null)}`, r.mimeType, s.mimeType);
      diffText(c, target, 'name', r.name, s.name);
      diffText(c, target, 'description', r.description, s.description);
    }
  }
  for (const k of rb.keys()) if (!ra.has(k)) c.add('additive', 'resource_added', `resource ${k}`, `new resource ${k}`);
}

// ---------------------------------------------------------------------------------------------
// ax shape
// ---------------------------------------------------------------------------------------------

/** Commands by path below the root (`''` is the root), pre-order. */
function axCommands(root: Json): Map<string, Json> {
  const out = new Map<string, Json>();
  const walk = (cmd: Json, rel: string) => {
    out.set(rel, cmd);
    for (const child of Array.isArray(cmd.commands) ? cmd.commands : []) if (isObj(child) && typeof child.name === 'string') walk(child, rel ? `${rel} ${child.name}` : child.name);
  };
  walk(root, '');
  return out;
}

function axPrompts(root: Json, key: 'prompts' | 'resources'): Json[] {
  const out: Json[] = [];
  for (const cmd of axCommands(root).values()) if (Array.isArray(cmd[key])) out.push(...cmd[key].filter(isObj));
  return out;
}

function diffAx(c: Collector, a: Json, b: Json): void {
  if (a.tool !== b.tool) c.add('breaking', 'program_renamed', `program ${a.tool}`, `the program is now called ${b.tool} (was ${a.tool})`, a.tool, b.tool);
  if (a.schema_version !== b.schema_version) c.add('info', 'schema_version_changed', 'schema_version', `schema_version changed from ${a.schema_version} to ${b.schema_version}`, a.schema_version, b.schema_version);
  if (a.mode_detection !== b.mode_detection) c.add('breaking', 'mode_detection_changed', 'mode_detection', 'the output mode is detected differently', a.mode_detection, b.mode_detection);
  const ca = axCommands(a.command);
  const cb = axCommands(b.command);
  const name = (rel: string, doc: Json) => (rel ? `${doc.tool ?? doc.command.name} ${rel}` : String(doc.tool ?? doc.command.name));
  // Per-command flag changes already reported at the parent (an inherited flag) are not repeated.
  const reported = new Map<string, Set<string>>();
  const renamedTo = new Set<string>();
  const parentOf = (rel: string) => (rel.includes(' ') ? rel.slice(0, rel.lastIndexOf(' ')) : '');
  for (const [rel, x] of ca) {
    const y = cb.get(rel);
    const path = name(rel, b);
    if (!y) {
      const parent = parentOf(rel);
      if (rel !== '' && !cb.has(parent) && ca.has(parent)) continue; // the parent's removal says it
      const subtree = [...ca.keys()].filter((k) => k.startsWith(`${rel} `));
      const oldName = String(x.name);
      // Renamed, with the old name kept as an alias: the command line still works, tool names change.
      const heir = [...cb.entries()].find(([k, v]) => k !== '' && parentOf(k) === parent && !ca.has(k) && list(v.aliases).includes(oldName));
      if (heir) {
        renamedTo.add(heir[0]);
        const tools = [rel, ...subtree].filter((k) => isObj(ca.get(k)!.mcp) && typeof ca.get(k)!.mcp.tool === 'string').length;
        const msg = `command ${name(rel, a)} was renamed to ${name(heir[0], b)} (the old name still works as an alias`;
        if (tools) c.add('breaking', 'command_renamed', name(rel, a), `${msg}, but ${tools} MCP tool name${tools > 1 ? 's' : ''} change)`, oldName, heir[1].name);
        else c.add('info', 'command_renamed', name(rel, a), `${msg})`, oldName, heir[1].name);
        continue;
      }
      const below = subtree.length;
      c.add('breaking', 'command_removed', name(rel, a), `command ${name(rel, a)} was removed${below ? ` (with ${below} subcommand${below > 1 ? 's' : ''})` : ''}`);
      continue;
    }
    reported.set(rel, diffAxCommand(c, path, x, y, reported.get(parentOf(rel)) ?? new Set()));
  }
  for (const rel of cb.keys()) {
    if (ca.has(rel) || renamedTo.has(rel)) continue;
    const parent = parentOf(rel);
    if (!ca.has(parent) && cb.has(parent)) continue;
    const y = cb.get(rel)!;
    const tool = isObj(y.mcp) && typeof y.mcp.tool === 'string' ? ` (MCP tool ${y.mcp.tool})` : '';
    c.add('additive', 'command_added', name(rel, b), `new command ${name(rel, b)}${tool}`);
  }
  diffPrompts(c, axPrompts(a.command, 'prompts'), axPrompts(b.command, 'prompts'));
  diffResources(c, axPrompts(a.command, 'resources'), axPrompts(b.command, 'resources'));
  diffErrors(c, Array.isArray(a.errors) ? a.errors : [], Array.isArray(b.errors) ? b.errors : []);
}

function diffErrors(c: Collector, before: Json[], after: Json[]): void {
  const ea = new Map(before.filter(isObj).map((e) => [String(e.kind), e]));
  const eb = new Map(after.filter(isObj).map((e) => [String(e.kind), e]));
  for (const [k, e] of ea) {
    const f = eb.get(k);
    if (!f) c.add('breaking', 'error_kind_removed', `error ${k}`, `error kind ${k} was removed from the catalogue`);
    else {
      if (e.exit_code !== f.exit_code) c.add('breaking', 'error_exit_code_changed', `error ${k}`, `error kind ${k} now exits ${f.exit_code} (was ${e.exit_code})`, e.exit_code, f.exit_code);
      if (Boolean(e.retryable) !== Boolean(f.retryable)) c.add('info', 'error_retryable_changed', `error ${k}`, `error kind ${k} is ${f.retryable ? 'now' : 'no longer'} retryable`, Boolean(e.retryable), Boolean(f.retryable));
      diffText(c, `error ${k}`, 'description', e.description, f.description);
    }
  }
  for (const k of eb.keys()) if (!ea.has(k)) c.add('additive', 'error_kind_added', `error ${k}`, `new error kind ${k} (exit ${eb.get(k)!.exit_code})`);
}

function argLabel(a: Json): string {
  return `<${a.name}${a.variadic ? '...' : ''}>`;
}

/**
 * Compares one command present in both documents. @returns the flag-change keys reported here, so
 * that children inheriting the same flag do not repeat them.
 */
function diffAxCommand(c: Collector, path: string, x: Json, y: Json, parentReported: Set<string>): Set<string> {
  const here = new Set<string>();
  // Runnable and MCP.
  if (x.runnable === true && y.runnable === false) c.add('breaking', 'command_not_runnable', path, `${path} no longer runs (it became a pure group)`);
  if (x.runnable === false && y.runnable === true) c.add('additive', 'command_runnable', path, `${path} now runs on its own`);
  const toolA = isObj(x.mcp) ? x.mcp.tool : undefined;
  const toolB = isObj(y.mcp) ? y.mcp.tool : undefined;
  if (typeof toolA === 'string' && typeof toolB === 'string' && toolA !== toolB) c.add('breaking', 'tool_renamed', path, `MCP tool of ${path} renamed from ${toolA} to ${toolB}`, toolA, toolB);
  else if (typeof toolA === 'string' && typeof toolB !== 'string') c.add('breaking', 'tool_dropped', path, `${path} is no longer an MCP tool (was ${toolA}; now ${isObj(y.mcp) ? y.mcp.reason : 'not a tool'})`, toolA, null);
  else if (typeof toolA !== 'string' && typeof toolB === 'string') c.add('additive', 'tool_added', path, `${path} is now the MCP tool ${toolB}`, null, toolB);
  // Aliases.
  const aa = list(x.aliases);
  const ab = list(y.aliases);
  for (const al of aa) if (!ab.includes(al)) c.add('breaking', 'alias_removed', path, `alias ${al} of ${path} was removed`, al);
  for (const al of ab) if (!aa.includes(al)) c.add('additive', 'alias_added', path, `${path} has a new alias ${al}`, undefined, al);
  // Effects and output.
  diffEffects(c, path, x.effects, y.effects);
  const oa = isObj(x.output) ? x.output : undefined;
  const ob = isObj(y.output) ? y.output : undefined;
  if ((oa?.kind ?? 'data') !== (ob?.kind ?? 'data') && (oa || ob)) c.add('breaking', 'output_kind_changed', path, `output kind changed from ${oa?.kind ?? 'data'} to ${ob?.kind ?? 'data'}`, oa?.kind ?? 'data', ob?.kind ?? 'data');
  else diffOutputSchema(c, path, oa?.schema, ob?.schema);
  // Positionals.
  diffArgs(c, path, Array.isArray(x.args) ? x.args.filter(isObj) : [], Array.isArray(y.args) ? y.args.filter(isObj) : []);
  // Flags.
  const fa = new Map<string, Json>((Array.isArray(x.flags) ? x.flags : []).filter(isObj).map((f: Json) => [String(f.name), f]));
  const fb = new Map<string, Json>((Array.isArray(y.flags) ? y.flags : []).filter(isObj).map((f: Json) => [String(f.name), f]));
  const report = (sev: Severity, kind: string, flag: string, message: string, inherited: boolean, before?: unknown, after?: unknown) => {
    const key = `${kind}:${flag}:${show(after)}`;
    here.add(key);
    if (inherited && parentReported.has(key)) return;
    c.add(sev, kind, `${path} --${flag}`, message, before, after);
  };
  for (const [n, f] of fa) {
    const g = fb.get(n);
    const inh = f.inherited === true;
    if (!g) {
      report('breaking', 'flag_removed', n, `flag --${n} of ${path} was removed`, inh);
      continue;
    }
    const inhBoth = inh && g.inherited === true;
    if (f.type !== g.type) report('breaking', 'flag_type_changed', n, `flag --${n} of ${path} changed type from ${f.type} to ${g.type}`, inhBoth, f.type, g.type);
    if (f.required !== true && g.required === true) report('breaking', 'flag_now_required', n, `flag --${n} of ${path} is now required`, inhBoth);
    if (f.required === true && g.required !== true) report('additive', 'flag_now_optional', n, `flag --${n} of ${path} is no longer required`, inhBoth);
    if (f.shorthand && f.shorthand !== g.shorthand) report('breaking', 'flag_shorthand_removed', n, `shorthand -${f.shorthand} of --${n} (${path}) was ${g.shorthand ? `changed to -${g.shorthand}` : 'removed'}`, inhBoth, f.shorthand, g.shorthand ?? null);
    else if (!f.shorthand && g.shorthand) report('additive', 'flag_shorthand_added', n, `--${n} of ${path} has a new shorthand -${g.shorthand}`, inhBoth, undefined, g.shorthand);
    if (f.negatable === true && g.negatable !== true) report('breaking', 'flag_negation_removed', n, `--no-${n} of ${path} was removed`, inhBoth);
    const mark = c.changes.length;
    diffChoices(c, `${path} --${n}`, `flag --${n} of ${path}`, f.choices, g.choices);
    for (const ch of c.changes.splice(mark)) report(ch.severity, ch.kind, n, ch.message, inhBoth, ch.before, ch.after);
    if (!eq(f.default, g.default)) report('info', 'flag_default_changed', n, `default of --${n} (${path}) changed from ${show(f.default ?? null)} to ${show(g.default ?? null)} (callers that omit it get different behaviour)`, inhBoth, f.default ?? null, g.default ?? null);
    if (!f.deprecated && g.deprecated) report('info', 'flag_deprecated', n, `flag --${n} of ${path} is deprecated: ${g.deprecated}`, inhBoth);
    if ((f.usage ?? '') !== (g.usage ?? '')) report('info', 'flag_usage_changed', n, `usage of --${n} (${path}) changed`, inhBoth, f.usage ?? '', g.usage ?? '');
  }
  for (const [n, g] of fb) {
    if (fa.has(n)) continue;
    if (g.required === true) report('breaking', 'required_flag_added', n, `${path} has a new required flag --${n}`, g.inherited === true);
    else report('additive', 'flag_added', n, `${path} has a new flag --${n}`, g.inherited === true);
  }
  // Flag groups: a new constraint may reject calls that worked.
  const ga = isObj(x.flag_groups) ? x.flag_groups : {};
  const gb = isObj(y.flag_groups) ? y.flag_groups : {};
  for (const kind of ['mutually_exclusive', 'required_together', 'one_required'] as const) {
    const setA = new Set((Array.isArray(ga[kind]) ? ga[kind] : []).map((g: unknown) => list(g).sort().join(',')));
    const setB = new Set((Array.isArray(gb[kind]) ? gb[kind] : []).map((g: unknown) => list(g).sort().join(',')));
    for (const g of setB) if (!setA.has(g)) c.add('breaking', 'flag_group_added', path, `${path}: new ${kind.replace(/_/g, ' ')} group ${g}`, undefined, g.split(','));
    for (const g of setA) if (!setB.has(g)) c.add('additive', 'flag_group_removed', path, `${path}: ${kind.replace(/_/g, ' ')} group ${g} was lifted`, g.split(','));
  }
  // Texts.
  if (!x.deprecated && y.deprecated) c.add('info', 'command_deprecated', path, `${path} is deprecated: ${y.deprecated}`);
  for (const field of ['short', 'long', 'example'] as const) diffText(c, path, field, x[field], y[field]);
  return here;
}

function diffArgs(c: Collector, path: string, before: Json[], after: Json[]): void {
  const namesB = after.map((a) => String(a.name));
  for (let i = 0; i < before.length; i++) {
    const x = before[i]!;
    const y = after[i];
    const target = `${path} ${argLabel(x)}`;
    if (!y) {
      c.add('breaking', 'positional_removed', target, `positional ${argLabel(x)} (position ${i + 1}) of ${path} was removed`);
      continue;
    }
    if (x.name !== y.name) {
      const moved = namesB.indexOf(String(x.name));
      if (moved >= 0) c.add('breaking', 'positional_reordered', target, `positional ${argLabel(x)} of ${path} moved from position ${i + 1} to ${moved + 1}`, i + 1, moved + 1);
      else c.add('breaking', 'positional_renamed', target, `positional ${i + 1} of ${path} renamed from ${x.name} to ${y.name} (the MCP property changes)`, x.name, y.name);
    }
    if (x.required === false && y.required !== false) c.add('breaking', 'positional_now_required', target, `positional ${argLabel(y)} of ${path} is now required`);
    if (x.required !== false && y.required === false) c.add('additive', 'positional_now_optional', target, `positional ${argLabel(y)} of ${path} is now optional`);
    if (Boolean(x.variadic) !== Boolean(y.variadic)) c.add('breaking', 'positional_type_changed', target, `positional ${argLabel(x)} of ${path} is ${y.variadic ? 'now' : 'no longer'} variadic (its MCP type changes)`, Boolean(x.variadic), Boolean(y.variadic));
    diffChoices(c, target, `positional ${argLabel(y)} of ${path}`, x.choices, y.choices);
    diffText(c, target, 'description', x.description, y.description);
  }
  for (let i = before.length; i < after.length; i++) {
    const y = after[i]!;
    const target = `${path} ${argLabel(y)}`;
    if (y.required !== false) c.add('breaking', 'required_positional_added', target, `${path} has a new required positional ${argLabel(y)} at position ${i + 1}`);
    else c.add('additive', 'positional_added', target, `${path} has a new optional positional ${argLabel(y)} at position ${i + 1}`);
  }
}

// ---------------------------------------------------------------------------------------------
// mcp shape
// ---------------------------------------------------------------------------------------------

function toolsByName(doc: Json): Map<string, Json> {
  return new Map((doc.tools as unknown[]).filter(isObj).filter((t) => typeof t.name === 'string').map((t) => [t.name as string, t]));
}

function sameTool(a: Json, b: Json): boolean {
  return eq(a.inputSchema, b.inputSchema) && eq(a.outputSchema, b.outputSchema);
}

function diffMcp(c: Collector, a: Json, b: Json): void {
  const ta = toolsByName(a);
  const tb = toolsByName(b);
  const gone = [...ta.keys()].filter((n) => !tb.has(n));
  const added = [...tb.keys()].filter((n) => !ta.has(n));
  const renamedTo = new Map<string, string>();
  for (const n of gone) {
    // A removed tool and one new tool with the same schemas: most likely a rename.
    const candidates = added.filter((m) => !renamedTo.has(m) && sameTool(ta.get(n)!, tb.get(m)!));
    if (candidates.length === 1) renamedTo.set(candidates[0]!, n);
  }
  const renamedFrom = new Map([...renamedTo].map(([to, from]) => [from, to]));
  for (const [n, t] of ta) {
    const u = tb.get(n);
    if (!u) {
      const to = renamedFrom.get(n);
      if (to) c.add('breaking', 'tool_renamed', `tool ${n}`, `tool ${n} appears renamed to ${to} (same schemas)`, n, to);
      else c.add('breaking', 'tool_removed', `tool ${n}`, `tool ${n} was removed`);
      continue;
    }
    diffTool(c, n, t, u);
  }
  for (const m of added) if (!renamedTo.has(m)) c.add('additive', 'tool_added', `tool ${m}`, `new tool ${m}`);
  diffPrompts(c, Array.isArray(a.prompts) ? a.prompts.filter(isObj) : [], Array.isArray(b.prompts) ? b.prompts.filter(isObj) : []);
  const res = (d: Json) => [...(Array.isArray(d.resources) ? d.resources : []), ...(Array.isArray(d.resourceTemplates) ? d.resourceTemplates : [])].filter(isObj);
  diffResources(c, res(a), res(b));
}

function annotationsEffect(t: Json): string | undefined {
  const a = isObj(t.annotations) ? t.annotations : undefined;
  if (!a) return undefined;
  if (a.readOnlyHint === true) return 'read_only';
  if (a.idempotentHint === true) return 'idempotent';
  if (a.destructiveHint === true || a.readOnlyHint === false) return 'non_idempotent';
  return undefined;
}

function propType(s: unknown): string {
  if (!isObj(s)) return 'any';
  const t = schemaTypes(s)?.join('|') ?? 'any';
  return t === 'array' && isObj(s.items) ? `array<${schemaTypes(s.items)?.join('|') ?? 'any'}>` : t;
}

function diffTool(c: Collector, name: string, t: Json, u: Json): void {
  const target = `tool ${name}`;
  const ia = isObj(t.inputSchema) ? t.inputSchema : {};
  const ib = isObj(u.inputSchema) ? u.inputSchema : {};
  const pa = isObj(ia.properties) ? ia.properties : {};
  const pb = isObj(ib.properties) ? ib.properties : {};
  const ra = list(ia.required);
  const rb = list(ib.required);
  for (const [k, s] of Object.entries(pa)) {
    const where = `${target} ${k}`;
    const v = pb[k];
    if (v === undefined) {
      c.add('breaking', 'property_removed', where, `input ${k} of tool ${name} was removed`);
      continue;
    }
    if (propType(s) !== propType(v)) c.add('breaking', 'property_type_changed', where, `input ${k} of tool ${name} changed type from ${propType(s)} to ${propType(v)}`, propType(s), propType(v));
    diffChoices(c, where, `input ${k} of tool ${name}`, isObj(s) ? s.enum : undefined, isObj(v) ? v.enum : undefined);
    if (isObj(s) && isObj(v) && (isObj(s.items) || isObj(v.items))) diffChoices(c, where, `items of input ${k} of tool ${name}`, isObj(s.items) ? s.items.enum : undefined, isObj(v.items) ? v.items.enum : undefined);
    if (!ra.includes(k) && rb.includes(k)) c.add('breaking', 'property_now_required', where, `input ${k} of tool ${name} is now required`);
    if (ra.includes(k) && !rb.includes(k)) c.add('additive', 'property_now_optional', where, `input ${k} of tool ${name} is no longer required`);
    if (isObj(s) && isObj(v) && !eq(s.default, v.default)) c.add('info', 'property_default_changed', where, `default of input ${k} of tool ${name} changed from ${show(s.default ?? null)} to ${show(v.default ?? null)}`, s.default ?? null, v.default ?? null);
    if (isObj(s) && isObj(v)) diffText(c, where, 'description', s.description, v.description);
  }
  for (const k of Object.keys(pb)) {
    if (k in pa) continue;
    if (rb.includes(k)) c.add('breaking', 'required_property_added', `${target} ${k}`, `tool ${name} has a new required input ${k}`);
    else c.add('additive', 'property_added', `${target} ${k}`, `tool ${name} has a new optional input ${k}`);
  }
  if (ia.additionalProperties === true && ib.additionalProperties !== true) c.add('breaking', 'additional_properties_closed', target, `tool ${name} no longer accepts unknown inputs`);
  diffEffects(c, target, annotationsEffect(t), annotationsEffect(u));
  diffOutputSchema(c, target, t.outputSchema, u.outputSchema);
  diffText(c, target, 'description', t.description, u.description);
}

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** A one-line summary: `2 breaking changes, 3 additive, 1 info`. */
export function diffSummary(d: SchemaDiff): string {
  return `${plural(d.breaking.length, 'breaking change')}, ${d.additive.length} additive, ${d.info.length} info`;
}

/**
 * A readable report: a summary line, then the breaking, additive and info changes, one a line,
 * each with its kind. Plain text, no colours. Ends with a newline.
 */
export function formatDiff(d: SchemaDiff): string {
  const total = d.breaking.length + d.additive.length + d.info.length;
  if (total === 0) return `No changes between the two __schema documents (${d.shape} shape).\n`;
  const lines = [`schema diff (${d.shape} shape): ${diffSummary(d)}`];
  const section = (title: string, mark: string, changes: Change[]) => {
    if (!changes.length) return;
    lines.push('', `${title}:`);
    for (const ch of changes) lines.push(`  ${mark} ${ch.message} [${ch.kind}]`);
  };
  section('Breaking (callers may fail)', '✗', d.breaking);
  section('Additive', '+', d.additive);
  section('Info', '·', d.info);
  lines.push('', d.breaking.length ? 'Result: BREAKING — existing scripts and agents may fail against the new version.' : 'Result: compatible — no breaking change.');
  return `${lines.join('\n')}\n`;
}
