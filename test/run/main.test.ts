/** `main()` as a real process: no silent exit 0 on a stalled handler, SIGINT → 130, leaked handles do not hang. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const FIXTURE = fileURLToPath(new URL('../fixtures/main-cli.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

function start(args: string[]) {
  const child = spawn(process.execPath, ['--import', TSX, FIXTURE, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, AGENT_MODE: '' },
  });
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

  it('SIGTERM interrupts too: exit 143, kind interrupted with exit_code 143', async () => {
    const p = start(['wait']);
    for (let i = 0; i < 100 && !p.stderr().includes('ready'); i++) await new Promise((r) => setTimeout(r, 50));
    p.child.kill('SIGTERM');
    const r = await p.done;
    expect(r.code).toBe(143);
    expect(lastLine(r.stderr).error).toMatchObject({ kind: 'interrupted', exit_code: 143 });
  });

  it('a reader that closes stdout early (| head -1) ends an endless stream quietly: exit 141, no stack', async () => {
    const p = start(['forever']);
    let first = '';
    await new Promise<void>((resolve) => {
      p.child.stdout.on('data', (c: Buffer) => {
        first += c.toString();
        if (first.includes('\n')) {
          p.child.stdout.destroy();
          resolve();
        }
      });
    });
    const r = await p.done;
    expect(r.code).toBe(141);
    expect(r.stderr).not.toMatch(/EPIPE|at .*\(/);
    expect(JSON.parse(first.split('\n')[0]!).data).toEqual({ i: 0 });
  });

  it('a handler writing to process.stdout itself (human mode), whose reader goes away: exit 141, no stack', async () => {
    const p = start(['raw-forever', '--format', 'text']); // in json mode its writes would go to stderr
    await new Promise<void>((resolve) => {
      p.child.stdout.once('data', () => {
        p.child.stdout.destroy();
        resolve();
      });
    });
    const r = await p.done;
    expect(r.code).toBe(141);
    expect(r.stderr).not.toMatch(/EPIPE|at .*\(/);
  });

  it("json mode: a handler's console.log goes to stderr, stdout holds the envelope alone (docs/contract.md#success-envelope)", async () => {
    const r = await start(['mixed', '--format', 'json']).done;
    expect(r.code).toBe(0);
    const [envelope, rest] = r.stdout.split('\n');
    expect(JSON.parse(envelope!).data).toEqual({ ok: true });
    expect(rest).toBe('');
    expect(r.stderr).toContain('side line\n');
  });

  it("human mode: a handler's console.log and the output share stdout in the order written (the output is written on fd 1 directly)", async () => {
    const r = await start(['mixed', '--format', 'text']).done;
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('side line\nok: true\n');
  });

  it("human mode: a handler's console.log larger than a pipe holds comes whole before the output (Node queues what the pipe cannot take)", async () => {
    const r = await start(['biglog', '--format', 'text']).done;
    expect(r.code).toBe(0);
    expect(r.stdout.indexOf('ok: true')).toBe(2_000_001);
  });

  it('a stray rejection from a handler fails the run with one internal_error line, no stack', async () => {
    const r = await start(['stray']).done;
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(lastLine(r.stderr).error).toMatchObject({
      kind: 'internal_error',
      message: 'a stray error escaped the command: nobody awaited me',
    });
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a handle left running by a handler does not keep the process alive past the grace period', async () => {
    const r = await start(['leak']).done;
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data).toEqual({ ok: true });
    expect(r.ms).toBeLessThan(5000);
  });
});

describe('newcomer findings, pinned', () => {
  it('the default human renderer never sends control characters from data to the terminal', async () => {
    const { renderDefault } = await import('../../lib/index.ts');
    expect(renderDefault({ title: 'evil\u001b[31mred' })).toBe('title: evil\\u001b[31mred\n');
    expect(renderDefault([{ t: 'a\u0007b' }])).toBe('T\na\\u0007b\n');
    // a key with an undefined value is not shown (the JSON envelope drops it too); null is an empty field
    expect(renderDefault({ id: 1, due: undefined, done_at: null })).toBe('id:      1\ndone_at:\n');
  });

  it('a duration needs a unit: a bare 5 is refused (not read as 5 ms); 0 is fine', async () => {
    const { parseDuration } = await import('../../lib/tree/flag-text.ts');
    expect(Number.isNaN(parseDuration('5'))).toBe(true);
    expect(parseDuration('0')).toBe(0);
    expect(parseDuration('1m30s')).toBe(90_000);
  });

  it('mcp-server refuses a non-positive --max-body or --session-idle before opening anything', async () => {
    const { Command, execute } = await import('../../lib/index.ts');
    const { mountMcpServer } = await import('../../mcp/index.ts');
    for (const args of [
      ['--max-body', '0'],
      ['--session-idle', '-5m'],
      ['--max-body', '-1'],
    ]) {
      const root = new Command({ use: 'x', version: '1.0.0' });
      root.addCommand(new Command({ use: 'ok', run: () => 1 }));
      mountMcpServer(root);
      let err = '';
      const code = await execute(root, {
        args: ['mcp-server', '--transport', 'http', '--addr', '127.0.0.1:0', ...args],
        stdout: { write: () => true },
        stderr: { write: (s: string) => ((err += s), true) },
        env: {},
      });
      expect(code).toBe(2);
      expect(JSON.parse(err.trim().split('\n').pop()!).error.context.flag).toBe(args[0]);
    }
  });

  it('--print-config for HTTP prints the server URL, not a command line', async () => {
    const { Command, execute } = await import('../../lib/index.ts');
    const { mountMcpServer } = await import('../../mcp/index.ts');
    const root = new Command({ use: 'x', version: '1.0.0' });
    mountMcpServer(root);
    let out = '';
    await execute(root, {
      args: ['mcp-server', '--print-config', '--transport', 'http', '--addr', '127.0.0.1:9999'],
      stdout: { write: (s: string) => ((out += s), true) },
      stderr: { write: () => true },
      env: {},
    });
    expect(JSON.parse(out)).toEqual({ mcpServers: { x: { type: 'http', url: 'http://127.0.0.1:9999/mcp' } } });
  });

  it('a command that only adds can say so: destructiveHint false although non_idempotent', async () => {
    const { Command } = await import('../../lib/index.ts');
    const { mcpDocument } = await import('../../lib/schema/walk.ts');
    const root = new Command({ use: 'x' });
    root.addCommand(
      new Command({ use: 'create', effects: 'non_idempotent', destructive: false, run: () => 1 }),
      new Command({ use: 'wipe', effects: 'non_idempotent', run: () => 1 }),
    );
    const tools = (mcpDocument(root) as { tools: { name: string; annotations: Record<string, boolean> }[] }).tools;
    expect(tools.find((t) => t.name === 'create')!.annotations).toEqual({
      readOnlyHint: false,
      idempotentHint: false,
      destructiveHint: false,
    });
    expect(tools.find((t) => t.name === 'wipe')!.annotations.destructiveHint).toBe(true);
  });
});
