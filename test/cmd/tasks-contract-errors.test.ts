/**
 * Contract tests of the real `tasks` CLI on bad input: each case runs the CLI as a process (piped
 * stdio, so json mode unless said otherwise) and asserts stdout, stderr and the exit code exactly.
 * For every failure stdout is empty and the last stderr line is the error object whose exit_code is
 * the process's exit code (expectFailure). Cases run concurrently, each in its own sandbox.
 */
import { readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { errLine, expectFailure, sandbox, task, type Sandbox } from '../fixtures/tasks-harness.ts';

const boxes: Sandbox[] = [];
afterAll(() => boxes.forEach((b) => b.cleanup()));
function box(): Sandbox {
  const b = sandbox();
  boxes.push(b);
  b.seed([task(1, 'buy milk', { tags: ['home'] }), task(2, 'file taxes')]);
  return b;
}

const TIMEOUT = 30_000;
const SEE_IDS = "Run 'tasks list --status all' to see ids.";

interface Case {
  name: string;
  args: string[];
  env?: Record<string, string | undefined>;
  code: number;
  error: Record<string, unknown>;
}

const usage = (cmd: string) => `Run '${cmd} --help' to see the arguments it takes.`;

const cases: Case[] = [
  {
    name: 'unknown command, with a suggestion',
    args: ['lst'],
    code: 2,
    error: {
      kind: 'validation_error',
      message: 'unknown command "lst" for "tasks"',
      exit_code: 2,
      retryable: false,
      actionable_fix: "Did you mean 'tasks list'? Run 'tasks --help' to list commands (agents: 'tasks __schema').",
      suggestions: ['tasks list'],
      context: { reason: 'unknown_command', command: 'tasks', received: 'lst' },
    },
  },
  {
    name: 'unknown flag, with a suggestion',
    args: ['list', '--lmit', '3'],
    code: 2,
    error: {
      kind: 'validation_error',
      message: 'unknown flag: --lmit',
      exit_code: 2,
      retryable: false,
      actionable_fix: "Did you mean --limit? Run 'tasks list --help' to see its flags.",
      suggestions: ['--limit'],
      context: { reason: 'unknown_flag', command: 'tasks list', flag: '--lmit' },
    },
  },
  {
    name: 'bad int (--limit abc)',
    args: ['list', '--limit', 'abc'],
    code: 2,
    error: {
      kind: 'validation_error',
      message: 'invalid argument "abc" for "--limit" flag: must be an integer',
      exit_code: 2,
      retryable: false,
      actionable_fix: 'Pass an integer to --limit.',
      context: { reason: 'invalid_flag_value', flag: '--limit', value: 'abc', expected: 'an integer' },
    },
  },
  {
    name: 'out-of-range int (--limit 0)',
    args: ['list', '--limit', '0'],
    code: 2,
    error: {
      kind: 'validation_error',
      message: 'invalid value 0 for --limit: expected an integer >= 1',
      exit_code: 2,
      retryable: false,
      actionable_fix: 'Pass --limit 1 or more.',
      context: { reason: 'invalid_flag_value', flag: '--limit', value: 0 },
    },
  },
  {
    name: 'flag without its value (add x --due)',
    args: ['add', 'x', '--due'],
    code: 2,
    error: {
      kind: 'validation_error',
      message: 'flag needs an argument: --due',
      exit_code: 2,
      retryable: false,
      actionable_fix: 'Give a value: --due <value> or --due=<value>.',
      context: { reason: 'missing_flag_value', flag: '--due' },
    },
  },
  {
    name: 'missing required positional (show)',
    args: ['show'],
    code: 2,
    error: {
      kind: 'validation_error',
      message: 'missing required argument <id>',
      exit_code: 2,
      retryable: false,
      actionable_fix: usage('tasks show'),
      context: { reason: 'missing_argument', command: 'tasks show', argument: 'id', position: 1 },
    },
  },
  {
    name: 'missing variadic positional (add)',
    args: ['add', '--tag', 'x'],
    code: 2,
    error: {
      kind: 'validation_error',
      message: 'missing required argument <title...>',
      exit_code: 2,
      retryable: false,
      actionable_fix: usage('tasks add'),
      context: { reason: 'missing_argument', command: 'tasks add', argument: 'title', position: 1 },
    },
  },
  {
    name: 'too many positionals (show 1 2)',
    args: ['show', '1', '2'],
    code: 2,
    error: {
      kind: 'validation_error',
      message: 'too many arguments: "tasks show" takes at most 1, received 2',
      exit_code: 2,
      retryable: false,
      actionable_fix: usage('tasks show'),
      context: { reason: 'too_many_arguments', command: 'tasks show', max: 1, received: 2, unexpected: '2' },
    },
  },
  {
    name: 'positional to a command that takes none (list extra)',
    args: ['list', 'extra'],
    code: 2,
    error: {
      kind: 'validation_error',
      message: '"tasks list" takes no arguments, received "extra"',
      exit_code: 2,
      retryable: false,
      actionable_fix: usage('tasks list'),
      context: { reason: 'too_many_arguments', command: 'tasks list', max: 0, received: 1, unexpected: 'extra' },
    },
  },
  {
    name: '-- edge case: show -- 1 2 is too many arguments',
    args: ['show', '--', '1', '2'],
    code: 2,
    error: {
      kind: 'validation_error',
      message: 'too many arguments: "tasks show" takes at most 1, received 2',
      exit_code: 2,
      retryable: false,
      actionable_fix: usage('tasks show'),
      context: { reason: 'too_many_arguments', command: 'tasks show', max: 1, received: 2, unexpected: '2' },
    },
  },
  {
    name: '-- edge case: show -- --help is an id, not a flag',
    args: ['show', '--', '--help'],
    code: 2,
    error: {
      kind: 'validation_error',
      message: 'invalid value "--help" for <id>: expected an integer',
      exit_code: 2,
      retryable: false,
      actionable_fix: "Run 'tasks show --help' to see the arguments it takes.",
      context: {
        reason: 'invalid_argument',
        command: 'tasks show',
        argument: 'id',
        value: '--help',
        expected: 'an integer',
      },
    },
  },
  {
    name: 'bad --format value',
    args: ['--format', 'yaml', 'list'],
    code: 2,
    error: {
      kind: 'validation_error',
      message: 'invalid value "yaml" for --format: expected json or text',
      exit_code: 2,
      retryable: false,
      actionable_fix: 'Pass --format json (for machines) or --format text (for people).',
      context: {
        reason: 'invalid_mode',
        flag: '--format',
        value: 'yaml',
        accepted: ['json', 'agent', 'machine', 'human', 'text'],
      },
    },
  },
  {
    name: 'bad AGENT_MODE',
    args: ['list'],
    env: { AGENT_MODE: 'maybe' },
    code: 2,
    error: {
      kind: 'validation_error',
      message:
        'invalid value "maybe" for AGENT_MODE: expected json|agent|machine|1|true|yes|on or human|text|0|false|no|off',
      exit_code: 2,
      retryable: false,
      actionable_fix: 'Set AGENT_MODE=1 for JSON output, AGENT_MODE=0 for text, or unset it.',
      context: {
        reason: 'invalid_mode',
        env: 'AGENT_MODE',
        value: 'maybe',
        accepted: ['0', '1', 'json', 'agent', 'machine', 'human', 'text', 'true', 'yes', 'on', 'false', 'no', 'off'],
      },
    },
  },
  {
    name: 'mutually exclusive flags (list --all --status done)',
    args: ['list', '--all', '--status', 'done'],
    code: 2,
    error: {
      kind: 'validation_error',
      message: 'if any flags in the group [status all] are set none of the others can be; [all status] were all set',
      exit_code: 2,
      retryable: false,
      actionable_fix: 'Give only one of --status and --all.',
      context: {
        reason: 'mutually_exclusive',
        command: 'tasks list',
        group: ['--status', '--all'],
        given: ['--status', '--all'],
      },
    },
  },
  {
    name: 'bad --status choice',
    args: ['list', '--status', 'closed'],
    code: 2,
    error: {
      kind: 'validation_error',
      message: 'invalid argument "closed" for "--status" flag: must be one of open|done|all',
      exit_code: 2,
      retryable: false,
      actionable_fix: 'Pass one of: open, done, all.',
      context: { reason: 'invalid_flag_value', flag: '--status', value: 'closed', expected: 'one of open|done|all' },
    },
  },
  {
    name: 'bad --fields choice',
    args: ['list', '--fields', 'id,nope'],
    code: 2,
    error: {
      kind: 'validation_error',
      message:
        'invalid argument "id,nope" for "--fields" flag: must be one of id|title|status|tags|due|created_at|done_at',
      exit_code: 2,
      retryable: false,
      actionable_fix: 'Pass one of: id, title, status, tags, due, created_at, done_at.',
      context: {
        reason: 'invalid_flag_value',
        flag: '--fields',
        value: 'id,nope',
        expected: 'one of id|title|status|tags|due|created_at|done_at',
      },
    },
  },
  {
    name: 'bad --due (not a calendar date)',
    args: ['add', 'pay rent', '--due', '2030-02-30'],
    code: 2,
    error: {
      kind: 'validation_error',
      message: 'invalid value "2030-02-30" for --due: expected a date YYYY-MM-DD',
      exit_code: 2,
      retryable: false,
      actionable_fix: 'Pass the due date as YYYY-MM-DD, e.g. --due 2030-01-31.',
      context: { reason: 'invalid_flag_value', flag: '--due', value: '2030-02-30' },
    },
  },
  {
    name: 'empty title',
    args: ['add', ''],
    code: 2,
    error: {
      kind: 'validation_error',
      message: 'the task title is empty',
      exit_code: 2,
      retryable: false,
      actionable_fix: "Give the title as words after 'add', e.g. tasks add buy milk.",
      context: { reason: 'invalid_argument', argument: 'title' },
    },
  },
  {
    name: 'bad id (show abc)',
    args: ['show', 'abc'],
    code: 2,
    error: {
      kind: 'validation_error',
      message: 'invalid value "abc" for <id>: expected an integer',
      exit_code: 2,
      retryable: false,
      actionable_fix: "Run 'tasks show --help' to see the arguments it takes.",
      context: {
        reason: 'invalid_argument',
        command: 'tasks show',
        argument: 'id',
        value: 'abc',
        expected: 'an integer',
      },
    },
  },
  {
    name: 'bad id (done 0)',
    args: ['done', '0'],
    code: 2,
    error: {
      kind: 'validation_error',
      message: 'invalid task id 0: expected a positive integer',
      exit_code: 2,
      retryable: false,
      actionable_fix: "Pass a task id such as 1; run 'tasks list --status all' to see ids.",
      context: { reason: 'invalid_argument', argument: 'id', value: 0 },
    },
  },
  {
    name: 'no store location (no --store, TASKS_FILE, XDG_DATA_HOME or HOME)',
    args: ['list'],
    env: { TASKS_FILE: undefined, HOME: undefined },
    code: 9,
    error: {
      kind: 'store_error',
      message: 'Cannot determine where the task store lives: neither HOME nor XDG_DATA_HOME is set.',
      exit_code: 9,
      retryable: false,
      actionable_fix: 'Pass --store <file> or set TASKS_FILE to the path of the store file.',
      context: { path: '', reason: 'store_path_unknown' },
    },
  },
  ...(['show', 'done', 'rm'] as const).map((cmd) => ({
    name: `unknown task id (${cmd} 99)`,
    args: [cmd, '99'],
    code: 5,
    error: {
      kind: 'not_found',
      message: 'no task with id 99',
      exit_code: 5,
      retryable: false,
      actionable_fix: SEE_IDS,
      context: { id: 99 },
    },
  })),
];

describe.concurrent('tasks CLI: bad input gives exit code, empty stdout and one error line', () => {
  for (const c of cases) {
    it(
      c.name,
      async () => {
        const b = box();
        const before = b.read();
        const r = await b.runTasks(c.args, { env: c.env });
        expectFailure(r, c.code, c.error.kind as string);
        expect(b.mask(r.stderr)).toBe(errLine(c.error));
        expect(b.read()).toBe(before); // a failed command changes nothing
      },
      TIMEOUT,
    );
  }

  it(
    'corrupt store: every command fails with store_corrupt (exit 7) and the file is never rewritten',
    async () => {
      const b = box();
      const bytes = '[1, 2, 3]\n';
      writeFileSync(b.file, bytes);
      const fix = `Repair <DIR>/tasks.json by hand or move it away (e.g. mv '<DIR>/tasks.json' '<DIR>/tasks.json.bak'); a missing store file is treated as empty.`;
      const expected = errLine({
        kind: 'store_corrupt',
        message: 'Store file <DIR>/tasks.json is corrupt: top level is not an object',
        exit_code: 7,
        retryable: false,
        actionable_fix: fix,
        context: { path: '<DIR>/tasks.json', reason: 'store_corrupt' },
      });
      const runs = await Promise.all(
        [
          ['add', 'x'],
          ['list'],
          ['show', '1'],
          ['done', '1'],
          ['rm', '1', '--yes'],
          ['export'],
          ['add', '--dry-run', 'y'],
        ].map((a) => b.runTasks(a)),
      );
      for (const r of runs) {
        expectFailure(r, 7, 'store_corrupt');
        expect(b.mask(r.stderr)).toBe(expected);
      }
      expect(b.read()).toBe(bytes);
      expect(readdirSync(b.dir)).toEqual(['tasks.json']); // no temp or lock file left behind
    },
    TIMEOUT,
  );

  it(
    'a store over 64 MiB: every command fails at once with store_error (exit 9, reason store_io), reading no more than its first 64 KiB, and the file is left alone',
    async () => {
      const b = box();
      truncateSync(b.file, 64 * 1024 * 1024 + 1); // sparse: the size is what counts, not what is read
      const expected = errLine({
        kind: 'store_error',
        message: `Store file <DIR>/tasks.json is ${64 * 1024 * 1024 + 1} bytes, more than the 64 MiB tasks reads`,
        exit_code: 9,
        retryable: false,
        actionable_fix:
          "Move <DIR>/tasks.json away (e.g. mv '<DIR>/tasks.json' '<DIR>/tasks.json.big') and start a new store, or choose another one with --store / TASKS_FILE.",
        context: { path: '<DIR>/tasks.json', reason: 'store_io' },
      });
      const runs = await Promise.all(
        [['add', 'x'], ['list'], ['show', '1'], ['done', '1'], ['rm', '1', '--yes'], ['export']].map((a) =>
          b.runTasks(a),
        ),
      );
      for (const r of runs) {
        expectFailure(r, 9, 'store_error');
        expect(b.mask(r.stderr)).toBe(expected);
      }
      expect(statSync(b.file).size).toBe(64 * 1024 * 1024 + 1);
      expect(readdirSync(b.dir)).toEqual(['tasks.json']); // no temp or lock file left behind
    },
    TIMEOUT,
  );

  it(
    'a store that never ends (a device, whose size no stat gives): store_error (exit 9, reason store_io) once 64 MiB are read, never a hang',
    async () => {
      const b = box();
      const r = await b.runTasks(['list', '--store', '/dev/zero']); // before: read until memory ran out
      expectFailure(r, 9, 'store_error');
      expect(JSON.parse(r.stderr.trim().split('\n').pop()!)).toMatchObject({
        error: {
          kind: 'store_error',
          message: 'Store file /dev/zero holds more than the 64 MiB tasks reads',
          exit_code: 9,
          retryable: false,
          context: { path: '/dev/zero', reason: 'store_io' },
        },
      });
    },
    TIMEOUT,
  );

  it(
    'store held by a live process: store_locked (exit 8, retryable) after the 10 s lock timeout, lock left alone',
    async () => {
      const b = box();
      const before = b.read();
      const lock = `${JSON.stringify({ pid: process.pid, created_at: new Date().toISOString(), token: 'held-by-test' })}\n`;
      writeFileSync(`${b.file}.lock`, lock);
      const r = await b.runTasks(['add', 'x']);
      expectFailure(r, 8, 'store_locked');
      expect(b.mask(r.stderr)).toBe(
        errLine({
          kind: 'store_locked',
          message: `Store <DIR>/tasks.json is locked by another process (held by pid ${process.pid}); gave up after 10000 ms.`,
          exit_code: 8,
          retryable: true,
          actionable_fix:
            'Wait for the other tasks command to finish and retry; if none is running, delete the lock file <DIR>/tasks.json.lock.',
          context: { path: '<DIR>/tasks.json.lock', reason: 'store_locked' },
          retry_after_seconds: 1,
        }),
      );
      expect(b.read()).toBe(before);
      expect(readFileSync(`${b.file}.lock`, 'utf8')).toBe(lock);
    },
    TIMEOUT,
  );

  it(
    'rm without --yes on a pipe: a stop, action_required (exit 2) with runnable next steps, never prompts, task kept',
    async () => {
      const b = box();
      const before = b.read();
      const r = await b.runTasks(['rm', '1'], { input: 'y\n' }); // an answer on a pipe is not a confirmation
      expectFailure(r, 2, 'action_required');
      const title = JSON.stringify(JSON.parse(before).tasks.find((t: { id: number }) => t.id === 1).title);
      expect(b.mask(r.stderr)).toBe(
        errLine({
          kind: 'action_required',
          message: `deleting task 1 (${title}) cannot be undone: confirm it, or keep the task`,
          exit_code: 2,
          retryable: false,
          actionable_fix: 'Run the next step that fits: tasks rm 1 --yes; or tasks done 1.',
          context: { reason: 'confirm_delete' },
          next: [
            {
              description: "delete it (only with the user's consent)",
              command: 'tasks rm 1 --yes',
              argv: ['tasks', 'rm', '1', '--yes'],
            },
            { description: 'keep it, marked done', command: 'tasks done 1', argv: ['tasks', 'done', '1'] },
          ],
        }),
      );
      expect(b.read()).toBe(before);
      // Also in human mode: refused, no question printed; the steps carry the caller's --format
      const h = await b.runTasks(['rm', '1', '--format', 'text'], { input: 'y\n' });
      expect(h).toEqual({
        code: 2,
        stdout: '',
        stderr:
          `Error: deleting task 1 (${title}) cannot be undone: confirm it, or keep the task\n` +
          'Reason: confirm_delete\n' +
          'Fix: Run the next step that fits: tasks rm 1 --yes --format text; or tasks done 1 --format text.\n' +
          'next:\n' +
          "  tasks rm 1 --yes --format text  # delete it (only with the user's consent)\n" +
          '  tasks done 1 --format text      # keep it, marked done\n',
      });
      expect(b.read()).toBe(before);
      // the first step, run as given, deletes it
      const yes = await b.runTasks(['rm', '1', '--yes']);
      expect(yes.code, yes.stderr).toBe(0);
    },
    TIMEOUT,
  );

  it(
    "idempotency conflict: same key, other arguments → idempotency_conflict (exit 2, the toolkit's), nothing created",
    async () => {
      const b = box();
      const first = await b.runTasks(['add', 'water plants', '--idempotency-key', 'k-1']);
      expect(first.code).toBe(0);
      const before = b.read();
      const r = await b.runTasks(['add', 'water the plants', '--idempotency-key', 'k-1']);
      expectFailure(r, 2, 'idempotency_conflict');
      expect(b.mask(r.stderr)).toBe(
        errLine({
          kind: 'idempotency_conflict',
          message: '--idempotency-key "k-1" was already used with different arguments',
          exit_code: 2,
          retryable: false,
          actionable_fix:
            "Use a new --idempotency-key for a new call, or repeat the first call's arguments exactly to get its outcome again.",
          context: { idempotency_key: 'k-1', command: 'tasks add' },
        }),
      );
      expect(b.read()).toBe(before);
      // A dry run never consults or records a key: it previews the new task.
      const dry = await b.runTasks(['add', '--dry-run', 'other', '--idempotency-key', 'k-1']);
      expect(dry.code).toBe(0);
      expect(b.read()).toBe(before);
    },
    TIMEOUT,
  );

  it(
    'human mode: a readable error with the fix on stderr (no JSON), same exit code',
    async () => {
      const b = box();
      expect(await b.runTasks(['show', '99', '--format', 'text'])).toEqual({
        code: 5,
        stdout: '',
        stderr: `Error: no task with id 99\nFix: ${SEE_IDS}\n`,
      });
      expect(await b.runTasks(['lst'], { env: { AGENT_MODE: 'human' } })).toEqual({
        code: 2,
        stdout: '',
        stderr:
          'Error: unknown command "lst" for "tasks"\n\nDid you mean this?\n\ttasks list\n\nUsage: tasks [command]\nFix: Run \'tasks --help\' to list commands (agents: \'tasks __schema\').\n',
      });
    },
    TIMEOUT,
  );
});
