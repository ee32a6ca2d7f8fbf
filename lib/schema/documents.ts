/**
 * How each `__schema --as` shape of the registry (shapes.ts) is rendered: one renderer per shape,
 * the table typed by the registry's names so that a shape without a renderer does not compile.
 * Loaded when a document is asked for (`__schema`, `schema`, the schema manifest), never at start.
 */
import type { Command } from '../tree/command.ts';
import { axDocument } from './ax.ts';
import { clispecDocument } from './clispec.ts';
import { llmsDocument } from './llms.ts';
import { agentsMarkdown, skillMarkdown } from './skill.ts';
import { declarations, mcpDocument } from './walk.ts';
import { shapeSpec, type SchemaShape } from './shapes.ts';

/**
 * Renders the document of a loaded tree, as `__schema` prints it (ends with a newline).
 * @throws AxError `validation_error` (exit 2) on tool-name collisions, invalid tool names or
 *   duplicate declarations; `invalid_schema_declaration` (exit 2) for a declaration that breaks a rule.
 */
type Renderer = (root: Command, version: string) => string;

const json = (doc: unknown) => `${JSON.stringify(doc)}\n`;

/** The renderer of each shape. */
const RENDERERS: { readonly [S in SchemaShape]: Renderer } = {
  ax: (root, version) => json(axDocument(root, version)),
  mcp: (root) => json(mcpDocument(root)),
  clispec: (root, version) => (declarations(root), json(clispecDocument(root, version))),
  llms: (root) => (declarations(root), json(llmsDocument(root))),
  skill: (root, version) => (declarations(root), skillMarkdown(root, version)),
  agents: (root) => (declarations(root), agentsMarkdown(root.name)),
};

/**
 * The schema document of a loaded tree in the given shape, as `__schema` prints it: one JSON
 * document and a newline (a Markdown text for `skill` and `agents`). Load lazy subtrees first (`loadTree`).
 * @throws AxError as {@link Renderer}, and `validation_error` (reason `invalid_schema_shape`) for a
 *   name that is not a shape.
 */
export function schemaDocument(root: Command, shape: SchemaShape, version: string): string {
  return RENDERERS[shapeSpec(shape).name as SchemaShape](root, version);
}
