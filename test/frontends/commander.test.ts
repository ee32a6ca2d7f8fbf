/**
 * ax-ts/commander over real processes: the fixture program run plain and with the front end
 * (docs/frontends.md). A person's invocation is byte-identical; json-mode callers get the contract;
 * __schema sees every command of the program (MCP: commander-mcp.test.ts). Every case runs on
 * commander 15 and 14.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDERS } from '../helpers/commanders.ts';
import { REPO, TSX_LOADER } from '../helpers/mcp.ts';

const CLI = join(REPO, 'test/frontends/fixtures/notes-commander.ts');

function runIn(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, ['--import', TSX_LOADER, CLI, ...args], {
    cwd: REPO,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.each(COMMANDERS)('commander %s', (version, base) => {
  const run = (args: string[], env: Record<string, string> = {}) => runIn(args, { ...base, ...env });

  describe('a person: the same program, byte for byte', () => {
    it.each([
      [['--help']],
      [['add', '--help']],
      [['--version']],
      [['add', 'hello', '--priority', 'mid']],
      [['list', '-n', 'x']],
      [['nope']],
      [['add', 'milk', '-t', 'shop']],
      [['ls', '-n', '2']],
    ])('%j', (args) => {
      const plain = run(args);
      const fronted = run(['--ax', ...args]);
      expect(fronted).toEqual(plain);
    });

    it('a refusal keeps commander’s text and exit code', () => {
      const r = run(['--ax', 'add', 'hello', '--priority', 'mid']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("error: option '--priority <level>' argument 'mid' is invalid");
    });
  });

  describe('a json-mode caller: the contract', () => {
    it('data is what the action returned; options and arguments reach commander', () => {
      const r = run(['--ax', '-v', 'add', 'buy', 'milk', '-t', 'shop', '--no-pin', '--format', 'json']);
      expect(r.code).toBe(0);
      const line = JSON.parse(r.stdout) as { data: unknown };
      expect(line.data).toEqual({ text: 'buy milk', tag: 'shop', priority: null, pinned: false, verbose: true });
    });

    it('a program that calls the synchronous parse is routed the same', () => {
      const r = run(['--ax', 'add', 'tea', '--format', 'json'], { NOTES_SYNC: '1' });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ data: { text: 'tea' } });
      expect(run(['--ax', 'add', '--help'], { NOTES_SYNC: '1' })).toEqual(run(['add', '--help']));
    });

    it.each([[['show', '--verbose']], [['--verbose', 'show']]])(
      'an option named like an ancestor’s means what it means to commander: %j',
      (args) => {
        const plain = run(args);
        const r = run(['--ax', ...args, '--format', 'json']);
        expect(r.code).toBe(0);
        expect(JSON.parse(r.stdout)).toMatchObject({ data: null });
        expect(r.stderr).toBe(plain.stdout);
      },
    );

    it('AGENT_MODE=json asks too; a printing action gives data null, its text on stderr', () => {
      const r = run(['--ax', 'ls', '-n', '2'], { AGENT_MODE: 'json' });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ data: null });
      expect(r.stderr).toBe('first 2 notes:\n- buy milk\n');
    });

    it('a custom parser that throws is a validation_error (exit 2, one error line, no stack)', () => {
      const r = run(['--ax', 'list', '--limit', 'x', '--format', 'json']);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({
        error: { kind: 'validation_error', context: { reason: 'invalid_argument' } },
      });
    });

    it('--args-json is read as the inputSchema, the positionals included', () => {
      const r = run(['--ax', 'add', '--args-json', '{"text":["a","-b"],"priority":"high"}', '--format', 'json']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ data: { text: 'a -b', priority: 'high', tag: 'misc' } });
    });

    it('--args-json alone on a pipe (no --format, no AGENT_MODE) is a machine call: json, as on a native tree', () => {
      const ok = run(['--ax', 'add', '--args-json', '{"text":["a"],"priority":"high"}']);
      expect(ok.code).toBe(0);
      expect(JSON.parse(ok.stdout)).toMatchObject({ data: { text: 'a', priority: 'high' } });
      const bad = run(['--ax', 'add', '--args-json', '{"priority":"high"}']);
      expect(bad.code).toBe(2);
      expect(bad.stdout).toBe('');
      expect(JSON.parse(bad.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: { kind: 'validation_error' } });
    });

    it('a choice outside the list is refused by ax-ts before commander runs', () => {
      const r = run(['--ax', 'add', 'x', '--priority', 'mid', '--format', 'json']);
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stderr)).toMatchObject({ error: { kind: 'validation_error' } });
    });

    it('a commander action has no preview: no --dry-run in help, in any tool, or on the command line', () => {
      const r = run(['--ax', 'add', 'x', '--dry-run', '--format', 'json']);
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stderr)).toMatchObject({
        error: { kind: 'dry_run_unsupported', context: { flag: '--dry-run' } },
      });
      expect(run(['--ax', 'add', '--help']).stdout).not.toContain('--dry-run');
      const { tools } = JSON.parse(run(['--ax', '__schema', '--as=mcp']).stdout) as {
        tools: { name: string; inputSchema: { properties?: Record<string, unknown> } }[];
      };
      expect(tools.length).toBeGreaterThan(0);
      for (const t of tools) expect(Object.keys(t.inputSchema.properties ?? {}), t.name).not.toContain('dry_run');
      // SKILL.md promises a dry run only where there is one
      expect(run(['--ax', '__schema', '--as=skill']).stdout).toContain(
        '`--dry-run`, on the commands whose help lists it, shows',
      );
    });
  });

  describe('completion, where commander has none', () => {
    it('__complete offers an option’s choices and the commands', () => {
      expect(run(['--ax', '__complete', 'add', '--priority', '']).stdout).toBe('low\nhigh\n:4\n');
      expect(run(['--ax', '__complete', 'l']).stdout).toBe('list\tList notes\n:4\n');
    });
  });

  describe('__schema', () => {
    it('--as=mcp lists the commands as tools with their declarations; a withheld one is left out', () => {
      const r = run(['--ax', '__schema', '--as=mcp']);
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.stdout) as { tools: { name: string; inputSchema: any; annotations?: any }[] };
      const byName = Object.fromEntries(doc.tools.map((t) => [t.name, t]));
      expect(Object.keys(byName)).toEqual(expect.arrayContaining(['add', 'list']));
      expect(byName.wipe).toBeUndefined();
      expect(byName.list!.annotations).toMatchObject({ readOnlyHint: true });
      const add = byName.add!.inputSchema;
      expect(add.required).toEqual(['text']);
      expect(Object.keys(add.properties)).toEqual(
        expect.arrayContaining(['text', 'tag', 'priority', 'no_pin', 'verbose']),
      );
    });

    it('--as=ax describes the program under its own name and version', () => {
      const r = run(['--ax', '__schema', '--as=ax', '--full']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('"notes"');
      expect(r.stdout).toContain('1.2.3');
    });
  });

  describe('a program whose names collide', () => {
    const COLLIDE = join(REPO, 'test/frontends/fixtures/collide-commander.ts');
    const collide = (args: string[]) =>
      spawnSync(process.execPath, ['--import', TSX_LOADER, COLLIDE, ...args], {
        cwd: REPO,
        encoding: 'utf8',
        env: { ...process.env, ...base },
      });

    it.each([
      [['__schema'], '"idempotency_key"', '"idempotency-key"'],
      [['pair', 'mcp-server', '--format', 'json'], '"max_size"', '"max-size"'],
    ])('%j is refused, naming both', (args, one, other) => {
      const r = collide(args);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(one);
      expect(r.stderr).toContain(other);
      if (args.includes('--format'))
        expect(JSON.parse(r.stderr)).toMatchObject({ error: { context: { reason: 'name_collision' } } });
    });

    it('a person’s run of it is commander’s as before', () => {
      const r = collide(['go', '--idempotency_key', 'k']);
      expect(r.status).toBe(0);
    });
  });

  describe('the version under test is the one named', () => {
    // commander 15 names the excess arguments in its message, 14 does not: the fixture really runs on each
    it('an excess argument is refused in that version’s words', () => {
      const r = run(['--ax', 'list', 'extra']);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        version === '15'
          ? "error: too many arguments for 'list'. Expected 0 arguments but got 1: extra.\n"
          : "error: too many arguments for 'list'. Expected 0 arguments but got 1.\n",
      );
    });
  });
});
