/**
 * Schema diff of two `__schema --as=ax` documents: the program, its commands (each one compared by
 * ax-command.ts), prompts, resources and the error catalogue.
 */
import { type Json, isObj, Collector, list, diffText, diffPrompts, diffResources } from './core.ts';
import { diffAxCommand } from './ax-command.ts';

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
  diffProgram(c, a, b);
  diffCommands(c, a, b);
  diffPrompts(c, axPrompts(a.command, 'prompts'), axPrompts(b.command, 'prompts'));
  diffResources(c, axPrompts(a.command, 'resources'), axPrompts(b.command, 'resources'));
  diffErrors(c, Array.isArray(a.errors) ? a.errors : [], Array.isArray(b.errors) ? b.errors : []);
}

/** The program's name, schema version and mode detection. */
function diffProgram(c: Collector, a: Json, b: Json): void {
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
}

/** The commands: removed, renamed (the old name kept as an alias), changed (ax-command.ts), added. */
function diffCommands(c: Collector, a: Json, b: Json): void {
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
