/**
 * How each `__schema --as` shape of the registry (shapes.ts) is rendered: one {@link ShapeRender}
 * per shape — its whole document, one command's, which command a drill-in describes (for
 * `--field`), and its summary above the budget, if it has one — in a table typed by the registry's
 * names, so that a shape without its render does not compile and discovery.ts needs no test on a
 * shape's name. Loaded when a document is asked for (`__schema`, `schema`, the schema manifest),
 * never at start.
 */
import type { Command } from '../tree/command.ts';
import { axDocument, axSubtreeDocument } from './ax.ts';
import { clispecDocument } from './clispec.ts';
import { llmsDocument } from './llms.ts';
import { agentsMarkdown, installFacts, skillMarkdown } from './skill.ts';
import { declarations, mcpDocument } from './walk.ts';
import { shapeSpec, type SchemaShape } from './shapes.ts';
import { jsonSummary, skillSummary, type ShapeWords, type SummaryReason } from './summary.ts';

type Json = Record<string, unknown>;

/**
 * How one shape is rendered. Every render reads a loaded tree (`loadTree` first) and ends with a
 * newline; JSON shapes print one document.
 * @throws AxError `validation_error` (exit 2) on tool-name collisions, invalid tool names or
 *   duplicate declarations; `invalid_schema_declaration` (exit 2) for a declaration that breaks a rule.
 */
export interface ShapeRender {
  /** The whole tree's document. */
  whole(root: Command, version: string): string;
  /** The document of `target` and its subtree (`__schema <command…>`). */
  within(root: Command, target: Command, version: string): string;
  /**
   * A JSON shape: the one command a drill-in document describes, for `--field` (undefined when it
   * describes more than one). Absent: a Markdown shape, which has no fields.
   */
  readonly focus?: (doc: Json) => unknown;
  /**
   * Above the budget, the summary of `target` instead of the document, naming the shape and its
   * drill-in lines by `words` (the registry's). Absent: the shape is always printed whole (the
   * budget does not apply).
   */
  readonly summary?: (root: Command, target: Command, version: string, why: SummaryReason, words: ShapeWords) => string;
}

const json = (doc: unknown) => `${JSON.stringify(doc)}\n`;

/** The one entry of a list, or undefined. */
const single = (list: unknown): unknown => (Array.isArray(list) && list.length === 1 ? list[0] : undefined);

/**
 * A JSON summary that lists the reserved commands (`listsReserved`: the shape has them) and gives
 * each entry its tool name (`toolNames`).
 */
function summaryOf(listsReserved: boolean, toolNames: boolean): ShapeRender['summary'] {
  return (root, target, version, why, words) =>
    jsonSummary(root, target, { ...words, listsReserved, toolNames }, version, why);
}

/** The render of each shape. */
const RENDERS: { readonly [S in SchemaShape]: ShapeRender } = {
  ax: {
    whole: (root, version) => json(axDocument(root, version)),
    within: (root, target, version) => json(axSubtreeDocument(root, target, version)),
    focus: (doc) => doc.command,
    summary: summaryOf(true, false),
  },
  mcp: {
    whole: (root) => json(mcpDocument(root)),
    within: (root, target) => json(mcpDocument(root, target)),
    focus: (doc) => single(doc.tools),
    summary: summaryOf(false, true),
  },
  clispec: {
    whole: (root, version) => (declarations(root), json(clispecDocument(root, version))),
    within: (root, target, version) => json(clispecDocument(root, version, target)),
    focus: (doc) => single(doc.commands),
  },
  llms: {
    whole: (root) => (declarations(root), json(llmsDocument(root))),
    within: (root, target) => json(llmsDocument(root, target)),
    // the first entry is the help entry, no command
    focus: (doc) => single(Array.isArray(doc.tools) ? doc.tools.slice(1) : undefined),
    summary: summaryOf(false, true),
  },
  skill: {
    whole: (root, version) => (declarations(root), skillMarkdown(root, version)),
    within: (root, target, version) => skillMarkdown(root, version, { within: target }),
    summary: skillSummary,
  },
  agents: {
    whole: (root, version) => (declarations(root), agentsMarkdown(root.name, installFacts(root, version))),
    within: (root, _target, version) => (declarations(root), agentsMarkdown(root.name, installFacts(root, version))),
  },
};

/**
 * The render of a shape.
 * @throws AxError `validation_error` (reason `invalid_schema_shape`) for a name that is not a shape.
 */
export function shapeRender(shape: string): ShapeRender {
  return RENDERS[shapeSpec(shape).name as SchemaShape];
}

/**
 * The schema document of a loaded tree in the given shape, as `__schema` prints it: one JSON
 * document and a newline (a Markdown text for `skill` and `agents`). Load lazy subtrees first (`loadTree`).
 * @throws AxError as {@link ShapeRender}, and `validation_error` (reason `invalid_schema_shape`) for a
 *   name that is not a shape.
 */
export function schemaDocument(root: Command, shape: SchemaShape, version: string): string {
  return shapeRender(shape).whole(root, version);
}
