/**
 * The one registry of `__schema --as` shapes: each shape's name, media type, what it is and how it
 * is rendered. `__schema` (its `--as` choices, so completion and the invalid-value error too; its
 * help), {@link schemaDocument}, the schema manifest (`ax-ts schema-manifest`) and the docs tests
 * all read it: a new shape is one entry here. Every shape reads declarations only (no handler,
 * config or network) and refuses the tree the MCP server would refuse at start.
 */
import type { Command } from '../tree/command.ts';
import { validationError } from '../contract/errors.ts';
import { axDocument } from './ax.ts';
import { clispecDocument } from './clispec.ts';
import { llmsDocument } from './llms.ts';
import { agentsMarkdown, skillMarkdown } from './skill.ts';
import { declarations, mcpDocument } from './walk.ts';

/** One `__schema --as` shape. */
export interface SchemaShapeSpec {
  /** The value of `--as`. */
  readonly name: string;
  /** Media type of the document. */
  readonly mediaType: string;
  /** What the document is, in a few words (for help and docs). */
  readonly description: string;
  /**
   * The document of a loaded tree, as `__schema` prints it (ends with a newline).
   * @throws AxError `validation_error` (exit 2) on tool-name collisions, invalid tool names or
   *   duplicate declarations; `invalid_schema_declaration` (exit 2) for a declaration that breaks a rule.
   */
  readonly render: (root: Command, version: string) => string;
}

const json = (doc: unknown) => `${JSON.stringify(doc)}\n`;

/** The shapes, in the order help lists them; the first is `__schema`'s default. */
export const SHAPES = [
  {
    name: 'ax',
    mediaType: 'application/json',
    description: 'full tree',
    render: (root, version) => json(axDocument(root, version)),
  },
  {
    name: 'mcp',
    mediaType: 'application/json',
    description: 'as the MCP server lists it',
    render: (root) => json(mcpDocument(root)),
  },
  {
    name: 'clispec',
    mediaType: 'application/json',
    description: 'CLI Spec v0.3',
    render: (root, version) => (declarations(root), json(clispecDocument(root, version))),
  },
  {
    name: 'llms',
    mediaType: 'application/json',
    description: 'tools manifest',
    render: (root) => (declarations(root), json(llmsDocument(root))),
  },
  {
    name: 'skill',
    mediaType: 'text/markdown',
    description: 'SKILL.md',
    render: (root, version) => (declarations(root), skillMarkdown(root, version)),
  },
  {
    name: 'agents',
    mediaType: 'text/markdown',
    description: 'AGENTS.md',
    render: (root) => (declarations(root), agentsMarkdown(root.name)),
  },
] as const satisfies readonly SchemaShapeSpec[];

/** A shape `__schema --as` accepts. */
export type SchemaShape = (typeof SHAPES)[number]['name'];

/** The names of the shapes `__schema --as` accepts, in {@link SHAPES} order. */
export const SCHEMA_SHAPES: readonly SchemaShape[] = Object.freeze(SHAPES.map((s) => s.name));

/**
 * The registry entry of a shape.
 * @throws AxError `validation_error` (reason `invalid_schema_shape`) for a name that is not a shape.
 */
export function shapeSpec(shape: string): SchemaShapeSpec {
  const spec = SHAPES.find((s) => s.name === shape);
  if (!spec)
    throw validationError(`${JSON.stringify(shape)} is not a __schema shape`, 'invalid_schema_shape', {
      fix: `Use one of ${SCHEMA_SHAPES.join(', ')}.`,
      context: { shape, accepted: [...SCHEMA_SHAPES] },
    });
  return spec;
}

/**
 * The schema document of a loaded tree in the given shape, as `__schema` prints it: one JSON
 * document and a newline (a Markdown text for `skill`). Load lazy subtrees first (`loadTree`).
 * @throws AxError as {@link SchemaShapeSpec.render}, and as {@link shapeSpec} for an unknown shape.
 */
export function schemaDocument(root: Command, shape: SchemaShape, version: string): string {
  return shapeSpec(shape).render(root, version);
}
