/**
 * The MCP projection of one command besides its inputSchema: description, outputSchema and
 * annotations. Source: docs/mcp-server.md#which-commands-become-tools.
 */
import type { Command } from '../tree/command.ts';
import { mcpVocabulary, toolProperties } from '../tree/properties.ts';
import { cut, MAX_DESCRIPTION, type JsonSchema } from '../parse/input-schema.ts';
import { PAGINATION_SCHEMA } from '../contract/line-schemas.ts';

/** MCP tool annotations derived from `effects` and the capability classes. */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  idempotentHint?: boolean;
  destructiveHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * How a payload maps to `structuredContent`: as is (object), wrapped as `{result}`, a stream's
 * `{items}`, or a paged command's page with its `meta.pagination` as `{items, pagination}` (both eras).
 */
export type OutputWrapping = 'object' | 'result' | 'items' | 'page';

/** The outputSchema of a paged command (`output.paging`): `{items: <the list>, pagination}`, in every era. */
function pageSchema(cmd: Command): JsonSchema {
  const { $schema: _drop, $defs, ...list } = (cmd.output?.schema ?? { type: 'array' }) as JsonSchema;
  const hoist = $defs !== undefined && list.$id === undefined;
  return {
    type: 'object',
    properties: { items: hoist ? list : { ...list, ...($defs ? { $defs } : {}) }, pagination: PAGINATION_SCHEMA },
    required: ['items', 'pagination'],
    ...(hoist ? { $defs } : {}),
  };
}

/**
 * The outputSchema of a command (root always `type: object`) and how its payload is wrapped;
 * undefined when none is declared.
 */
export function outputSchema(cmd: Command): { schema: JsonSchema; wrapping: OutputWrapping } | undefined {
  if (cmd.output?.paging) return { schema: pageSchema(cmd), wrapping: 'page' };
  const declared = cmd.output?.schema;
  if (!declared || cmd.output?.kind === 'opaque') return undefined;
  const { $schema: _drop, ...inner } = declared as JsonSchema;
  if (inner.type === 'object' && cmd.output?.kind !== 'stream') return { schema: inner, wrapping: 'object' };
  // Wrapping nests the payload schema one level down; its `$defs` move up to the new root so that
  // `#/$defs/…` references still resolve (unless the payload has its own `$id`, which anchors them).
  const { $defs, ...payload } = inner;
  const hoist = $defs !== undefined && payload.$id === undefined;
  const nested = hoist ? payload : inner;
  const wrap = (properties: JsonSchema, required: string[]): JsonSchema => ({
    type: 'object',
    properties,
    required,
    ...(hoist ? { $defs } : {}),
  });
  if (cmd.output?.kind === 'stream')
    return { schema: wrap({ items: { type: 'array', items: nested } }, ['items']), wrapping: 'items' };
  return { schema: wrap({ result: nested }, ['result']), wrapping: 'result' };
}

/**
 * The outputSchema of a command for an MCP 2026-07-28 client, whose `structuredContent` may be any
 * JSON value: the declared schema itself (without `$schema`), and for a stream an array of its
 * items; undefined when none is declared. A 2025-era client gets {@link outputSchema}'s object root.
 */
export function anyRootOutputSchema(cmd: Command): JsonSchema | undefined {
  if (cmd.output?.paging) return pageSchema(cmd);
  const declared = cmd.output?.schema;
  if (!declared || cmd.output?.kind === 'opaque') return undefined;
  const { $schema: _drop, ...inner } = declared as JsonSchema;
  if (cmd.output?.kind !== 'stream') return inner;
  const { $defs, ...payload } = inner;
  const hoist = $defs !== undefined && payload.$id === undefined;
  return { type: 'array', items: hoist ? payload : inner, ...(hoist ? { $defs } : {}) };
}

/**
 * How a command's payload is wrapped in `structuredContent` — the `wrapping` of {@link outputSchema}
 * without building the schema (the ax document and every `tools/call` only need this); undefined
 * when no output schema is declared.
 */
export function outputWrapping(cmd: Command): OutputWrapping | undefined {
  if (cmd.output?.paging) return 'page';
  const declared = cmd.output?.schema;
  if (!declared || cmd.output?.kind === 'opaque') return undefined;
  if (cmd.output?.kind === 'stream') return 'items';
  return (declared as JsonSchema).type === 'object' ? 'object' : 'result';
}

/**
 * MCP annotations from `effects` and ax-go's capability classes (docs/mcp-server.md#annotations);
 * undefined when neither is declared (clients assume a destructive tool in an open world).
 * `effects` gives idempotentHint and the defaults; the classes, when declared, say whether the tool
 * destroys (`mutate`, `delete`, `admin`: destructiveHint, unless `destructive` says otherwise),
 * only reads (neither those nor `create`: readOnlyHint) and reaches beyond the machine
 * (`external-network`: openWorldHint, false without it).
 */
export function toolAnnotations(cmd: Command): ToolAnnotations | undefined {
  const caps = cmd.capabilities;
  let a: ToolAnnotations | undefined;
  switch (cmd.effects) {
    case 'read_only':
      a = { readOnlyHint: true, idempotentHint: true, destructiveHint: false };
      break;
    case 'idempotent':
      a = { readOnlyHint: false, idempotentHint: true, destructiveHint: cmd.destructive ?? false };
      break;
    case 'non_idempotent':
      a = { readOnlyHint: false, idempotentHint: false, destructiveHint: cmd.destructive ?? true };
      break;
    case undefined:
      break;
  }
  if (!caps) return a;
  const destroys = caps.some((c) => c === 'mutate' || c === 'delete' || c === 'admin');
  const reads = !destroys && !caps.includes('create');
  const out: ToolAnnotations = { readOnlyHint: cmd.effects === 'read_only' || (cmd.effects === undefined && reads) };
  if (a?.idempotentHint !== undefined) out.idempotentHint = a.idempotentHint;
  out.destructiveHint = out.readOnlyHint ? false : (cmd.destructive ?? destroys);
  out.openWorldHint = caps.includes('external-network');
  return out;
}

/** Most characters of the summary that opens a tool description, so the usage after it always fits. */
const MAX_SUMMARY = 400;

/** A summary bounded to {@link MAX_SUMMARY}: its first sentence when that fits, else a cut marked with `…`. */
function shortSummary(text: string): string {
  if (text.length <= MAX_SUMMARY) return text;
  const sentence = /^(.+?[.!?])\s/.exec(text)?.[1];
  if (sentence && sentence.length <= MAX_SUMMARY) return sentence.replace(/\.$/, '');
  let end = MAX_SUMMARY - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/**
 * A tool description of at most {@link MAX_DESCRIPTION} characters, in the MCP vocabulary (property
 * names, never `--flags`): `Deprecated: <message>.` first for a deprecated command, then the
 * summary and `Required: <properties>.` (the positionals and flags that must be given), then the
 * flag-group rules, then the long help.
 */
export function toolDescription(cmd: Command): string {
  const say = (t: string) => mcpVocabulary(cmd, t);
  const summary = shortSummary(
    say((cmd.short || cmd.long.trim().split('\n')[0] || cmd.name).trim()).replace(/\.$/, ''),
  );
  const required = toolProperties(cmd)
    // as the inputSchema's required: a flag the server's environment or config may supply is not
    .filter((p) =>
      p.arg
        ? p.arg.required !== false
        : p.flag!.spec.required === true && p.flag!.spec.env === undefined && p.flag!.spec.config === undefined,
    )
    .map((p) => p.property);
  let text = cmd.deprecated ? `Deprecated: ${say(cmd.deprecated.trim()).replace(/\.$/, '')}. ` : '';
  text += `${summary}.`;
  if (required.length) text += ` Required: ${required.join(', ')}.`;
  const prop = (n: string) => n.replace(/-/g, '_');
  const rules = [
    ...cmd.mutuallyExclusive.map((g) => `At most one of ${g.map(prop).join(', ')} may be given.`),
    ...cmd.requiredTogether.map((g) => `${g.map(prop).join(', ')} must be given together.`),
    ...cmd.oneRequired.map((g) => `At least one of ${g.map(prop).join(', ')} is required.`),
  ];
  if (rules.length) text += ` ${rules.join(' ')}`;
  const long = cmd.long.trim();
  if (long && long !== cmd.short.trim()) text += `\n\n${say(long)}`;
  return cut(text, MAX_DESCRIPTION);
}
