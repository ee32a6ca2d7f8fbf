/**
 * Schema diff of two `__schema --as=mcp` documents: tools (names, inputSchema properties, annotations,
 * output schemas), prompts and resources.
 */
import {
  type Json,
  isObj,
  eq,
  show,
  Collector,
  list,
  diffChoices,
  diffEffects,
  schemaTypes,
  diffOutputSchema,
  diffText,
  diffPrompts,
  diffResources,
} from './core.ts';

export function toolsByName(doc: Json): Map<string, Json> {
  return new Map(
    (doc.tools as unknown[])
      .filter(isObj)
      .filter((t) => typeof t.name === 'string')
      .map((t) => [t.name as string, t]),
  );
}

export function sameTool(a: Json, b: Json): boolean {
  return eq(a.inputSchema, b.inputSchema) && eq(a.outputSchema, b.outputSchema);
}

export function diffMcp(c: Collector, a: Json, b: Json): void {
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
      if (to)
        c.add('breaking', 'tool_renamed', `tool ${n}`, `tool ${n} appears renamed to ${to} (same schemas)`, n, to);
      else c.add('breaking', 'tool_removed', `tool ${n}`, `tool ${n} was removed`);
      continue;
    }
    diffTool(c, n, t, u);
  }
  for (const m of added) if (!renamedTo.has(m)) c.add('additive', 'tool_added', `tool ${m}`, `new tool ${m}`);
  diffPrompts(
    c,
    Array.isArray(a.prompts) ? a.prompts.filter(isObj) : [],
    Array.isArray(b.prompts) ? b.prompts.filter(isObj) : [],
  );
  const res = (d: Json) =>
    [
      ...(Array.isArray(d.resources) ? d.resources : []),
      ...(Array.isArray(d.resourceTemplates) ? d.resourceTemplates : []),
    ].filter(isObj);
  diffResources(c, res(a), res(b));
}

export function annotationsEffect(t: Json): string | undefined {
  const a = isObj(t.annotations) ? t.annotations : undefined;
  if (!a) return undefined;
  if (a.readOnlyHint === true) return 'read_only';
  if (a.idempotentHint === true) return 'idempotent';
  if (a.destructiveHint === true || a.readOnlyHint === false) return 'non_idempotent';
  return undefined;
}

export function propType(s: unknown): string {
  if (!isObj(s)) return 'any';
  const t = schemaTypes(s)?.join('|') ?? 'any';
  return t === 'array' && isObj(s.items) ? `array<${schemaTypes(s.items)?.join('|') ?? 'any'}>` : t;
}

/**
 * A property with its nullable wrapper unwrapped (an optional property is advertised as
 * `anyOf: [<value>, {type: null}]` beside its annotations), so that a property turning optional or
 * required compares by its value schema.
 */
function unwrap(p: unknown): unknown {
  if (!isObj(p) || !Array.isArray(p.anyOf) || p.anyOf.length !== 2) return p;
  const branches = p.anyOf as unknown[];
  const value = branches.filter((b) => !(isObj(b) && b.type === 'null'));
  if (value.length !== 1 || !isObj(value[0])) return p;
  const { anyOf: _a, ...annotations } = p;
  return { ...value[0], ...annotations };
}

function unwrapAll(props: Json): Json {
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, unwrap(v)]));
}

export function diffTool(c: Collector, name: string, t: Json, u: Json): void {
  const target = `tool ${name}`;
  const ia = isObj(t.inputSchema) ? t.inputSchema : {};
  const ib = isObj(u.inputSchema) ? u.inputSchema : {};
  const pa = unwrapAll(isObj(ia.properties) ? ia.properties : {});
  const pb = unwrapAll(isObj(ib.properties) ? ib.properties : {});
  const ra = list(ia.required);
  const rb = list(ib.required);
  for (const [k, s] of Object.entries(pa)) {
    const where = `${target} ${k}`;
    const v = pb[k];
    if (v === undefined) {
      c.add('breaking', 'property_removed', where, `input ${k} of tool ${name} was removed`);
      continue;
    }
    if (propType(s) !== propType(v))
      c.add(
        'breaking',
        'property_type_changed',
        where,
        `input ${k} of tool ${name} changed type from ${propType(s)} to ${propType(v)}`,
        propType(s),
        propType(v),
      );
    diffChoices(c, where, `input ${k} of tool ${name}`, isObj(s) ? s.enum : undefined, isObj(v) ? v.enum : undefined);
    if (isObj(s) && isObj(v) && (isObj(s.items) || isObj(v.items)))
      diffChoices(
        c,
        where,
        `items of input ${k} of tool ${name}`,
        isObj(s.items) ? s.items.enum : undefined,
        isObj(v.items) ? v.items.enum : undefined,
      );
    if (!ra.includes(k) && rb.includes(k))
      c.add('breaking', 'property_now_required', where, `input ${k} of tool ${name} is now required`);
    if (ra.includes(k) && !rb.includes(k))
      c.add('additive', 'property_now_optional', where, `input ${k} of tool ${name} is no longer required`);
    if (isObj(s) && isObj(v) && !eq(s.default, v.default))
      c.add(
        'info',
        'property_default_changed',
        where,
        `default of input ${k} of tool ${name} changed from ${show(s.default ?? null)} to ${show(v.default ?? null)}`,
        s.default ?? null,
        v.default ?? null,
      );
    if (isObj(s) && isObj(v)) diffText(c, where, 'description', s.description, v.description);
  }
  for (const k of Object.keys(pb)) {
    if (k in pa) continue;
    if (rb.includes(k))
      c.add('breaking', 'required_property_added', `${target} ${k}`, `tool ${name} has a new required input ${k}`);
    else c.add('additive', 'property_added', `${target} ${k}`, `tool ${name} has a new optional input ${k}`);
  }
  if (ia.additionalProperties === true && ib.additionalProperties !== true)
    c.add('breaking', 'additional_properties_closed', target, `tool ${name} no longer accepts unknown inputs`);
  diffEffects(c, target, annotationsEffect(t), annotationsEffect(u));
  diffOutputSchema(c, target, t.outputSchema, u.outputSchema);
  diffText(c, target, 'description', t.description, u.description);
}
