/**
 * Parity of the two ways an agent calls a tool: MCP `tools/call` (real SDK Client over stdio against
 * `<cli> mcp-server`) and the shell-out convention of `__schema --as=llms`
 * (`<cli> <command words> --args-json '<json>' --format json`). For every tool of the surfaces fixture
 * and of the demo, with valid and invalid arguments, the envelope is the same once trace/span ids,
 * idempotency keys and timestamps are masked, and the process exit code is error.exit_code.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pool, runScript, TSX_LOADER } from '../helpers/spawn.ts';

type Json = Record<string, any>;

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const TSX = TSX_LOADER;
const FIXTURE = join(REPO, 'test/fixtures/surfaces-cli.ts');
const TASKS = join(REPO, 'cmd/tasks/main.ts');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A minimal child environment (never the runner's AGENT_MODE, TASKS_FILE…). */
function baseEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of ['PATH', 'TMPDIR', 'LANG', 'SYSTEMROOT']) if (process.env[k] !== undefined) env[k] = process.env[k]!;
  return { ...env, ...extra };
}

function runCli(script: string, args: readonly string[], env: Record<string, string>): Promise<Run> {
  return runScript(script, args, baseEnv(env));
}

const VOLATILE = new Set(['trace_id', 'span_id', 'idempotency_key', 'duration_ms']);
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Masks run-to-run values: trace/span ids, idempotency keys, durations, ISO timestamps. */
function mask(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(mask);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [
        k,
        VOLATILE.has(k) && (typeof x === 'string' || k === 'duration_ms') ? '<masked>' : mask(x),
      ]),
    );
  if (typeof v === 'string' && ISO.test(v)) return '<time>';
  return v;
}

/** Stdout as compared: each line parsed and masked when it is JSON, else the raw line (opaque output). */
function maskedLines(text: string): unknown[] {
  return text.split('\n').map((l) => {
    try {
      return mask(JSON.parse(l));
    } catch {
      return l;
    }
  });
}

/** One side of a comparison: success text, or the error envelope. */
type Outcome = { ok: true; text: string } | { ok: false; envelope: Json };

/** A live MCP session over stdio with the SDK client. */
interface Session {
  client: Client;
  tools: Json[];
  close(): Promise<void>;
  stderr(): string;
}

async function connect(script: string, env: Record<string, string>): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', TSX, script, 'mcp-server'],
    env: baseEnv(env),
    stderr: 'pipe',
    cwd: REPO,
  });
  let err = '';
  transport.stderr!.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const client = new Client({ name: 'ax-ts-parity', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  const { tools } = await client.listTools();
  return { client, tools: tools as Json[], close: () => client.close(), stderr: () => err };
}

async function viaMcp(s: Session, tool: string, args: Json): Promise<Outcome> {
  const r = (await s.client.callTool({ name: tool, arguments: args })) as Json;
  expect(r.content, `${tool} ${JSON.stringify(args)}`).toHaveLength(1);
  expect(r.content[0].type).toBe('text');
  const text = r.content[0].text as string;
  return r.isError ? { ok: false, envelope: JSON.parse(text) as Json } : { ok: true, text };
}

/** The shell-out convention, read from the llms help entry: tool → program words; tools that take no --format json. */
interface Convention {
  words: Map<string, string[]>;
  noFormat: Set<string>;
}

function conventionOf(llms: Json): Convention {
  const help = llms.tools[0].description as string;
  const list = help.split('\n').find((l) => l.startsWith('Tools and their commands: '))!;
  const words = new Map(
    list
      .slice('Tools and their commands: '.length)
      .replace(/\.$/, '')
      .split('; ')
      .map((p) => {
        const [tool, cmd] = p.split(' = ') as [string, string];
        return [tool, cmd.split(' ').slice(1)] as const;
      }),
  );
  const except = help.split('\n').find((l) => /^For .*, leave out --format json/.test(l));
  const noFormat = new Set(
    except
      ? except
          .replace(/^For /, '')
          .replace(/, leave out --format json.*$/, '')
          .split(', ')
      : [],
  );
  return { words, noFormat };
}

async function viaCli(
  script: string,
  conv: Convention,
  tool: string,
  args: Json,
  env: Record<string, string>,
): Promise<{ outcome: Outcome; run: Run }> {
  const argv = [
    ...conv.words.get(tool)!,
    '--args-json',
    JSON.stringify(args),
    ...(conv.noFormat.has(tool) ? [] : ['--format', 'json']),
  ];
  const r = await runCli(script, argv, env);
  if (r.code === 0) return { outcome: { ok: true, text: r.stdout }, run: r };
  expect(r.stdout, `${tool}: stdout must be empty on failure`).toBe('');
  const last = r.stderr.trimEnd().split('\n').at(-1)!;
  return { outcome: { ok: false, envelope: JSON.parse(last) as Json }, run: r };
}

/** Asserts both sides agree. */
function expectSame(label: string, mcp: Outcome, cli: { outcome: Outcome; run: Run }): void {
  const detail = `${label}\nMCP: ${JSON.stringify(mcp)}\nCLI: exit ${cli.run.code}\n${cli.run.stdout}${cli.run.stderr}`;
  expect(cli.outcome.ok, detail).toBe(mcp.ok);
  if (mcp.ok && cli.outcome.ok) {
    expect(maskedLines(cli.outcome.text), detail).toEqual(maskedLines(mcp.text));
  } else if (!mcp.ok && !cli.outcome.ok) {
    expect(Object.keys(mcp.envelope), detail).toEqual(['error', 'meta']);
    // a stop's next step is the same tool call on both; on the command line it also says the
    // command line that makes it (the same --args-json, amended): the one place the spellings differ
    const steps = (cli.outcome.envelope.error as Json).next as Json[] | undefined;
    for (const step of steps ?? []) {
      expect(step.argv, detail).toContain('--args-json');
      expect(JSON.parse(step.argv[step.argv.indexOf('--args-json') + 1]), detail).toEqual(step.arguments);
    }
    const toolCalls = (e: Json): Json =>
      steps ? { ...e, error: { ...e.error, next: steps.map(({ command: _c, argv: _a, ...call }) => call) } } : e;
    expect(mask(toolCalls(cli.outcome.envelope)), detail).toEqual(mask(mcp.envelope));
    expect(cli.run.code, detail).toBe(mcp.envelope.error.exit_code);
  }
}

/** A value of the wrong JSON type for a property schema. */
function wrongValue(p: Json): unknown {
  switch (p.type) {
    case 'string':
      return 12345;
    case 'boolean':
      return 'yes';
    case 'integer':
      return '1';
    case 'number':
      return 'x';
    case 'array':
      return 'a,b';
    default:
      return 'x';
  }
}

/** Invalid variants of a valid argument object: unknown property, wrong type, missing required, null for optional. */
function invalidCases(tool: Json, valid: Json): [string, Json][] {
  const props = Object.entries((tool.inputSchema.properties ?? {}) as Record<string, Json>);
  const required: string[] = tool.inputSchema.required ?? [];
  const out: [string, Json][] = [['unknown property', { ...valid, __bogus__: 1 }]];
  const [first, schema] = props.find(([k]) => required.includes(k)) ?? props[0] ?? [];
  if (first) out.push([`wrong type for ${first}`, { ...valid, [first]: wrongValue(schema!) }]);
  if (required.length) {
    const { [required[0]!]: _gone, ...rest } = valid;
    out.push([`missing required ${required[0]}`, rest]);
  }
  const optional = props.map(([k]) => k).find((k) => !required.includes(k) && !(k in valid));
  if (optional) out.push([`null for optional ${optional}`, { ...valid, [optional]: null }]);
  return out;
}

describe('MCP tools/call and --args-json give the same envelope: surfaces fixture', () => {
  let session: Session;
  let conv: Convention;
  const env = (dir: string) => ({ HOME: dir });
  let home: string;

  /** Valid arguments for every tool (the first row is the base of the invalid variants); some fail in the handler on purpose. */
  const VALID: Record<string, Json[]> = {
    echo: [
      { token: 't' },
      {
        token: '--yes',
        name: '-n',
        enabled: true,
        count: 7,
        ratio: 1.5,
        timeout: '2s',
        level: 2,
        labels: ['a,b', 'c'],
        raw: ['--format', 'text'],
        ports: [80, 443],
        meta: { k: [1, 2] },
        color: 'blue',
        cache: false,
        legacy: 'old',
        profile: 'p',
      },
      { token: 't', color: 'pink' },
      { token: 't', timeout: 'soon' },
    ],
    items_list: [{}, { limit: 1, offset: 1, fields: ['id'], region: 'us' }, { fields: ['bogus'] }],
    items_scan: [{}, { cursor: '2', select: ['name'] }],
    items_get: [{ id: 'a1' }, { id: 'zz' }],
    items_create: [
      { name: 'drill', kind: 'tool' },
      { name: '--kind', note: '-x', kind: 'vessel', dry_run: true },
      { name: 'x', kind: 'tool', idempotency_key: 'abc' },
    ],
    items_tag: [
      { id: 'a1', tags: ['x,y', '--z'] },
      { id: 'a1', tags: [] },
      { id: 'zz', tags: ['q'] },
    ],
    items_purge: [{ yes: true }, {}, { dry_run: true, yes: true }],
    items_admin_reindex: [{}, { reason: 'nightly', region: 'us' }],
    tail: [{ topic: 'alerts', max: 2 }, { topic: 'nope' }],
    dump: [{}],
    report: [{}, { name: 'q1', format: 'csv' }],
    config_read: [{ key: 'color' }, { key: 'editor' }],
    'legacy-sync': [{}],
  };

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'ax-parity-surf-'));
    // each side records replayed keys in its own state directory, so a key used on both replays on neither
    session = await connect(FIXTURE, { ...env(home), XDG_STATE_HOME: join(home, 'mcp-state') });
    const llms = JSON.parse((await runCli(FIXTURE, ['__schema', '--as=llms'], env(home))).stdout) as Json;
    expect(llms.tools.slice(1)).toEqual(session.tools); // the manifest lists exactly what the server lists
    conv = conventionOf(llms);
  }, 60_000);

  afterAll(async () => {
    await session?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('has valid arguments for every tool the server lists', () => {
    expect(session.tools.map((t) => t.name).sort()).toEqual(Object.keys(VALID).sort());
    expect([...conv.words.keys()].sort()).toEqual(Object.keys(VALID).sort());
    expect([...conv.noFormat]).toEqual(['report']);
  });

  it('every tool, valid and invalid arguments: same envelope, exit code = error.exit_code', async () => {
    const cases: [string, string, Json][] = [];
    for (const tool of session.tools) {
      const valid = VALID[tool.name]!;
      for (const v of valid) cases.push([tool.name, 'valid', v]);
      for (const [what, args] of invalidCases(tool, valid[0]!)) cases.push([tool.name, what, args]);
    }
    const mcp: Outcome[] = [];
    for (const [tool, , args] of cases) mcp.push(await viaMcp(session, tool, args));
    const cli = await pool(
      cases.map(
        ([tool, , args]) =>
          () =>
            viaCli(FIXTURE, conv, tool, args, { ...env(home), XDG_STATE_HOME: join(home, 'cli-state') }),
      ),
    );
    cases.forEach(([tool, what, args], i) => expectSame(`${tool} (${what}) ${JSON.stringify(args)}`, mcp[i]!, cli[i]!));
    // Both paths were really exercised: successes and failures of several kinds.
    const kinds = new Set(
      mcp
        .filter((m): m is { ok: false; envelope: Json } => !m.ok)
        .map((m) => `${m.envelope.error.kind}/${m.envelope.error.context?.reason ?? ''}`),
    );
    for (const k of [
      'validation_error/unknown_property',
      'validation_error/invalid_property_value',
      'validation_error/missing_required_property',
      'surf_not_found/',
      'confirmation_required/confirmation', // a stop (its context.reason)
    ]) {
      expect([...kinds], k).toContain(k);
    }
    expect(mcp.filter((m) => m.ok).length).toBeGreaterThan(20);
    expect(session.stderr()).not.toMatch(/Error|error:/);
  }, 240_000);
});

describe('MCP tools/call and --args-json give the same envelope: the demo (tasks)', () => {
  let dir: string;
  let file: string;
  let env: Record<string, string>;
  let session: Session;
  let conv: Convention;

  const SEED = `${JSON.stringify(
    {
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
    },
    null,
    2,
  )}\n`;
  const seed = () => writeFileSync(file, SEED);

  const VALID: Record<string, Json[]> = {
    add: [
      { title: ['water', 'plants'] },
      { title: ['buy', 'milk'], tag: ['home', 'a,b'], due: '2030-01-31' },
      { title: ['--not-a-flag'], dry_run: true },
      { title: ['x'], idempotency_key: 'k-1' },
      { title: ['x'], due: 'tomorrow' },
    ],
    list: [
      {},
      { status: 'all', fields: ['id', 'title'], limit: 1, offset: 1 },
      { status: 'done', all: true },
      { limit: 0 },
      { tag: 'home' },
    ],
    show: [{ id: '1' }, { id: '99' }, { id: 'abc' }],
    done: [{ id: '1' }, { id: '2', dry_run: true }, { id: '3' }],
    rm: [{ id: '1', yes: true }, { id: '1' }, { id: '1', dry_run: true }, { id: '42', yes: true }],
    export: [{}, { store: 'relative-missing.json' }],
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ax-parity-tasks-'));
    file = join(dir, 'tasks.json');
    mkdirSync(join(dir, 'home'));
    env = { TASKS_FILE: file, HOME: join(dir, 'home') };
    seed();
    session = await connect(TASKS, { ...env, XDG_STATE_HOME: join(dir, 'mcp-state') }); // see above: one state directory per side
    const llms = JSON.parse((await runCli(TASKS, ['__schema', '--as=llms'], env)).stdout) as Json;
    expect(llms.tools.slice(1)).toEqual(session.tools);
    conv = conventionOf(llms);
  }, 60_000);

  afterAll(async () => {
    await session?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every tool, valid and invalid arguments, from the same store state: same envelope, exit code = error.exit_code', async () => {
    expect(session.tools.map((t) => t.name).sort()).toEqual(Object.keys(VALID).sort());
    let n = 0;
    for (const tool of session.tools) {
      const valid = VALID[tool.name]!;
      const cases: [string, Json][] = [
        ...valid.map((v) => ['valid', v] as [string, Json]),
        ...invalidCases(tool, valid[0]!),
      ];
      for (const [what, args] of cases) {
        seed();
        const mcp = await viaMcp(session, tool.name, args);
        seed();
        const cli = await viaCli(TASKS, conv, tool.name, args, { ...env, XDG_STATE_HOME: join(dir, 'cli-state') });
        expectSame(`${tool.name} (${what}) ${JSON.stringify(args)}`, mcp, cli);
        n++;
      }
    }
    expect(n).toBeGreaterThan(30);
  }, 240_000);
});
