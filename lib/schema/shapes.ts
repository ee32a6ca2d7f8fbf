/**
 * The one registry of `__schema --as` shapes: each shape's name, media type and what it is.
 * `__schema` (its `--as` choices, so completion and the invalid-value error too; its help), the
 * schema manifest (`ax-ts schema-manifest`) and the docs tests all read it; how each is rendered is
 * in documents.ts, whose table the type check holds to this one: a new shape is one entry here and
 * its renderer there. Every shape reads declarations only (no handler, config or network) and
 * refuses the tree the MCP server would refuse at start. This module is light on purpose (every
 * program loads it at start, for `__schema`'s flags); the renderers load when a document is asked for.
 */
import { validationError } from '../contract/errors.ts';

/**
 * The default character budget of a whole-tree answer: above it, `__schema` prints the summary.
 * About 8,000 tokens; a root's `schemaBudget` sets another, `--budget` another for one call.
 */
export const DEFAULT_SCHEMA_BUDGET = 32_000;

/** One `__schema --as` shape. */
export interface SchemaShapeSpec {
  /** The value of `--as`. */
  readonly name: string;
  /** Media type of the document. */
  readonly mediaType: string;
  /** What the document is, in a few words (for help and docs). */
  readonly description: string;
}

/** The shapes, in the order help lists them; the first is `__schema`'s default. */
export const SHAPES = [
  {
    name: 'ax',
    mediaType: 'application/json',
    description: 'full tree',
  },
  {
    name: 'mcp',
    mediaType: 'application/json',
    description: 'as the MCP server lists it',
  },
  {
    name: 'clispec',
    mediaType: 'application/json',
    description: 'CLI Spec v0.3',
  },
  {
    name: 'llms',
    mediaType: 'application/json',
    description: 'tools manifest',
  },
  {
    name: 'skill',
    mediaType: 'text/markdown',
    description: 'SKILL.md',
  },
  {
    name: 'agents',
    mediaType: 'text/markdown',
    description: 'AGENTS.md',
  },
] as const satisfies readonly SchemaShapeSpec[];

/** A shape `__schema --as` accepts. */
export type SchemaShape = (typeof SHAPES)[number]['name'];

/** The names of the shapes `__schema --as` accepts, in {@link SHAPES} order. */
export const SCHEMA_SHAPES: readonly SchemaShape[] = Object.freeze(SHAPES.map((s) => s.name));

/** How a command line asks for `shape`: ` --as=<shape>`, nothing for `__schema`'s default (the first). */
export function asFlagOf(shape: SchemaShape): string {
  return shape === SCHEMA_SHAPES[0] ? '' : ` --as=${shape}`;
}

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
