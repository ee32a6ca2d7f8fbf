/**
 * What a command declares about its effects and its output, for schemas (clispec, MCP annotations).
 * Source: SPEC §6.
 */
/** What re-running a command does (clispec `effects`; MCP annotations, SPEC §6). */
export type Effects = 'read_only' | 'idempotent' | 'non_idempotent';

/** What a command prints, for schemas (SPEC §6; clispec `output_kind`, `cardinality`, `pagination`). */
export interface OutputDecl {
  /** JSON Schema (2020-12) of the payload (`data`); for a stream, of one item. */
  schema?: Record<string, unknown>;
  /**
   * `data` (default): one document, wrapped in the envelope; `stream`: NDJSON items (run yields them);
   * `opaque`: bytes written verbatim in every mode (run returns a string, or a `Uint8Array` of
   * bytes), e.g. a completion script or a PNG. Over MCP, bytes with an `image/*` or `audio/*`
   * `mediaType` become an image or audio content item (base64); other bytes an embedded resource
   * with a `blob`. Bytes are never written to a terminal (`validation_error`: redirect stdout).
   */
  kind?: 'data' | 'stream' | 'opaque';
  /** Media type of an `opaque` output (`text/plain`, `application/json`). */
  mediaType?: string;
  /** How many records: `single`, `bounded` (closed domain) or `unbounded` (needs pagination). */
  cardinality?: 'single' | 'bounded' | 'unbounded';
  /** How to page an unbounded result: the flags that drive it (long names without dashes). */
  pagination?: {
    style: 'offset' | 'cursor';
    limitFlag: string;
    offsetFlag?: string;
    cursorFlag?: string;
    cursorField?: string;
  };
  /** Flag (long name) that selects output fields. */
  fieldsFlag?: string;
  /**
   * Fields of the payload whose values differ between runs (ids, times): dotted paths into the
   * payload (for a stream, into one item), array items traversed transparently — `'id'`,
   * `'created_at'`, `'tasks.id'`. Published in `__schema --as=ax` as `non_deterministic_fields`
   * (prefixed `data.`, with the envelope's `meta.*` ids), and masked by `ax-ts/golden`.
   */
  nonDeterministic?: readonly string[];
}
