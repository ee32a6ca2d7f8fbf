/**
 * The injected `__schema` command (SPEC §3) and the clispec `schema` command: the tree as data.
 * `--as=ax` (default) is the ax document; `--as=mcp` is exactly what the MCP server lists;
 * `--as=clispec` the CLI Spec v0.3 document; `--as=llms` the tools manifest for shell-out agents;
 * `--as=skill` a SKILL.md. All read declarations only: no handler, config or network.
 */
import { Command } from '../tree/command.ts';
import { loadTree } from '../tree/lazy.ts';
import { clispecDocument } from './clispec.ts';
import { llmsDocument } from './llms.ts';
import { axDocument } from './ax.ts';
import { skillMarkdown } from './skill.ts';
import { BUILTIN_ANNOTATION } from '../tree/marks.ts';
import { declarations, exclusionWarnings, mcpDocument } from './walk.ts';
import type { OutputStream } from '../contract/envelope.ts';

/** Shapes `__schema --as` accepts. */
export const SCHEMA_SHAPES = ['ax', 'mcp', 'clispec', 'llms', 'skill'] as const;

/** One of {@link SCHEMA_SHAPES}. */
export type SchemaShape = (typeof SCHEMA_SHAPES)[number];

/**
 * The schema document of a tree in the given shape, as `__schema` prints it: one JSON document +
 * `\n` (a Markdown text for `skill`). Every shape refuses what the MCP server refuses at start.
 * @throws AxError `validation_error` (exit 2) on tool-name collisions, invalid tool names or
 *   duplicate declarations; `invalid_schema_declaration` (exit 2) for a declaration that breaks a rule.
 */
export function schemaDocument(root: Command, shape: SchemaShape, version: string): string {
  // every shape refuses the tree the server would refuse, declarations included
  if (shape !== 'ax' && shape !== 'mcp') declarations(root);
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

/** Writes {@link exclusionWarnings} to stderr, one line each (every `__schema` shape, and `schema`). */
function warnExclusions(root: Command, stderr: OutputStream): void {
  for (const line of exclusionWarnings(root)) stderr.write(`${line}\n`);
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
        usage:
          'document shape: ax (full tree), mcp (as the MCP server lists it), clispec (CLI Spec v0.3), llms (tools manifest), skill (SKILL.md)',
      },
    },
    run: async (ctx) => {
      await loadTree(root); // every lazy subtree: the document describes the whole tree
      const doc = schemaDocument(root, ctx.flags.as as SchemaShape, ctx.version);
      warnExclusions(root, ctx.stderr);
      return doc;
    },
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
    run: async (ctx) => {
      await loadTree(root);
      const doc = schemaDocument(root, 'clispec', ctx.version);
      warnExclusions(root, ctx.stderr);
      return doc;
    },
  });
}
