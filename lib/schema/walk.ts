/**
 * The one tree walk behind `__schema --as=mcp` and the live MCP server: which commands are tools,
 * under which names, and the prompts and resources the tree declares. Both callers use these
 * functions, so they can never disagree. Source: docs/mcp-server.md#which-commands-become-tools.
 *
 * Layer `lib/schema/`: the one tree walk and every projection of it — the ax, mcp, clispec, llms
 * and skill documents, tool descriptions and output schemas, the `__schema`/`schema` commands,
 * schema-diff. It only reads the tree; it imports `lib/parse/`, `lib/tree/`, `lib/contract/` (and
 * `lib/help/`).
 */
import type { Command } from '../tree/command.ts';
import { nonDeterministicFields } from './nondeterministic.ts';
import { validationError } from '../contract/errors.ts';
import { inputSchema, type JsonSchema } from '../parse/input-schema.ts';
import {
  outputSchema,
  outputWrapping,
  toolAnnotations,
  toolDescription,
  type OutputWrapping,
  type ToolAnnotations,
} from './tool.ts';
import { declarationError, validatePrompt, validateResource } from '../tree/declaration-rules.ts';
import type { PromptDecl, ResourceDecl } from '../tree/declarations.ts';
import {
  AXGO_EXCLUDE_ANNOTATION,
  BUILTIN_ANNOTATION,
  EXCLUDE_ANNOTATION,
  TOOL_NAME_ANNOTATION,
} from '../tree/marks.ts';

/** Tool names accepted by every major model API (docs/mcp-server.md#which-commands-become-tools). */
export const TOOL_NAME_RE = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
/** Names reserved at the root (docs/mcp-server.md#which-commands-become-tools). */
export const RESERVED = new Set(['__schema', '__complete', '__completeNoDesc', 'mcp-server', 'completion', 'help']);
/**
 * Names reserved at every depth, as ax-go reserves them (its internal/mcp walk): `help`, and the
 * infrastructure a server may be mounted beside — `mcp-server`, `__schema`, `completion`
 * (docs/mcp-server.md#mounting).
 */
export const RESERVED_AT_ANY_DEPTH = new Set(['help', 'mcp-server', '__schema', 'completion']);

/** A command chosen as a tool, with its name; schemas are computed on demand. */
export interface ToolRef {
  name: string;
  command: Command;
}

/** A tool as `tools/list` and `__schema --as=mcp` show it. */
export interface ToolDef {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  /**
   * ax-go's `nonDeterministicFields`: the locators of output values that differ between runs
   * (docs/mcp-server.md#tools), in `_meta`, as the MCP Tool shape has no top-level slot for them.
   * Every command's tool has it; the progressive mode's own four tools do not.
   */
  _meta?: { nonDeterministicFields: string[] };
}

/** Why a command is or is not a tool (shown in `__schema --as=ax`). */
export type ToolStatus = 'tool' | 'hidden' | 'reserved' | 'group' | 'excluded';

/**
 * How a command itself is marked for exclusion: `subtree` (`ax-ts/mcp/exclude` = `"subtree"`),
 * `self` (`ax-ts/mcp/exclude` = `"true"`, or ax-go's `github.com/rshade/ax-go/mcp/exclude` = `"true"`)
 * or `none` (any other value is ignored).
 */
export function exclusionOf(cmd: Command): 'none' | 'self' | 'subtree' {
  const v = cmd.annotations[EXCLUDE_ANNOTATION];
  if (v === 'subtree') return 'subtree';
  if (v === 'true' || cmd.annotations[AXGO_EXCLUDE_ANNOTATION] === 'true') return 'self';
  return 'none';
}

/** Whether a command is kept out of the MCP tools by its own mark or by an ancestor's subtree exclusion. */
export function isExcluded(cmd: Command): boolean {
  if (exclusionOf(cmd) !== 'none') return true;
  for (let a = cmd.parent; a; a = a.parent) if (exclusionOf(a) === 'subtree') return true;
  return false;
}

/**
 * Whether a command is reserved: injected by ax-ts, a root child with a reserved name, or a command
 * named `help`, `mcp-server`, `__schema` or `completion` at any depth (ax-go reserves these
 * wherever they are: `grp help` is help, and `grp mcp-server` a server of `grp`, not a tool).
 */
export function isReserved(cmd: Command): boolean {
  return (
    cmd.annotations[BUILTIN_ANNOTATION] === 'true' ||
    (cmd.parent !== undefined &&
      (RESERVED_AT_ANY_DEPTH.has(cmd.name) || (cmd.parent.parent === undefined && RESERVED.has(cmd.name))))
  );
}

/**
 * The status of one command in the walk. Hidden (the command, an ancestor, or the root) and reserved
 * (the command or an ancestor) take their whole subtree out; so does a subtree exclusion.
 */
export function toolStatus(cmd: Command): ToolStatus {
  for (let c: Command | undefined = cmd; c; c = c.parent) if (c.hidden) return 'hidden';
  for (let c: Command | undefined = cmd; c; c = c.parent) if (isReserved(c)) return 'reserved';
  for (let a = cmd.parent; a; a = a.parent) if (exclusionOf(a) === 'subtree') return 'excluded';
  if (exclusionOf(cmd) === 'subtree') return 'excluded';
  if (!cmd.runnable()) return 'group';
  if (exclusionOf(cmd) === 'self') return 'excluded';
  return 'tool';
}

/** Whether any command below `c` is an MCP tool. */
function toolsBelow(c: Command): boolean {
  return c.commands().some((k) => toolStatus(k) === 'tool' || toolsBelow(k));
}

/**
 * One warning line per exclusion that removes no tool: a pure group excluded without `subtree`
 * (its children stay tools), or a subtree exclusion over commands none of which runs. Printed on
 * stderr by `__schema` (every `--as`) and at `mcp-server` start.
 */
export function exclusionWarnings(root: Command): string[] {
  const out: string[] = [];
  const runsBelow = (c: Command): boolean =>
    c.commands().some((k) => !k.hidden && !isReserved(k) && (k.runnable() || runsBelow(k)));
  const walk = (c: Command, inSubtree: boolean) => {
    if (c.hidden || isReserved(c)) return;
    const mark = exclusionOf(c);
    if (!inSubtree && mark === 'self' && !c.runnable()) {
      // what its subcommands are, said truly: tools, or (each excluded or hidden) none
      const below = toolsBelow(c)
        ? 'and its subcommands stay tools; use mcp.exclude(cmd, { subtree: true }) to drop it with its subcommands'
        : 'and none of its subcommands is a tool either; mcp.exclude(cmd, { subtree: true }) says that once';
      out.push(
        `warning: mcp.exclude on ${JSON.stringify(c.commandPath())} removes no ` +
          `MCP tool: it is a group without a handler, ${below}`,
      );
    } else if (!inSubtree && mark === 'subtree' && !c.runnable() && !runsBelow(c)) {
      out.push(
        `warning: mcp.exclude(cmd, { subtree: true }) on ${JSON.stringify(c.commandPath())} ` +
          `removes no MCP tool: nothing in that subtree runs`,
      );
    }
    for (const k of c.commands()) walk(k, inSubtree || mark === 'subtree');
  };
  walk(root, false);
  return out;
}

/**
 * The default tool name: the path below `base` joined with `_`; `base`'s own is its name. `base`
 * is the command whose tree is served — the root (the default), or the command `mcp-server` is
 * mounted under (docs/mcp-server.md#mounting): mounted under `grp`, `grp add` is the tool `add`.
 * An explicit `mcp.toolName` wins either way.
 */
export function defaultToolName(cmd: Command, base?: Command): string {
  const explicit = cmd.annotations[TOOL_NAME_ANNOTATION];
  if (explicit) return explicit;
  const names = cmd.pathNames();
  const depth = base ? base.pathNames().length : 1;
  return names.length <= depth ? names[names.length - 1]! : names.slice(depth).join('_');
}

/** Visits non-hidden commands in tree order (pre-order, children by name), skipping reserved subtrees when asked. */
function visit(cmd: Command, fn: (c: Command) => void, skipReserved: boolean): void {
  if (cmd.hidden && cmd.parent) return;
  if (skipReserved && isReserved(cmd)) return;
  fn(cmd);
  // A hidden root hides its whole tree: only its own declarations stay (docs/schema.md#declaration-rules).
  if (cmd.hidden) return;
  for (const c of cmd.commands()) visit(c, fn, skipReserved);
}

/**
 * The tools of a tree, in tree order, with names checked. `root` may be any command: its subtree
 * is walked and the names are relative to it ({@link defaultToolName}).
 * @throws AxError `validation_error` (exit 2) naming the command(s) when a name does not match
 *   {@link TOOL_NAME_RE} or two commands get the same name (compared with `-` read as `_`) — never
 *   a silent rename.
 */
export function toolRefs(root: Command): ToolRef[] {
  const out: ToolRef[] = [];
  const byName = new Map<string, ToolRef>();
  visit(
    root,
    (cmd) => {
      if (toolStatus(cmd) !== 'tool') return;
      const name = defaultToolName(cmd, root);
      if (!TOOL_NAME_RE.test(name)) {
        throw validationError(
          `command ${JSON.stringify(cmd.commandPath())} gives the tool name ${JSON.stringify(name)}, ` +
            `which is not accepted by model APIs (^[A-Za-z_][A-Za-z0-9_-]{0,63}$)`,
          'invalid_tool_name',
          {
            context: { command: cmd.commandPath(), tool: name },
            fix:
              `Rename the command, or set a valid name with mcp.toolName(cmd, "…") ` +
              `(annotation ${TOOL_NAME_ANNOTATION}); keep it short, clients add prefixes.`,
          },
        );
      }
      // Clients rewrite kebab-case into snake_case, so `db_migrate-up` and `db_migrate_up` collide.
      const key = name.replace(/-/g, '_');
      const prior = byName.get(key);
      if (prior) {
        const same =
          prior.name === name
            ? `both give the tool name ${JSON.stringify(name)}`
            : `give the tool names ${JSON.stringify(prior.name)} and ${JSON.stringify(name)}, ` +
              `the same once "-" is rewritten to "_" as clients do`;
        throw validationError(
          `commands ${JSON.stringify(prior.command.commandPath())} and ${JSON.stringify(cmd.commandPath())} ${same}`,
          'tool_name_collision',
          {
            context: {
              tool: name,
              tools: [prior.name, name],
              commands: [prior.command.commandPath(), cmd.commandPath()],
            },
            fix: `Rename one of the commands, or give one an explicit name with mcp.toolName(cmd, "…").`,
          },
        );
      }
      byName.set(key, { name, command: cmd });
      out.push({ name, command: cmd });
    },
    true,
  );
  return out;
}

/** The full MCP definition of one tool (computed on demand, only for the tools asked for). */
export function toolDef(ref: ToolRef): ToolDef {
  const out = outputSchema(ref.command);
  const ann = toolAnnotations(ref.command);
  return {
    name: ref.name,
    description: toolDescription(ref.command),
    inputSchema: inputSchema(ref.command),
    ...(out ? { outputSchema: out.schema } : {}),
    ...(ann ? { annotations: ann } : {}),
    _meta: { nonDeterministicFields: nonDeterministicFields(ref.command) },
  };
}

/** How a tool's payload becomes structuredContent (undefined: no outputSchema, no structuredContent). */
export function toolWrapping(cmd: Command): OutputWrapping | undefined {
  return outputWrapping(cmd);
}

/** Whether `cmd` is `within` or below it (true for every command when `within` is undefined). */
export function isWithin(cmd: Command, within: Command | undefined): boolean {
  if (!within) return true;
  for (let c: Command | undefined = cmd; c; c = c.parent) if (c === within) return true;
  return false;
}

/** A prompt or resource with the command that declared it. */
export interface Declared<T> {
  decl: T;
  command: Command;
}

/**
 * Every prompt and resource in the tree, in tree order then declaration order. Declarations under
 * hidden commands are dropped (the root keeps its own even if hidden); groups, excluded and reserved
 * commands keep theirs. Every declaration is checked again here (however it entered `cmd.prompts` /
 * `cmd.resources`), so `__schema` and server start refuse one that breaks a rule.
 * @throws AxError `invalid_schema_declaration` (exit 2) for a declaration that breaks a rule of
 *   declarePrompt/declareResource; `validation_error` (exit 2) when two commands declare the same
 *   prompt name or resource URI, naming both commands.
 */
export function declarations(root: Command): { prompts: Declared<PromptDecl>[]; resources: Declared<ResourceDecl>[] } {
  const prompts: Declared<PromptDecl>[] = [];
  const resources: Declared<ResourceDecl>[] = [];
  const promptOwner = new Map<string, Command>();
  const resourceOwner = new Map<string, Command>();
  const dup = (what: string, key: string, a: Command, b: Command) =>
    validationError(
      `duplicate ${what} ${JSON.stringify(key)} declared ` +
        `on ${JSON.stringify(a.commandPath())} and ${JSON.stringify(b.commandPath())}`,
      'duplicate_declaration',
      {
        context: {
          kind: what === 'prompt name' ? 'prompt' : 'resource',
          key,
          commands: [a.commandPath(), b.commandPath()],
        },
        fix: 'Rename or remove one of the two declarations.',
      },
    );
  visit(
    root,
    (cmd) => {
      const seen = new Set<string>();
      for (const p of cmd.prompts) {
        // Re-checked here, whatever way it entered the tree (docs/schema.md#declaration-rules):
        // __schema and server start refuse it.
        validatePrompt(p);
        if (seen.has(p.name))
          throw declarationError(
            'prompt',
            p.name,
            'name',
            'duplicate',
            `Prompt ${p.name} is declared twice on ${cmd.commandPath()}; rename one.`,
          );
        seen.add(p.name);
        const prior = promptOwner.get(p.name);
        if (prior) throw dup('prompt name', p.name, prior, cmd);
        promptOwner.set(p.name, cmd);
        prompts.push({ decl: p, command: cmd });
      }
      const seenUris = new Set<string>();
      for (const r of cmd.resources) {
        validateResource(r);
        const key = (r.uri || r.uriTemplate)!;
        if (seenUris.has(key))
          throw declarationError(
            'resource',
            key,
            r.uri ? 'uri' : 'uriTemplate',
            'duplicate',
            `${key} is declared twice on ${cmd.commandPath()}; remove one.`,
          );
        seenUris.add(key);
        const prior = resourceOwner.get(key);
        if (prior) throw dup('resource URI', key, prior, cmd);
        resourceOwner.set(key, cmd);
        resources.push({ decl: r, command: cmd });
      }
    },
    false,
  );
  return { prompts, resources };
}

/** A prompt as `prompts/list` shows it. */
export function promptListEntry(p: PromptDecl): Record<string, unknown> {
  const e: Record<string, unknown> = { name: p.name };
  if (p.title) e.title = p.title;
  if (p.description) e.description = p.description;
  if (p.arguments?.length) {
    e.arguments = p.arguments.map((a) => {
      const x: Record<string, unknown> = { name: a.name };
      if (a.title) x.title = a.title;
      if (a.description) x.description = a.description;
      if (a.required) x.required = true;
      return x;
    });
  }
  return e;
}

/** A resource (or template) as `resources/list` / `resources/templates/list` show it; content is never included. */
export function resourceListEntry(r: ResourceDecl): Record<string, unknown> {
  const e: Record<string, unknown> = r.uri ? { uri: r.uri } : { uriTemplate: r.uriTemplate };
  e.name = r.name;
  if (r.title) e.title = r.title;
  if (r.description) e.description = r.description;
  if (r.mimeType) e.mimeType = r.mimeType;
  return e;
}

/**
 * The `__schema --as=mcp` document: exactly what the live server lists — tools, resources and
 * resource templates entry for entry, prompts as `prompts/list` shows them plus their `template`.
 * `{tools, prompts, resources, resourceTemplates}`. With `within`, only what the commands of that
 * subtree give (`__schema --as=mcp <command…>`); the whole tree is checked all the same.
 */
export function mcpDocument(root: Command, within?: Command): Record<string, unknown> {
  const tools = toolRefs(root)
    .filter((r) => isWithin(r.command, within))
    .map(toolDef);
  const all = declarations(root);
  const prompts = all.prompts.filter((p) => isWithin(p.command, within));
  const resources = all.resources.filter((r) => isWithin(r.command, within));
  return {
    tools,
    // as prompts/list shows them plus their template (docs/mcp-server.md#prompts-and-resources);
    // the live list stays MCP-shaped
    prompts: prompts.map((p) => ({ ...promptListEntry(p.decl), template: p.decl.template })),
    resources: resources.filter((r) => r.decl.uri).map((r) => resourceListEntry(r.decl)),
    resourceTemplates: resources.filter((r) => r.decl.uriTemplate).map((r) => resourceListEntry(r.decl)),
  };
}
