/**
 * Contract tests of the real `tasks` demo CLI run as a process (`node --import tsx cmd/tasks/main.ts`,
 * piped stdio, TASKS_FILE and HOME in a temp dir, AGENT_MODE unset): stdout, stderr and exit code are
 * asserted exactly, after masking trace/span ids, generated idempotency keys and timestamps.
 * Bad input is covered in tasks-contract-errors.test.ts. Cases run concurrently.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { execute } from '../../lib/index.ts';
import { buildTasksCli } from '../../cmd/tasks/cli.ts';
import type { StoreData, Task } from '../../cmd/tasks/store.ts';
import {
  errLine,
  expectFailure,
  mask,
  masked,
  okLine,
  ROOT,
  runNode,
  sandbox,
  task,
  VERSION,
  type Sandbox,
} from '../fixtures/tasks-harness.ts';

const boxes: Sandbox[] = [];
afterAll(() => boxes.forEach((b) => b.cleanup()));
function box(seed?: Task[]): Sandbox {
  const b = sandbox();
  boxes.push(b);
  if (seed) b.seed(seed);
  return b;
}

const TIMEOUT = 60_000;
const T1 = task(1, 'buy milk', { tags: ['home', 'errand'], due: '2030-01-31' });
const T2 = task(2, 'file taxes', { status: 'done', tags: ['admin'], done_at: '2030-01-05T10:00:00.000Z' });
const T3 = task(3, 'call mum');
const SEEDED = [T1, T2, T3];
const lines = (s: string) => s.split('\n').filter(Boolean);
const dataOf = (stdout: string) => (JSON.parse(stdout) as { data: unknown }).data;
const store = (b: Sandbox) => JSON.parse(b.read()) as StoreData;

describe.concurrent('tasks CLI: success in both modes', () => {
  it(
    'text mode never sends control characters from the data to the terminal (add, list, show): they are shown escaped',
    async () => {
      const b = box();
      const title = 'a\u001b]0;pwned\u0007b';
      expect(await b.runTasks(['add', title, '--format', 'text'])).toEqual({
        code: 0,
        stderr: '',
        stdout: 'Added #1 a\\u001b]0;pwned\\u0007b\n',
      });
      for (const args of [
        ['list', '--format', 'text'],
        ['show', '1', '--format', 'text'],
      ]) {
        const r = await b.runTasks(args);
        expect(r.code).toBe(0);
        expect(r.stdout).toContain('a\\u001b]0;pwned\\u0007b');
        expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
      }
      expect(dataOf((await b.runTasks(['show', '1', '--format', 'json'])).stdout)).toMatchObject({ title }); // the data itself is kept as given
    },
    TIMEOUT,
  );

  it(
    'add: json envelope on a piped stdout; text line with --format text; tags kept as given',
    async () => {
      const b = box();
      const r = await b.runTasks([
        'add',
        'buy',
        'milk',
        '-t',
        'home',
        '--tag',
        'a,b',
        '-t',
        'home',
        '--due',
        '2030-01-31',
      ]);
      expect({ ...r, stdout: mask(r.stdout) }).toEqual({
        code: 0,
        stderr: '',
        stdout: okLine({
          id: 1,
          title: 'buy milk',
          status: 'open',
          tags: ['home', 'a,b'],
          due: '2030-01-31',
          created_at: '<time>',
          done_at: null,
        }),
      });
      expect(await b.runTasks(['add', 'call mum', '--format', 'text'])).toEqual({
        code: 0,
        stderr: '',
        stdout: 'Added #2 call mum\n',
      });
      const s = store(b);
      expect(s.next_id).toBe(3);
      expect(s.tasks.map((t) => [t.id, t.title, t.tags])).toEqual([
        [1, 'buy milk', ['home', 'a,b']],
        [2, 'call mum', []],
      ]);
      expect(s.idempotency).toEqual({}); // no key given → nothing remembered
    },
    TIMEOUT,
  );

  it(
    'list: text table, json envelope, --status/--all/--tag, paging and --fields',
    async () => {
      const b = box(SEEDED);
      const run = async (args: string[], env?: Record<string, string>) => {
        const r = await b.runTasks(args, { env });
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        return mask(r.stdout);
      };
      const [text, textAll, json, byTag, page, fields, fieldsText, envHuman, flagWins] = await Promise.all([
        run(['list', '--format', 'text']),
        run(['list', '--status', 'all', '--format', 'text']),
        run(['list']),
        run(['list', '--all', '--tag', 'admin']),
        run(['list', '--status', 'all', '--limit', '1', '--offset', '1']),
        run(['list', '-a', '--fields', 'id,title', '--fields', 'status']),
        run(['ls', '--fields', 'title,id', '--format', 'text']),
        run(['list'], { AGENT_MODE: '0' }),
        run(['list', '--format', 'json'], { AGENT_MODE: 'human' }),
      ]);
      expect(text).toBe(
        'ID  STATUS  DUE         TITLE     TAGS\n1   open    2030-01-31  buy milk  home,errand\n3   open    -           call mum  -\n',
      );
      expect(textAll).toBe(
        'ID  STATUS  DUE         TITLE       TAGS\n1   open    2030-01-31  buy milk    home,errand\n2   done    -           file taxes  admin\n3   open    -           call mum    -\n',
      );
      expect(json).toBe(okLine([masked(T1), masked(T3)]));
      expect(byTag).toBe(okLine([masked(T2)]));
      expect(page).toBe(okLine([masked(T2)]));
      expect(fields).toBe(
        okLine([
          { id: 1, title: 'buy milk', status: 'open' },
          { id: 2, title: 'file taxes', status: 'done' },
          { id: 3, title: 'call mum', status: 'open' },
        ]),
      );
      expect(fieldsText).toBe('TITLE     ID\nbuy milk  1\ncall mum  3\n');
      expect(envHuman).toBe(text);
      expect(flagWins).toBe(json);
      const empty = box();
      expect(await empty.runTasks(['list', '--format', 'text'])).toEqual({
        code: 0,
        stderr: '',
        stdout: 'No tasks.\n',
      });
      expect(mask((await empty.runTasks(['list'])).stdout)).toBe(okLine([]));
      expect(existsSync(empty.file)).toBe(false); // reading never creates the store
    },
    TIMEOUT,
  );

  it(
    'show: json and text',
    async () => {
      const b = box(SEEDED);
      const [json, text] = await Promise.all([
        b.runTasks(['show', '1']),
        b.runTasks(['show', '2', '--format', 'text']),
      ]);
      expect({ ...json, stdout: mask(json.stdout) }).toEqual({ code: 0, stderr: '', stdout: okLine(masked(T1)) });
      expect(text).toEqual({
        code: 0,
        stderr: '',
        stdout:
          'ID:       2\nTitle:    file taxes\nStatus:   done\nTags:     admin\nDue:      -\nCreated:  2030-01-02T10:00:00.000Z\nDone at:  2030-01-05T10:00:00.000Z\n',
      });
    },
    TIMEOUT,
  );

  it(
    'export: an NDJSON stream in json mode (one envelope per task, all statuses), tab-separated lines in text',
    async () => {
      const b = box(SEEDED);
      const [json, text] = await Promise.all([b.runTasks(['export']), b.runTasks(['export', '--format', 'text'])]);
      expect(json.code).toBe(0);
      expect(json.stderr).toBe('');
      expect(mask(json.stdout)).toBe(SEEDED.map((t) => okLine(masked(t))).join(''));
      const metas = lines(json.stdout).map((l) => (JSON.parse(l) as { meta: Record<string, unknown> }).meta);
      // one invocation, one trace (each line's duration_ms is the time until its item was written)
      expect(new Set(metas.map((m) => JSON.stringify({ ...m, duration_ms: 0 }))).size).toBe(1);
      expect(text).toEqual({
        code: 0,
        stderr: '',
        stdout: '1\topen\t2030-01-31\tbuy milk\thome,errand\n2\tdone\t-\tfile taxes\tadmin\n3\topen\t-\tcall mum\t-\n',
      });
      expect(await box().runTasks(['export'])).toEqual({ code: 0, stderr: '', stdout: '' });
    },
    TIMEOUT,
  );

  it(
    'done is idempotent: done twice keeps the first done_at; meta.changed says which call changed it',
    async () => {
      const b = box(SEEDED);
      const first = await b.runTasks(['done', '1']);
      expect({ ...first, stdout: mask(first.stdout) }).toEqual({
        code: 0,
        stderr: '',
        stdout: okLine({ ...masked(T1), status: 'done', done_at: '<time>' }, { changed: true }),
      });
      const again = await b.runTasks(['done', '1', '--format', 'text']);
      expect(again).toEqual({ code: 0, stderr: '', stdout: 'Marked #1 buy milk done\n' });
      const third = await b.runTasks(['done', '1']);
      expect(dataOf(third.stdout)).toEqual(dataOf(first.stdout));
      expect(JSON.parse(third.stdout).meta.changed).toBe(false);
      expect(store(b).tasks[0]).toEqual(dataOf(first.stdout));
    },
    TIMEOUT,
  );

  it(
    'rm --yes deletes; rm --dry-run deletes nothing and needs no confirmation',
    async () => {
      const b = box(SEEDED);
      const before = b.read();
      const dry = await b.runTasks(['rm', '3', '--dry-run']);
      expect({ ...dry, stdout: mask(dry.stdout) }).toEqual({
        code: 0,
        stderr: '',
        stdout: okLine(masked(T3), { dry_run: true, would: ['delete task 3'] }),
      });
      expect(b.read()).toBe(before);
      const r = await b.runTasks(['rm', '3', '--yes']);
      expect({ ...r, stdout: mask(r.stdout) }).toEqual({ code: 0, stderr: '', stdout: okLine(masked(T3)) });
      expect(await b.runTasks(['rm', '-y', '2', '--format', 'text'])).toEqual({
        code: 0,
        stderr: '',
        stdout: 'Deleted #2 file taxes\n',
      });
      expect(store(b).tasks.map((t) => t.id)).toEqual([1]);
      expect(store(b).next_id).toBe(4); // ids are never reused
      const gone = await b.runTasks(['show', '3']);
      expectFailure(gone, 5, 'not_found');
    },
    TIMEOUT,
  );

  it(
    'add --dry-run writes nothing and shows the task that would be created',
    async () => {
      const fresh = box();
      const r = await fresh.runTasks(['add', '--dry-run', 'water', 'plants', '-t', 'home']);
      expect({ ...r, stdout: mask(r.stdout) }).toEqual({
        code: 0,
        stderr: '',
        stdout: okLine(
          {
            id: 1,
            title: 'water plants',
            status: 'open',
            tags: ['home'],
            due: null,
            created_at: '<time>',
            done_at: null,
          },
          { dry_run: true, would: ['add task 1 ("water plants")'] },
        ),
      });
      expect(existsSync(fresh.file)).toBe(false);
      expect(readdirSync(fresh.dir)).toEqual([]);
      const seeded = box(SEEDED);
      const before = seeded.read();
      expect(await seeded.runTasks(['add', 'x', '--dry-run', '--format', 'text'])).toEqual({
        code: 0,
        stdout: 'Would add #4 x\n',
        stderr: 'Dry run: nothing was changed. Would: add task 4 ("x").\n',
      });
      expect(seeded.read()).toBe(before);
    },
    TIMEOUT,
  );

  it(
    'the same idempotency key twice gives one task and identical data',
    async () => {
      const b = box(SEEDED);
      const args = ['add', 'pay', 'rent', '--due', '2030-02-01', '-t', 'money', '--idempotency-key', 'rent-2030-02'];
      const first = await b.runTasks(args);
      const second = await b.runTasks(args);
      expect(first.code).toBe(0);
      expect(second.code).toBe(0);
      expect(second.stdout).not.toBe(first.stdout); // new trace and span ids ...
      // ... but the same data, byte for byte (created_at included), marked as a replay
      expect(second.stdout.slice(0, second.stdout.indexOf(',"meta":'))).toBe(
        first.stdout.slice(0, first.stdout.indexOf(',"meta":')),
      );
      expect(JSON.parse(second.stdout).meta.replayed).toBe(true);
      expect(JSON.parse(first.stdout).meta.replayed).toBeUndefined();
      expect(mask(first.stdout)).toBe(
        okLine(
          {
            id: 4,
            title: 'pay rent',
            status: 'open',
            tags: ['money'],
            due: '2030-02-01',
            created_at: '<time>',
            done_at: null,
          },
          { idempotency_key: 'rent-2030-02' },
        ),
      );
      expect(store(b).tasks.filter((t) => t.title === 'pay rent')).toHaveLength(1);
      expect(store(b).next_id).toBe(5);
    },
    TIMEOUT,
  );

  it(
    '-- ends flags: add -- --not-a-flag creates a task titled "--not-a-flag"',
    async () => {
      const b = box();
      const r = await b.runTasks(['add', '--', '--not-a-flag']);
      expect({ ...r, stdout: mask(r.stdout) }).toEqual({
        code: 0,
        stderr: '',
        stdout: okLine({
          id: 1,
          title: '--not-a-flag',
          status: 'open',
          tags: [],
          due: null,
          created_at: '<time>',
          done_at: null,
        }),
      });
      const t = await b.runTasks(['add', '-t', 'x', '--', '-t', 'y']);
      expect(dataOf(t.stdout)).toMatchObject({ id: 2, title: '-t y', tags: ['x'] });
      // --format after -- is title text, not the mode switch (mode stays json, no invalid_mode error).
      const f = await b.runTasks(['add', '--', '--format', 'yaml']);
      expect([f.code, f.stderr]).toEqual([0, '']);
      expect(dataOf(f.stdout)).toMatchObject({ id: 3, title: '--format yaml' });
    },
    TIMEOUT,
  );

  it(
    'store location: --store beats TASKS_FILE; default is $XDG_DATA_HOME or ~/.local/share',
    async () => {
      const b = box();
      const other = join(b.dir, 'other.json');
      expect((await b.runTasks(['add', 'a', '--store', other])).code).toBe(0);
      expect(existsSync(other)).toBe(true);
      expect(existsSync(b.file)).toBe(false);
      expect((await b.runTasks(['add', 'b'], { env: { TASKS_FILE: undefined } })).code).toBe(0);
      expect(existsSync(join(b.dir, '.local', 'share', 'ax-tasks', 'tasks.json'))).toBe(true);
      expect(
        (await b.runTasks(['add', 'c'], { env: { TASKS_FILE: undefined, XDG_DATA_HOME: join(b.dir, 'xdg') } })).code,
      ).toBe(0);
      expect(existsSync(join(b.dir, 'xdg', 'ax-tasks', 'tasks.json'))).toBe(true);
    },
    TIMEOUT,
  );

  it(
    'help and version: exit 0 on stdout, nothing on stderr',
    async () => {
      const b = box();
      const [rootHelp, bare, addHelp, version] = await Promise.all([
        b.runTasks(['--help']),
        b.runTasks([]),
        b.runTasks(['help', 'add']),
        b.runTasks(['--version']),
      ]);
      for (const r of [rootHelp, bare, addHelp, version]) expect([r.code, r.stderr]).toEqual([0, '']);
      expect(rootHelp.stdout.startsWith('tasks is the demo CLI of ax-ts')).toBe(true);
      expect(rootHelp.stdout).toContain(
        '\nAvailable Commands:\n  add         Add a task\n  completion  Generate the autocompletion script for the specified shell\n  done        Mark a task done\n  export      Stream every task\n',
      );
      expect(rootHelp.stdout).toContain('--store string');
      expect(bare.stdout).toBe(rootHelp.stdout);
      expect(addHelp.stdout).toContain('Usage:\n  tasks add <title...> [flags]\n');
      expect(addHelp.stdout).toContain('  -t, --tag stringArray');
      expect(mask(version.stdout)).toBe(okLine({ name: 'tasks', version: VERSION }));
    },
    TIMEOUT,
  );
});

describe.concurrent('tasks CLI: processes, pipes and crashes', () => {
  it(
    '20 parallel add processes leave exactly 20 tasks and a valid file',
    async () => {
      const b = box();
      const runs = await Promise.all(
        Array.from({ length: 20 }, (_, i) => b.runTasks(['add', `task ${i}`, '-t', 'parallel'])),
      );
      for (const r of runs) expect([r.code, r.stderr]).toEqual([0, '']);
      const s = store(b);
      expect(s.tasks).toHaveLength(20);
      expect(s.tasks.map((t) => t.id).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(new Set(s.tasks.map((t) => t.title)).size).toBe(20);
      expect(s.next_id).toBe(21);
      expect(runs.map((r) => (dataOf(r.stdout) as Task).id).sort((x, y) => x - y)).toEqual(
        s.tasks.map((t) => t.id).sort((x, y) => x - y),
      );
      expect(readdirSync(b.dir)).toEqual(['tasks.json']); // no lock or temp file left
    },
    TIMEOUT,
  );

  it(
    'a multi-megabyte list and export through a real pipe are not truncated',
    async () => {
      const n = 20_000;
      const pad = 'p'.repeat(230);
      const b = box(Array.from({ length: n }, (_, i) => task(i + 1, `task ${i + 1} ${pad}`)));
      const [list, exp] = await Promise.all([b.runTasks(['list', '--limit', '100000']), b.runTasks(['export'])]);
      expect([list.code, list.stderr, exp.code, exp.stderr]).toEqual([0, '', 0, '']);
      expect(Buffer.byteLength(list.stdout)).toBeGreaterThan(5_000_000);
      expect(list.stdout.endsWith('}\n')).toBe(true);
      const tasks = dataOf(list.stdout) as Task[];
      expect(tasks).toHaveLength(n);
      expect(tasks.at(-1)!.id).toBe(n);
      const items = lines(exp.stdout);
      expect(Buffer.byteLength(exp.stdout)).toBeGreaterThan(5_000_000);
      expect(items).toHaveLength(n);
      expect(items.map((l) => (JSON.parse(l) as { data: Task }).data.id)).toEqual(tasks.map((t) => t.id));
    },
    TIMEOUT,
  );

  it(
    'fixture: a 5 MiB payload and a 5 000-item stream from main() reach the pipe whole',
    async () => {
      const big = join(ROOT, 'test', 'fixtures', 'tasks-big.ts');
      const [one, stream] = await Promise.all([runNode(big, []), runNode(big, ['--stream', '5000'])]);
      expect([one.code, one.stderr]).toEqual([0, '']);
      expect(mask(one.stdout)).toBe(okLine('x'.repeat(5 * 1024 * 1024)));
      expect([stream.code, stream.stderr]).toEqual([0, '']);
      const items = lines(stream.stdout).map((l) => (JSON.parse(l) as { data: { i: number } }).data.i);
      expect(items).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    },
    TIMEOUT,
  );

  it(
    'fixture: a handler throwing a plain Error → exit 1, internal_error, nothing on stdout, no stack',
    async () => {
      const r = await runNode(join(ROOT, 'test', 'fixtures', 'tasks-throw.ts'), []);
      expectFailure(r, 1, 'internal_error', 'boom');
      expect(mask(r.stderr)).toBe(
        'about to fail\n' +
          errLine(
            {
              kind: 'internal_error',
              message: 'kaboom: the handler crashed',
              exit_code: 1,
              retryable: false,
              actionable_fix:
                'This is a bug in the program or an unexpected condition; retry, and report it with the trace_id if it persists.',
            },
            'boom',
            '1.2.3',
          ),
      );
      expect(r.stderr).not.toMatch(/\n\s+at /);
    },
    TIMEOUT,
  );
});

describe('tasks CLI in-process (execute with captured streams)', () => {
  const capture = () => {
    let text = '';
    return { write: (c: string) => ((text += c), true), isTTY: false, text: () => text };
  };
  const run = async (root: ReturnType<typeof buildTasksCli>, args: string[], env: Record<string, string>) => {
    const stdout = capture();
    const stderr = capture();
    const code = await execute(root, { args, stdout, stderr, env, version: '9.9.9' });
    return { code, stdout: mask(stdout.text()), stderr: mask(stderr.text()) };
  };

  it('runs add/list on a fresh tree, and two parallel runs of one tree see only their own flags', async () => {
    const b = box(SEEDED);
    const env = { HOME: b.dir, TASKS_FILE: b.file };
    expect(await run(buildTasksCli(), ['add', 'in', 'process', '--tag', 'x'], env)).toEqual({
      code: 0,
      stderr: '',
      stdout: okLine({
        id: 4,
        title: 'in process',
        status: 'open',
        tags: ['x'],
        due: null,
        created_at: '<time>',
        done_at: null,
      }),
    });
    const root = buildTasksCli();
    const [done, open, bad] = await Promise.all([
      run(root, ['list', '--status', 'done', '--fields', 'id'], env),
      run(root, ['list', '--format', 'text', '--limit', '1'], env),
      run(root, ['show', '77'], env),
    ]);
    expect(done).toEqual({ code: 0, stderr: '', stdout: okLine([{ id: 2 }]) });
    expect(open).toEqual({
      code: 0,
      stderr: '',
      stdout: 'ID  STATUS  DUE         TITLE     TAGS\n1   open    2030-01-31  buy milk  home,errand\n',
    });
    expect(bad).toEqual({
      code: 5,
      stdout: '',
      stderr: errLine(
        {
          kind: 'not_found',
          message: 'no task with id 77',
          exit_code: 5,
          retryable: false,
          actionable_fix: "Run 'tasks list --status all' to see ids.",
          context: { id: 77 },
        },
        'tasks',
        '9.9.9',
      ),
    });
    expect(JSON.parse(readFileSync(b.file, 'utf8')).tasks).toHaveLength(4);
  });

  it('every payload matches the output schema the command declares (JSON Schema 2020-12, strict)', async () => {
    const b = box(SEEDED);
    const env = { HOME: b.dir, TASKS_FILE: b.file };
    const root = buildTasksCli();
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    const cases: [string, string[]][] = [
      ['add', ['add', 'x', '-t', 'y', '--due', '2030-03-01', '--dry-run']],
      ['list', ['list', '--all']],
      ['list', ['list', '--fields', 'title,due']],
      ['show', ['show', '2']],
      ['done', ['done', '3']],
      ['rm', ['rm', '1', '--yes']],
      ['export', ['export']],
    ];
    for (const [name, args] of cases) {
      const cmd = root.findChild(name)!;
      expect(cmd.output?.schema, name).toBeDefined();
      const validate = ajv.compile(cmd.output!.schema!);
      const r = await run(root, args, env);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      for (const l of lines(r.stdout)) {
        const ok = validate((JSON.parse(l) as { data: unknown }).data);
        expect(ok ? [] : validate.errors, args.join(' ')).toEqual([]);
      }
    }
  });
});
