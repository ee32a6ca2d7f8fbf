/**
 * `ax-ts/golden`: comparing text with golden files (written only under AX_GOLDEN_UPDATE=1) and the
 * dependency-free line diff a mismatch carries (see index.ts).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

// ---------------------------------------------------------------------------------------------
// Comparing with golden files
// ---------------------------------------------------------------------------------------------

/** Options of {@link expectGolden}. */
export interface ExpectGoldenOptions {
  /** Directory of the golden files (relative to `process.cwd()`). Default `testdata`. */
  dir?: string;
  /** Command named in the failure message that regenerates goldens. Default `npm run golden:update`. */
  updateCommand?: string;
  /** Environment read for `AX_GOLDEN_UPDATE`. Default `process.env`. */
  env?: Record<string, string | undefined>;
}

const NAME_RE = /^[A-Za-z0-9_][A-Za-z0-9_.-]*(\/[A-Za-z0-9_][A-Za-z0-9_.-]*)*$/;

/** Whether goldens are being rewritten: `AX_GOLDEN_UPDATE` is exactly `1`. */
export function goldenUpdating(env: Record<string, string | undefined> = process.env): boolean {
  return env.AX_GOLDEN_UPDATE === '1';
}

/** The file a golden name maps to: `<dir>/<name>.golden`. @throws TypeError for a name that would escape `dir`. */
export function goldenPath(name: string, dir = 'testdata'): string {
  if (!NAME_RE.test(name) || name.split('/').includes('..')) {
    throw new TypeError(
      `expectGolden: invalid golden name ${JSON.stringify(name)} (letters, digits, _ . - and / between parts)`,
    );
  }
  return resolve(dir, `${name}.golden`);
}

/**
 * Compares `actual` with the golden file `<dir>/<name>.golden`, byte for byte.
 *
 * - `AX_GOLDEN_UPDATE=1`: writes `actual` to the file (creating directories) and returns.
 * - File missing: throws, telling to run the update command (a golden is never created silently).
 * - Different: throws an Error whose message has a unified diff (expected = golden, actual = new),
 *   with JSON lines shown pretty-printed when that is what differs.
 *
 * @param actual the text to pin (strings are compared exactly; other values are pinned as
 *   `JSON.stringify(value, null, 2) + "\n"`).
 */
export function expectGolden(name: string, actual: unknown, options: ExpectGoldenOptions = {}): void {
  const file = goldenPath(name, options.dir);
  const text = typeof actual === 'string' ? actual : `${JSON.stringify(actual, null, 2)}\n`;
  const shown = displayPath(file);
  const update = options.updateCommand ?? 'npm run golden:update';
  if (goldenUpdating(options.env)) {
    mkdirSync(dirname(file), { recursive: true });
    if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
    return;
  }
  if (!existsSync(file)) {
    throw new Error(
      `golden file ${shown} does not exist.\nRun \`${update}\` (AX_GOLDEN_UPDATE=1) to create it, review it, and commit it.`,
    );
  }
  const expected = readFileSync(file, 'utf8');
  if (expected === text) return;
  throw new Error(
    `golden mismatch: ${shown}\nIf the change is intended, run \`${update}\` (AX_GOLDEN_UPDATE=1) and review the diff.\n\n${diffText(expected, text)}`,
  );
}

function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : file;
}

// ---------------------------------------------------------------------------------------------
// A small, dependency-free line diff
// ---------------------------------------------------------------------------------------------

/** Shows invisible differences: trailing spaces/tabs and carriage returns. */
function visible(line: string): string {
  return line.replace(/\r/g, '␍').replace(/[ \t]+$/, (m) => m.replace(/ /g, '·').replace(/\t/g, '→'));
}

type Op = { t: ' ' | '-' | '+'; s: string };

/** Line operations turning `a` into `b` (common prefix/suffix trimmed, LCS on the middle). */
function lineOps(a: string[], b: string[]): Op[] | undefined {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const am = a.slice(pre, a.length - suf);
  const bm = b.slice(pre, b.length - suf);
  const n = am.length;
  const m = bm.length;
  if ((n + 1) * (m + 1) > 4_000_000) return undefined;
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i * w + j] =
        am[i] === bm[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
  const ops: Op[] = a.slice(0, pre).map((s) => ({ t: ' ', s }));
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && am[i] === bm[j]) {
      ops.push({ t: ' ', s: am[i]! });
      i++;
      j++;
    } else if (i < n && (j === m || lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!)) ops.push({ t: '-', s: am[i++]! });
    else ops.push({ t: '+', s: bm[j++]! });
  }
  for (const s of a.slice(a.length - suf)) ops.push({ t: ' ', s });
  return ops;
}

/** Unified-diff hunks with 3 lines of context, at most `maxLines` lines. */
function hunks(ops: Op[], maxLines = 200): string {
  const out: string[] = [];
  const changed = ops.map((o) => o.t !== ' ');
  const keep = ops.map((_, k) => changed.slice(Math.max(0, k - 3), k + 4).some(Boolean));
  let aLine = 1;
  let bLine = 1;
  let inHunk = false;
  for (let k = 0; k < ops.length; k++) {
    const o = ops[k]!;
    if (keep[k]) {
      if (!inHunk) out.push(`@@ golden line ${aLine}, actual line ${bLine} @@`);
      inHunk = true;
      out.push(`${o.t} ${visible(o.s)}`);
    } else inHunk = false;
    if (o.t !== '+') aLine++;
    if (o.t !== '-') bLine++;
  }
  if (out.length > maxLines)
    return `${out.slice(0, maxLines).join('\n')}\n… (${out.length - maxLines} more diff lines)`;
  return out.join('\n');
}

function splitLines(text: string): { lines: string[]; finalNewline: boolean } {
  const finalNewline = text.endsWith('\n');
  const body = finalNewline ? text.slice(0, -1) : text;
  return { lines: body === '' && finalNewline ? [''] : body.split('\n'), finalNewline };
}

/** Expands lines that are long JSON values (a one-line `__schema`, an envelope) into indented lines. */
function expandJson(lines: string[]): string[] {
  return lines.flatMap((l) => {
    if (l.length < 120 || !/^[[{]/.test(l)) return [l];
    try {
      return JSON.stringify(JSON.parse(l), null, 2).split('\n');
    } catch {
      return [l];
    }
  });
}

/**
 * A readable diff of two texts, `-` for the golden (expected) and `+` for the actual text. Long
 * JSON lines are expanded (pretty-printed) so the changed field is visible; when the only
 * difference is invisible (spacing, line endings, final newline) it says so.
 */
export function diffText(expected: string, actual: string): string {
  const a = splitLines(expected);
  const b = splitLines(actual);
  const notes: string[] = [];
  if (a.finalNewline !== b.finalNewline)
    notes.push(
      a.finalNewline
        ? 'the actual text has no newline at the end (the golden has one)'
        : 'the actual text ends with a newline (the golden does not)',
    );
  let ea = a.lines;
  let eb = b.lines;
  const xa = expandJson(ea);
  const xb = expandJson(eb);
  if ((xa.length !== ea.length || xb.length !== eb.length) && xa.join('\n') !== xb.join('\n')) {
    ea = xa;
    eb = xb;
    notes.push('long JSON lines are shown pretty-printed; the golden compares the exact bytes');
  }
  const ops = lineOps(ea, eb);
  let body: string;
  if (!ops) {
    const k = ea.findIndex((l, i) => l !== eb[i]);
    body = `(texts too large to diff; first difference at line ${k + 1})\n- ${visible(ea[k] ?? '')}\n+ ${visible(eb[k] ?? '')}`;
  } else
    body = ops.some((o) => o.t !== ' ')
      ? hunks(ops)
      : '(no line differs: the difference is in line endings or the final newline)';
  return `--- golden\n+++ actual\n${notes.map((n) => `note: ${n}\n`).join('')}${body}`;
}
