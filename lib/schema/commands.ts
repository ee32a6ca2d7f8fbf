/**
 * The injected `__schema` command (docs/schema.md) and the clispec `schema` command: the tree as
 * data, in one of the shapes of the registry (shapes.ts): `--as=ax` (default) is the ax document,
 * `--as=mcp` exactly what the MCP server lists, and so on. All read declarations only: no handler,
 * config or network.
 */
import { Command } from '../tree/command.ts';
import { loadTree } from '../tree/lazy.ts';
import { BUILTIN_ANNOTATION } from '../tree/marks.ts';
import { exclusionWarnings } from './walk.ts';
import { SCHEMA_SHAPES, SHAPES, schemaDocument, type SchemaShape } from './shapes.ts';
import type { OutputStream } from '../contract/envelope.ts';

/** Writes {@link exclusionWarnings} to stderr, one line each (every `__schema` shape, and `schema`). */
function warnExclusions(root: Command, stderr: OutputStream): void {
  for (const line of exclusionWarnings(root)) stderr.write(`${line}\n`);
}

/** The `__schema` command for a root. Hidden from help; never a tool. */
export function schemaCommand(root: Command): Command {
  return new Command({
    use: '__schema',
    short: `Print the command tree as JSON (--as=${SCHEMA_SHAPES.join('|')})`,
    hidden: true,
    annotations: { [BUILTIN_ANNOTATION]: 'true' },
    effects: 'read_only',
    output: { kind: 'opaque', mediaType: 'application/json' },
    flags: {
      as: {
        type: 'string',
        default: SCHEMA_SHAPES[0],
        choices: SCHEMA_SHAPES,
        usage: `document shape: ${SHAPES.map((s) => `${s.name} (${s.description})`).join(', ')}`,
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
