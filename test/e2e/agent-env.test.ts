/**
 * The demo CLI in the environment an agent's shell gives it: no terminal, stdin closed, a French
 * locale, a 20-column `COLUMNS`, colour forced on, no display, and `EDITOR`, `VISUAL`, `PAGER` and
 * `BROWSER` all naming a script that leaves a mark if anything starts it. Every run must end at once
 * with its contract output (one JSON line, or help), in English, unwrapped, without an escape byte,
 * and start none of them: ax-ts never opens an editor, a pager or a browser, and never waits for a
 * person (docs/contract.md#agents-and-prompts). docs/agents-spec.md cites these tests.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, runScript, type ProcessRun } from '../helpers/spawn.ts';

const TASKS = join(REPO, 'cmd/tasks/main.ts');
const dir = mkdtempSync(join(tmpdir(), 'ax-agent-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A program that, if anything starts it, leaves `<dir>/started` behind. */
const TRAP = join(dir, 'trap.sh');
writeFileSync(TRAP, `#!/bin/sh\necho "$0 $*" >> '${join(dir, 'started')}'\n`);
chmodSync(TRAP, 0o755);

const LONG_TITLE = `fetch https://example.com/${'a'.repeat(180)}/report.csv`;

/** The environment of an agent's shell, hostile to anything that waits for a person. */
function agentEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['DISPLAY', 'WAYLAND_DISPLAY', 'NO_COLOR', 'CI', 'NO_UPDATE_NOTIFIER']) delete env[k];
  return {
    ...env,
    HOME: join(dir, 'home'),
    TASKS_FILE: join(dir, 'tasks.json'),
    XDG_STATE_HOME: join(dir, 'state'),
    LANG: 'fr_FR.UTF-8',
    LC_ALL: 'fr_FR.UTF-8',
    LANGUAGE: 'fr',
    COLUMNS: '20',
    TERM: 'xterm-256color',
    FORCE_COLOR: '3',
    EDITOR: TRAP,
    VISUAL: TRAP,
    PAGER: TRAP,
    BROWSER: TRAP,
  };
}

/** One run of the demo, bounded: a run that waits for anyone fails the test instead of hanging it. */
async function tasks(...args: string[]): Promise<ProcessRun & { ms: number }> {
  const t0 = Date.now();
  const r = await runScript(TASKS, args, agentEnv());
  return { ...r, ms: Date.now() - t0 };
}

const ESC = '\u001b';

describe('the demo in an agent-like environment (no terminal, fr_FR, COLUMNS=20, EDITOR/PAGER/BROWSER trapped)', () => {
  it('a bare invocation prints the root help and exits 0 at once: no REPL, no prompt, no pager', async () => {
    const r = await tasks();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Usage:\n  tasks [command]');
    expect(r.stderr).toBe('');
    expect(r.ms).toBeLessThan(15_000);
  });

  it('json output is one unwrapped line whatever COLUMNS says, with no escape byte although colour is forced', async () => {
    const add = await tasks('add', LONG_TITLE);
    expect(add.code, add.stderr).toBe(0);
    const lines = add.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!).data.title).toBe(LONG_TITLE);
    const text = await tasks('list', '--format', 'text');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.split('\n').some((l) => l.includes(LONG_TITLE))).toBe(true);
    for (const r of [add, text]) expect(r.stdout + r.stderr).not.toContain(ESC);
  });

  it('an error under a French locale is English, with its stable kind and exit code', async () => {
    const r = await tasks('show', '99');
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    const line = JSON.parse(r.stderr.trim().split('\n').at(-1)!);
    expect(line.error).toMatchObject({ kind: 'not_found', message: 'no task with id 99', exit_code: 5 });
  });

  it('a destructive command stops with its next steps instead of asking, and nothing (editor, pager, browser) was started', async () => {
    const r = await tasks('rm', '1');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const line = JSON.parse(r.stderr.trim().split('\n').at(-1)!);
    expect(line.error.kind).toBe('action_required');
    expect(line.error.next.length).toBeGreaterThan(0);
    expect(r.ms).toBeLessThan(15_000);
    expect(existsSync(join(dir, 'started')), 'the trap was started').toBe(false);
  });

  it('the trap works: a process that honours EDITOR leaves the mark this file checks for', async () => {
    const probe = join(dir, 'probe.mjs');
    writeFileSync(
      probe,
      "import { execFileSync } from 'node:child_process'; execFileSync(process.env.EDITOR, ['x']);\n",
    );
    const r = await runScript(probe, [], agentEnv());
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(dir, 'started'))).toBe(true);
  });
});
