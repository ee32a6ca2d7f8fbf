/**
 * Runs `mcp-server` of a fixture CLI inside a real shell pipeline (`cat in | server 2>err | cat >out`),
 * so its stdin and stdout are kernel pipes, as a desktop client's are — not the socketpairs Node's
 * `spawn` creates (where `/dev/stdout` cannot even be opened).
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CASES_CLI, REPO, tempDir, TSX_LOADER, type RawMessage } from './mcp.ts';

/** What {@link pipeline} returns. */
export interface PipelineResult {
  /** The server's exit code (bash PIPESTATUS). */
  code: number;
  /** Every stdout line, raw. */
  lines: string[];
  /** Parsed stdout lines (a line that is not JSON makes the call throw). */
  messages: RawMessage[];
  /** All stdout bytes. */
  stdout: Buffer;
  stderr: string;
  /** Wall time of the pipeline, ms. */
  ms: number;
  /** The response with this id (undefined if none). */
  byId(id: number | string): RawMessage | undefined;
}

/** The initialize request and initialized notification, as lines. */
export const INIT_LINES = [
  JSON.stringify({
    jsonrpc: '2.0',
    id: 'init',
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } },
  }),
  JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
];

/**
 * Feeds `input` (lines joined with "\n", plus a final newline; or raw bytes) to
 * `node --import tsx <cli> mcp-server ...args` through `cat … | … | cat`, waits for the pipeline to end.
 */
export async function pipeline(
  input: string[] | Buffer,
  args: string[] = [],
  opts: { cli?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<PipelineResult> {
  const dir = tempDir('ax-pipe-');
  try {
    const inFile = join(dir.path, 'in');
    writeFileSync(inFile, Array.isArray(input) ? `${input.join('\n')}\n` : input);
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const server = [process.execPath, '--import', TSX_LOADER, opts.cli ?? CASES_CLI, 'mcp-server', ...args]
      .map(q)
      .join(' ');
    const script = `cat ${q(inFile)} | ${server} 2>>${q(join(dir.path, 'err'))} | cat >${q(join(dir.path, 'out'))}; echo "\${PIPESTATUS[1]}" >${q(join(dir.path, 'rc'))}`;
    const t0 = Date.now();
    await new Promise<void>((resolve, reject) => {
      const env: Record<string, string> = {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? '/tmp',
        ...(opts.env ?? {}),
      };
      const sh = spawn('bash', ['-c', script], { cwd: REPO, env, stdio: 'ignore' });
      const t = setTimeout(() => {
        sh.kill('SIGKILL');
        reject(new Error(`pipeline did not end within ${opts.timeoutMs ?? 20_000} ms`));
      }, opts.timeoutMs ?? 20_000);
      sh.once('exit', () => {
        clearTimeout(t);
        resolve();
      });
    });
    const ms = Date.now() - t0;
    const stdout = readFileSync(join(dir.path, 'out'));
    const text = stdout.toString('utf8');
    const lines = text ? text.replace(/\n$/, '').split('\n') : [];
    const messages = lines.map((l) => JSON.parse(l) as RawMessage);
    return {
      code: Number(readFileSync(join(dir.path, 'rc'), 'utf8').trim()),
      lines,
      messages,
      stdout,
      stderr: readFileSync(join(dir.path, 'err'), 'utf8'),
      ms,
      byId: (id) => messages.find((m) => m.id === id && m.method === undefined),
    };
  } finally {
    dir.cleanup();
  }
}
