/** `main()` as a real process: no silent exit 0 on a stalled handler, SIGINT → 130, leaked handles do not hang. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const FIXTURE = fileURLToPath(new URL('./fixtures/main-cli.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

function start(args: string[]) {
  const child = spawn(process.execPath, ['--import', TSX, FIXTURE, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, AGENT_MODE: '' } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>((resolve) => {
    const t0 = Date.now();
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - t0 }));
  });
  child.stdin.end();
  return { child, done, stderr: () => stderr };
}

const lastLine = (s: string) => JSON.parse(s.trimEnd().split('\n').pop()!);

describe('main()', () => {
  it('a handler whose promise never settles exits 1 with an internal_error line, never 0', async () => {
    const r = await start(['stall']).done;
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(lastLine(r.stderr).error).toMatchObject({ kind: 'internal_error', exit_code: 1 });
  });

  it('SIGINT interrupts: exit 130, kind interrupted, nothing on stdout', async () => {
    const p = start(['wait']);
    for (let i = 0; i < 100 && !p.stderr().includes('ready'); i++) await new Promise((r) => setTimeout(r, 50));
    p.child.kill('SIGINT');
    const r = await p.done;
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
    expect(lastLine(r.stderr).error.kind).toBe('interrupted');
  });

  it('a handle left running by a handler does not keep the process alive past the grace period', async () => {
    const r = await start(['leak']).done;
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data).toEqual({ ok: true });
    expect(r.ms).toBeLessThan(5000);
  });
});
