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
    note: 'rm without --yes on a pipe: never prompts, fails with confirmation_required whose fix names --yes',
    args: ['rm', '2'],
    code: 2,
    check: (r) =>
      lastErr(r)?.kind === 'confirmation_required' && String(lastErr(r)?.actionable_fix).includes('--yes')
        ? undefined
        : 'expected confirmation_required naming --yes',
  },
  {
    note: 'rm --yes deletes it',
    args: ['rm', '2', '--yes'],
    code: 0,
    check: (r) => (data(r)?.id === 2 ? undefined : 'expected the deleted task 2'),
  },
  {
    note: 'What is left, as text',
    args: ['list', '--status', 'all', '--format', 'text'],
    code: 0,
    check: (r) => (lines(r.stdout).length === 2 ? undefined : 'expected one task left'),
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
      `\nax-ts demo, part 2: the "tasks" CLI, run as a child process with piped stdout (json mode unless --format text).\n`,
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
