/**
 * `ax-ts/golden`: pin a CLI's machine contract (its `__schema`, envelopes and error lines) in golden
 * files, in a few lines of any test framework.
 *
 * ```ts
 * import { goldenRun, expectGolden, maskVolatile, transcript, prettyJson } from 'ax-ts/golden';
 *
 * const r = await goldenRun(buildCli(), ['show', '1'], { version: '1.0.0' });
 * expectGolden('show-1', maskVolatile(transcript(r)), { dir: 'test/golden' });
 * ```
 *
 * Golden files are compared byte for byte. They are written only when the environment variable
 * `AX_GOLDEN_UPDATE` is exactly `1` (e.g. `npm run golden:update`); a missing golden file is a
 * failure, never created silently. Nothing here imports a test framework: a mismatch throws an
 * `Error` whose message carries a readable diff.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { Command, ENVELOPE_NON_DETERMINISTIC, execute, findCommand, nonDeterministicFields } from '../lib/index.ts';

// ---------------------------------------------------------------------------------------------
// Running a CLI
// ---------------------------------------------------------------------------------------------

/** What one run printed and how it ended. */
export interface GoldenResult {
  /** Exit code (the process's, or what `execute` returned). */
  code: number;
  stdout: string;
  stderr: string;
  /** The arguments the program was given (after the program name). */
  args: string[];
  /** The program name shown by {@link transcript}: the root's name, or the spawned entry's base name. */
  program: string;
  /**
   * What varies in this run's output: {@link fieldsFor} of the tree for an in-process run,
   * `options.fields` for a spawned one (undefined when not given). Pass them to
   * {@link maskVolatile} to mask exactly those.
   */
  fields?: string[];
}

/** Options of {@link goldenRun}. */
export interface GoldenRunOptions {
  /**
   * Environment of the run. Default: empty in-process; for a spawned process only `PATH` (and
   * `SYSTEMROOT` on Windows) of the current process, plus these. `AGENT_MODE`, `HOME` etc. never
   * leak in unless given here (or `inheritEnv` is set).
   */
  env?: Record<string, string | undefined>;
  /** Spawned process: start from the whole `process.env` instead of the minimal one. Default false. */
  inheritEnv?: boolean;
  /** Text on stdin. Default empty (stdin is at end-of-file at once). */
  stdin?: string;
  /** In-process: whether stdout claims to be a terminal (→ human mode). Default false (→ json mode). */
  tty?: boolean;
  /** In-process: the version passed to `execute` (error lines' `meta.version`). */
  version?: string;
  /** Spawned process: working directory. Default `process.cwd()`. */
  cwd?: string;
  /** Spawned process: program name shown by {@link transcript}. Default: the entry's base name without extension. */
  program?: string;
  /** Kills the run (spawned: SIGKILL; in-process: aborts its signal) after this many ms. Default 30000. */
  timeoutMs?: number;
  /** What varies in the output, for {@link GoldenResult.fields} (spawned runs: e.g. {@link fieldsFor} of the program's tree; in-process runs read the tree). */
  fields?: readonly string[];
}

/**
 * The locators that vary in what `args` can print: the `meta` ids every envelope and error line
 * carries (`meta.idempotency_key`, `meta.span_id`, `meta.trace_id` — also for a group's `--version`
 * envelope or a usage error) plus the `data.*` paths the command named by `args` declares
 * (`non_deterministic_fields` of `__schema --as=ax`). Sorted.
 */
export function fieldsFor(root: Command, args: readonly string[]): string[] {
  return [...new Set([...ENVELOPE_NON_DETERMINISTIC, ...nonDeterministicFields(findCommand(root, args).command)])].sort();
}

/** What {@link goldenRun} can run: a command tree (or a factory of one) in-process, or a command line to spawn. */
export type GoldenTarget = Command | (() => Command) | readonly string[];

/**
 * The command line that runs a Node entry file as a process: `[node, '--import', 'tsx', entry]`
 * for a `.ts`/`.mts` file (needs `tsx` installed), `[node, entry]` otherwise.
 */
export function nodeCommand(entry: string): string[] {
  return /\.[mc]?ts$/.test(entry) ? [process.execPath, '--import', 'tsx', entry] : [process.execPath, entry];
}

function captureStream(isTTY: boolean): { write(s: string): boolean; isTTY: boolean; text(): string } {
  let buf = '';
  return {
    write(s: string) {
      buf += s;
      return true;
    },
    isTTY,
    text: () => buf,
  };
}

/**
 * Runs a CLI once and captures what it printed.
 *
 * - A {@link Command} (or a function returning one, called once per run so runs share no state) runs
 *   in-process through `execute()` with string-capturing stdout/stderr, the given stdin text, an
 *   isolated environment (`options.env`, default `{}`) and a non-TTY stdout (json mode) unless
 *   `options.tty`.
 * - A command line (`['node', 'dist/cli.js']`, or {@link nodeCommand}`('src/main.ts')`) is spawned
 *   without a shell; `args` are appended. Its stdout and stderr are pipes (so json mode applies).
 *
 * @returns `{code, stdout, stderr, args, program}`. Never rejects for a non-zero exit code.
 * @throws Error when the process cannot be started, is killed by a signal, or exceeds `timeoutMs`.
 */
export async function goldenRun(target: GoldenTarget, args: readonly string[], options: GoldenRunOptions = {}): Promise<GoldenResult> {
  if (Array.isArray(target)) return spawnRun(target as readonly string[], args, options);
  const root = typeof target === 'function' && !(target instanceof Command) ? (target as () => Command)() : (target as Command);
  const stdout = captureStream(options.tty === true);
  const stderr = captureStream(false);
  const ac = new AbortController();
  const timeoutMs = options.timeoutMs ?? 30000;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ac.abort(new Error(`goldenRun: timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  try {
    const code = await execute(root, {
      args: [...args],
      stdout,
      stderr,
      stdin: Readable.from([options.stdin ?? '']),
      stdinIsTTY: false,
      env: { ...options.env },
      version: options.version,
      signal: ac.signal,
    });
    if (timedOut) throw new Error(`goldenRun: ${[root.name, ...args].join(' ')} did not finish within ${timeoutMs} ms\nstderr:\n${stderr.text()}`);
    const fields = options.fields ? [...options.fields] : fieldsFor(root, args);
    return { code, stdout: stdout.text(), stderr: stderr.text(), args: [...args], program: root.name, fields };
  } finally {
    clearTimeout(timer);
  }
}

function baseEnv(inherit: boolean): Record<string, string | undefined> {
  if (inherit) return { ...process.env };
  const env: Record<string, string | undefined> = {};
  for (const k of ['PATH', 'Path', 'SYSTEMROOT', 'SystemRoot']) if (process.env[k] !== undefined) env[k] = process.env[k];
  return env;
}

function spawnRun(command: readonly string[], args: readonly string[], options: GoldenRunOptions): Promise<GoldenResult> {
  if (command.length === 0) throw new TypeError('goldenRun: the command line is empty');
  const [file, ...pre] = command as [string, ...string[]];
  const env = Object.fromEntries(Object.entries({ ...baseEnv(options.inheritEnv === true), ...options.env }).filter(([, v]) => v !== undefined)) as Record<string, string>;
  const program = options.program ?? basename(command[command.length - 1]!).replace(/\.[^.]*$/, '');
  const timeoutMs = options.timeoutMs ?? 30000;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(file, [...pre, ...args], { cwd: options.cwd ?? process.cwd(), env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`goldenRun: cannot start ${JSON.stringify(file)}: ${e.message}`, { cause: e }));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      if (timedOut) return reject(new Error(`goldenRun: ${[program, ...args].join(' ')} did not finish within ${timeoutMs} ms\nstderr:\n${stderr}`));
      if (code === null) return reject(new Error(`goldenRun: ${[program, ...args].join(' ')} was killed by ${signal}\nstderr:\n${stderr}`));
      resolvePromise({ code, stdout, stderr, args: [...args], program, ...(options.fields ? { fields: [...options.fields] } : {}) });
    });
    child.stdin.on('error', () => {
      /* the program may exit without reading stdin (EPIPE) */
    });
    child.stdin.end(options.stdin ?? '');
  });
}

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
   * a changed payload id fails the golden.
   */
  fields?: readonly string[];
}

const MASKS: ReadonlyArray<readonly [RegExp, string]> = [
  // ISO-8601 date-times (with a time part): 2024-01-02T03:04:05.678Z, 2024-01-02T03:04:05+01:00, …
  [/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?(?![\d])/g, 'TIMESTAMP'],
  // UUIDs (generated idempotency keys), any version, either case.
  [/(?<![0-9A-Fa-f-])[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(?![0-9A-Fa-f-])/g, 'UUID'],
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
 *
 * Equal values get the same number, numbered by first appearance, so a golden still shows that
 * the items of one stream share a trace id, or that a retried call kept its key. A key given on the
 * command line (`--idempotency-key k1`) is not a UUID and stays as it is.
 */
export function maskVolatile(text: string, options: MaskOptions = {}): string {
  let out = text;
  for (const [from, to] of options.replace ?? []) out = typeof from === 'string' ? out.split(from).join(to) : out.replace(from, to);
  if (options.version !== undefined) out = out.split(`"version":${JSON.stringify(options.version)}`).join('"version":"<VERSION>"');
  if (options.fields) return maskFields(out, options.fields);
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

/** The values found at `segs` in `v` (arrays traversed transparently), with a setter for each. */
function visitPath(v: unknown, segs: string[], fn: (value: unknown, set: (x: unknown) => void) => void): void {
  if (Array.isArray(v)) {
    v.forEach((item, i) => (segs.length === 0 ? fn(item, (x) => (v[i] = x)) : visitPath(item, segs, fn)));
    return;
  }
  if (segs.length === 0 || v === null || typeof v !== 'object') return;
  const [head, ...rest] = segs as [string, ...string[]];
  const obj = v as Record<string, unknown>;
  if (!Object.prototype.hasOwnProperty.call(obj, head)) return;
  if (rest.length === 0 && !Array.isArray(obj[head])) fn(obj[head], (x) => (obj[head] = x));
  else visitPath(obj[head], rest, fn);
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
  const lines = text.split('\n').map((line) => {
    const t = line.trim();
    if (!t.startsWith('{')) return line;
    let doc: unknown;
    try {
      doc = JSON.parse(t);
    } catch {
      return line;
    }
    let changed = false;
    for (const f of fields) {
      const segs = f.split('.');
      const label = segs.at(-1)!.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();
      visitPath(doc, segs, (value, set) => {
        changed = true;
        set(placeholder(label, value));
      });
    }
    return changed ? line.replace(t, () => JSON.stringify(doc)) : line;
  });
  let out = lines.join('\n');
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
  if (!text.endsWith('\n')) throw new Error(`prettyJson: output does not end with a newline: ${JSON.stringify(text.slice(-80))}`);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line, i) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (e) {
        throw new Error(`prettyJson: line ${i + 1} is not JSON (${(e as Error).message}): ${JSON.stringify(line.slice(0, 200))}`);
      }
      if (JSON.stringify(value) !== line) throw new Error(`prettyJson: line ${i + 1} is JSON but not compact canonical JSON: ${JSON.stringify(line.slice(0, 200))}`);
      return `${JSON.stringify(value, null, 2)}\n`;
    })
    .join('');
}

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
    throw new TypeError(`expectGolden: invalid golden name ${JSON.stringify(name)} (letters, digits, _ . - and / between parts)`);
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
    throw new Error(`golden file ${shown} does not exist.\nRun \`${update}\` (AX_GOLDEN_UPDATE=1) to create it, review it, and commit it.`);
  }
  const expected = readFileSync(file, 'utf8');
  if (expected === text) return;
  throw new Error(`golden mismatch: ${shown}\nIf the change is intended, run \`${update}\` (AX_GOLDEN_UPDATE=1) and review the diff.\n\n${diffText(expected, text)}`);
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
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i * w + j] = am[i] === bm[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
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
  if (out.length > maxLines) return `${out.slice(0, maxLines).join('\n')}\n… (${out.length - maxLines} more diff lines)`;
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
  if (a.finalNewline !== b.finalNewline) notes.push(a.finalNewline ? 'the actual text has no newline at the end (the golden has one)' : 'the actual text ends with a newline (the golden does not)');
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
  } else body = ops.some((o) => o.t !== ' ') ? hunks(ops) : '(no line differs: the difference is in line endings or the final newline)';
  return `--- golden\n+++ actual\n${notes.map((n) => `note: ${n}\n`).join('')}${body}`;
}
