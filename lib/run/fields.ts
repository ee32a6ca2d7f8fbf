/**
 * `--fields a,b.c` (MCP property `fields`): the fields of `data` a caller wants, the rest left out
 * (docs/contract.md#selecting-fields---fields). Dotted paths go into objects; a list (the data, or a
 * list on the way) has the rest of the path applied to each element. A field nobody knows is a
 * `validation_error` (exit 2, `context.reason` `unknown_field`) listing the known ones before the
 * run when the command declares an object-shaped `output.schema`; without one the run is never failed
 * after the fact: `data` stays whole and a warning (`unknown_fields`) names the paths and the fields
 * `data` has.
 */
import { AxError, validationError } from '../contract/errors.ts';
import { strictFailure } from './failures.ts';
import type { HandlerRun } from './handler-run.ts';
import type { Command, RunContext } from '../tree/command.ts';
import type { Warning } from '../contract/envelope.ts';

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

function unknownField(field: string, known: Iterable<string>, label: string, cmd: Command): AxError {
  const list = [...known].sort();
  return validationError(
    `unknown field ${JSON.stringify(field)} for ${label} of ${cmd.commandPath()}`,
    'unknown_field',
    {
      context: { command: cmd.commandPath(), field, known: list },
      fix: list.length
        ? `Give ${label} some of: ${list.join(', ')}.`
        : `Leave out ${label}: this answer has no fields to select.`,
    },
  );
}

/**
 * The check before the run, when the command's `output.schema` says which fields there are.
 * @throws AxError `validation_error` (reason `unknown_field`) for a path the schema does not declare;
 * (reason `fields_unsupported`) on a command whose output is opaque bytes or whose schema types
 * `data` as a scalar (a number, a string, a boolean) or a list of scalars.
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
  const schema = cmd.output?.schema;
  // a scalar, or a list of scalars: no item has fields either
  const list = (schema as Schema | undefined)?.type === 'array';
  const scalar = list ? (schema as Schema).items : schema;
  if (isScalar(scalar)) {
    const t = (scalar as Schema).type;
    const what = (Array.isArray(t) ? t : [t]).map((x) => (x === 'integer' ? 'number' : String(x)));
    const a = (w: string) => (w === 'null' ? 'null' : list ? `${w}s` : `a ${w}`);
    throw validationError(
      `data of ${cmd.commandPath()} is ${list ? 'a list of ' : ''}${[...new Set(what)].map(a).join(' or ')}; ${label} selects fields of an object or of each item of a list of objects`,
      'fields_unsupported',
      { context: { command: cmd.commandPath(), flag: label }, fix: `Leave out ${label}.` },
    );
  }
  const declared = schemaPaths(schema);
  if (!declared) return;
  for (const f of fields) {
    const segs = f.split('.');
    const covered = segs.some((_, i) => declared.open.has(segs.slice(0, i + 1).join('.')));
    if (!declared.known.has(f) && !covered) throw unknownField(f, declared.known, label, cmd);
  }
}

/** The warning code of a `--fields` selection that kept `data` whole (docs/contract.md#selecting-fields---fields). */
export const UNKNOWN_FIELDS = 'unknown_fields';

/**
 * The warning of a selection that kept `data` whole, given once per call through the run's
 * `ctx.warn`: in `meta.warnings`, and under `--strict` thrown as the run's failure.
 */
export function fieldsWarning(warnings: readonly Warning[], ctx: Pick<RunContext, 'warn'>): (message: string) => void {
  return (message) => {
    if (!warnings.some((w) => w.code === UNKNOWN_FIELDS)) ctx.warn(message, { code: UNKNOWN_FIELDS });
  };
}

/**
 * `data` with only the requested fields (JSON-normalised first, so the selection is of what the
 * envelope would carry). Without a declared schema, when a field does not occur in the data (or the
 * data has no fields), nothing is selected: the data is returned whole and `warn` is told why, once
 * per call, with the unknown paths and the fields the data has.
 */
export function selectFields(
  cmd: Command,
  data: unknown,
  fields: readonly string[],
  label: string,
  warn: (message: string) => void,
): unknown {
  const json = JSON.parse(JSON.stringify(data === undefined ? null : data)) as unknown;
  if (!schemaPaths(cmd.output?.schema)) {
    if (json === null || typeof json !== 'object') {
      warn(
        `${label}: data of ${cmd.commandPath()} is ${json === null ? 'null' : `a ${typeof json}`}, ` +
          `which has no fields to select; data is whole`,
      );
      return json;
    }
    const have = pathsOf(json, '', new Set());
    const missing = Array.isArray(json) && json.length === 0 ? [] : fields.filter((f) => !have.has(f));
    if (missing.length) {
      const list = [...have].sort();
      warn(
        `${label}: data of ${cmd.commandPath()} has no ${missing.map((f) => JSON.stringify(f)).join(', ')} ` +
          `(${list.length ? `its fields: ${list.join(', ')}` : 'it has no fields'}); nothing was selected, data is whole`,
      );
      return json;
    }
  }
  return pick(json, treeOf(fields));
}

/** The fields a json-mode run was asked for (`--fields`, MCP `fields`), when the injected flag is in force. */
export function fieldsOf(h: HandlerRun): string[] | undefined {
  return h.env.mode === 'json' && h.inv.resolved.inForce('fields') ? requestedFields(h.flags.fields) : undefined;
}

/**
 * The requested fields of a document result (lib/run/fields.ts). Under `--strict` a selection that
 * warns fails the run after the command ran to its end: its outcome is recorded first under a key,
 * so a retry with fields the data has replays it instead of running again.
 */
export async function shownFields(h: HandlerRun, result: unknown): Promise<unknown> {
  try {
    return selectShown(h, result);
  } catch (e) {
    const gate = h.replay?.gate;
    if (gate) {
      await gate.complete(h.dataRecord(result));
      h.replay!.gate = undefined;
    }
    throw ranToItsEnd(h, e);
  }
}

/**
 * The requested fields of a replayed document: a selection that warns under `--strict` fails as
 * {@link shownFields} does, after a run that ran to its end (the first call did; the replay runs nothing).
 */
export function replayedFields(h: HandlerRun, value: unknown): unknown {
  try {
    return selectShown(h, value);
  } catch (e) {
    throw ranToItsEnd(h, e);
  }
}

function selectShown(h: HandlerRun, value: unknown): unknown {
  return selectFields(h.cmd, value, fieldsOf(h)!, h.scope.label('fields'), fieldsWarning(h.warnings, h.scope.ctx));
}

/** `--strict`'s failure at a selection's warning, told as one after the command's end; any other error as is. */
function ranToItsEnd(h: HandlerRun, e: unknown): unknown {
  return e instanceof AxError && e.kind === 'warnings_as_errors'
    ? strictFailure(h.warnings, 'ended', h.scope.label)
    : e;
}
