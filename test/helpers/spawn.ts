/** Running a TypeScript entry as a real process (through tsx) and bounding how many run at once. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO = fileURLToPath(new URL('../..', import.meta.url));
/** tsx's loader as an absolute path, so `--import` works from any cwd. */
export const TSX_LOADER = `${REPO}node_modules/tsx/dist/loader.mjs`;

/** What one process printed and how it ended. */
export interface ProcessRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node --import tsx <script> <args>` with piped stdio, stdin closed at once (after `input`), cwd = the repo. */
export function runScript(
  script: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  input = '',
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, script, ...args], {
      cwd: REPO,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

/** Runs `jobs` with at most `n` at a time; results in order. */
export async function pool<T>(jobs: (() => Promise<T>)[], n = 4): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, jobs.length) }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]!();
      }
    }),
  );
  return out;
}

/**
 * Waits for an HTTP MCP server process to announce `listening on http://…/mcp` on stderr.
 * `stderr()` returns everything it has written so far (also after the URL came). The promise rejects
 * after `timeoutMs` (default 30 s) or when the process exits first, with the stderr text.
 */
export function announcedUrl(proc: ChildProcess, timeoutMs = 30_000): { url: Promise<string>; stderr: () => string } {
  let err = '';
  const url = new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no URL announced:\n${err}`)), timeoutMs);
    proc.stderr!.setEncoding('utf8').on('data', (c: string) => {
      err += c;
      const m = /listening on (http:\/\/\S+\/mcp)/.exec(err);
      if (m) {
        clearTimeout(t);
        resolve(m[1]!);
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(t);
      reject(new Error(`exited ${code} before announcing its URL:\n${err}`));
    });
  });
  return { url, stderr: () => err };
}
