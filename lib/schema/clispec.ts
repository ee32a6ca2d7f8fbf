/**
 * The CLI Spec v0.3 (clispec.dev) document of a tree: one more projection of the declarations,
 * printed by `schema` and `__schema --as=clispec`. Flat `commands` with full space-separated path
 * names. Source: The CLI Spec v0.3 schema (vendored in lib/vendor/clispec-v0.3.json, CC BY 4.0).
 */
import type { Command } from '../tree/command.ts';
import { errorCatalogue } from '../contract/errors.ts';
import { SUCCESS_LINE_SCHEMA } from '../contract/line-schemas.ts';
import type { Flag } from '../tree/flags.ts';
import { argKindOf, kindOf } from '../tree/flag-kinds/index.ts';
import { flagsOf, injectedInForce } from '../tree/flagset.ts';
import { isReserved, isWithin, toolRefs } from './walk.ts';
import { BUILTIN_ANNOTATION } from '../tree/marks.ts';

type Json = Record<string, unknown>;

function flagArg(f: Flag): Json {
  const a: Json = { name: `--${f.name}`, type: kindOf(f.spec).clispecType };
  if (f.spec.short) a.short = `-${f.spec.short}`;
  a.required = f.spec.required === true;
  if (f.spec.default !== undefined) a.default = f.spec.default;
  if (f.spec.choices) a.enum = [...f.spec.choices];
  if (f.spec.examples) a.examples = [...f.spec.examples];
  if (f.spec.usage) a.description = f.spec.usage;
  return a;
}

const FIELD_TYPES = new Set(['string', 'integer', 'number', 'boolean', 'object', 'array']);

/**
 * A JSON Schema node as a clispec type node (`{type, nullable?, enum?, items?, fields?}`), or
 * undefined when it has no single type.
 */
function typeNode(schema: unknown): Json | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  let s = schema as Json;
  let nullable = false;
  // `anyOf: [X, {type: null}]` is the portable spelling of a nullable X
  if (Array.isArray(s.anyOf) && s.anyOf.length === 2 && s.type === undefined) {
    const nonNull = (s.anyOf as Json[]).filter((b) => b?.type !== 'null');
    if (nonNull.length === 1 && nonNull[0] && typeof nonNull[0] === 'object') {
      const { anyOf: _a, ...annotations } = s;
      s = { ...nonNull[0], ...annotations };
      nullable = true;
    }
  }
  let type = s.type;
  if (Array.isArray(type)) {
    const nonNull = type.filter((t) => t !== 'null');
    nullable = nonNull.length < type.length;
    if (nonNull.length !== 1) return undefined;
    type = nonNull[0];
  }
  if (typeof type !== 'string' || !FIELD_TYPES.has(type)) return undefined;
  const node: Json = { type };
  if (nullable) node.nullable = true;
  if (Array.isArray(s.enum)) node.enum = s.enum;
  if (typeof s.description === 'string') node.description = s.description;
  if (type === 'array') {
    const items = typeNode(s.items);
    if (!items) return undefined;
    node.items = items;
  }
  if (type === 'object' && s.properties && typeof s.properties === 'object') {
    const fields = objectFields(s);
    if (fields) node.fields = fields;
  }
  return node;
}

/** The fields of an object schema, or undefined when any property has no single type. */
function objectFields(s: Json): Json[] | undefined {
  const props = (s.properties ?? {}) as Record<string, unknown>;
  const out: Json[] = [];
  for (const [name, p] of Object.entries(props)) {
    const n = typeNode(p);
    if (!n) return undefined;
    out.push({ name, ...n });
  }
  return out;
}

/** `output_fields` of a payload schema: an object's fields, or one item's fields for a collection. */
function outputFields(schema: Json | undefined): Json[] | undefined {
  if (!schema) return undefined;
  if (schema.type === 'array') {
    const items = schema.items as Json | undefined;
    return items && items.type === 'object' ? objectFields(items) : undefined;
  }
  return schema.type === 'object' ? objectFields(schema) : undefined;
}

/** Unquoted words that end the program's own arguments in an example line: redirections, pipes, separators. */
const SHELL_OPERATOR = /^(?:\||\|\||&&|;|&|\d*[<>]{1,2}.*)$/;

/**
 * Splits an example line into words (single/double quotes respected), stopping at the first unquoted
 * shell operator (`> file`, `| head`, `&& …`): those words belong to the shell, not the program.
 */
export function shellWords(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) {
    if (m[3] !== undefined && SHELL_OPERATOR.test(m[3])) break;
    out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3])!);
  }
  return out;
}

/**
 * The first example line that runs `cmd` itself: its words begin with the command path and the next
 * word is not one of its subcommands (a root's examples often run its children).
 */
function exampleOf(cmd: Command): string[] | undefined {
  const path = cmd.pathNames();
  for (const line of cmd.example.split('\n')) {
    const w = shellWords(line.trim());
    if (w.length < path.length || path.some((p, i) => w[i] !== p)) continue;
    const next = w[path.length];
    if (next !== undefined && !next.startsWith('-') && cmd.findChild(next)) continue;
    return w.slice(1);
  }
  return undefined;
}

/**
 * How the command pages, for clispec: an author's own flags (`output.pagination`), else ax-ts's
 * paging (`output.paging`: the injected flags, and where the next cursor is).
 */
function paginationOf(cmd: Command): Json | undefined {
  const p = cmd.output?.pagination;
  if (p) {
    const pg: Json = { style: p.style, limit_arg: `--${p.limitFlag}` };
    if (p.offsetFlag) pg.offset_arg = `--${p.offsetFlag}`;
    if (p.cursorFlag) pg.cursor_arg = `--${p.cursorFlag}`;
    if (p.cursorField) pg.cursor_field = p.cursorField;
    return pg;
  }
  if (!cmd.output?.paging) return undefined;
  return { style: 'cursor', limit_arg: '--limit', cursor_arg: '--cursor', cursor_field: 'meta.pagination.next_cursor' };
}

/** The flag that selects output fields: the author's (`output.fieldsFlag`), else the injected `--fields` in force. */
function fieldsArg(cmd: Command): string | undefined {
  const name = cmd.output?.fieldsFlag ?? (injectedInForce(cmd, 'fields') ? 'fields' : undefined);
  return name === undefined ? undefined : `--${name}`;
}

/**
 * Every command an agent may call: exactly the commands behind the MCP tools (same walk, same
 * order), so hidden, reserved and excluded commands and pure groups are left out of every
 * projection for agents (clispec, skill, llms) as they are out of `tools/list`
 * (docs/mcp-server.md#which-commands-become-tools).
 * @throws AxError `validation_error` on a tool-name collision or an invalid tool name, like `__schema`.
 */
export function invocableCommands(root: Command, within?: Command): Command[] {
  return toolRefs(root)
    .filter((r) => isWithin(r.command, within))
    .map((r) => r.command);
}

function commandEntry(root: Command, cmd: Command): Json {
  const words = cmd.pathNames().slice(1);
  const name = words.length ? words.join(' ') : root.name;
  const e: Json = { name, description: (cmd.short || cmd.long.split('\n')[0] || name).trim() };
  const ext: Json = {};
  if (cmd.effects) e.effects = cmd.effects;
  else {
    e.effects = 'non_idempotent';
    ext.effects_declared = false;
  }
  // deprecated in v0.3 but still read by v0.2-era checkers; always agrees with effects
  e.mutating = e.effects !== 'read_only';
  const kind = cmd.output?.kind ?? 'data';
  if (kind === 'stream') {
    e.output_kind = 'stream';
    e.stream_format = 'ndjson';
  } else if (kind === 'opaque') {
    e.output_kind = 'opaque';
    e.media_type = cmd.output?.mediaType ?? 'text/plain';
  }
  if (kind === 'data') {
    const schema = cmd.output?.schema;
    let card = cmd.output?.cardinality;
    if (!card) {
      card = cmd.output?.paging ? 'unbounded' : schema?.type === 'array' ? 'bounded' : 'single';
      ext.cardinality_declared = false;
    }
    e.cardinality = card;
    const pg = paginationOf(cmd);
    if (pg) e.pagination = pg;
    if (fieldsArg(cmd)) e.fields_arg = fieldsArg(cmd);
  }
  // Only when the command really takes --idempotency-key (an author's root-local flag of that name
  // replaces the injected one).
  const key = flagsOf(cmd).get('idempotency-key');
  if (cmd.effects === 'non_idempotent' && key && !key.spec.hidden) e.idempotency_key_arg = '--idempotency-key';
  if (cmd.confirmationFlag) e.confirmation_bypass_arg = `--${cmd.confirmationFlag}`;
  if (cmd.deprecated) e.stability = 'deprecated';
  // The root's persistent flags are listed once, in global_args; a flag of the same name declared
  // nearer (a command's own --format) shadows it and is one of this command's arguments.
  const global = new Map(globalFlags(root).map((f) => [f.name, f.spec]));
  const args: Json[] = cmd.args.map((a) => {
    const base = argKindOf(a).clispecType;
    const x: Json = { name: a.name, type: a.variadic ? `${base}[]` : base, required: a.required !== false };
    if (a.choices) x.enum = [...a.choices];
    if (a.examples) x.examples = [...a.examples];
    if (a.description) x.description = a.description;
    return x;
  });
  for (const f of [...flagsOf(cmd).values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    // an injected flag is global even where its usage is worded for the command (--idempotency-key)
    if (f.spec.hidden || global.get(f.name) === f.spec || (f.builtin && global.has(f.name)) || f.name === 'help')
      continue;
    args.push(flagArg(f));
  }
  e.args = args;
  if (kind !== 'opaque') {
    const schema = cmd.output?.schema;
    const fields = outputFields(schema);
    if (fields && kind === 'data') e.output_fields = fields;
    const { $schema: _s, ...payload } = (schema ?? {}) as Json;
    // Local references (`#/$defs/x`) of the payload schema resolve against the document root, so
    // its definitions move up with it (unless it is its own resource, with an `$id`).
    const defs: Json = {};
    if (payload.$id === undefined) {
      for (const k of ['$defs', 'definitions']) {
        if (payload[k] !== undefined) {
          defs[k] = payload[k];
          delete payload[k];
        }
      }
    }
    e.stdout_schema = {
      type: 'object',
      required: ['data', 'meta'],
      properties: {
        data: schema ? payload : {},
        meta: { type: 'object', required: [...SUCCESS_LINE_SCHEMA.properties.meta.required] },
      },
      ...defs,
    };
  }
  const example = exampleOf(cmd);
  if (example) e.example = { args: example, ...(cmd.exampleStdin !== undefined ? { stdin: cmd.exampleStdin } : {}) };
  else if (
    !cmd.args.some((a) => a.required !== false) &&
    ![...flagsOf(cmd).values()].some((f) => f.spec.required) &&
    !cmd.oneRequired.length
  )
    e.example = { args: words };
  if (cmd.capabilities) ext.capabilities = [...cmd.capabilities];
  if (Object.keys(ext).length) e.extensions = { 'x-ax-ts': ext };
  return e;
}

/** Flags every command accepts: the root's persistent flags (injected ones included), by name. */
function globalFlags(root: Command): Flag[] {
  return [...flagsOf(root).values()]
    .filter((f) => f.persistent && !f.spec.hidden)
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

/**
 * The clispec v0.3 document. `output.piped` is `json` (the contract's TTY detection), `tty` is `text`.
 * With `within`, only the commands of that subtree (`schema <command…>`).
 */
export function clispecDocument(root: Command, version: string, within?: Command): Json {
  const commands = invocableCommands(root, within).map((c) => commandEntry(root, c));
  const global = globalFlags(root).map((f) => {
    const a = flagArg(f);
    if (f.name === 'format') a.enum = ['json', 'text'];
    return a;
  });
  return {
    clispec: '0.3',
    name: root.name,
    version,
    description: (root.short || root.long.split('\n')[0] || root.name).trim(),
    output: { tty: 'text', piped: 'json' },
    global_args: global,
    commands,
    errors: errorCatalogue().map((e) => ({
      kind: e.kind,
      exit_code: e.exitCode,
      retryable: e.retryable === true,
      description: e.description,
    })),
    extensions: {
      'x-ax-ts': {
        mode_detection: '--format flag > AGENT_MODE env > TTY detection',
        reserved_commands: root
          .commands()
          .filter((c) => isReserved(c) && !c.hidden && c.annotations[BUILTIN_ANNOTATION] !== 'true')
          .map((c) => c.name),
      },
    },
  };
}
