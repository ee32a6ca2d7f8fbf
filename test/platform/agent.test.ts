/**
 * Agents are detected and never prompted (docs/contract.md "Agents and prompts"). `ctx.agent` and
 * `ctx.interactive` follow the environment and the terminals; and in a REAL pseudo-terminal (python3's
 * `pty` module: stdin and stdout are a terminal, as when an agent runs a shell command in a pty),
 * `CLAUDECODE=1` or `CI=1` make `ctx.confirm` stop at once with its next steps instead of waiting for
 * an answer (the run would hang until killed); without them the same run asks and reads the answer;
 * `FORCE_TTY=1` asks even without a terminal.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Command } from '../../lib/index.ts';
import { detectAgent, envFlag, isInteractive } from '../../lib/platform/agent.ts';
import { TSX_LOADER } from '../helpers/spawn.ts';
import { connectEra, envelopeOf, startHttp } from '../helpers/eras.ts';
import { runCli } from '../helpers/run.ts';

const STOPS_CLI = fileURLToPath(new URL('../fixtures/stops-cli.ts', import.meta.url));

describe('detection', () => {
  it.each([
    [{}, undefined],
    [{ CLAUDECODE: '1' }, 'claude-code'],
    [{ CURSOR_AGENT: '1' }, 'cursor'],
    [{ CODEX_THREAD_ID: 'th_123' }, 'codex'],
    [{ GEMINI_CLI: 'true' }, 'gemini-cli'],
    [{ CLAUDE_CODE: '1' }, 'claude-code'],
    [{ CODEX_SANDBOX: 'seatbelt' }, 'codex'],
    [{ OPENCODE: '1' }, 'opencode'],
    [{ OPENCODE_CALLER: 'vscode' }, 'opencode'],
    [{ GOOSE_TERMINAL: '1' }, 'goose'],
    [{ COPILOT_CLI: '1' }, 'copilot'],
    [{ COPILOT_AGENT_SESSION_ID: '5aacf7d0' }, 'copilot'],
    [{ AUGMENT_AGENT: '1' }, 'augment'],
    [{ REPLIT_MODE: 'assistant', REPL_ID: 'r1' }, 'replit'],
    [{ REPL_ID: 'r1' }, undefined], // a person's Replit shell
    [{ REPLIT_MODE: 'workspace' }, undefined],
    [{ CURSOR_TRACE_ID: 't1' }, undefined], // a person's Cursor terminal
    [{ AGENT: 'amp' }, 'amp'],
    [{ AGENT: 'goose', GOOSE_TERMINAL: '1' }, 'goose'],
    [{ AGENT: '1' }, 'unknown'],
    [{ AGENT: 'no' }, undefined],
    [{ AI_AGENT: 'cursor-cli', AGENT: 'amp' }, 'cursor-cli'], // AI_AGENT first
    [{ AI_AGENT: 'Aider' }, 'aider'],
    [{ AI_AGENT: '1' }, 'unknown'],
    [{ AI_AGENT: 'goose', CLAUDECODE: '1' }, 'goose'], // AI_AGENT names itself: read first
    [{ CLAUDECODE: '0' }, undefined],
    [{ CLAUDECODE: 'false' }, undefined],
    [{ CLAUDECODE: ' ' }, undefined],
  ] as [Record<string, string>, string | undefined][])('%j → agent %s', (env, agent) => {
    expect(detectAgent(env)).toBe(agent);
  });

  it.each([
    [{}, true, true, true],
    [{}, true, false, false], // stdout piped
    [{}, false, true, false], // stdin piped
    [{ CI: '1' }, true, true, false],
    [{ CI: 'false' }, true, true, true],
    [{ CLAUDECODE: '1' }, true, true, false],
    [{ FORCE_TTY: '1' }, false, false, true],
    [{ FORCE_TTY: '1', CI: '1', CLAUDECODE: '1' }, true, true, true],
    [{ FORCE_TTY: '0' }, false, false, false],
  ] as [Record<string, string>, boolean, boolean, boolean][])(
    '%j, stdin tty %s, stdout tty %s → interactive %s',
    (env, stdinIsTTY, stdoutIsTTY, want) => {
      expect(isInteractive({ env, stdinIsTTY, stdoutIsTTY })).toBe(want);
    },
  );

  it('envFlag: set and not a no word', () => {
    expect(['1', 'yes', 'x', 'TRUE'].map(envFlag)).toEqual([true, true, true, true]);
    expect([undefined, '', ' ', '0', 'No', 'off', 'FALSE'].map(envFlag)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('ctx.agent and ctx.interactive, through execute', async () => {
    const root = new Command({
      use: 'probe',
      commands: [
        new Command({ use: 'who', run: (ctx) => ({ agent: ctx.agent ?? null, interactive: ctx.interactive }) }),
      ],
    });
    const who = async (env: Record<string, string>, tty: boolean) =>
      JSON.parse((await runCli(root, ['who', '--format', 'json'], { env, tty, stdinIsTTY: tty })).stdout).data;
    expect(await who({}, true)).toEqual({ agent: null, interactive: true });
    expect(await who({ CURSOR_AGENT: '1' }, true)).toEqual({ agent: 'cursor', interactive: false });
    expect(await who({}, false)).toEqual({ agent: null, interactive: false });
  });
});

describe('under MCP nobody at a terminal answers, whatever FORCE_TTY says', () => {
  it.each(['stdio', 'http'] as const)(
    'ctx.interactive is false over %s with FORCE_TTY=1',
    async (path) => {
      const cli = fileURLToPath(new URL('../fixtures/who-cli.ts', import.meta.url));
      const server = path === 'http' ? await startHttp(cli, [], { FORCE_TTY: '1' }) : undefined;
      const c = await connectEra('modern', path, { cli, url: server?.url, env: { FORCE_TTY: '1' } });
      try {
        const r = await c.callTool('who', {});
        expect(envelopeOf(r).data).toMatchObject({ interactive: false });
      } finally {
        await c.close();
        await server?.stop();
      }
    },
    60_000,
  );
});

/**
 * Runs the stops fixture with `args` in a real pseudo-terminal (stdin, stdout and stderr all the pty),
 * answering `answer` once the prompt `[y/N]` shows, and gives up after 20 s (then `hung` is true).
 */
function inPty(
  args: string[],
  env: Record<string, string>,
  answer?: string,
): { out: string; code: number; hung: boolean } {
  const py = `
import os, pty, sys, select, time, json
argv = json.loads(sys.argv[1]); answer = sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
    os.execvpe(argv[0], argv, json.loads(sys.argv[3]))
out = b''; asked = False; deadline = time.time() + 20; hung = False
while True:
    if time.time() > deadline:
        hung = True; os.kill(pid, 9); break
    r, _, _ = select.select([fd], [], [], 0.2)
    if r:
        try: chunk = os.read(fd, 4096)
        except OSError: break
        if not chunk: break
        out += chunk
        if answer and not asked and b'[y/N]' in out:
            os.write(fd, (answer + '\\n').encode()); asked = True
_, status = os.waitpid(pid, 0)
print(json.dumps({"out": out.decode('utf8', 'replace'), "code": os.waitstatus_to_exitcode(status), "hung": hung}))
`;
  const argv = [process.execPath, '--import', TSX_LOADER, STOPS_CLI, ...args];
  const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/nonexistent', TERM: 'dumb' };
  const r = spawnSync('python3', ['-c', py, JSON.stringify(argv), answer ?? '', JSON.stringify({ ...base, ...env })], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`pty helper failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as { out: string; code: number; hung: boolean };
}

describe('in a real pseudo-terminal', () => {
  it.each([
    ['CLAUDECODE=1', { CLAUDECODE: '1' }, 'an agent (claude-code) runs it'],
    ['CI=1', { CI: '1' }, 'it runs in CI'],
  ])(
    '%s: no prompt, no hang — the stop and its next step at once (human mode: the next: block)',
    (_n, env, why) => {
      const r = inPty(['purge'], env);
      expect(r.hung, r.out).toBe(false);
      expect(r.code, r.out).toBe(2);
      expect(r.out).not.toContain('[y/N]');
      expect(r.out).toContain(`Error: purge everything: confirmation required and ${why}`);
      expect(r.out).toMatch(/next:\r\n  stopsfx purge --yes(  # [^\r\n]*)?\r\n/); // the pty turns \n into \r\n
    },
    60_000,
  );

  it('a person at the terminal (no agent, no CI): asked, and a yes purges', () => {
    const r = inPty(['purge'], {}, 'y');
    expect(r.hung, r.out).toBe(false);
    expect(r.out).toContain('purge everything? [y/N]');
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain('purged: true');
  }, 60_000);

  it('a person who says no: blocked, confirmation_required without a next step', () => {
    const r = inPty(['purge', '--format', 'json'], {}, 'n');
    expect(r.code, r.out).toBe(2);
    // json mode on a terminal never prompts: prompt required, not asked
    expect(r.out).not.toContain('[y/N]');
    const h = inPty(['purge'], {}, 'n');
    expect(h.code, h.out).toBe(2);
    expect(h.out).toContain('confirmation required and it was declined');
    expect(h.out).not.toContain('next:');
  }, 60_000);

  it('FORCE_TTY=1 asks even where no terminal is seen (the answer read from a pipe)', () => {
    const argv = ['--import', TSX_LOADER, STOPS_CLI, 'purge', '--format', 'text'];
    const r = spawnSync(process.execPath, argv, {
      input: 'y\n',
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', FORCE_TTY: '1' },
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('purge everything? [y/N]');
    expect(r.stdout).toContain('purged: true');
  }, 60_000);
});
