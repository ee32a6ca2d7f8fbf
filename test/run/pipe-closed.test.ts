/**
 * A reader that closes stdout (docs/contract.md#piped-output-is-never-truncated): exit 141 always
 * means no error line; a handler that failed on its own before the closed pipe was noticed (it
 * wrote into the buffer, then threw) ends with its own error line and exit code. The real CLI, with
 * a reader that goes away after its first chunk (`| head -c1`).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TSX_LOADER } from '../helpers/mcp.ts';
import { minimalEnv } from '../helpers/paths.ts';

const NATIVE_CLI = fileURLToPath(new URL('../fixtures/native-cli.ts', import.meta.url));

/** Runs the fixture with a stdout reader that closes after the first chunk. */
function headC1(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, NATIVE_CLI, ...args], {
    env: minimalEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  child.stdout.once('data', () => child.stdout.destroy());
  return new Promise((r) => child.once('close', (code) => r({ code, stderr })));
}

describe('the reader of stdout goes away', () => {
  it('a run that was succeeding ends with 141 and no error line', async () => {
    const r = await headC1(['noisy', '--format', 'json']);
    expect(r.code).toBe(141);
    expect(r.stderr).toBe('');
  }, 60_000);

  it('a handler that crashed before the closed pipe was noticed keeps its error line and exit 1, never 141', async () => {
    const r = await headC1(['noisy', '--crash', '--format', 'json']);
    expect(r.code, r.stderr).toBe(1);
    const line = JSON.parse(r.stderr.trim().split('\n').pop()!) as { error: { kind: string; message: string } };
    expect(line.error).toMatchObject({ kind: 'internal_error', message: 'noisy crashed' });
  }, 60_000);
});
