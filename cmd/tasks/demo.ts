/**
 * `npm run demo`: a scripted walk through the `tasks` demo CLI in both output modes, against a
 * throw-away store. Each step runs the real CLI as a child process (stdout and stdin are pipes, so
 * the default mode is json, as an agent would see it) and prints the command line, its stdout, its
 * stderr and its exit code. Exits 0 when every step behaved as expected, 1 otherwise.
 * Works from any directory: paths are resolved from this file.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mcpDemo } from './demo-mcp.ts';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
/** tsx resolved from this file, so `--import` works whatever the current directory is. */
const TSX = (() => {
  try {
    return import.meta.resolve('tsx');
  } catch {
    return 'tsx';
  }
})();

interface Result {
  stdout: string;
  stderr: string;
  code: number | null;
}

interface Step {
  args: string[];
  /** What the step shows, printed above it. */
  note: string;
  code: number;
  /** Extra check of the output; returns a problem description or undefined. */
  check?: (r: Result) => string | undefined;
}

function run(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX, MAIN, ...args], {
      env,
      cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code }));
    child.stdin.end();
  });
}

/** Quotes an argument for display the way a shell user would type it. */
function shellWord(a: string): string {
  return /^[A-Za-z0-9_./:=,@%+-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}

function block(label: string, text: string): string {
  if (text === '') return `  ${label}: (empty)\n`;
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  return `  ${label}:\n${body
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n')}\n`;
}

const json = (line: string): Record<string, any> | undefined => {
  try {
    return JSON.parse(line) as Record<string, any>;
  } catch {
    return undefined;
  }
};
const lines = (s: string) => s.split('\n').filter((l) => l !== '');
const data = (r: Result) => json(lines(r.stdout)[0] ?? '')?.data;
const lastErr = (r: Result) => json(lines(r.stderr).at(-1) ?? '')?.error;

const steps: Step[] = [
  {
    note: 'Add a task (piped stdout: json envelope by default)',
    args: ['add', 'buy', 'milk', '--tag', 'home', '-t', 'errand', '--due', '2030-01-31'],
    code: 0,
    check: (r) => (data(r)?.id === 1 && data(r)?.title === 'buy milk' ? undefined : 'expected task 1 "buy milk"'),
  },
  {
    note: 'Add another',
    args: ['add', 'call mum', '-t', 'family'],
    code: 0,
    check: (r) => (data(r)?.id === 2 ? undefined : 'expected task 2'),
  },
  {
    note: 'Dry run: nothing is written; the envelope shows what would be created (meta.dry_run)',
    args: ['add', '--dry-run', 'water plants'],
    code: 0,
    check: (r) =>
      json(r.stdout)?.meta?.dry_run === true && data(r)?.id === 3 ? undefined : 'expected dry_run envelope of task 3',
  },
  {
    note: 'Human mode: a plain-text table (only two tasks: the dry run wrote nothing)',
    args: ['list', '--format', 'text'],
    code: 0,
    check: (r) =>
      lines(r.stdout).length === 3 && r.stdout.startsWith('ID') ? undefined : 'expected a header and two rows',
  },
  {
    note: 'Machine mode: the same list as one JSON envelope',
    args: ['list', '--format', 'json'],
    code: 0,
    check: (r) => (data(r)?.length === 2 ? undefined : 'expected 2 tasks'),
  },
  {
    note: 'Show one task',
    args: ['show', '1'],
    code: 0,
    check: (r) => (data(r)?.title === 'buy milk' ? undefined : 'expected task 1'),
  },
  {
    note: 'Mark it done (idempotent)',
    args: ['done', '1'],
    code: 0,
    check: (r) => (data(r)?.status === 'done' ? undefined : 'expected status done'),
  },
  {
    note: 'Export: an NDJSON stream, one envelope per task',
    args: ['export'],
    code: 0,
    check: (r) =>
      lines(r.stdout)
        .map((l) => json(l)?.data?.id)
        .join(',') === '1,2'
        ? undefined
        : 'expected two NDJSON lines for tasks 1 and 2',
  },
  {
    note: 'A failure: nothing on stdout, one JSON error line on stderr, exit code from the catalogue (not_found = 5)',
    args: ['show', '99'],
    code: 5,
    check: (r) =>
      r.stdout === '' && lastErr(r)?.kind === 'not_found' && lastErr(r)?.exit_code === 5
        ? undefined
        : 'expected a not_found error line',
  },
  {
    note: 'The same failure in human mode: a readable error with the fix on stderr',
    args: ['show', '99', '--format', 'text'],
    code: 5,
    check: (r) =>
      r.stdout === '' && r.stderr.startsWith('Error: no task with id 99') ? undefined : 'expected a readable error',
  },
  {
    note:
      'rm without --yes on a pipe: never prompts; a stop ' +
      '(action_required, exit 2) whose next steps can be run as they are',
    args: ['rm', '2'],
    code: 2,
    check: (r) => {
      const e = lastErr(r);
      const steps = (e?.next ?? []) as { command?: string }[];
      return e?.kind === 'action_required' &&
        steps.map((n) => n.command).join(' | ') === 'tasks rm 2 --yes | tasks done 2'
        ? undefined
        : 'expected action_required with the next steps "tasks rm 2 --yes" and "tasks done 2"';
    },
  },
  {
    note: 'A due date in the past: added, with a structured warning in meta.warnings (and on stderr)',
    args: ['add', 'renew passport', '--due', '2020-01-01'],
    code: 0,
    check: (r) =>
      JSON.stringify(json(lines(r.stdout)[0] ?? '')?.meta?.warnings) ===
      '[{"code":"due_in_past","message":"the due date 2020-01-01 is in the past"}]'
        ? undefined
        : 'expected the warning due_in_past in meta.warnings',
  },
  {
    note: '--strict turns that warning into a failure: warnings_as_errors, exit 2, nothing on stdout',
    args: ['add', 'renew passport', '--due', '2020-01-01', '--strict'],
    code: 2,
    check: (r) =>
      r.stdout === '' && lastErr(r)?.kind === 'warnings_as_errors' ? undefined : 'expected warnings_as_errors',
  },
  {
    note: 'rm --yes deletes it',
    args: ['rm', '2', '--yes'],
    code: 0,
    check: (r) => (data(r)?.id === 2 ? undefined : 'expected the deleted task 2'),
  },
  {
    note: 'What is left, as text (the strict add stopped at its warning, before it wrote anything)',
    args: ['list', '--status', 'all', '--format', 'text'],
    code: 0,
    check: (r) => (lines(r.stdout).length === 3 ? undefined : 'expected two tasks left'),
  },
];

async function demo(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'ax-tasks-demo-'));
  const store = join(dir, 'tasks.json');
  const env: NodeJS.ProcessEnv = { ...process.env, TASKS_FILE: store, HOME: dir };
  delete env.AGENT_MODE;
  delete env.XDG_DATA_HOME;
  let failures = 0;
  try {
    failures += await mcpDemo(MAIN, ['--import', TSX], {
      ...(env as Record<string, string>),
      TASKS_FILE: join(dir, 'mcp-tasks.json'),
    });
    process.stdout.write(
      `\nax-ts demo, part 2: the "tasks" CLI, run as a child ` +
        `process with piped stdout (json mode unless --format text).\n`,
    );
    process.stdout.write(`Store: TASKS_FILE=${store}\n`);
    for (const step of steps) {
      const r = await run(step.args, env, dir);
      const problems = [
        r.code === step.code ? undefined : `exit code ${r.code}, expected ${step.code}`,
        step.check?.(r),
      ].filter(Boolean);
      failures += problems.length ? 1 : 0;
      process.stdout.write(`\n# ${step.note}\n$ tasks ${step.args.map(shellWord).join(' ')}\n`);
      process.stdout.write(block('stdout', r.stdout) + block('stderr', r.stderr));
      process.stdout.write(
        `  exit code: ${r.code}${problems.length ? `   <-- UNEXPECTED: ${problems.join('; ')}` : ''}\n`,
      );
    }
    process.stdout.write(
      `\n${failures === 0 ? 'Every MCP call and CLI step behaved as expected.' : `${failures} steps did not behave as expected.`}\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return failures === 0 ? 0 : 1;
}

process.exitCode = await demo();
