/**
 * `--fields a,b.c` (MCP property `fields`): the fields of `data` a caller wants, the rest left out
 * (docs/contract.md#selecting-fields---fields). Dotted paths go into objects; a list (the data, or a
 * list on the way) has the rest of the path applied to each element. A field nobody knows is a
 * `validation_error` (exit 2, `context.reason` `unknown_field`) listing the known ones: before the
 * run when the command declares an object-shaped `output.schema`, else after it, from the data.
 */
import { validationError, type AxError } from '../contract/errors.ts';
import type { Command } from '../tree/command.ts';

/** A selection: each first segment, then what to keep below it (`true`: the whole value). */
type Tree = Map<string, Tree | true>;

/** The requested paths, trimmed, blanks dropped; `undefined` when none was given. */
export function requestedFields(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out = value.map((v) => String(v).trim()).filter((v) => v !== '');
  return out.length ? out : undefined;
}

function treeOf(paths: readonly string[]): Tree {
  const root: Tree = new Map();
  for (const p of paths) {
    let at = root;
    const segs = p.split('.');
    for (let i = 0; i < segs.length; i++) {
      const prior = at.get(segs[i]!);
      if (prior === true) break; // a shorter path already keeps the whole value
      if (i === segs.length - 1) at.set(segs[i]!, true);
      else {
        const next: Tree = prior ?? new Map();
        at.set(segs[i]!, next);
        at = next;
      }
    }
  }
  return root;
}

function pick(value: unknown, tree: Tree): unknown {
  if (Array.isArray(value)) return value.map((v) => pick(v, tree));
  if (value === null || typeof value !== 'object') return value;
  const src = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, sub] of tree) if (Object.hasOwn(src, k)) out[k] = sub === true ? src[k] : pick(src[k], sub);
  return out;
}

/** Every dotted path of the objects in `value` (through lists), into `out`. */
function pathsOf(value: unknown, at: string, out: Set<string>, depth = 0): Set<string> {
  if (depth > 32) return out;
  if (Array.isArray(value)) for (const v of value) pathsOf(v, at, out, depth + 1);
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      const p = at ? `${at}.${k}` : k;
      out.add(p);
      pathsOf(v, p, out, depth + 1);
    }
  return out;
}

type Schema = Record<string, unknown>;

const SCALARS = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/** Whether a schema types its value as a scalar (or a choice of scalars): no path goes below it. */
function isScalar(schema: unknown): boolean {
  const t = schema && typeof schema === 'object' ? (schema as Schema).type : undefined;
  return Array.isArray(t) ? t.length > 0 && t.every((x) => SCALARS.has(x as string)) : SCALARS.has(t as string);
}

/**
 * The paths an object-shaped schema (or a list of such) declares, and the ones below which anything
 * may be (a property whose schema names no properties and is not typed as a scalar); undefined when
 * the schema is no such shape.
 */
function schemaPaths(schema: unknown): { known: Set<string>; open: Set<string> } | undefined {
  const walk = (s: unknown, at: string, known: Set<string>, open: Set<string>, depth: number): boolean => {
    if (!s || typeof s !== 'object' || depth > 32) return false;
    const o = s as Schema;
    if (o.type === 'array' || (o.items && !o.properties)) return walk(o.items, at, known, open, depth + 1);
    if (!o.properties || typeof o.properties !== 'object') return false;
    for (const [k, sub] of Object.entries(o.properties as Schema)) {
      const p = at ? `${at}.${k}` : k;
      known.add(p);
      if (!walk(sub, p, known, open, depth + 1) && !isScalar(sub)) open.add(p);
    }
    return true;
  };
  const known = new Set<string>();
  const open = new Set<string>();
  return walk(schema, '', known, open, 0) ? { known, open } : undefined;
}

function unknownField(field: string, known: Iterable<string>, label: string, cmd: Command, ran: boolean): AxError {
  const list = [...known].sort();
  return validationError(
    `unknown field ${JSON.stringify(field)} for ${label} of ${cmd.commandPath()}`,
    'unknown_field',
    {
      context: { command: cmd.commandPath(), field, known: list, ...(ran ? { ran: true } : {}) },
      fix: list.length
        ? `Give ${label} some of: ${list.join(', ')}.`
        : `Leave out ${label}: this answer has no fields to select.`,
    },
  );
}

/**
 * The check before the run, when the command's `output.schema` says which fields there are.
 * @throws AxError `validation_error` (reason `unknown_field`) for a path the schema does not declare;
 * (reason `fields_unsupported`) on a command whose output is opaque bytes.
 */
export function checkFieldsBefore(cmd: Command, fields: readonly string[], label: string): void {
  if (cmd.output?.kind === 'opaque')
    throw validationError(
      `${cmd.commandPath()} writes bytes, not data: ${label} has nothing to select`,
      'fields_unsupported',
      {
        context: { command: cmd.commandPath(), flag: label },
        fix: `Leave out ${label}.`,
      },
    );
  const declared = schemaPaths(cmd.output?.schema);
  if (!declared) return;
  for (const f of fields) {
    const segs = f.split('.');
    const covered = segs.some((_, i) => declared.open.has(segs.slice(0, i + 1).join('.')));
    if (!declared.known.has(f) && !covered) throw unknownField(f, declared.known, label, cmd, false);
  }
}

/**
 * `data` with only the requested fields (JSON-normalised first, so the selection is of what the
 * envelope would carry). Without a declared schema each field must occur in the data.
 * @throws AxError `validation_error` (reason `unknown_field`, `context.ran` true) for a field the
 * data does not have, when the command declares no object-shaped output schema.
 */
export function selectFields(cmd: Command, data: unknown, fields: readonly string[], label: string): unknown {
  const json = JSON.parse(JSON.stringify(data === undefined ? null : data)) as unknown;
  if (!schemaPaths(cmd.output?.schema) && json !== null && typeof json === 'object') {
    const have = pathsOf(json, '', new Set());
    const empty = Array.isArray(json) && json.length === 0;
    for (const f of fields) if (!have.has(f) && !empty) throw unknownField(f, have, label, cmd, true);
  }
  return pick(json, treeOf(fields));
}
