/**
 * ax-ts/yargs over real processes: the fixture program run plain and with the front end
 * (docs/frontends.md#yargs-programs). A person's invocation is byte-identical; json-mode callers get
 * the contract; __schema sees every command of the program, nested builders included (the same call
 * on every path: yargs-paths.test.ts; both MCP eras: yargs-mcp.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, TSX_LOADER } from '../helpers/mcp.ts';

const CLI = join(REPO, 'test/frontends/fixtures/bm-yargs.ts');

function run(args: string[], env: Record<string, string> = {}, cli = CLI) {
  const r = spawnSync(process.execPath, ['--import', TSX_LOADER, cli, ...args], {
    cwd: REPO,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

type Json = Record<string, any>;

describe('a person: the same program, byte for byte', () => {
  it.each([
    [['--help']],
    [['link', '--help']],
    [['link', 'add', '--help']],
    [['--version']],
    [['link', 'add', 'https://a.example', 'x', '-t', 'A']],
    [['link', 'ls', '--tag', 'web', '--limit', '1']],
    [['link', 'add', 'https://a.example', '-t', 'A', '--rating', '9']],
    [['link', 'add', 'https://a.example', '-t', 'A', '--kind', 'gif']],
    [['link']],
    [['nope']],
    [['link', 'rm']],
  ])('%j', (args) => {
    const plain = run(args);
    const fronted = run(['--ax', ...args]);
    expect(fronted).toEqual(plain);
  });

  it('a refusal keeps yargs’ text and exit code (help, then the coerce’s message)', () => {
    const r = run(['--ax', 'link', 'add', 'https://a.example', '-t', 'A', '--rating', '9']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Positionals:');
    expect(r.stderr.trimEnd().endsWith('rating must be a whole number from 1 to 5')).toBe(true);
  });
});

describe('a json-mode caller: the contract', () => {
  const json = (args: string[], env: Record<string, string> = {}) => run(['--ax', ...args, '--format', 'json'], env);

  it('data is what the handler returned (awaited); the env prefix reaches yargs, a flag beats it, the middleware runs', () => {
    const viaEnv = json(['link', 'add', 'https://a.example', '-t', 'A', '--kind=pdf'], { BM_STORE: 'work' });
    expect(viaEnv.code).toBe(0);
    expect(JSON.parse(viaEnv.stdout).data).toMatchObject({
      url: 'https://a.example',
      kind: 'pdf',
      store: '/stores/work',
    });
    const r = json(['link', 'rm', 'https://a.example', '--store', 's2'], { BM_STORE: 'work' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data).toEqual({ removed: 'https://a.example', store: '/stores/s2' });
  });

  it('AGENT_MODE=json asks too; a printing handler gives data null, its text on stderr', () => {
    const r = run(['--ax', 'link', 'ls', '--tag', 'demo'], { AGENT_MODE: 'json' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ data: null });
    expect(r.stderr).toBe('- Example <https://example.com>\n');
  });

  it.each([
    [
      'a coerce that throws',
      ['link', 'add', 'u', '-t', 'A', '--rating', '9'],
      'rating must be a whole number from 1 to 5',
    ],
    ['a demanded option left out (yargs’ validation)', ['link', 'add', 'u'], 'Missing required argument: title'],
  ])('%s is a validation_error (exit 2, one error line, no stack)', (_, args, message) => {
    const r = json(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      error: { kind: 'validation_error', message, context: { reason: 'invalid_argument' } },
    });
  });

  it('--args-json is read as the inputSchema, the variadic positional included', () => {
    const r = json(['link', 'add', '--args-json', '{"url":"u","tags":["a","b"],"title":"T","rating":4}']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data).toMatchObject({ url: 'u', tags: ['a', 'b'], title: 'T', rating: 4 });
  });

  it('a choice outside the list is refused by ax-ts before yargs runs', () => {
    const r = json(['link', 'add', 'u', '-t', 'A', '--kind', 'gif']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr)).toMatchObject({ error: { kind: 'validation_error' } });
  });

  it('a yargs handler has no preview: no --dry-run in help, in any tool, or on the command line', () => {
    const r = json(['link', 'rm', 'u', '--dry-run']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr)).toMatchObject({
      error: { kind: 'dry_run_unsupported', context: { flag: '--dry-run' } },
    });
    expect(run(['--ax', 'link', 'rm', '--help']).stdout).not.toContain('--dry-run');
    const { tools } = JSON.parse(run(['--ax', '__schema', '--as=mcp']).stdout) as {
      tools: { name: string; inputSchema: { properties?: Record<string, unknown> } }[];
    };
    expect(tools.length).toBeGreaterThan(0);
    for (const t of tools) expect(Object.keys(t.inputSchema.properties ?? {}), t.name).not.toContain('dry_run');
  });
});

describe('completion, where the program has none', () => {
  it('__complete offers an option’s choices and the commands', () => {
    expect(run(['--ax', '__complete', 'link', 'add', '--kind', '']).stdout).toBe('web\npdf\nvideo\n:4\n');
    expect(run(['--ax', '__complete', 'link', 'l']).stdout).toBe('list\tList links\n:4\n');
  });
});

describe('__schema', () => {
  const tools = () => {
    const r = run(['--ax', '__schema', '--as=mcp']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { tools: { name: string; inputSchema: Json; annotations?: Json }[] };
    return Object.fromEntries(doc.tools.map((t) => [t.name, t]));
  };

  it('--as=mcp: the nested commands as tools with their declarations; the hidden, withheld one left out', () => {
    const byName = tools();
    expect(Object.keys(byName).sort()).toEqual(['link_add', 'link_list', 'link_rm', 'serve']);
    expect(byName.link_list!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.link_rm!.annotations).toMatchObject({ idempotentHint: true, destructiveHint: true });
    expect(byName.link_add!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
  });

  it('positionals, types, choices, defaults, the array and the env prefix map into the inputSchema', () => {
    const add = tools().link_add!.inputSchema;
    expect(add.required).toEqual(['url']);
    const p = add.properties as Json;
    expect(p.url).toMatchObject({ type: 'string', description: expect.stringContaining('the address') });
    expect(JSON.stringify(p.tags)).toContain('"array"');
    expect(JSON.stringify(p.kind)).toContain('"enum":["web","pdf","video"]');
    expect(p.kind.default).toBe('web');
    expect(p.pin.default).toBe(true);
    expect(JSON.stringify(p.verbose)).toContain('"integer"');
    expect(p.title.description).toBe('its title (env: BM_TITLE; required unless BM_TITLE is set)');
    expect(p.rating.description).toContain('coerce');
    expect(JSON.stringify(p.rating)).toContain('"number"');
    const list = tools().link_list!.inputSchema.properties as Json;
    expect(JSON.stringify(list.tag)).toContain('"array"');
  });

  it('--as=ax describes the program under its own name and version', () => {
    const r = run(['--ax', '__schema', '--as=ax', '--full']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('"bm"');
    expect(r.stdout).toContain('2.0.0');
  });

  it('a program with its own mcp-server command keeps it', () => {
    const r = run(['mcp-server'], { BOOKMARKS_AX: '1', BOOKMARKS_OWN: '1' });
    expect(r).toMatchObject({ code: 0, stdout: 'the program’s own server\n' });
  });
});

describe('a program whose names collide', () => {
  const COLLIDE = join(REPO, 'test/frontends/fixtures/collide-yargs.ts');

  it.each([
    [['__schema'], '"idempotency_key"', '"idempotency-key"'],
    [['pair', 'mcp-server', '--format', 'json'], '"max_size"', '"max-size"'],
  ])('%j is refused, naming both', (args, one, other) => {
    const r = run(args, {}, COLLIDE);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(one);
    expect(r.stderr).toContain(other);
    if (args.includes('--format'))
      expect(JSON.parse(r.stderr)).toMatchObject({ error: { context: { reason: 'name_collision' } } });
  });

  it('a person’s run of it is yargs’ as before', () => {
    expect(run(['go', '--idempotency_key', 'k'], {}, COLLIDE).code).toBe(0);
  });
});

describe('a program run by its default command; handlers and middleware that fail', () => {
  const SHOW = join(REPO, 'test/frontends/fixtures/show-yargs.ts');
  const show = (args: string[]) => run([...args, '--format', 'json'], {}, SHOW);
  const errorOf = (r: { stderr: string }) => (JSON.parse(r.stderr.trim()) as Json).error as Json;

  it('the default command is the program’s own run: its positionals and options', () => {
    const r = show(['f.txt', 'a', 'b', '--lines', '2']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data).toEqual({ file: 'f.txt', more: ['a', 'b'], lines: 2 });
    const doc = JSON.parse(run(['__schema', '--as=mcp'], {}, SHOW).stdout) as { tools: Json[] };
    const root = doc.tools.find((t) => t.name === 'show')!;
    expect(root.inputSchema.required).toEqual(['file']);
    expect(JSON.stringify(root.inputSchema.properties.lines)).toContain('"enum":["1","2"]');
  });

  it('a positional starting with "-" is refused before yargs runs (yargs would read it as an option)', () => {
    const r = run(['--args-json', '{"file":"f","more":["-x"]}', '--format', 'json'], {}, SHOW);
    expect(r.code).toBe(2);
    expect(errorOf(r)).toMatchObject({ kind: 'validation_error', context: { reason: 'positional_starts_with_dash' } });
  });

  it('a handler that throws is an internal_error (exit 1)', () => {
    const r = show(['boom']);
    expect(r.code).toBe(1);
    expect(errorOf(r)).toMatchObject({ kind: 'internal_error', message: 'kaput' });
  });

  it('a middleware that throws before the handler is a validation_error (exit 2)', () => {
    const r = show(['guarded']);
    expect(r.code).toBe(2);
    expect(errorOf(r)).toMatchObject({ kind: 'validation_error', message: 'not signed in' });
  });
});
