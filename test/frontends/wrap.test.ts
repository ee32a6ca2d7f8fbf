/**
 * `ax-ts wrap <bin>` over small programs written as people write them (test/frontends/fixtures/wrap,
 * plain JavaScript that knows nothing of ax-ts; docs/frontends.md#ax-ts-wrap): the tree read from a
 * commander and a yargs program (command modules, a default command, aliases), declarations from
 * the file beside the bin, calls as the bin itself in its own process, and every bad input refused
 * with a validation_error (exit 2) naming why. The real registry programs are test/corpus.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, TSX_LOADER } from '../helpers/mcp.ts';

const FIXTURES = join(REPO, 'test/frontends/fixtures/wrap');
const AX = join(REPO, 'cmd/ax-ts/main.ts');

/** The docs/*.md#anchor links in `text` whose page has no heading of that anchor (GitHub's slugs). */
function deadDocLinks(text: string): string[] {
  return [...text.matchAll(/docs\/([\w-]+\.md)#([\w-]+)/g)]
    .filter(([, page, anchor]) => {
      const headings = readFileSync(join(REPO, 'docs', page!), 'utf8').match(/^#+ .*$/gm) ?? [];
      const slugs = headings.map((h) =>
        h
          .replace(/^#+ /, '')
          .toLowerCase()
          .replace(/[^a-z0-9 _-]/g, '')
          .replace(/ /g, '-'),
      );
      return !slugs.includes(anchor!);
    })
    .map(([link]) => link);
}

function wrap(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['--import', TSX_LOADER, AX, 'wrap', ...args], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, AGENT_MODE: '', ...env },
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function bare(bin: string, args: string[]) {
  const r = spawnSync(process.execPath, [join(FIXTURES, bin), ...args], { cwd: REPO, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The MCP tools of a wrapped bin: name → [annotations, properties]. */
function tools(bin: string): Record<string, { annotations?: Record<string, unknown>; properties: string[] }> {
  const r = wrap([join(FIXTURES, bin), '__schema', '--as=mcp']);
  expect(r.status, r.stderr).toBe(0);
  const doc = JSON.parse(r.stdout) as {
    tools: { name: string; annotations?: Record<string, unknown>; inputSchema: { properties: object } }[];
  };
  return Object.fromEntries(
    doc.tools.map((t) => [t.name, { annotations: t.annotations, properties: Object.keys(t.inputSchema.properties) }]),
  );
}

/** The error line of a json-mode refusal (the last line on stderr). */
function errorLine(stderr: string): Record<string, any> {
  return JSON.parse(stderr.trim().split('\n').at(-1)!) as Record<string, any>;
}

describe('ax-ts wrap: a commander program (tasks.mjs, tasks.ax.json beside it)', () => {
  const TASKS = join(FIXTURES, 'tasks.mjs');

  it("a person's invocations are the program's own, byte for byte", () => {
    for (const args of [['--help'], ['buy', 'milk'], ['ls'], ['check'], ['--nope'], ['list', '--help']])
      expect(wrap([TASKS, ...args]), args.join(' ')).toEqual(bare('tasks.mjs', args));
  });

  it('__schema --as=mcp: its commands and options; the declarations file gives effects and withholds', () => {
    const t = tools('tasks.mjs');
    expect(Object.keys(t).sort()).toEqual(['add', 'list']);
    expect(t.add!.properties).toEqual(expect.arrayContaining(['words', 'priority']));
    expect(t.list!.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('offers no fields where data is always null: no property, not in __schema, an unknown flag in json mode', () => {
    const t = tools('tasks.mjs');
    for (const name of ['add', 'list']) expect(t[name]!.properties).not.toContain('fields');
    const ax = wrap([TASKS, '__schema', '--format', 'json']);
    expect(ax.status, ax.stderr).toBe(0);
    type Doc = { name: string; flags?: { name: string }[]; commands?: Doc[] };
    const root = (JSON.parse(ax.stdout) as { command: Doc }).command;
    const flagNames = (c: Doc) => (c.flags ?? []).map((f) => f.name);
    expect(flagNames(root)).not.toContain('fields');
    for (const name of ['add', 'list'])
      expect(flagNames(root.commands!.find((c) => c.name === name)!), name).not.toContain('fields');
    const r = wrap([TASKS, 'list', '--fields', 'x', '--format', 'json']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(errorLine(r.stderr).error).toMatchObject({ kind: 'validation_error' });
    expect(errorLine(r.stderr).error.message).toMatch(/unknown flag: --fields/);
  });

  it('the default command: `tasks buy milk --format json` runs add, as a person’s invocation does', () => {
    const r = wrap([TASKS, 'buy', 'milk', '--format', 'json']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ data: null });
    expect(r.stderr).toBe('added: buy milk (normal)\n');
  });

  it('an alias keeps working in json mode', () => {
    const r = wrap([TASKS, 'ls', '--all', '--format', 'json']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('tasks (all)\n');
  });

  it('process.exit(4) in an action: command_failed with exit code 4, what it printed kept', () => {
    const r = wrap([TASKS, 'check', '--format', 'json']);
    expect(r.status).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('2 overdue\n');
    expect(errorLine(r.stderr)).toMatchObject({ error: { kind: 'command_failed', exit_code: 4 } });
  });

  it('a positional shaped like an option reaches the program as an operand, never as help', () => {
    const r = wrap([TASKS, 'add', '--args-json', '{"words":["--help","-p"]}', '--format', 'json']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('added: --help -p (normal)\n');
  });

  it.each([
    ['an unknown key', '{"list":{"effect":"read_only"}}', 'effect'],
    ['secrets that is no list of option names', '{"list":{"secrets":"all"}}', 'secrets'],
  ])('a declarations file with %s: validation_error naming the key', (_what, text, key) => {
    const file = join(mkdtempSync(join(tmpdir(), 'ax-wrap-')), 'd.json');
    writeFileSync(file, text);
    const r = wrap(['--declarations', file, TASKS, '__schema', '--format', 'json']);
    expect(r.status).toBe(2);
    expect(errorLine(r.stderr)).toMatchObject({
      error: { kind: 'validation_error', context: { reason: 'invalid_declarations', key } },
    });
    expect(deadDocLinks(errorLine(r.stderr).error.actionable_fix as string), 'the page the fix points to').toEqual([]);
  });

  it('a declarations file an editor saved with a byte order mark is read', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ax-wrap-')), 'd.json');
    writeFileSync(file, '\uFEFF{"list":{"effects":"read_only"}}');
    const r = wrap(['--declarations', file, TASKS, '__schema', '--as=mcp']);
    expect(r.status, r.stderr).toBe(0);
    const list = (JSON.parse(r.stdout).tools as { name: string; annotations?: Record<string, unknown> }[]).find(
      (t) => t.name === 'list',
    );
    expect(list?.annotations?.readOnlyHint).toBe(true);
  });
});

describe('ax-ts wrap: a yargs program with command modules and code after parse() (echo-yargs.mjs)', () => {
  const ECHO = join(FIXTURES, 'echo-yargs.mjs');

  it("each command module is a tool with its own options (a builder function's and a builder object's)", () => {
    const t = tools('echo-yargs.mjs');
    expect(t.say!.properties).toEqual(expect.arrayContaining(['words', 'loud']));
    expect(t.say!.properties).not.toContain('step');
    expect(t.count!.properties).toEqual(expect.arrayContaining(['n', 'step']));
    expect(t.count!.properties).not.toContain('loud');
  });

  it('a call runs the program itself; an alias routes as for a person', () => {
    const r = wrap([ECHO, 's', 'hi', 'there', '--loud', '--format', 'json']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('HI THERE\n');
    expect(wrap([ECHO, 'count', '5', '--step', '2'])).toEqual(bare('echo-yargs.mjs', ['count', '5', '--step', '2']));
  });
});

describe('ax-ts wrap: a yargs default command beside another command (greet-yargs.mjs)', () => {
  const GREET = join(FIXTURES, 'greet-yargs.mjs');

  it('the default command is the program itself, a tool with its own options; the other keeps its own', () => {
    const t = tools('greet-yargs.mjs');
    expect(Object.keys(t).sort()).toEqual(['bye', 'greet-yargs']);
    expect(t['greet-yargs']!.properties).toEqual(expect.arrayContaining(['name', 'loud']));
    // yargs gives --loud to the default command alone
    expect(t.bye!.properties).toContain('name');
    expect(t.bye!.properties).not.toContain('loud');
  });

  it("json mode routes as a person's invocation does: no command word runs the default", () => {
    for (const [args, printed] of [
      [['ann', '--loud'], 'hello ann!\n'],
      [[], 'hello world\n'],
      [['bye', 'bob'], 'bye bob\n'],
    ] as const) {
      const r = wrap([GREET, ...args, '--format', 'json']);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toBe(printed);
      expect(JSON.parse(r.stdout)).toMatchObject({ data: null, meta: { ok: true } });
    }
    const a = wrap([GREET, '--args-json', '{"name":"zed","loud":true}', '--format', 'json']);
    expect(a.stderr).toBe('hello zed!\n');
  });

  it("a person's invocations are the program's own, byte for byte", () => {
    for (const args of [['--help'], ['ann'], ['bye', 'bob'], []])
      expect(wrap([GREET, ...args]), args.join(' ')).toEqual(bare('greet-yargs.mjs', args));
  });

  it("a missing required argument: ax-ts's answer with --format (exit 2, nothing ran), the program's own usage text without", () => {
    const json = wrap([GREET, 'bye', '--format', 'json']);
    expect(json.status).toBe(2);
    expect(json.stdout).toBe('');
    expect(errorLine(json.stderr)).toMatchObject({
      error: { kind: 'validation_error', context: { reason: 'missing_argument', argument: 'name' } },
    });
    expect(json.stderr).not.toContain('Not enough non-option arguments'); // the program never started
    const text = wrap([GREET, 'bye', '--format', 'text']);
    expect(text.status).toBe(2);
    expect(text.stdout).toBe('');
    expect(text.stderr).toMatch(/^Error: missing required argument <name>\n/);
    expect(text.stderr).not.toContain('Not enough non-option arguments');
    // a person's plain run still gets the program's own words and exit status
    const person = wrap([GREET, 'bye']);
    expect(person).toEqual(bare('greet-yargs.mjs', ['bye']));
    expect(person.stderr).toContain('Not enough non-option arguments: got 0, need at least 1');
    expect(person.status).toBe(1);
  });
});

describe('ax-ts wrap: a positional described with .positional() (positional-yargs.mjs)', () => {
  it("is the command's one argument, not an option colliding with it; the call runs the program", () => {
    const t = tools('positional-yargs.mjs');
    expect(t.serve!.properties).toContain('port');
    const r = wrap([join(FIXTURES, 'positional-yargs.mjs'), 'serve', '8080', '--format', 'json']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('serving on 8080\n');
  });
});

describe('ax-ts wrap: what it cannot serve is refused with a validation_error naming why (exit 2)', () => {
  it('__schema and mcp-server, machine surfaces, refuse with the JSON error line on a pipe (no --format asked)', () => {
    for (const words of [['__schema'], ['mcp-server']]) {
      const r = wrap([join(FIXTURES, 'plain.mjs'), ...words]);
      expect(r.status, r.stderr).toBe(2);
      expect(errorLine(r.stderr).error.context.reason).toBe('not_commander_or_yargs');
    }
  });

  const cases: [string, string[], string, RegExp][] = [
    ['a bin not found', ['no-such-bin'], 'bin_not_found', /no program "no-such-bin"/],
    [
      'option names colliding after snake-casing',
      [join(FIXTURES, 'collide.mjs')],
      'name_collision',
      /"dry_run".*"dry-run"/,
    ],
    [
      'a program that exits while its tree is read',
      [join(FIXTURES, 'exits.mjs')],
      'not_commander_or_yargs',
      /exits never parsed .*loaded commander; it exited with status 3/,
    ],
    [
      'neither commander nor yargs',
      [join(FIXTURES, 'plain.mjs')],
      'not_commander_or_yargs',
      /plain is neither a commander nor a yargs program \(it loaded no known argument parser/,
    ],
  ];
  it("a collision in one command: the fix's declarations file, written as it says, serves the rest", () => {
    const bin = join(FIXTURES, 'collide-sub.mjs');
    const refused = errorLine(wrap([bin, '__schema', '--as=mcp']).stderr);
    expect(refused.error.context).toMatchObject({ reason: 'name_collision', command: 'collide-sub x' });
    expect(deadDocLinks(refused.error.actionable_fix as string), 'the page the fix points to').toEqual([]);
    const declared = /declarations file: (\{.*\}) \(docs/.exec(refused.error.actionable_fix as string)?.[1];
    expect(declared, refused.error.actionable_fix).toBeDefined();
    const file = join(mkdtempSync(join(tmpdir(), 'ax-wrap-')), 'd.json');
    writeFileSync(file, declared!);
    const r = wrap(['--declarations', file, bin, '__schema', '--as=mcp']);
    expect(r.status, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout).tools as { name: string }[]).map((t) => t.name)).toEqual(['y']);
    const y = wrap(['--declarations', file, bin, 'y', '--format', 'json']);
    expect(y.status, y.stderr).toBe(0);
    expect(y.stderr).toContain('y ran');
  });

  it("a collision among the program's own options (they reach every command): the fix's declarations file, written as it says, starts", () => {
    const bin = join(FIXTURES, 'collide-top.mjs');
    const refused = errorLine(wrap([bin, '__schema', '--as=mcp']).stderr);
    expect(refused.error.context).toMatchObject({ reason: 'name_collision', command: 'collide-top' });
    const fix = refused.error.actionable_fix as string;
    expect(deadDocLinks(fix), 'the page the fix points to').toEqual([]);
    expect(fix).toMatch(/reach every command, so a program you cannot change \(ax-ts wrap\) serves no tool until then/);
    const declared = /declarations file, (\{.*\}), lets it start/.exec(fix)?.[1];
    expect(JSON.parse(declared!)).toEqual({ '': { withheld: true }, x: { withheld: true }, y: { withheld: true } });
    const file = join(mkdtempSync(join(tmpdir(), 'ax-wrap-')), 'd.json');
    writeFileSync(file, declared!);
    const r = wrap(['--declarations', file, bin, '__schema', '--as=mcp']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).tools).toEqual([]);
    // and says nothing more: no advice about mcp.exclude, an API a wrapped program's user cannot call
    expect(r.stderr).toBe('');
    const doc = wrap(['--declarations', file, bin, '__schema', '--format', 'json']);
    expect(doc.status).toBe(0);
    expect(doc.stderr).toBe('');
  });

  it.each(cases)('%s', (_what, bin, reason, message) => {
    const r = wrap([...bin, '__schema', '--format', 'json']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    const e = errorLine(r.stderr);
    expect(e).toMatchObject({ error: { kind: 'validation_error', context: { reason } } });
    expect(e.error.message).toMatch(message);
  });

  it('a program that never parses: refused after the 10 s bound', () => {
    const r = wrap([join(FIXTURES, 'never.mjs'), '__schema', '--format', 'json']);
    expect(r.status).toBe(2);
    expect(errorLine(r.stderr)).toMatchObject({
      error: { kind: 'validation_error', context: { reason: 'never_parsed' } },
    });
  }, 30_000);

  it('a Node without module.registerHooks (22.12–22.14): one error line naming the Node it needs, exit 1', () => {
    // this Node (and every Node process it starts) made as old as 22.12 for the one API the tree reading needs
    const older = `data:text/javascript,${encodeURIComponent("delete process.getBuiltinModule('node:module').registerHooks;")}`;
    const r = wrap([join(FIXTURES, 'tasks.mjs'), '__schema', '--format', 'json'], {
      NODE_OPTIONS: `--import=${older}`,
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(/TypeError/);
    const e = errorLine(r.stderr);
    expect(e).toMatchObject({
      error: { kind: 'internal_error', context: { reason: 'unsupported_node', required: '>=22.15.0' } },
    });
    expect(e.error.message).toMatch(/needs Node\.js 22\.15\.0 or later/);
  });

  it("the program's own words still run it untouched (nothing read, nothing refused)", () => {
    expect(wrap([join(FIXTURES, 'plain.mjs'), 'you'])).toEqual(bare('plain.mjs', ['you']));
  });
});
