/**
 * The demo CLI in the environment an agent's shell gives it: no terminal, stdin closed, a French
 * locale, a 20-column `COLUMNS`, colour forced on, no display, and `EDITOR`, `VISUAL`, `PAGER` and
 * `BROWSER` all naming a script that leaves a mark if anything starts it. Every run must end at once
 * with its contract output (one JSON line, or help), in English, unwrapped, without an escape byte,
 * and start none of them: ax-ts never opens an editor, a pager or a browser, and never waits for a
 * person (docs/contract.md#agents-and-prompts). No run opens a TCP connection or fetches anything
 * either (no update check, no telemetry), as a preload in each process records. Each trap has a
 * positive control. docs/agents-spec.md cites these tests.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** Where a preload records every TCP connection or fetch a process starts. */
const NET_MARK = join(dir, 'network');
const NET_PRELOAD = join(dir, 'net-preload.mjs');
writeFileSync(
  NET_PRELOAD,
  [
    "import net from 'node:net';",
    "import { appendFileSync } from 'node:fs';",
    `const mark = (what) => appendFileSync(${JSON.stringify(NET_MARK)}, what + '\\n');`,
    'const connect = net.Socket.prototype.connect;',
    // a TCP connection (a port), not a local socket by path (tsx's own IPC)
    'net.Socket.prototype.connect = function (...a) {',
    '  const o = Array.isArray(a[0]) ? a[0][0] : a[0];',
    "  if (typeof o === 'number' || o?.port != null) mark('connect ' + JSON.stringify(o));",
    '  return connect.apply(this, a);',
    '};',
    'const fetch = globalThis.fetch;',
    "globalThis.fetch = (...a) => { mark('fetch ' + String(a[0])); return fetch(...a); };",
  ].join('\n'),
);

/** The agent's environment, with the network preload in every Node process it starts. */
const netEnv = (): NodeJS.ProcessEnv => ({ ...agentEnv(), NODE_OPTIONS: `--import ${NET_PRELOAD}` });

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

  it('no run opens a network connection: no update check, no telemetry (help, list, add, show, rm, __schema, doctor, --version)', async () => {
    const runs = [[], ['list'], ['add', 'x'], ['show', '99'], ['rm', '1'], ['__schema'], ['doctor'], ['--version']];
    for (const args of runs) {
      const r = await runScript(TASKS, args, netEnv());
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).not.toBeNull();
    }
    expect(existsSync(NET_MARK) ? readFileSync(NET_MARK, 'utf8') : '').toBe('');
  });

  it('the network probe works: a process that fetches or connects leaves the mark this file checks for', async () => {
    const probe = join(dir, 'net-probe.mjs');
    writeFileSync(
      probe,
      "import { connect } from 'node:net';\n" +
        "connect(9, '127.0.0.1').on('error', () => {});\n" +
        "await fetch('http://127.0.0.1:9/').catch(() => {});\n",
    );
    const r = await runScript(probe, [], netEnv());
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(NET_MARK, 'utf8')).toMatch(/connect[\s\S]*fetch|fetch[\s\S]*connect/);
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
