/**
 * Schema diff of one command present in two `__schema --as=ax` documents: whether it runs and is an
 * MCP tool, aliases, effects and output, positionals, flags (ax-flags.ts), flag groups and texts.
 */
import { type Json, isObj, Collector, list, diffChoices, diffEffects, diffOutputSchema, diffText } from './core.ts';
import { diffFlags } from './ax-flags.ts';

/** A positional as the diff names it: `<name>`, `<name...>` when variadic. */
export function argLabel(a: Json): string {
  return `<${a.name}${a.variadic ? '...' : ''}>`;
}

/**
 * Compares one command present in both documents. @returns the flag-change keys reported here, so
 * that children inheriting the same flag do not repeat them.
 */
export function diffAxCommand(c: Collector, path: string, x: Json, y: Json, parentReported: Set<string>): Set<string> {
  diffRunnable(c, path, x, y);
  diffAliases(c, path, x, y);
  diffEffects(c, path, x.effects, y.effects);
  diffOutput(c, path, x, y);
  diffArgs(
    c,
    path,
    Array.isArray(x.args) ? x.args.filter(isObj) : [],
    Array.isArray(y.args) ? y.args.filter(isObj) : [],
  );
  const here = diffFlags(c, path, x, y, parentReported);
  diffFlagGroups(c, path, x, y);
  // Texts.
  if (!x.deprecated && y.deprecated)
    c.add('info', 'command_deprecated', path, `${path} is deprecated: ${y.deprecated}`);
  for (const field of ['short', 'long', 'example'] as const) diffText(c, path, field, x[field], y[field]);
  return here;
}

/** Whether the command runs, and the MCP tool it is. */
function diffRunnable(c: Collector, path: string, x: Json, y: Json): void {
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
}

/** Aliases removed (breaking) and added. */
function diffAliases(c: Collector, path: string, x: Json, y: Json): void {
  const aa = list(x.aliases);
  const ab = list(y.aliases);
  for (const al of aa)
    if (!ab.includes(al)) c.add('breaking', 'alias_removed', path, `alias ${al} of ${path} was removed`, al);
  for (const al of ab)
    if (!aa.includes(al)) c.add('additive', 'alias_added', path, `${path} has a new alias ${al}`, undefined, al);
}

/** The output's kind, else its schema. */
function diffOutput(c: Collector, path: string, x: Json, y: Json): void {
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
}

/** Flag groups: a new constraint may reject calls that worked. */
function diffFlagGroups(c: Collector, path: string, x: Json, y: Json): void {
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
}

/** Compares the positionals of one command, position by position. */
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
