/**
 * `ax-ts/schema`: the tree as data, for tooling — the `__schema` documents without running the
 * program, the comparison of two of them for CI (`ax-ts schema-diff`), and the published JSON
 * Schemas (2020-12) of the ax document and of the contract's lines. Nothing here loads the MCP SDK,
 * express or ajv. See docs/api.md and docs/schema.md.
 */
export { SCHEMA_SHAPES, type SchemaShape } from './shapes.ts';
export { schemaDocument } from './documents.ts';
export { loadTree } from '../tree/lazy.ts';
export { agentsMarkdown } from './skill.ts';
export { diffSummary, formatDiff, schemaDiff, schemaShape } from './diff/diff.ts';
export type { Change, SchemaDiff, Severity } from './diff/diff.ts';
export { AX_DOCUMENT_SCHEMA } from './ax-document-schema.ts';
export { expandAxDocument } from './ax-expand.ts';
// the shapes of a tool in `__schema --as=mcp`, `tools/list` and the llms manifest
export type { ToolDef, ToolRef, ToolStatus } from './walk.ts';
export type { ToolAnnotations } from './tool.ts';
export type { JsonSchema } from '../parse/input-schema.ts';
export { ERROR_LINE_SCHEMA, STREAM_LINE_SCHEMA, SUCCESS_LINE_SCHEMA } from '../contract/line-schemas.ts';
