/**
 * Repeated JSON Schemas written once per document (docs/schema.md#output): the first occurrence of a
 * subschema is written in full, every later equal one as `{"$ref": "#<pointer>"}` to it — a JSON
 * Pointer from the document's root, which is how JSON Schema 2020-12 resolves a fragment `$ref` in
 * a schema embedded without an `$id` (https://json-schema.org/draft/2020-12/json-schema-core#section-8.2.3.1).
 * Only subschemas at schema positions (the root, `items`, `additionalProperties`, `not`, each of
 * `properties`, `$defs`, `prefixItems`, `anyOf`, `oneOf`, `allOf`) are shared, and only those of
 * at least {@link SHARED_MIN} characters, where a reference is much shorter than the copy.
 */

type Json = Record<string, unknown>;

/** The shortest subschema (JSON characters) written as a reference when repeated. */
export const SHARED_MIN = 120;

/** Keywords whose value is one subschema. */
const ONE = new Set(['items', 'additionalProperties', 'not', 'contains', 'propertyNames']);
/** Keywords whose value maps names to subschemas. */
const MAP = new Set(['properties', 'patternProperties', '$defs', 'definitions']);
/** Keywords whose value is a list of subschemas. */
const LIST = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);

/** A JSON Pointer token (RFC 6901: `~` → `~0`, `/` → `~1`). */
export function pointerToken(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The subschemas one document has written so far, by their JSON text → their pointer. */
export class SharedSchemas {
  private readonly seen = new Map<string, string>();

  /**
   * `schema` as written at `pointer`: itself when nothing in it was written before, else a copy with
   * each earlier-written subschema replaced by a reference. Never changes `schema`.
   */
  share(schema: unknown, pointer: string): unknown {
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
    const text = JSON.stringify(schema);
    if (text.length >= SHARED_MIN) {
      const first = this.seen.get(text);
      if (first !== undefined) return { $ref: `#${first}` };
      this.seen.set(text, pointer);
    }
    let out: Json | undefined;
    const set = (k: string, v: unknown, was: unknown) => {
      if (v !== was) (out ??= { ...(schema as Json) })[k] = v;
    };
    for (const [k, v] of Object.entries(schema as Json)) {
      if (ONE.has(k)) set(k, this.share(v, `${pointer}/${pointerToken(k)}`), v);
      else if (LIST.has(k) && Array.isArray(v)) {
        const items = v.map((x, i) => this.share(x, `${pointer}/${k}/${i}`));
        if (items.some((x, i) => x !== v[i])) set(k, items, v);
      } else if (MAP.has(k) && v !== null && typeof v === 'object' && !Array.isArray(v)) {
        let changed = false;
        const m: Json = {};
        for (const [n, x] of Object.entries(v as Json)) {
          m[n] = this.share(x, `${pointer}/${pointerToken(k)}/${pointerToken(n)}`);
          changed ||= m[n] !== x;
        }
        if (changed) set(k, m, v);
      }
    }
    return out ?? schema;
  }
}
