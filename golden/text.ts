/**
 * `ax-ts/golden`: turning a run into stable text — the transcript, masking of volatile fields
 * (declared non-deterministic fields, ids, timestamps) and pretty JSON (see index.ts).
 */
import type { GoldenResult } from './run.ts';

// ---------------------------------------------------------------------------------------------
// Turning a run into stable text
// ---------------------------------------------------------------------------------------------

/** Quotes one argument for display like a POSIX shell would need it. */
function shellQuote(a: string): string {
  return a !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}

function section(name: string, text: string): string {
  if (text === '') return `--- ${name} (empty)\n`;
  return `--- ${name}\n${text}${text.endsWith('\n') ? '' : `\n--- (no newline at end of ${name})\n`}`;
}

/**
 * A run as one reviewable text: the command line, the exit code, then stdout and stderr verbatim.
 *
 * ```text
 * $ tasks show 1
 * --- exit 0
 * --- stdout
 * {"data":{…},"meta":{…}}
 * --- stderr (empty)
 * ```
 * A stream that does not end with a newline is followed by `--- (no newline at end of stdout)`.
 * @param options.program overrides the program name shown after `$`.
 */
export function transcript(result: GoldenResult, options: { program?: string } = {}): string {
  const line = ['$', options.program ?? result.program, ...result.args.map(shellQuote)].join(' ');
  return `${line}\n--- exit ${result.code}\n${section('stdout', result.stdout)}${section('stderr', result.stderr)}`;
}

/** Options of {@link maskVolatile}. */
export interface MaskOptions {
  /** Also replaces `"version":"<this>"` with `"version":"<VERSION>"` (so a release does not change the goldens). */
  version?: string;
  /** Extra replacements applied first, in order: `[from, to]`; a string `from` replaces every occurrence. */
  replace?: ReadonlyArray<readonly [string | RegExp, string]>;
  /**
   * Mask exactly these locators (a command's `non_deterministic_fields`, e.g. from
   * {@link GoldenResult.fields}): `meta.trace_id`, `data.created_at`, `data.tasks.id` (array items
   * traversed). Instead of the shape patterns, the values at those paths in every JSON line become
   * `<NAME_n>` (NAME = the last segment in capitals), and the same values anywhere else in the text
   * too (a trace id echoed in a log line). A UUID or timestamp the command did not declare stays, so
   * a changed payload id fails the golden. A `*` segment is every key of an object (a map's values:
   * `data.counts.*`); the placeholder is then named after the segment before it.
   */
  fields?: readonly string[];
  /**
   * Delete these locators from every JSON line before masking (ax-go's golden deletions): a key whose
   * value is not worth pinning at all (`data.debug`), or with `*` every key of a map (`data.env.*`).
   * Same locator form as {@link fields}.
   */
  drop?: readonly string[];
}

/**
 * A run's `duration_ms` (the envelope's, a span line's): one placeholder for every value, never
 * numbered — two runs that took the same time say nothing about each other.
 */
const DURATION = /"duration_ms":\d+(?![\d.])/g;
const DURATION_MASK = '"duration_ms":"<DURATION_MS>"';

const MASKS: ReadonlyArray<readonly [RegExp, string]> = [
  // ISO-8601 date-times (with a time part): 2024-01-02T03:04:05.678Z, 2024-01-02T03:04:05+01:00, …
  [/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?(?![\d])/g, 'TIMESTAMP'],
  // UUIDs (generated idempotency keys), any version, either case.
  [
    /(?<![0-9A-Fa-f-])[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(?![0-9A-Fa-f-])/g,
    'UUID',
  ],
  // W3C trace ids: exactly 32 lower-hex characters.
  [/(?<![0-9a-zA-Z])[0-9a-f]{32}(?![0-9a-zA-Z])/g, 'TRACE_ID'],
  // Span ids: exactly 16 lower-hex characters.
  [/(?<![0-9a-zA-Z])[0-9a-f]{16}(?![0-9a-zA-Z])/g, 'SPAN_ID'],
];

/**
 * Replaces the values that differ on every run with stable, numbered placeholders:
 *
 * | what | matched as | placeholder |
 * |---|---|---|
 * | ISO-8601 date-time | `2024-01-02T03:04:05.678Z` (a time part is required; plain dates stay) | `<TIMESTAMP_1>` |
 * | idempotency key | a UUID `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` | `<UUID_1>` |
 * | trace_id | exactly 32 lower-hex characters | `<TRACE_ID_1>` |
 * | span_id | exactly 16 lower-hex characters | `<SPAN_ID_1>` |
 * | duration_ms | `"duration_ms":<integer>` | `"duration_ms":"<DURATION_MS>"` (never numbered) |
 *
 * Equal values get the same number, numbered by first appearance, so a golden still shows that
 * the items of one stream share a trace id, or that a retried call kept its key. A key given on the
 * command line (`--idempotency-key k1`) is not a UUID and stays as it is.
 */
export function maskVolatile(text: string, options: MaskOptions = {}): string {
  let out = text;
  for (const [from, to] of options.replace ?? [])
    out = typeof from === 'string' ? out.split(from).join(to) : out.replace(from, to);
  if (options.version !== undefined)
    out = out.split(`"version":${JSON.stringify(options.version)}`).join('"version":"<VERSION>"');
  if (options.drop?.length) out = dropFields(out, options.drop);
  if (options.fields) return maskFields(out, options.fields);
  out = out.replace(DURATION, DURATION_MASK);
  for (const [re, label] of MASKS) {
    const seen = new Map<string, number>();
    out = out.replace(re, (m) => {
      let n = seen.get(m);
      if (n === undefined) seen.set(m, (n = seen.size + 1));
      return `<${label}_${n}>`;
    });
  }
  return out;
}

/**
 * The values found at `segs` in `v` (arrays traversed transparently, a leaf array too unless
 * `whole`; `*` is every key of an object), with a setter and a deleter for each.
 */
function visitPath(
  v: unknown,
  segs: string[],
  fn: (value: unknown, set: (x: unknown) => void, remove: () => void) => void,
  whole = false,
): void {
  if (Array.isArray(v)) {
    v.forEach((item, i) =>
      segs.length === 0
        ? fn(
            item,
            (x) => (v[i] = x),
            () => undefined,
          )
        : visitPath(item, segs, fn, whole),
    );
    return;
  }
  if (segs.length === 0 || v === null || typeof v !== 'object') return;
  const [head, ...rest] = segs as [string, ...string[]];
  const obj = v as Record<string, unknown>;
  for (const key of head === '*' ? Object.keys(obj) : [head]) {
    if (!Object.prototype.hasOwnProperty.call(obj, key)) continue;
    if (rest.length === 0 && (whole || !Array.isArray(obj[key])))
      fn(
        obj[key],
        (x) => (obj[key] = x),
        () => delete obj[key],
      );
    else visitPath(obj[key], rest, fn, whole);
  }
}

/** Each JSON line of `text` given to `edit`, and written back (compact) when `edit` says it changed it. */
function editJsonLines(text: string, edit: (doc: unknown) => boolean): string {
  return text
    .split('\n')
    .map((line) => {
      const t = line.trim();
      if (!t.startsWith('{')) return line;
      let doc: unknown;
      try {
        doc = JSON.parse(t);
      } catch {
        return line;
      }
      return edit(doc) ? line.replace(t, () => JSON.stringify(doc)) : line;
    })
    .join('\n');
}

/** {@link maskVolatile} with `drop`: the keys at those locators deleted from every JSON line. */
function dropFields(text: string, drop: readonly string[]): string {
  return editJsonLines(text, (doc) => {
    let changed = false;
    for (const f of drop)
      visitPath(
        doc,
        f.split('.'),
        (_v, _set, remove) => {
          changed = true;
          remove();
        },
        true,
      );
    return changed;
  });
}

/** {@link maskVolatile} with `fields`: masks exactly the declared locators (see {@link MaskOptions.fields}). */
function maskFields(text: string, fields: readonly string[]): string {
  const numbers = new Map<string, Map<string, number>>();
  const byValue = new Map<string, string>();
  const placeholder = (label: string, value: unknown) => {
    const key = JSON.stringify(value);
    let seen = numbers.get(label);
    if (!seen) numbers.set(label, (seen = new Map()));
    let n = seen.get(key);
    if (n === undefined) seen.set(key, (n = seen.size + 1));
    const p = `<${label}_${n}>`;
    if (typeof value === 'string' && value.length >= 8) byValue.set(value, p);
    return p;
  };
  let out = editJsonLines(text, (doc) => {
    let changed = false;
    for (const f of fields) {
      const segs = f.split('.');
      // the placeholder's name: the last segment that is not `*` (`data.counts.*` → COUNTS)
      const label = (segs.filter((x) => x !== '*').at(-1) ?? 'VALUE').replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();
      visitPath(doc, segs, (value, set) => {
        changed = true;
        set(f === 'meta.duration_ms' ? '<DURATION_MS>' : placeholder(label, value));
      });
    }
    return changed;
  });
  // the same values elsewhere (a trace id in a log line or a human error), longest first
  for (const [value, p] of [...byValue].sort((a, b) => b[0].length - a[0].length)) out = out.split(value).join(p);
  return out;
}

/**
 * Pretty-prints JSON output for a reviewable golden: one JSON document, or NDJSON (one per line),
 * each indented by two spaces. It first checks that every line is *compact canonical* JSON
 * (`JSON.stringify(JSON.parse(line)) === line`), so a golden of the pretty form still pins the raw
 * bytes (a change in spacing or escaping fails here).
 * @throws Error when the text is empty, does not end with a newline, or a line is not compact JSON.
 */
export function prettyJson(text: string): string {
  if (!text.endsWith('\n'))
    throw new Error(`prettyJson: output does not end with a newline: ${JSON.stringify(text.slice(-80))}`);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line, i) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (e) {
        throw new Error(
          `prettyJson: line ${i + 1} is not JSON (${(e as Error).message}): ${JSON.stringify(line.slice(0, 200))}`,
          { cause: e },
        );
      }
      if (JSON.stringify(value) !== line)
        throw new Error(
          `prettyJson: line ${i + 1} is JSON but not compact canonical JSON: ${JSON.stringify(line.slice(0, 200))}`,
        );
      return `${JSON.stringify(value, null, 2)}\n`;
    })
    .join('');
}
