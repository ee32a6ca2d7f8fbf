/**
 * The pieces every schema-diff comparison shares: the change types, a collector, value comparison,
 * and the comparisons of parts both document shapes carry (choices, effects, output schemas, texts,
 * prompts, resources).
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

export type Json = Record<string, any>;

export function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function eq(a: unknown, b: unknown): boolean {
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}

export function canon(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canon);
  if (isObj(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canon(v[k])]),
    );
  return v;
}

export function show(v: unknown): string {
  return JSON.stringify(v) ?? 'undefined';
}

export class Collector {
  readonly changes: Change[] = [];
  add(severity: Severity, kind: string, target: string, message: string, before?: unknown, after?: unknown): void {
    const c: Change = { kind, severity, target, message };
    if (before !== undefined) c.before = before;
    if (after !== undefined) c.after = after;
    this.changes.push(c);
  }
}

export function list(v: unknown): string[] {
  return Array.isArray(v) ? v.map(String) : [];
}

/** Compares closed value sets (choices / enum). `undefined` = open (any value). */
export function diffChoices(c: Collector, target: string, what: string, before: unknown, after: unknown): void {
  const oldSet = Array.isArray(before) ? list(before) : undefined;
  const newSet = Array.isArray(after) ? list(after) : undefined;
  if (!oldSet && !newSet) return;
  if (oldSet && !newSet)
    return c.add(
      'additive',
      'choices_removed',
      target,
      `${what} no longer restricted to ${oldSet.join('|')}`,
      oldSet,
      undefined,
    );
  if (!oldSet && newSet)
    return c.add(
      'breaking',
      'choices_narrowed',
      target,
      `${what} now restricted to ${newSet.join('|')} (any value was accepted)`,
      undefined,
      newSet,
    );
  const gone = oldSet!.filter((x) => !newSet!.includes(x));
  const added = newSet!.filter((x) => !oldSet!.includes(x));
  if (gone.length)
    c.add('breaking', 'choices_narrowed', target, `${what} no longer accepts ${gone.join(', ')}`, oldSet, newSet);
  if (added.length)
    c.add('additive', 'choices_added', target, `${what} now also accepts ${added.join(', ')}`, oldSet, newSet);
}

/** Rank of effects: lower is a stronger promise. */
export const EFFECT_RANK: Record<string, number> = { read_only: 0, idempotent: 1, non_idempotent: 2 };

export function diffEffects(c: Collector, target: string, before: unknown, after: unknown): void {
  if (before === after) return;
  const ra = typeof before === 'string' ? (EFFECT_RANK[before] ?? 3) : 3;
  const rb = typeof after === 'string' ? (EFFECT_RANK[after] ?? 3) : 3;
  const name = (v: unknown) => (typeof v === 'string' ? v : 'undeclared');
  if (rb > ra)
    c.add(
      'breaking',
      'effects_weakened',
      target,
      `effects weakened from ${name(before)} to ${name(after)} (callers ` +
        `relying on it, e.g. to retry or auto-approve, are affected)`,
      before ?? null,
      after ?? null,
    );
  else
    c.add(
      'additive',
      'effects_strengthened',
      target,
      `effects strengthened from ${name(before)} to ${name(after)}`,
      before ?? null,
      after ?? null,
    );
}

export function schemaTypes(s: unknown): string[] | undefined {
  if (!isObj(s) || s.type === undefined) return undefined;
  return (Array.isArray(s.type) ? s.type.map(String) : [String(s.type)]).sort();
}

/**
 * Compares two output (payload) JSON Schemas from the consumer's side: a field removed, retyped or
 * no longer required, or an enum widened, breaks a reader; a new field is additive; any other
 * difference is info.
 */
export function diffOutputSchema(c: Collector, target: string, before: unknown, after: unknown, at = ''): void {
  if (eq(before, after)) return;
  const where = at ? `${target} output ${at}` : `${target} output`;
  if (before === undefined) return c.add('additive', 'output_schema_added', where, 'an output schema is now declared');
  if (after === undefined)
    return c.add('breaking', 'output_schema_removed', where, 'the output schema is no longer declared', before);
  if (!isObj(before) || !isObj(after))
    return c.add('info', 'output_schema_changed', where, 'the output schema changed', before, after);
  const ta = schemaTypes(before);
  const tb = schemaTypes(after);
  if (ta && tb && !eq(ta, tb)) {
    const narrowed = tb.filter((t) => !ta.includes(t));
    if (narrowed.length)
      return c.add(
        'breaking',
        'output_type_changed',
        where,
        `type changed from ${ta.join('|')} to ${tb.join('|')}`,
        before.type,
        after.type,
      );
    c.add(
      'info',
      'output_type_narrowed',
      where,
      `type narrowed from ${ta.join('|')} to ${tb.join('|')}`,
      before.type,
      after.type,
    );
  }
  diffOutputEnum(c, where, before, after);
  diffOutputFields(c, target, at, before, after);
  if (before.items !== undefined || after.items !== undefined)
    diffOutputSchema(c, target, before.items, after.items, at ? `${at}[]` : '[]');
  const rest = (s: Json) => {
    const { properties: _p, required: _r, items: _i, type: _t, enum: _e, description: _d, title: _ti, ...more } = s;
    return more;
  };
  if (!eq(rest(before), rest(after)))
    c.add('info', 'output_schema_changed', where, 'other output schema keywords changed', rest(before), rest(after));
}

/** An output enum: a value it may now hold breaks a reader; one it no longer holds is info. */
function diffOutputEnum(c: Collector, where: string, before: Json, after: Json): void {
  if (!Array.isArray(before.enum) && !Array.isArray(after.enum)) return;
  const oldE = list(before.enum);
  const newE = list(after.enum);
  const added = Array.isArray(before.enum) ? newE.filter((x) => !oldE.includes(x)) : [];
  if (!Array.isArray(after.enum) || added.length)
    c.add(
      'breaking',
      'output_enum_widened',
      where,
      `may now hold ${added.length ? added.join(', ') : 'any value'}`,
      before.enum,
      after.enum,
    );
  else if (oldE.some((x) => !newE.includes(x)))
    c.add(
      'info',
      'output_enum_narrowed',
      where,
      `no longer holds ${oldE.filter((x) => !newE.includes(x)).join(', ')}`,
      before.enum,
      after.enum,
    );
}

/** An output object's fields: removed or no longer required breaks a reader, each kept one compared in turn. */
function diffOutputFields(c: Collector, target: string, at: string, before: Json, after: Json): void {
  const pa = isObj(before.properties) ? before.properties : {};
  const pb = isObj(after.properties) ? after.properties : {};
  const ra = list(before.required);
  const rb = list(after.required);
  for (const k of Object.keys(pa)) {
    const path = at ? `${at}.${k}` : k;
    if (!(k in pb))
      c.add('breaking', 'output_field_removed', `${target} output ${path}`, `output field ${path} was removed`);
    else diffOutputSchema(c, target, pa[k], pb[k], path);
  }
  for (const k of Object.keys(pb))
    if (!(k in pa))
      c.add(
        'additive',
        'output_field_added',
        `${target} output ${at ? `${at}.${k}` : k}`,
        `new output field ${at ? `${at}.${k}` : k}`,
      );
  for (const k of ra)
    if (!rb.includes(k) && k in pb)
      c.add(
        'breaking',
        'output_field_optional',
        `${target} output ${at ? `${at}.${k}` : k}`,
        `output field ${at ? `${at}.${k}` : k} is no longer always present`,
      );
}

export function diffText(c: Collector, target: string, field: string, before: unknown, after: unknown): void {
  if ((before ?? '') !== (after ?? ''))
    c.add('info', `${field}_changed`, target, `${field} of ${target} changed`, before ?? '', after ?? '');
}

/** Prompts by name, resources by uri / uriTemplate (both shapes). */
export function diffPrompts(c: Collector, before: Json[], after: Json[]): void {
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
      if (!y)
        c.add('breaking', 'prompt_argument_removed', `${target} ${n}`, `argument ${n} of prompt ${name} was removed`);
      else if (!x.required && y.required)
        c.add(
          'breaking',
          'prompt_argument_now_required',
          `${target} ${n}`,
          `argument ${n} of prompt ${name} is now required`,
        );
      else if (x.required && !y.required)
        c.add(
          'additive',
          'prompt_argument_now_optional',
          `${target} ${n}`,
          `argument ${n} of prompt ${name} is now optional`,
        );
    }
    for (const [n, y] of argsB) {
      if (argsA.has(n)) continue;
      if (y.required)
        c.add(
          'breaking',
          'prompt_required_argument_added',
          `${target} ${n}`,
          `prompt ${name} has a new required argument ${n}`,
        );
      else
        c.add('additive', 'prompt_argument_added', `${target} ${n}`, `prompt ${name} has a new optional argument ${n}`);
    }
    diffText(c, target, 'description', p.description, q.description);
    diffText(c, target, 'template', p.template, q.template);
  }
  for (const name of pb.keys())
    if (!pa.has(name)) c.add('additive', 'prompt_added', `prompt ${name}`, `new prompt ${name}`);
}

export function diffResources(c: Collector, before: Json[], after: Json[]): void {
  const key = (r: Json) =>
    typeof r?.uri === 'string' ? r.uri : typeof r?.uriTemplate === 'string' ? r.uriTemplate : undefined;
  const byKey = (l: Json[]) => new Map(l.filter((r) => key(r) !== undefined).map((r) => [key(r)!, r]));
  const ra = byKey(before);
  const rb = byKey(after);
  for (const [k, r] of ra) {
    const s = rb.get(k);
    const target = `resource ${k}`;
    if (!s) c.add('breaking', 'resource_removed', target, `resource ${k} was removed`);
    else {
      if ((r.mimeType ?? '') !== (s.mimeType ?? ''))
        c.add(
          'breaking',
          'resource_mime_type_changed',
          target,
          `MIME type changed from ${show(r.mimeType ?? null)} to ${show(s.mimeType ?? null)}`,
          r.mimeType,
          s.mimeType,
        );
      diffText(c, target, 'name', r.name, s.name);
      diffText(c, target, 'description', r.description, s.description);
    }
  }
  for (const k of rb.keys()) if (!ra.has(k)) c.add('additive', 'resource_added', `resource ${k}`, `new resource ${k}`);
}
