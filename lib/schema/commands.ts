/**
 * The injected `__schema` command (SPEC §3) and the clispec `schema` command: the tree as data.
 * `--as=ax` (default) is the ax document; `--as=mcp` is exactly what the MCP server lists;
 * `--as=clispec` the CLI Spec v0.3 document; `--as=llms` the tools manifest for shell-out agents;
 * `--as=skill` a SKILL.md. All read declarations only: no handler, config or network.
 */
import { Command } from '../tree/command.ts';
import { clispecDocument } from './clispec.ts';
import { llmsDocument } from './llms.ts';
import { axDocument } from './ax.ts';
import { skillMarkdown } from './skill.ts';
import { BUILTIN_ANNOTATION } from '../tree/marks.ts';
import { mcpDocument } from './walk.ts';

/** Shapes `__schema --as` accepts. */
export const SCHEMA_SHAPES = ['ax', 'mcp', 'clispec', 'llms', 'skill'] as const;

/** One of {@link SCHEMA_SHAPES}. */
export type SchemaShape = (typeof SCHEMA_SHAPES)[number];

/**
 * The schema document of a tree in the given shape, as `__schema` prints it: one JSON document +
 * `\n` (a Markdown text for `skill`). @throws AxError `validation_error` (exit 2) on tool-name
 * collisions, invalid tool names or duplicate declarations.
 */
export function schemaDocument(root: Command, shape: SchemaShape, version: string): string {
  switch (shape) {
    case 'mcp':
      return `${JSON.stringify(mcpDocument(root))}\n`;
    case 'clispec':
      return `${JSON.stringify(clispecDocument(root, version))}\n`;
    case 'llms':
      return `${JSON.stringify(llmsDocument(root))}\n`;
    case 'skill':
      return skillMarkdown(root, version);
    default:
      return `${JSON.stringify(axDocument(root, version))}\n`;
  }
}

/** The `__schema` command for a root. Hidden from help; never a tool. */
export function schemaCommand(root: Command): Command {
  return new Command({
    use: '__schema',
    short: 'Print the command tree as JSON (--as=ax|mcp|clispec|llms|skill)',
    hidden: true,
    annotations: { [BUILTIN_ANNOTATION]: 'true' },
    effects: 'read_only',
    output: { kind: 'opaque', mediaType: 'application/json' },
    flags: {
      as: {
        type: 'string',
        default: 'ax',
        choices: SCHEMA_SHAPES,
        usage: 'document shape: ax (full tree), mcp (as the MCP server lists it), clispec (CLI Spec v0.3), llms (tools manifest), skill (SKILL.md)',
      },
    },
    run: (ctx) => schemaDocument(root, ctx.flags.as as SchemaShape, ctx.version),
  });
}

/** The clispec `schema` command: prints the CLI Spec v0.3 document (same as `__schema --as=clispec`). */
export function clispecCommand(root: Command): Command {
  return new Command({
    use: 'schema',
    short: 'Print the CLI Spec (clispec.dev v0.3) description of this program as JSON',
    annotations: { [BUILTIN_ANNOTATION]: 'true' },
    effects: 'read_only',
    output: { kind: 'opaque', mediaType: 'application/json' },
    run: (ctx) => schemaDocument(root, 'clispec', ctx.version),
  });
}
