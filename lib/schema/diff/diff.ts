/**
 * Schema diff: classifies every change between two `__schema` documents (both `--as=ax`, or both
 * `--as=mcp`) as breaking, additive or informational, so a CI can fail a release that would break
 * the scripts and agents calling the CLI. Pure data in, data out: no IO, nothing of the MCP SDK.
 *
 * Breaking means "a call that worked against the old CLI may now fail, or mean something else":
 * a command, tool, flag, positional, alias, prompt, resource or error kind removed; a type changed;
 * a new required flag or positional; choices/enum narrowed; a tool renamed or dropped from MCP; a
 * positional reordered; new flag-group constraints; weaker effects; output fields removed or
 * retyped; an error kind's exit code changed. Additive: new commands, flags, optional positionals,
 * choices, tools, prompts, resources, error kinds; constraints relaxed. Info: texts (short, long,
 * usage, descriptions), defaults, deprecations, schema_version.
 */
import { type Change, type SchemaDiff, type Json, isObj, Collector } from './core.ts';
import { diffAx } from './ax.ts';
import { expandAxDocument } from '../ax-expand.ts';
import { diffMcp } from './mcp.ts';

export type { Change, SchemaDiff, Severity } from './core.ts';

/** A `__schema` shape schema diff compares: how a document of it is told, and how two are compared. */
interface DiffShape {
  /** Whether a parsed document is one of this shape. */
  is(doc: Json): boolean;
  /** Collects the changes from `a` (old) to `b` (new). */
  compare(c: Collector, a: Json, b: Json): void;
}

/** The shapes schema diff compares, one entry per `SchemaDiff['shape']`, in the order a document is told. */
const DIFF_SHAPES: { readonly [S in SchemaDiff['shape']]: DiffShape } = {
  ax: {
    is: (doc) => isObj(doc.command) && typeof doc.command.name === 'string',
    // lean documents are compared in full, so a lean one and one written in full compare field by field
    compare: (c, a, b) => diffAx(c, expandAxDocument(a), expandAxDocument(b)),
  },
  mcp: { is: (doc) => Array.isArray(doc.tools), compare: diffMcp },
};

/** Which `__schema` shape a parsed document has; undefined if it is neither. */
export function schemaShape(doc: unknown): SchemaDiff['shape'] | undefined {
  if (!isObj(doc)) return undefined;
  return (Object.keys(DIFF_SHAPES) as SchemaDiff['shape'][]).find((s) => DIFF_SHAPES[s].is(doc));
}

/**
 * Compares two `__schema` documents (parsed JSON).
 * @throws TypeError when a document is not a `__schema` document, or the two have different shapes.
 */
export function schemaDiff(oldDoc: unknown, newDoc: unknown): SchemaDiff {
  const a = schemaShape(oldDoc);
  const b = schemaShape(newDoc);
  if (!a)
    throw new TypeError(
      'schemaDiff: the old document is not a __schema document (no "command" tree and no "tools" list)',
    );
  if (!b)
    throw new TypeError(
      'schemaDiff: the new document is not a __schema document (no "command" tree and no "tools" list)',
    );
  if (a !== b)
    throw new TypeError(
      `schemaDiff: the documents have different shapes (old: ${a}, ` +
        `new: ${b}); compare __schema --as=${a} with __schema --as=${a}`,
    );
  const c = new Collector();
  DIFF_SHAPES[a].compare(c, oldDoc as Json, newDoc as Json);
  return {
    shape: a,
    breaking: c.changes.filter((x) => x.severity === 'breaking'),
    additive: c.changes.filter((x) => x.severity === 'additive'),
    info: c.changes.filter((x) => x.severity === 'info'),
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** A one-line summary: `2 breaking changes, 3 additive, 1 info`. */
export function diffSummary(d: SchemaDiff): string {
  return `${plural(d.breaking.length, 'breaking change')}, ${d.additive.length} additive, ${d.info.length} info`;
}

/**
 * A readable report: a summary line, then the breaking, additive and info changes, one a line,
 * each with its kind. Plain text, no colours. Ends with a newline.
 */
export function formatDiff(d: SchemaDiff): string {
  const total = d.breaking.length + d.additive.length + d.info.length;
  if (total === 0) return `No changes between the two __schema documents (${d.shape} shape).\n`;
  const lines = [`schema diff (${d.shape} shape): ${diffSummary(d)}`];
  const section = (title: string, mark: string, changes: Change[]) => {
    if (!changes.length) return;
    lines.push('', `${title}:`);
    for (const ch of changes) lines.push(`  ${mark} ${ch.message} [${ch.kind}]`);
  };
  section('Breaking (callers may fail)', '✗', d.breaking);
  section('Additive', '+', d.additive);
  section('Info', '·', d.info);
  lines.push(
    '',
    d.breaking.length
      ? 'Result: BREAKING — existing scripts and agents may fail against the new version.'
      : 'Result: compatible — no breaking change.',
  );
  return `${lines.join('\n')}\n`;
}
