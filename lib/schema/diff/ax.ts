/**
 * Schema diff of two `__schema --as=ax` documents: commands, flags, positionals, aliases, effects,
 * output, prompts, resources and the error catalogue.
 */
import {
  type Severity,
  type Json,
  isObj,
  eq,
  show,
  Collector,
  list,
  diffChoices,
  diffEffects,
  diffOutputSchema,
  diffText,
  diffPrompts,
  diffResources,
} from './core.ts';

/** Commands by path below the root (`''` is the root), pre-order. */
export function axCommands(root: Json): Map<string, Json> {
  const out = new Map<string, Json>();
  const walk = (cmd: Json, rel: string) => {
    out.set(rel, cmd);
    for (const child of Array.isArray(cmd.commands) ? cmd.commands : [])
      if (isObj(child) && typeof child.name === 'string') walk(child, rel ? `${rel} ${child.name}` : child.name);
  };
  walk(root, '');
  return out;
}

export function axPrompts(root: Json, key: 'prompts' | 'resources'): Json[] {
  const out: Json[] = [];
  for (const cmd of axCommands(root).values()) if (Array.isArray(cmd[key])) out.push(...cmd[key].filter(isObj));
  return out;
}

export function diffAx(c: Collector, a: Json, b: Json): void {
  if (a.tool !== b.tool)
    c.add(
      'breaking',
      'program_renamed',
      `program ${a.tool}`,
      `the program is now called ${b.tool} (was ${a.tool})`,
      a.tool,
      b.tool,
    );
  if (a.schema_version !== b.schema_version)
    c.add(
      'info',
      'schema_version_changed',
      'schema_version',
      `schema_version changed from ${a.schema_version} to ${b.schema_version}`,
      a.schema_version,
      b.schema_version,
    );
  if (a.mode_detection !== b.mode_detection)
    c.add(
      'breaking',
      'mode_detection_changed',
      'mode_detection',
      'the output mode is detected differently',
      a.mode_detection,
      b.mode_detection,
    );
  const ca = axCommands(a.command);
  const cb = axCommands(b.command);
  const name = (rel: string, doc: Json) =>
    rel ? `${doc.tool ?? doc.command.name} ${rel}` : String(doc.tool ?? doc.command.name);
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
      const heir = [...cb.entries()].find(
        ([k, v]) => k !== '' && parentOf(k) === parent && !ca.has(k) && list(v.aliases).includes(oldName),
      );
      if (heir) {
        renamedTo.add(heir[0]);
        const tools = [rel, ...subtree].filter(
          (k) => isObj(ca.get(k)!.mcp) && typeof ca.get(k)!.mcp.tool === 'string',
        ).length;
        const msg = `command ${name(rel, a)} was renamed to ${name(heir[0], b)} (the old name still works as an alias`;
        if (tools)
          c.add(
            'breaking',
            'command_renamed',
            name(rel, a),
            `${msg}, but ${tools} MCP tool name${tools > 1 ? 's' : ''} change)`,
            oldName,
            heir[1].name,
          );
        else c.add('info', 'command_renamed', name(rel, a), `${msg})`, oldName, heir[1].name);
        continue;
      }
      const below = subtree.length;
      c.add(
        'breaking',
        'command_removed',
        name(rel, a),
        `command ${name(rel, a)} was removed${below ? ` (with ${below} subcommand${below > 1 ? 's' : ''})` : ''}`,
      );
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

export function diffErrors(c: Collector, before: Json[], after: Json[]): void {
  const ea = new Map(before.filter(isObj).map((e) => [String(e.kind), e]));
  const eb = new Map(after.filter(isObj).map((e) => [String(e.kind), e]));
  for (const [k, e] of ea) {
    const f = eb.get(k);
    if (!f) c.add('breaking', 'error_kind_removed', `error ${k}`, `error kind ${k} was removed from the catalogue`);
    else {
      if (e.exit_code !== f.exit_code)
        c.add(
          'breaking',
          'error_exit_code_changed',
          `error ${k}`,
          `error kind ${k} now exits ${f.exit_code} (was ${e.exit_code})`,
          e.exit_code,
          f.exit_code,
        );
      if (Boolean(e.retryable) !== Boolean(f.retryable))
        c.add(
          'info',
          'error_retryable_changed',
          `error ${k}`,
          `error kind ${k} is ${f.retryable ? 'now' : 'no longer'} retryable`,
          Boolean(e.retryable),
          Boolean(f.retryable),
        );
      diffText(c, `error ${k}`, 'description', e.description, f.description);
    }
  }
  for (const k of eb.keys())
    if (!ea.has(k))
      c.add('additive', 'error_kind_added', `error ${k}`, `new error kind ${k} (exit ${eb.get(k)!.exit_code})`);
}

export function argLabel(a: Json): string {
  return `<${a.name}${a.variadic ? '...' : ''}>`;
}

/**
 * Compares one command present in both documents. @returns the flag-change keys reported here, so
 * that children inheriting the same flag do not repeat them.
 */
export function diffAxCommand(c: Collector, path: string, x: Json, y: Json, parentReported: Set<string>): Set<string> {
  const here = new Set<string>();
  // Runnable and MCP.
  if (x.runnable === true && y.runnable === false)
    c.add('breaking', 'command_not_runnable', path, `${path} no longer runs (it became a pure group)`);
  if (x.runnable === false && y.runnable === true)
    c.add('additive', 'command_runnable', path, `${path} now runs on its own`);
  const toolA = isObj(x.mcp) ? x.mcp.tool : undefined;
  const toolB = isObj(y.mcp) ? y.mcp.tool : undefined;
  if (typeof toolA === 'string' && typeof toolB === 'string' && toolA !== toolB)
    c.add('breaking', 'tool_renamed', path, `MCP tool of ${path} renamed from ${toolA} to ${toolB}`, toolA, toolB);
  else if (typeof toolA === 'string' && typeof toolB !== 'string')
    c.add(
      'breaking',
      'tool_dropped',
      path,
      `${path} is no longer an MCP tool (was ${toolA}; now ${isObj(y.mcp) ? y.mcp.reason : 'not a tool'})`,
      toolA,
      null,
    );
  else if (typeof toolA !== 'string' && typeof toolB === 'string')
    c.add('additive', 'tool_added', path, `${path} is now the MCP tool ${toolB}`, null, toolB);
  // Aliases.
  const aa = list(x.aliases);
  const ab = list(y.aliases);
  for (const al of aa)
    if (!ab.includes(al)) c.add('breaking', 'alias_removed', path, `alias ${al} of ${path} was removed`, al);
  for (const al of ab)
    if (!aa.includes(al)) c.add('additive', 'alias_added', path, `${path} has a new alias ${al}`, undefined, al);
  // Effects and output.
  diffEffects(c, path, x.effects, y.effects);
  const oa = isObj(x.output) ? x.output : undefined;
  const ob = isObj(y.output) ? y.output : undefined;
  if ((oa?.kind ?? 'data') !== (ob?.kind ?? 'data') && (oa || ob))
    c.add(
      'breaking',
      'output_kind_changed',
      path,
      `output kind changed from ${oa?.kind ?? 'data'} to ${ob?.kind ?? 'data'}`,
      oa?.kind ?? 'data',
      ob?.kind ?? 'data',
    );
  else diffOutputSchema(c, path, oa?.schema, ob?.schema);
  // Positionals.
  diffArgs(
    c,
    path,
    Array.isArray(x.args) ? x.args.filter(isObj) : [],
    Array.isArray(y.args) ? y.args.filter(isObj) : [],
  );
  // Flags.
  const fa = new Map<string, Json>(
    (Array.isArray(x.flags) ? x.flags : []).filter(isObj).map((f: Json) => [String(f.name), f]),
  );
  const fb = new Map<string, Json>(
    (Array.isArray(y.flags) ? y.flags : []).filter(isObj).map((f: Json) => [String(f.name), f]),
  );
  const report = (
    sev: Severity,
    kind: string,
    flag: string,
    message: string,
    inherited: boolean,
    before?: unknown,
    after?: unknown,
  ) => {
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
    if (f.type !== g.type)
      report(
        'breaking',
        'flag_type_changed',
        n,
        `flag --${n} of ${path} changed type from ${f.type} to ${g.type}`,
        inhBoth,
        f.type,
        g.type,
      );
    if (f.required !== true && g.required === true)
      report('breaking', 'flag_now_required', n, `flag --${n} of ${path} is now required`, inhBoth);
    if (f.required === true && g.required !== true)
      report('additive', 'flag_now_optional', n, `flag --${n} of ${path} is no longer required`, inhBoth);
    if (f.shorthand && f.shorthand !== g.shorthand)
      report(
        'breaking',
        'flag_shorthand_removed',
        n,
        `shorthand -${f.shorthand} of --${n} (${path}) was ${g.shorthand ? `changed to -${g.shorthand}` : 'removed'}`,
        inhBoth,
        f.shorthand,
        g.shorthand ?? null,
      );
    else if (!f.shorthand && g.shorthand)
      report(
        'additive',
        'flag_shorthand_added',
        n,
        `--${n} of ${path} has a new shorthand -${g.shorthand}`,
        inhBoth,
        undefined,
        g.shorthand,
      );
    if (f.negatable === true && g.negatable !== true)
      report('breaking', 'flag_negation_removed', n, `--no-${n} of ${path} was removed`, inhBoth);
    const mark = c.changes.length;
    diffChoices(c, `${path} --${n}`, `flag --${n} of ${path}`, f.choices, g.choices);
    for (const ch of c.changes.splice(mark)) report(ch.severity, ch.kind, n, ch.message, inhBoth, ch.before, ch.after);
    if (!eq(f.default, g.default))
      report(
        'info',
        'flag_default_changed',
        n,
        `default of --${n} (${path}) changed from ${show(f.default ?? null)} to ${show(g.default ?? null)} (callers that omit it get different behaviour)`,
        inhBoth,
        f.default ?? null,
        g.default ?? null,
      );
    if (!f.deprecated && g.deprecated)
      report('info', 'flag_deprecated', n, `flag --${n} of ${path} is deprecated: ${g.deprecated}`, inhBoth);
    if ((f.usage ?? '') !== (g.usage ?? ''))
      report(
        'info',
        'flag_usage_changed',
        n,
        `usage of --${n} (${path}) changed`,
        inhBoth,
        f.usage ?? '',
        g.usage ?? '',
      );
  }
  for (const [n, g] of fb) {
    if (fa.has(n)) continue;
    if (g.required === true)
      report('breaking', 'required_flag_added', n, `${path} has a new required flag --${n}`, g.inherited === true);
    else report('additive', 'flag_added', n, `${path} has a new flag --${n}`, g.inherited === true);
  }
  // Flag groups: a new constraint may reject calls that worked.
  const ga = isObj(x.flag_groups) ? x.flag_groups : {};
  const gb = isObj(y.flag_groups) ? y.flag_groups : {};
  for (const kind of ['mutually_exclusive', 'required_together', 'one_required'] as const) {
    const setA = new Set((Array.isArray(ga[kind]) ? ga[kind] : []).map((g: unknown) => list(g).sort().join(',')));
    const setB = new Set((Array.isArray(gb[kind]) ? gb[kind] : []).map((g: unknown) => list(g).sort().join(',')));
    for (const g of setB)
      if (!setA.has(g))
        c.add(
          'breaking',
          'flag_group_added',
          path,
          `${path}: new ${kind.replace(/_/g, ' ')} group ${g}`,
          undefined,
          g.split(','),
        );
    for (const g of setA)
      if (!setB.has(g))
        c.add(
          'additive',
          'flag_group_removed',
          path,
          `${path}: ${kind.replace(/_/g, ' ')} group ${g} was lifted`,
          g.split(','),
        );
  }
  // Texts.
  if (!x.deprecated && y.deprecated)
    c.add('info', 'command_deprecated', path, `${path} is deprecated: ${y.deprecated}`);
  for (const field of ['short', 'long', 'example'] as const) diffText(c, path, field, x[field], y[field]);
  return here;
}

export function diffArgs(c: Collector, path: string, before: Json[], after: Json[]): void {
  const namesB = after.map((a) => String(a.name));
  for (let i = 0; i < before.length; i++) {
    const x = before[i]!;
    const y = after[i];
    const target = `${path} ${argLabel(x)}`;
    if (!y) {
      c.add(
        'breaking',
        'positional_removed',
        target,
        `positional ${argLabel(x)} (position ${i + 1}) of ${path} was removed`,
      );
      continue;
    }
    if (x.name !== y.name) {
      const moved = namesB.indexOf(String(x.name));
      if (moved >= 0)
        c.add(
          'breaking',
          'positional_reordered',
          target,
          `positional ${argLabel(x)} of ${path} moved from position ${i + 1} to ${moved + 1}`,
          i + 1,
          moved + 1,
        );
      else
        c.add(
          'breaking',
          'positional_renamed',
          target,
          `positional ${i + 1} of ${path} renamed from ${x.name} to ${y.name} (the MCP property changes)`,
          x.name,
          y.name,
        );
    }
    if (x.required === false && y.required !== false)
      c.add('breaking', 'positional_now_required', target, `positional ${argLabel(y)} of ${path} is now required`);
    if (x.required !== false && y.required === false)
      c.add('additive', 'positional_now_optional', target, `positional ${argLabel(y)} of ${path} is now optional`);
    if (Boolean(x.variadic) !== Boolean(y.variadic))
      c.add(
        'breaking',
        'positional_type_changed',
        target,
        `positional ${argLabel(x)} of ${path} is ${y.variadic ? 'now' : 'no longer'} variadic (its MCP type changes)`,
        Boolean(x.variadic),
        Boolean(y.variadic),
      );
    diffChoices(c, target, `positional ${argLabel(y)} of ${path}`, x.choices, y.choices);
    diffText(c, target, 'description', x.description, y.description);
  }
  for (let i = before.length; i < after.length; i++) {
    const y = after[i]!;
    const target = `${path} ${argLabel(y)}`;
    if (y.required !== false)
      c.add(
        'breaking',
        'required_positional_added',
        target,
        `${path} has a new required positional ${argLabel(y)} at position ${i + 1}`,
      );
    else
      c.add(
        'additive',
        'positional_added',
        target,
        `${path} has a new optional positional ${argLabel(y)} at position ${i + 1}`,
      );
  }
}
