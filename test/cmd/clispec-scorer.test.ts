/**
 * The clispec scorer's checks, run against the demo as a real process
 * (`node --import tsx cmd/tasks/main.ts`, TASKS_FILE in a temp dir): `schema` without configuration
 * (HOME empty, HOME unset), the structured error of an unknown command, `--format json|text` before
 * and after the command words, explicit effects/cardinality, pagination and fields on unbounded lists,
 * and every declared example runs.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pool, runScript } from '../helpers/spawn.ts';
import { execute } from '../../lib/index.ts';
import { buildTasksCli } from '../../cmd/tasks/cli.ts';

type Json = Record<string, any>;

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const TASKS_MAIN = join(REPO, 'cmd/tasks/main.ts');
const T = 60_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The parent's environment without anything that changes the CLI's behaviour, plus `env` (undefined removes). */
function childEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const out: Record<string, string | undefined> = { ...process.env };
  for (const k of ['AGENT_MODE', 'TASKS_FILE', 'XDG_DATA_HOME', 'XDG_CONFIG_HOME', 'AX_DEBUG', 'NODE_OPTIONS'])
    delete out[k];
  Object.assign(out, env);
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out as NodeJS.ProcessEnv;
}

/** Runs the demo with piped stdio (stdin closed at once). */
function tasks(args: readonly string[], env: Record<string, string | undefined>): Promise<Run> {
  return runScript(TASKS_MAIN, args, childEnv(env));
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Masks what changes from run to run. */
function mask(text: string): string {
  return text
    .replace(/"trace_id":"[0-9a-f]{32}"/g, '"trace_id":"<trace>"')
    .replace(/"span_id":"[0-9a-f]{16}"/g, '"span_id":"<span>"')
    .replace(/"idempotency_key":"[^"]*"/g, '"idempotency_key":"<key>"')
    .replace(/"duration_ms":\d+/g, '"duration_ms":"<ms>"')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, '<time>');
}

let dir: string;
let file: string;
let env: Record<string, string | undefined>;
const SEED = {
  version: 1,
  next_id: 4,
  tasks: [
    {
      id: 1,
      title: 'buy milk',
      status: 'open',
      tags: ['home'],
      due: null,
      created_at: '2030-01-01T10:00:00.000Z',
      done_at: null,
    },
    {
      id: 2,
      title: 'file taxes',
      status: 'open',
      tags: [],
      due: '2030-04-15',
      created_at: '2030-01-02T10:00:00.000Z',
      done_at: null,
    },
    {
      id: 3,
      title: 'call mum',
      status: 'done',
      tags: [],
      due: null,
      created_at: '2030-01-03T10:00:00.000Z',
      done_at: '2030-01-04T10:00:00.000Z',
    },
  ],
  idempotency: {},
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ax-clispec-scorer-'));
  file = join(dir, 'tasks.json');
  mkdirSync(join(dir, 'home'));
  env = { TASKS_FILE: file, HOME: join(dir, 'home') };
  writeFileSync(file, `${JSON.stringify(SEED, null, 2)}\n`);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The `schema` document as printed in-process (same tree, same version resolution). */
async function inProcessSchema(): Promise<string> {
  let out = '';
  const code = await execute(buildTasksCli(), {
    args: ['schema'],
    stdout: { write: (s: string) => ((out += s), true), isTTY: false },
    stderr: { write: () => true },
    env: {},
    stdin: Readable.from([]),
  });
  expect(code).toBe(0);
  return out;
}

describe('clispec scorer checks against the demo process', () => {
  it(
    '`schema` works with HOME pointed at an empty directory, and with HOME unset; the same bytes as in-process',
    async () => {
      const empty = mkdtempSync(join(dir, 'empty-home-'));
      const [withEmptyHome, withoutHome] = await Promise.all([
        tasks(['schema'], { HOME: empty, XDG_CONFIG_HOME: empty }),
        tasks(['schema'], { HOME: undefined, USERPROFILE: undefined }),
      ]);
      const expected = await inProcessSchema();
      for (const r of [withEmptyHome, withoutHome]) {
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        expect(isJson(r.stdout)).toBe(true);
        expect(r.stdout).toBe(expected);
      }
    },
    T,
  );

  it(
    '`tasks __nonexistent_command__`: nothing on stdout, exit ≠ 0, stderr ends with a JSON line whose error.kind is a string',
    async () => {
      for (const e of [env, { ...env, HOME: undefined }]) {
        const r = await tasks(['__nonexistent_command__'], e);
        expect(r.stdout).toBe('');
        expect(r.code).not.toBe(0);
        const last = r.stderr
          .split('\n')
          .filter((l) => l.trim() !== '')
          .at(-1)!;
        const line = JSON.parse(last) as Json;
        expect(typeof line.error.kind).toBe('string');
        expect(line.error).toMatchObject({
          kind: 'validation_error',
          exit_code: r.code,
          context: { reason: 'unknown_command' },
        });
        expect(r.stderr.endsWith('\n')).toBe(true);
      }
    },
    T,
  );

  it(
    '--format json and --format text work before and after the command words, for every side-effect-free invocation',
    async () => {
      const before = readFileSync(file, 'utf8');
      // Read-only commands, and the mutating ones with --dry-run (they change nothing).
      const invocations: string[][] = [
        ['list'],
        ['ls', '--status', 'all'],
        ['show', '1'],
        ['export'],
        ['add', 'water', 'plants', '--dry-run'],
        ['done', '1', '--dry-run'],
        ['rm', '2', '--dry-run'],
      ];
      const jobs: (() => Promise<[string[], string, Run]>)[] = [];
      for (const words of invocations) {
        for (const fmt of ['json', 'text']) {
          jobs.push(async () => [words, `--format ${fmt} <words>`, await tasks(['--format', fmt, ...words], env)]);
          jobs.push(async () => [words, `<words> --format ${fmt}`, await tasks([...words, '--format', fmt], env)]);
        }
      }
      const results = await pool(jobs);
      const jsonOut = new Map<string, string>();
      for (const [words, how, r] of results) {
        const label = `tasks ${how.replace('<words>', words.join(' '))}`;
        expect(r.code, `${label}\n${r.stderr}`).toBe(0);
        expect(r.stdout.trim(), label).not.toBe('');
        if (how.includes('json')) {
          const lines = r.stdout.trimEnd().split('\n');
          for (const l of lines) expect(Object.keys(JSON.parse(l)), label).toEqual(['data', 'meta']);
          if (words[0] !== 'export') expect(lines, label).toHaveLength(1);
          const key = words.join(' ');
          if (jsonOut.has(key)) expect(mask(r.stdout), label).toBe(jsonOut.get(key));
          else jsonOut.set(key, mask(r.stdout));
        } else {
          expect(isJson(r.stdout), `${label} printed JSON:\n${r.stdout}`).toBe(false);
          for (const l of r.stdout.split('\n')) expect(isJson(l) && l.startsWith('{'), `${label}: ${l}`).toBe(false);
        }
      }
      expect(readFileSync(file, 'utf8')).toBe(before);
    },
    T * 2,
  );

  it(
    'every command declares effects and (data commands) cardinality explicitly; unbounded lists declare pagination and a fields argument',
    async () => {
      const r = await tasks(['schema'], env);
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.stdout) as Json;
      expect((doc.commands as Json[]).length).toBeGreaterThan(0);
      for (const c of doc.commands as Json[]) {
        expect(['read_only', 'idempotent', 'non_idempotent'], c.name).toContain(c.effects);
        expect(c.extensions?.['x-ax-ts']?.effects_declared, `${c.name}: effects guessed`).not.toBe(false);
        expect(c.extensions?.['x-ax-ts']?.cardinality_declared, `${c.name}: cardinality guessed`).not.toBe(false);
        if ((c.output_kind ?? 'data') === 'data')
          expect(['single', 'bounded', 'unbounded'], c.name).toContain(c.cardinality);
        if (c.cardinality === 'unbounded') {
          const names = new Set([...(doc.global_args as Json[]), ...(c.args as Json[])].map((a) => a.name));
          expect(['offset', 'cursor'], c.name).toContain(c.pagination?.style);
          expect(names.has(c.pagination.limit_arg), c.name).toBe(true);
          if (c.pagination.style === 'offset') expect(names.has(c.pagination.offset_arg), c.name).toBe(true);
          if (c.pagination.style === 'cursor') expect(names.has(c.pagination.cursor_arg), c.name).toBe(true);
          expect(typeof c.fields_arg, c.name).toBe('string');
          expect(names.has(c.fields_arg), c.name).toBe(true);
        }
      }
      expect((doc.commands as Json[]).filter((c) => c.cardinality === 'unbounded').map((c) => c.name)).toEqual([
        'list',
      ]);
    },
    T,
  );

  it(
    "every command's declared example runs (mutating ones with --dry-run), and its output matches its stdout_schema",
    async () => {
      const before = readFileSync(file, 'utf8');
      const doc = JSON.parse((await tasks(['schema'], env)).stdout) as Json;
      const withExamples = (doc.commands as Json[]).filter((c) => c.example);
      expect(withExamples.map((c) => c.name)).toEqual(['add', 'done', 'export', 'list', 'rm', 'show']);
      const results = await pool(
        withExamples.map((c) => async () => {
          const args = [...(c.example.args as string[]), ...(c.effects === 'read_only' ? [] : ['--dry-run'])];
          return [c, args, await tasks(args, env)] as const;
        }),
      );
      for (const [c, args, r] of results) {
        expect(r.code, `tasks ${args.join(' ')}\n${r.stderr}`).toBe(0);
        const check = new Ajv2020({ strict: false }).compile(c.stdout_schema);
        for (const l of r.stdout.trimEnd().split('\n'))
          expect(check(JSON.parse(l)), `${c.name}: ${JSON.stringify(check.errors)}`).toBe(true);
      }
      expect(readFileSync(file, 'utf8')).toBe(before);
    },
    T,
  );

  it(
    'root --help (piped) names the schema command',
    async () => {
      const r = await tasks(['--help'], env);
      expect(r.code).toBe(0);
      expect(r.stdout.toLowerCase()).toContain('schema');
      expect(r.stdout).toMatch(/^ {2}schema +/m);
    },
    T,
  );
});

describe('clispec scorer checks with an empty store (no file yet)', () => {
  let emptyDir: string;
  let emptyEnv: Record<string, string | undefined>;
  beforeAll(() => {
    emptyDir = mkdtempSync(join(tmpdir(), 'ax-clispec-empty-'));
    mkdirSync(join(emptyDir, 'home'));
    emptyEnv = { TASKS_FILE: join(emptyDir, 'tasks.json'), HOME: join(emptyDir, 'home') };
  });
  afterAll(() => rmSync(emptyDir, { recursive: true, force: true }));

  it(
    'all 24 per-command checks pass (6 commands × effects, cardinality, example runs, output matches stdout_schema); nothing is written',
    async () => {
      const doc = JSON.parse((await tasks(['schema'], emptyEnv)).stdout) as Json;
      const catalogue = new Map((doc.errors as Json[]).map((e) => [e.kind, e.exit_code]));
      const results = await pool(
        (doc.commands as Json[]).map((c) => async () => {
          const args = [...(c.example?.args ?? []), ...(c.effects === 'read_only' ? [] : ['--dry-run'])];
          return [c, args, await tasks(args, emptyEnv)] as const;
        }),
      );
      const failed: string[] = [];
      let score = 0;
      for (const [c, args, r] of results) {
        const check = (ok: boolean, what: string) => (ok ? score++ : failed.push(`${c.name}: ${what}`));
        check(
          ['read_only', 'idempotent', 'non_idempotent'].includes(c.effects) &&
            c.extensions?.['x-ax-ts']?.effects_declared !== false,
          'effects declared',
        );
        check(
          (c.output_kind ?? 'data') !== 'data' ||
            (['single', 'bounded', 'unbounded'].includes(c.cardinality) &&
              c.extensions?.['x-ax-ts']?.cardinality_declared !== false),
          'cardinality declared',
        );
        // the example runs: it succeeds, or fails with a structured error of a kind the catalogue
        // declares, under that kind's exit code (an id that is not there yet is not_found, exit 5)
        const last = r.stderr.trim().split('\n').pop() ?? '';
        const error = r.code === 0 ? undefined : (JSON.parse(last) as Json).error;
        check(
          r.code === 0 || (r.stdout === '' && catalogue.get(error?.kind) === r.code),
          `example ${args.join(' ')} runs (exit ${r.code}: ${last})`,
        );
        const validate = new Ajv2020({ strict: false }).compile(c.stdout_schema ?? {});
        check(
          r.code !== 0 ||
            r.stdout
              .trimEnd()
              .split('\n')
              .filter(Boolean)
              .every((l) => validate(JSON.parse(l))),
          'output matches stdout_schema',
        );
      }
      expect(failed).toEqual([]);
      expect(score).toBe(24);
      expect(existsSync(join(emptyDir, 'tasks.json'))).toBe(false);
    },
    T,
  );

  it(
    '--format json and --format text work before and after the command words on an empty store',
    async () => {
      for (const words of [['list'], ['export'], ['add', 'water', 'plants', '--dry-run']]) {
        for (const fmt of ['json', 'text']) {
          for (const args of [
            ['--format', fmt, ...words],
            [...words, '--format', fmt],
          ]) {
            const r = await tasks(args, emptyEnv);
            expect(r.code, `tasks ${args.join(' ')}\n${r.stderr}`).toBe(0);
            if (fmt === 'json')
              for (const l of r.stdout.trimEnd().split('\n').filter(Boolean))
                expect(Object.keys(JSON.parse(l))).toEqual(['data', 'meta']);
          }
        }
      }
    },
    T,
  );
});
