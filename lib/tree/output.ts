/**
 * What a command declares about its effects and its output, for schemas (clispec, MCP annotations).
 * Source: docs/contract.md#effects-and-destructive.
 */
import type { PagingDecl } from './paging.ts';

/** What re-running a command does (clispec `effects`; MCP annotations, docs/schema.md). */
export type Effects = 'read_only' | 'idempotent' | 'non_idempotent';

/**
 * ax-go's capability classes: what a command touches, besides what re-running it does
 * ({@link Effects}). `read-only` reads only; `create` adds without destroying; `mutate` changes
 * what exists; `delete` removes; `external-network` reaches beyond the machine (MCP
 * `openWorldHint`); `admin` changes settings, access or other people's state. Projected to the MCP
 * annotations (docs/mcp-server.md#annotations) and listed in `__schema`.
 */
export type Capability = 'read-only' | 'create' | 'mutate' | 'delete' | 'external-network' | 'admin';

/** Every capability class, in the order `__schema` lists them. */
export const CAPABILITIES: readonly Capability[] = Object.freeze([
  'read-only',
  'create',
  'mutate',
  'delete',
  'external-network',
  'admin',
]);

/** The classes that change state. */
export const WRITES: readonly Capability[] = ['create', 'mutate', 'delete', 'admin'];

/**
 * Checks a command's capability classes against each other and its effects.
 * @throws TypeError for an unknown or repeated class, `read-only` beside a class that changes state,
 *   or one that changes state on a command declared `effects: 'read_only'`.
 */
export function checkCapabilities(cmd: string, caps: unknown, effects: Effects | undefined): void {
  if (caps === undefined) return;
  if (!Array.isArray(caps) || caps.length === 0)
    throw new TypeError(`${cmd}: capabilities must be a non-empty list of ${CAPABILITIES.join(', ')}`);
  const seen = new Set<string>();
  for (const c of caps) {
    if (!CAPABILITIES.includes(c as Capability))
      throw new TypeError(`${cmd}: unknown capability ${JSON.stringify(c)}; accepted: ${CAPABILITIES.join(', ')}`);
    if (seen.has(c as string)) throw new TypeError(`${cmd}: capability ${c as string} is listed twice`);
    seen.add(c as string);
  }
  const writes = (caps as Capability[]).filter((c) => WRITES.includes(c));
  if (writes.length && seen.has('read-only'))
    throw new TypeError(`${cmd}: capability read-only contradicts ${writes.join(', ')}`);
  if (writes.length && effects === 'read_only')
    throw new TypeError(`${cmd}: effects read_only contradicts the capabilities ${writes.join(', ')}`);
}

/**
 * What a command prints, for schemas (docs/contract.md#effects-and-destructive; clispec
 * `output_kind`, `cardinality`, `pagination`).
 */
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
  /**
   * ax-ts pages the list (docs/contract.md#paging---limit---cursor): `--limit`/`--cursor` (MCP
   * `limit`, `cursor`), a default page size, `meta.pagination` on every answer. `true` takes the
   * defaults (50 per page, no maximum). Only on a `data` output; a declared `schema` describes the
   * whole list (`type: 'array'`) and so each page.
   */
  paging?: boolean | PagingDecl;
  /**
   * How an author's own flags page an unbounded result, for clispec (long names without dashes);
   * describes, does not page. {@link OutputDecl.paging} is ax-ts's paging.
   */
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
   * `data` is always `null`: what the command prints is its result (a front end's call of a
   * program whose result is its printed output: docs/frontends.md). Such a command has nothing for
   * `--fields` to select: the injected flag is not among its flags (not in its help, inputSchema or
   * `__schema`; given anyway it is an unknown flag). Default false.
   */
  noData?: boolean;
  /**
   * Fields of the payload whose values differ between runs (ids, times): dotted paths into the
   * payload (for a stream, into one item), array items traversed transparently — `'id'`,
   * `'created_at'`, `'tasks.id'`. Published in `__schema --as=ax` as `non_deterministic_fields`
   * (prefixed `data.`, with the envelope's `meta.*` ids), and masked by `ax-ts/golden`.
   */
  nonDeterministic?: readonly string[];
}
