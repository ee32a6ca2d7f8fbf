/**
 * The injected `__schema` command: prints the tree as one JSON document (SPEC §3).
 * `--as=ax` (default) is the ax document; `--as=mcp` is exactly what the MCP server lists.
 */
import { Command } from './command.ts';
import { axDocument } from './schema.ts';
import { BUILTIN_ANNOTATION, mcpDocument } from './walk.ts';
import { resolveVersion } from './version.ts';

/** Shapes `__schema --as` accepts. */
export const SCHEMA_SHAPES = ['ax', 'mcp'] as const;

/**
 * Builds the schema document of a tree in the given shape, as the `__schema` command prints it
 * (one JSON document + `\n`). @throws AxError `validation_error` (exit 2) on tool-name collisions,
 * invalid tool names or duplicate declarations.
 */
export function schemaDocument(root: Command, shape: (typeof SCHEMA_SHAPES)[number], version: string): string {
  const doc = shape === 'mcp' ? mcpDocument(root) : axDocument(root, version);
  return `${JSON.stringify(doc)}\n`;
}

/** The `__schema` command for a root. Hidden from help; never a tool. */
export function schemaCommand(root: Command): Command {
  return new Command({
    use: '__schema',
    short: 'Print the command tree as JSON (--as=ax|mcp)',
    hidden: true,
    annotations: { [BUILTIN_ANNOTATION]: 'true' },
    effects: 'read_only',
    output: { kind: 'opaque', mediaType: 'application/json' },
    flags: { as: { type: 'string', default: 'ax', choices: SCHEMA_SHAPES, usage: 'document shape: ax (full tree) or mcp (tools, prompts, resources as the MCP server lists them)' } },
    run: (ctx) => schemaDocument(root, ctx.flags.as as (typeof SCHEMA_SHAPES)[number], resolveVersion(ctx.env.AX_VERSION_OVERRIDE ?? root.version)),
  });
}
