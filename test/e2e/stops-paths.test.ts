/**
 * The agent-facing contract means the same on every path (docs/contract.md "Stops and next steps",
 * "Warnings and --strict", "Output schema"): ONE table of rules runs through all seven paths — the
 * CLI process, `--args-json`, in-process `execute`, MCP stdio, MCP HTTP stateful and stateless, MCP
 * in progressive mode (real SDK clients against real server processes) — against the fixture test/fixtures/stops-tree.ts
 * (public API only). A stop exits 2 with runnable next steps spelled for the path (a command line,
 * a tool call), and running a step as given (its `<…>` filled in) does what it says; warnings are
 * `{code, message}`; a payload that breaks its output schema is the author's internal_error on
 * every path, never a success an MCP client then refuses; meta.changed says what an idempotent call
 * did. `--strict` and `--timeout` are the caller's controls of a process run: tested where they
 * are given (the command line and `--args-json`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStopsCli } from '../fixtures/stops-tree.ts';
import { runScript } from '../helpers/spawn.ts';
import {
  httpPath,
  inProcessPath,
  minimalEnv,
  PATH_NAMES,
  processPath,
  progressivePath,
  stdioPath,
  type Call,
  type Outcome,
  type Path,
} from '../helpers/paths.ts';

type Json = Record<string, any>;

const STOPS_CLI = fileURLToPath(new URL('../fixtures/stops-cli.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ax-stops-paths-'));
const ENV = { STOPS_LOG: join(dir, 'seen.log') };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A call of a command without positionals: `props` as CLI flags and as properties. */
function simple(tool: string, props: Json = {}): Call {
  const flag = (k: string) => `--${k.replace(/_/g, '-')}`;
  const argv = [
    tool,
    ...Object.entries(props).flatMap(([k, v]) =>
      typeof v === 'boolean' ? (v ? [flag(k)] : []) : [flag(k), String(v)],
    ),
  ];
  return { tool, argv, json: props };
}

function expectError(o: Outcome, code: number, kind: string): Json {
  expect(o.code, JSON.stringify(o)).toBe(code);
  expect(o.stdout).toBe('');
  expect(o.error?.error.kind, JSON.stringify(o.error)).toBe(kind);
  if (o.isError !== undefined) expect(o.isError).toBe(true);
  return o.error!.error as Json;
}

/**
 * The call a next step makes, with each `<name>` replaced by `fill[name]`: its argv after the
 * program's name on argv paths, its tool call on JSON paths; and a check that the step is spelled
 * as the path spells calls.
 */
function stepCall(p: Path, step: Json, fill: Record<string, string | number> = {}): Call {
  const fillWord = (w: unknown) => (typeof w === 'string' && /^<\w+>$/.test(w) ? (fill[w.slice(1, -1)] ?? w) : w);
  if (p.mcp) {
    expect(step.command, 'over MCP a step is a tool call, not a command line').toBeUndefined();
    expect(step.tool).toMatch(/^\w+$/);
  } else {
    expect(step.argv[0], 'a command line starts with the program name').toBe('stopsfx');
    expect(step.command).toBe(
      (step.argv as string[]).map((w) => (/^[\w./:=,@%+-]+$|^<\w+>$/.test(w) ? w : `'${w}'`)).join(' '),
    );
  }
  const args = Object.fromEntries(Object.entries((step.arguments ?? {}) as Json).map(([k, v]) => [k, fillWord(v)]));
  const argv = ((step.argv ?? []) as string[]).slice(1).map((w) => String(fillWord(w)));
  // an --args-json step carries its values in the object: filled in there
  const at = argv.indexOf('--args-json');
  if (at >= 0) argv[at + 1] = JSON.stringify(args);
  return { tool: step.tool ?? '', argv, json: args };
}

/**
 * Runs the words after the program's name as a command line of the path: the args-json path spawns
 * them as they are (its own call always builds `--args-json` from a tool and an object), the CLI
 * and in-process paths take argv.
 */
async function runArgv(p: Path, argv: string[]): Promise<Outcome> {
  if (p.name !== 'args-json') return p.call({ tool: '', argv, json: {} });
  const r = await runScript(STOPS_CLI, argv, { ...minimalEnv(), ...ENV });
  const code = r.code ?? -1;
  if (code === 0) return { code, stdout: r.stdout };
  return { code, stdout: r.stdout, error: JSON.parse(r.stderr.trimEnd().split('\n').pop()!) as Json };
}

/**
 * A step as the tool call it makes: in progressive mode a step names one of the server's call tools
 * with the inner tool's name and arguments (docs/mcp-server.md#progressive-discovery), unwrapped
 * here so the rules compare the inner call on every MCP path; elsewhere the step itself.
 */
function inner(p: Path, step: Json): Json {
  if (p.name !== 'mcp-progressive') return step;
  expect(['call_tool', 'call_read_only_tool'], 'a progressive step names a call tool').toContain(step.tool);
  expect(Object.keys(step.arguments as Json).sort()).toEqual(['arguments', 'name']);
  const { name, arguments: args } = step.arguments as Json;
  return { ...(step.description ? { description: step.description } : {}), tool: name, arguments: args };
}

/**
 * Runs a step as the path would: its command line on argv paths and args-json, its tool call over
 * MCP (in progressive mode the call tool it names, as given, with the inner arguments filled in).
 */
async function runStep(p: Path, step: Json, fill?: Record<string, string | number>): Promise<Outcome> {
  const c = stepCall(p, inner(p, step), fill);
  if (p.raw && p.name === 'mcp-progressive') return p.raw(step.tool as string, { name: c.tool, arguments: c.json });
  return p.mcp ? p.call(c) : runArgv(p, c.argv);
}

interface Rule {
  name: string;
  on?: (p: Path) => boolean;
  run: (p: Path, id: string) => Promise<void>;
}

const RULES: Rule[] = [
  {
    name: 'ctx.actionRequired: action_required, exit 2, context.reason, runnable next steps spelled for the path; a filled-in step succeeds',
    run: async (p) => {
      const e = expectError(await p.call(simple('gated')), 2, 'action_required');
      expect(e.context).toEqual({ reason: 'login_required' });
      expect(e.message).toBe('log in first');
      const [login, read] = e.next as Json[];
      expect(login!.description).toBe('log in (fill in <user>)');
      if (p.mcp) {
        expect(inner(p, login!)).toEqual({
          description: 'log in (fill in <user>)',
          tool: 'login',
          arguments: { user: '<user>' },
        });
        expect(inner(p, read!)).toEqual({ description: 'or read, which needs no login', tool: 'read', arguments: {} });
        // progressive mode: a read-only step through call_read_only_tool, the fix naming the same calls
        if (p.name === 'mcp-progressive') {
          expect(read!.tool).toBe('call_read_only_tool');
          expect(e.actionable_fix).toContain(`${login!.tool as string} ${JSON.stringify(login!.arguments)}`);
        }
      } else expect(login!.argv).toEqual(['stopsfx', 'login', '--user', '<user>']);
      // an --args-json caller gets the command line and the tool call it makes
      if (p.name === 'args-json') expect(login).toMatchObject({ tool: 'login', arguments: { user: '<user>' } });
      const done = await runStep(p, login!, { user: 'ada' });
      expect(done.code, JSON.stringify(done)).toBe(0);
      expect(JSON.parse(done.stdout).data).toEqual({ user: 'ada' });
      expect(JSON.parse((await runStep(p, read!)).stdout).data).toEqual({ ok: true });
    },
  },
  {
    name: 'ctx.confirm with nobody to ask: confirmation_required (prompt_required), nothing done; next is the same call with yes, which does it',
    run: async (p) => {
      const e = expectError(await p.call(simple('purge')), 2, 'confirmation_required');
      expect(e.context).toMatchObject({ reason: 'confirmation', outcome: 'prompt_required' });
      expect(e.actionable_fix).toContain('only with the user');
      expect(e.next).toHaveLength(1);
      const step = (e.next as Json[])[0]!;
      if (p.spelling === 'json') expect(inner(p, step).arguments).toEqual({ yes: true });
      else expect(step.argv).toEqual(['stopsfx', 'purge', '--yes']);
      if (p.name === 'args-json') expect(step.argv).toEqual(['stopsfx', 'purge', '--args-json', '{"yes":true}']);
      const done = await runStep(p, step);
      expect(done.code, JSON.stringify(done)).toBe(0);
      expect(JSON.parse(done.stdout).data).toEqual({ purged: true });
    },
  },
  {
    name: 'ctx.elicit with nobody to ask: input_required naming the flag; next gives it as <name>, and filled in it answers',
    run: async (p) => {
      const e = expectError(await p.call(simple('profile', { age: 41 })), 2, 'input_required');
      expect(e.context).toMatchObject({ reason: 'input', fields: ['name'] });
      const step = (e.next as Json[])[0]!;
      if (p.spelling === 'json') expect(inner(p, step).arguments).toEqual({ age: 41, name: '<name>' });
      else expect(step.argv).toEqual(['stopsfx', 'profile', '--age', '41', '--name', '<name>']);
      if (p.name === 'args-json')
        expect(step.argv).toEqual(['stopsfx', 'profile', '--args-json', '{"age":41,"name":"<name>"}']);
      const done = await runStep(p, step, { name: 'Ada' });
      expect(done.code, JSON.stringify(done)).toBe(0);
      expect(JSON.parse(done.stdout).data).toEqual({ name: 'Ada', age: 41 });
    },
  },
  {
    name: 'structured warnings: meta.warnings holds {code, message}',
    run: async (p) => {
      const o = await p.call(simple('warner'));
      expect(o.code).toBe(0);
      expect(JSON.parse(o.stdout).meta.warnings).toEqual([{ code: 'stale_cache', message: 'the cache is stale' }]);
    },
  },
  {
    name: 'a result that breaks its output.schema: internal_error naming the field (exit 1) — never a success a client refuses',
    run: async (p) => {
      const e = expectError(await p.call(simple('badout')), 1, 'internal_error');
      expect(e.context).toEqual({ reason: 'output_schema_mismatch', path: '/id', keyword: 'type' });
      expect(e.message).toContain('the field id must be string');
      // a format, checked with Ajv and ajv-formats (loaded for this schema only)
      const f = expectError(await p.call(simple('badformat')), 1, 'internal_error');
      expect(f.context).toEqual({ reason: 'output_schema_mismatch', path: '/at', keyword: 'format' });
    },
  },
  {
    name: 'meta.changed: what an idempotent call did (true the first time, false after)',
    run: async (p, id) => {
      const call: Call = { tool: 'settle', argv: ['settle', id], json: { name: id } };
      expect(JSON.parse((await p.call(call)).stdout).meta.changed).toBe(true);
      expect(JSON.parse((await p.call(call)).stdout).meta.changed).toBe(false);
    },
  },
  {
    name: '--strict: a warning fails the run, warnings_as_errors (exit 2), nothing on stdout',
    on: (p) => !p.mcp,
    run: async (p) => {
      // with --args-json the flag stands beside the object
      const argv = p.name === 'args-json' ? ['warner', '--args-json', '{}', '--strict'] : ['warner', '--strict'];
      const e = expectError(await runArgv(p, argv), 2, 'warnings_as_errors');
      expect(e.context).toEqual({ warnings: [{ code: 'stale_cache', message: 'the cache is stale' }], ran: true });
    },
  },
  {
    name: '--timeout: the run is aborted when it passes, timeout (exit 3, retryable)',
    on: (p) => !p.mcp,
    run: async (p) => {
      const argv = ['slow', ...(p.name === 'args-json' ? ['--args-json', '{}'] : []), '--timeout', '200ms'];
      const e = expectError(await runArgv(p, argv), 3, 'timeout');
      expect(e).toMatchObject({ retryable: true, context: { reason: 'deadline', timeout_ms: 200 } });
    },
  },
  {
    name: "--timeout: zero or negative is refused (exit 2, invalid_flag_value); one beyond a timer's 24.8 days does not fire at once",
    on: (p) => !p.mcp,
    run: async (p) => {
      const pre = p.name === 'args-json' ? ['--args-json', '{}'] : [];
      for (const bad of ['0s', '-5s']) {
        const e = expectError(await runArgv(p, ['slow', ...pre, '--timeout', bad]), 2, 'validation_error');
        expect(e.context).toMatchObject({ reason: 'invalid_flag_value' });
      }
      // 600h is more than 2^31-1 ms: Node would fire such a timer after 1 ms
      const waits = p.name === 'args-json' ? ['--args-json', '{"for":"300ms"}'] : ['--for', '300ms'];
      const long = await runArgv(p, ['slow', ...waits, '--timeout', '600h']);
      expect(long.code, JSON.stringify(long.error)).toBe(0);
    },
  },
];

const paths: Path[] = [];
beforeAll(async () => {
  paths.push(
    processPath('cli', STOPS_CLI, ENV),
    processPath('args-json', STOPS_CLI, ENV),
    inProcessPath(buildStopsCli, ENV),
    ...(await Promise.all([
      stdioPath(STOPS_CLI, ENV),
      httpPath(STOPS_CLI, ENV, false),
      httpPath(STOPS_CLI, ENV, true),
      progressivePath(STOPS_CLI, ENV),
    ])),
  );
}, 120_000);
afterAll(() => Promise.all(paths.map((p) => p.close())));

describe.each(PATH_NAMES)('path %s', (name) => {
  const path = () => paths.find((p) => p.name === name)!;
  it.each(RULES.map((r) => [r.name, r] as const))(
    '%s',
    async (_n, rule) => {
      const p = path();
      if (rule.on && !rule.on(p)) return;
      await rule.run(p, `${name}-${RULES.indexOf(rule)}`);
    },
    60_000,
  );
});

describe('over MCP: what tools/list says', () => {
  it('capability classes set openWorldHint; yes is an input only where it is the confirmation gate', async () => {
    const stdio = paths.find((p) => p.name === 'mcp-stdio')! as Path & {
      conn?: { client: { listTools(): Promise<{ tools: Json[] }> } };
    };
    const tools = new Map((await stdio.conn!.client.listTools()).tools.map((t) => [t.name as string, t]));
    expect(tools.get('web')!.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    expect(tools.get('read')!.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(tools.get('purge')!.annotations).toMatchObject({ destructiveHint: true, openWorldHint: false });
    expect(tools.get('login')!.annotations).not.toHaveProperty('openWorldHint'); // no classes declared
    expect(Object.keys(tools.get('purge')!.inputSchema.properties)).toContain('yes');
    expect(Object.keys(tools.get('read')!.inputSchema.properties)).not.toContain('yes');
    // --strict and --timeout are the caller's controls of a process run, no tool inputs
    for (const t of tools.values()) expect(Object.keys(t.inputSchema.properties)).not.toContain('strict');
    // a flag's examples reach the inputSchema
    expect(tools.get('login')!.inputSchema.properties.user).toMatchObject({ examples: ['ada'] });
  });
});
