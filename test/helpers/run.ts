/**
 * Test helper: runs a command tree through the public `execute` entry point with string-capturing
 * streams, so tests assert exactly what a process would print and the exit code it would end with.
 */
import { Readable } from 'node:stream';
import { execute, type Command, type ExecuteOptions } from '../../lib/index.ts';
import { type IdempotencyStore } from '../../lib/store/index.ts';
import { captureStream } from '../../golden/run.ts';

/** Options of {@link runCli}; anything not set is isolated from the real process. */
export interface RunCliOptions {
  /** Whether stdout claims to be a terminal (mode detection). Default false (→ json). */
  tty?: boolean;
  /** Environment; default `{}` (never the real process env, so AGENT_MODE cannot leak in). */
  env?: Record<string, string | undefined>;
  /** stdin text; default empty. */
  stdin?: string;
  stdinIsTTY?: boolean;
  /** Program version given to execute; default '1.2.3'. Pass `version: undefined` explicitly to give none. */
  version?: string;
  signal?: AbortSignal;
  onProgress?: ExecuteOptions['onProgress'];
  /** Where replayed retries are recorded (execute's option); default the file store. */
  idempotencyStore?: IdempotencyStore;
  /** execute's idempotencyWaitMs; default its default (5 s). */
  idempotencyWaitMs?: number;
}

/** What one run printed and how it ended. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A string-capturing output stream: the golden helper's (golden/run.ts). */
export { captureStream };

/** Runs `root` with `args` through `execute` and returns the exit code and both streams. */
export async function runCli(root: Command, args: readonly string[], opts: RunCliOptions = {}): Promise<CliResult> {
  const stdout = captureStream(opts.tty ?? false);
  const stderr = captureStream(false);
  const code = await execute(root, {
    args,
    stdout,
    stderr,
    env: opts.env ?? {},
    stdin: Readable.from([opts.stdin ?? '']),
    stdinIsTTY: opts.stdinIsTTY ?? false,
    version: 'version' in opts ? opts.version : '1.2.3',
    signal: opts.signal,
    onProgress: opts.onProgress,
    idempotencyStore: opts.idempotencyStore,
    idempotencyWaitMs: opts.idempotencyWaitMs,
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** Parses every line of an NDJSON text (trailing newline required). */
export function jsonLines(text: string): any[] {
  if (text === '') return [];
  if (!text.endsWith('\n')) throw new Error(`output does not end with a newline: ${JSON.stringify(text)}`);
  return text
    .slice(0, -1)
    .split('\n')
    .map((l) => JSON.parse(l));
}

/** The one success envelope on stdout (exactly one line). */
export function envelope(text: string): { data: any; meta: any } {
  const lines = jsonLines(text);
  if (lines.length !== 1) throw new Error(`expected one envelope line, got ${lines.length}: ${text}`);
  return lines[0];
}

/** The error object from stderr's last line. */
export function errorOf(stderr: string): { error: any; meta: any } {
  const lines = stderr.split('\n');
  if (lines.at(-1) !== '') throw new Error(`stderr does not end with a newline: ${JSON.stringify(stderr)}`);
  return JSON.parse(lines.at(-2)!);
}
