/**
 * Precomputed answers of a built program (docs/shipping.md#precomputed-answers): its bare `--help`
 * and json-mode `--version`, found by running the built program itself, uncached. Kept only when
 * they came out whole and exit 0 and are the same under two different environments (another
 * HOME, terminal size, language): a program whose help depends on its environment is asked at
 * every start.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Answers } from './facts.ts';

/** One run of a built program: stdout, stderr, status. */
export interface ProgramRun {
  stdout: string;
  stderr: string;
  status: number | null;
}

/** Runs the built program's `entry` with its caches and precomputed answers off. */
export function runBuilt(entry: string, args: readonly string[], env: Record<string, string> = {}): ProgramRun {
  const r = spawnSync(process.execPath, [entry, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent', ...env, AX_CODE_CACHE: '0', AX_PRECOMPUTED: '0' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 28,
  });
  return { stdout: r.stdout ?? '', stderr: r.stderr ?? '', status: r.status };
}

const VERSION_LINE =
  /^\{"data":(\{.*\}),"meta":\{"trace_id":"[0-9a-f]{32}","span_id":"[0-9a-f]{16}","idempotency_key":"[0-9a-f-]{36}"\}\}\n$/;

/** The answers of one environment. */
function answersUnder(entry: string, env: Record<string, string>): Answers {
  const answers: Answers = {};
  const help = runBuilt(entry, ['--help'], env);
  if (help.status === 0 && help.stderr === '' && Buffer.byteLength(help.stdout) <= 4096) answers.help = help.stdout;
  const v = runBuilt(entry, ['--version'], env);
  const m = v.status === 0 && v.stderr === '' ? VERSION_LINE.exec(v.stdout) : null;
  if (m)
    answers.version = `{"data":${m[1]},"meta":{"trace_id":"@TRACE_ID@","span_id":"@SPAN_ID@","idempotency_key":"@IDEMPOTENCY_KEY@"}}\n`;
  return answers;
}

/** The answers that are the same under two environments (see the module comment). */
export function precompute(entry: string): Answers {
  const home = mkdtempSync(join(tmpdir(), 'ax-build-home-'));
  try {
    const a = answersUnder(entry, {});
    const b = answersUnder(entry, { HOME: home, COLUMNS: '217', LINES: '61', LANG: 'C.UTF-8', TERM: 'xterm' });
    const out: Answers = {};
    if (a.help !== undefined && a.help === b.help) out.help = a.help;
    if (a.version !== undefined && a.version === b.version) out.version = a.version;
    return out;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
