/**
 * `--args-json '<object>'`: one JSON object shaped like the command's inputSchema, validated like MCP
 * `tools/call` arguments and bound without any text parsing. Run in-process through `execute`.
 */
import { describe, expect, it } from 'vitest';
import { Command } from '../../lib/index.ts';
import { runCli } from '../helpers/run.ts';
import { buildTasksCli } from '../../cmd/tasks/cli.ts';
import { buildSurfacesCli, type SurfacesVariant } from '../fixtures/surfaces-cli.ts';

type Json = Record<string, any>;

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a tree in-process with captured streams (piped: json mode), no version injected. */
function run(root: Command, args: string[], env: Record<string, string | undefined> = {}) {
  return runCli(root, args, { env, version: undefined });
}

const surf = (args: string[], variant: SurfacesVariant = 'full') => run(buildSurfacesCli(variant), args);

/** The payload of a success (exactly one envelope line, nothing on stderr unless warnings). */
function data(r: Result): any {
  expect(r.code, r.stderr).toBe(0);
  const lines = r.stdout.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!).data;
}

/** The error object of a failure: nothing on stdout, the last stderr line, exit code = error.exit_code. */
function failure(r: Result): Json {
  expect(r.stdout).toBe('');
  expect(r.stderr.endsWith('\n')).toBe(true);
  const line = JSON.parse(r.stderr.trimEnd().split('\n').at(-1)!) as Json;
  expect(Object.keys(line)).toEqual(['error', 'meta']);
  expect(line.error.exit_code).toBe(r.code);
  expect(r.code).not.toBe(0);
  return line.error;
}

describe('--args-json conflicts and malformed input', () => {
  it('combined with a positional: validation_error args_json_conflict (exit 2), nothing runs', async () => {
    const e = failure(await surf(['items', 'get', 'a1', '--args-json', '{"id":"a1"}']));
    expect(e).toMatchObject({
      kind: 'validation_error',
      exit_code: 2,
      context: { reason: 'args_json_conflict', command: 'surf items get', extra: ['"a1"'] },
    });
    expect(e.actionable_fix).toContain('--args-json');
    // also when the positional comes after it, or after --
    expect(failure(await surf(['items', 'get', '--args-json', '{"id":"a1"}', 'a1'])).context.reason).toBe(
      'args_json_conflict',
    );
    expect(failure(await surf(['items', 'get', '--args-json', '{"id":"a1"}', '--', 'a1'])).context.reason).toBe(
      'args_json_conflict',
    );
  });

  it('combined with another flag (local, short, bool, persistent, injected): args_json_conflict naming the flag', async () => {
    const cases: [string[], string][] = [
      [['echo', '--args-json', '{"token":"t"}', '--name', 'x'], '--name'],
      [['echo', '-n', 'x', '--args-json', '{"token":"t"}'], '--name'],
      [['echo', '--args-json={"token":"t"}', '--enabled'], '--enabled'],
      [['--profile', 'p', 'echo', '--args-json', '{"token":"t"}'], '--profile'],
      [['items', 'list', '--region', 'us', '--args-json', '{}'], '--region'],
      [['items', 'create', '--args-json', '{"name":"x","kind":"tool"}', '--dry-run'], '--dry-run'],
      [['items', 'create', '--idempotency-key', 'k', '--args-json', '{"name":"x","kind":"tool"}'], '--idempotency-key'],
    ];
    for (const [args, flag] of cases) {
      const e = failure(await surf(args));
      expect(e.kind, args.join(' ')).toBe('validation_error');
      expect(e.context.reason, args.join(' ')).toBe('args_json_conflict');
      expect(e.context.extra, args.join(' ')).toEqual([flag]);
    }
  });

  it('--format may accompany it, before or after, and picks the output mode', async () => {
    for (const args of [
      ['--format', 'json', 'echo', '--args-json', '{"token":"t"}'],
      ['echo', '--args-json', '{"token":"t"}', '--format', 'json'],
      ['echo', '--format=json', '--args-json={"token":"t"}'],
    ]) {
      expect(data(await surf(args)).token, args.join(' ')).toBe('t');
    }
    const text = await surf(['items', 'get', '--args-json', '{"id":"a1"}', '--format', 'text']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^id: +a1$/m);
  });

  it('invalid JSON: validation_error invalid_args_json (exit 2), in the requested mode, with no correction when none is certain', async () => {
    for (const bad of [
      '{bad',
      '',
      '{"token":"t"',
      '{"token":"t"},{"token":"u"}',
      '{"token":"t"} {"token":"u"}',
      "{'token':'it's'}",
      '{"token":undefined}',
      '{token:"t"]',
      "'t'",
    ]) {
      const e = failure(await surf(['echo', '--args-json', bad]));
      expect(e, JSON.stringify(bad)).toMatchObject({
        kind: 'validation_error',
        exit_code: 2,
        context: { reason: 'invalid_args_json' },
      });
      expect(e.message).toMatch(/^--args-json is not valid JSON/);
      expect(e.context.corrected, JSON.stringify(bad)).toBeUndefined();
      expect(e.next, JSON.stringify(bad)).toBeUndefined();
    }
    const human = await surf(['echo', '--args-json', '{bad', '--format', 'text']);
    expect(human.code).toBe(2);
    expect(human.stdout).toBe('');
    expect(human.stderr).toMatch(/^Error: --args-json is not valid JSON/);
  });

  it('a refusal says where the text went wrong (line, column), never what it held: a secret in it is not repeated', async () => {
    const root = new Command({ use: 'sx' });
    root.addCommand(
      new Command({ use: 'use', flags: { token: { type: 'string', secret: true } }, run: () => ({ ok: true }) }),
    );
    for (const bad of ['{"token": hunter2-secret}', '{"token": "hunter2-secret"', '{"token": "hunter2-secret" "x"}']) {
      const r = await run(root, ['use', '--args-json', bad, '--format', 'json']);
      expect(r.code, bad).toBe(2);
      expect(r.stderr + r.stdout, bad).not.toContain('hunter2');
      const e = failure(r);
      expect(e.message, bad).toMatch(/^--args-json is not valid JSON: [a-z ]+ at line 1, column \d+$/);
      expect(e.context, bad).toMatchObject({ reason: 'invalid_args_json', line: 1, column: expect.any(Number) });
    }
  });

  it('JSONC is read as config files are: comments and trailing commas', async () => {
    for (const text of [
      '{"token":"t",}',
      '{"token":"t", "labels":["a","b",],}',
      '{"token":"t" /* why */}',
      '// the call\n{"token":"t"}',
      '{"token":"t"} // done',
    ]) {
      expect(data(await surf(['echo', '--args-json', text])).token, text).toBe('t');
    }
    expect(data(await surf(['echo', '--args-json', '{"token":"t","labels":["a,b",],}'])).labels).toEqual(['a,b']);
  });

  it('JSONC or a slip nested thousands deep: too_deep (exit 2), as strict JSON is, never a stack overflow', async () => {
    const deep = `${'['.repeat(6000)}${']'.repeat(6000)}`;
    for (const text of [`{"token":"t","labels":${deep}} // c`, `{token:'t',labels:${deep}}`, `{"labels":${deep}}`]) {
      const e = failure(await surf(['echo', '--args-json', text]));
      expect(e.kind, text.slice(0, 30)).toBe('validation_error');
      expect(e.context.reason).toBe('too_deep');
    }
  });

  it('a slip of generated JSON (single quotes, unquoted keys, True/False/None, a semicolon or a remark after it): refused with context.corrected, and next[0], the same call corrected, runs verbatim', async () => {
    for (const [bad, corrected, repairs] of [
      ["{'token': 't'}", '{"token":"t"}', ['single_quotes']],
      ["{'token': 'say \"hi\" isn\\'t it'}", '{"token":"say \\"hi\\" isn\'t it"}', ['single_quotes']],
      ['{token: "t", labels: ["a"]}', '{"token":"t","labels":["a"]}', ['unquoted_keys']],
      [
        '{"token":"t","enabled":True,"cache":False,"name":None}',
        '{"token":"t","enabled":true,"cache":false,"name":null}',
        ['python_literals'],
      ],
      ['{"token":"t"};', '{"token":"t"}', ['trailing_text']],
      ['{"token":"t"} -- that is the call', '{"token":"t"}', ['trailing_text']],
      [
        "{token: 'True', enabled: True,}; ",
        '{"token":"True","enabled":true}',
        ['single_quotes', 'unquoted_keys', 'python_literals', 'trailing_text'],
      ],
    ] as const) {
      const r = await surf(['echo', '--args-json', bad, '--format', 'json']);
      const e = failure(r);
      expect(e, bad).toMatchObject({ kind: 'validation_error', exit_code: 2, retryable: false });
      expect(e.context, bad).toEqual({
        reason: 'invalid_args_json',
        corrected,
        repairs,
        line: 1,
        column: expect.any(Number),
      });
      expect(e.actionable_fix).toContain(`--args-json '${corrected.replace(/'/g, "'\\''")}'`);
      const step = e.next[0];
      expect(step, bad).toMatchObject({ tool: 'echo', arguments: JSON.parse(corrected) });
      expect(step.argv).toEqual(['surf', 'echo', '--args-json', corrected, '--format', 'json']);
      const ran = data(await surf(step.argv.slice(1)));
      for (const [k, v] of Object.entries(JSON.parse(corrected) as Json)) expect(ran[k], `${bad}: ${k}`).toEqual(v);
    }
    // on the --args-json=<object> spelling too, and in text mode the fix still gives the object
    const eq = failure(await surf(['echo', "--args-json={'token':'t'}"]));
    expect(eq.next[0].argv).toEqual(['surf', 'echo', '--args-json={"token":"t"}']);
    expect(data(await surf(eq.next[0].argv.slice(1))).token).toBe('t');
    const human = await surf(['echo', '--args-json', "{'token':'t'}", '--format', 'text']);
    expect(human.code).toBe(2);
    expect(human.stderr).toContain(`--args-json '{"token":"t"}'`);
  });

  it('JSON that is not an object: invalid_arguments; null counts as {}', async () => {
    for (const bad of ['[1,2]', '"token"', '42', 'true']) {
      expect(failure(await surf(['echo', '--args-json', bad])).context.reason, bad).toBe('invalid_arguments');
    }
    expect(data(await surf(['items', 'list', '--args-json', 'null']))).toHaveLength(3);
    expect(failure(await surf(['echo', '--args-json', 'null'])).context).toMatchObject({
      reason: 'missing_required_property',
      property: 'token',
    });
  });

  it('schema violations name the property, as MCP does (unknown, wrong type, missing, enum)', async () => {
    const unknown = failure(await surf(['echo', '--args-json', '{"token":"t","maxWidth":1}']));
    expect(unknown.context).toMatchObject({ reason: 'unknown_property', property: 'maxWidth' });
    const camel = failure(await surf(['items', 'list', '--args-json', '{"Limit":1}']));
    expect(camel).toMatchObject({ context: { reason: 'unknown_property' }, suggestions: ['limit'] });
    const flagName = failure(
      await surf(['items', 'create', '--args-json', '{"name":"x","kind":"tool","dry-run":true}']),
    );
    expect(flagName).toMatchObject({
      context: { reason: 'unknown_property', property: 'dry-run' },
      suggestions: ['dry_run'],
    });
    expect(failure(await surf(['echo', '--args-json', '{"token":5}'])).context).toMatchObject({
      reason: 'invalid_property_value',
      property: 'token',
      command: 'surf echo',
    });
    expect(failure(await surf(['echo', '--args-json', '{"token":"t","count":"3"}'])).context).toMatchObject({
      reason: 'invalid_property_value',
      property: 'count',
    });
    expect(failure(await surf(['echo', '--args-json', '{"token":"t","labels":"a,b"}'])).context).toMatchObject({
      reason: 'invalid_property_value',
      property: 'labels',
    });
    expect(failure(await surf(['echo', '--args-json', '{"token":"t","color":"pink"}'])).context).toMatchObject({
      reason: 'invalid_property_value',
      property: 'color',
      allowed: ['red', 'green', 'blue'],
    });
    expect(failure(await surf(['echo', '--args-json', '{}'])).context).toMatchObject({
      reason: 'missing_required_property',
      property: 'token',
    });
    expect(failure(await surf(['items', 'tag', '--args-json', '{"id":"a1","tags":[]}'])).context).toMatchObject({
      reason: 'invalid_property_value',
      property: 'tags',
      command: 'surf items tag',
    });
    // every schema violation names the command, as unknown and missing properties do
    expect(failure(await surf(['echo', '--args-json', '[1]'])).context).toMatchObject({ command: 'surf echo' });
  });

  it('null for an optional property means "not given"; null for a required one is missing', async () => {
    const d = data(await surf(['echo', '--args-json', '{"token":"t","name":null,"labels":null,"count":null}']));
    expect(d).toMatchObject({ token: 't', name: null, labels: [], count: 3 });
    const e = failure(await surf(['echo', '--args-json', '{"token":null}']));
    expect(e.context.property).toBe('token');
    expect(['missing_required_property', 'invalid_property_value']).toContain(e.context.reason);
  });
});

describe('--args-json binds values exactly as given', () => {
  it('a value that looks like a flag stays a value (flags, positionals, array items)', async () => {
    const d = data(
      await surf([
        'echo',
        '--args-json',
        JSON.stringify({
          token: '--yes',
          name: '-n',
          raw: ['--format', 'text'],
          labels: ['--help'],
          legacy: '--',
          meta: { a: '--b' },
        }),
      ]),
    );
    expect(d).toMatchObject({
      token: '--yes',
      name: '-n',
      raw: ['--format', 'text'],
      labels: ['--help'],
      legacy: '--',
      meta: { a: '--b' },
    });
    const created = data(
      await surf(['items', 'create', '--args-json', JSON.stringify({ name: '--kind', note: '-h', kind: 'vessel' })]),
    );
    expect(created).toEqual({ id: 'd4', name: '--kind', kind: 'vessel', note: '-h' });
    const tagged = data(
      await surf(['items', 'tag', '--args-json', JSON.stringify({ id: 'b2', tags: ['--yes', '-v'] })]),
    );
    expect(tagged.tags).toEqual(['--yes', '-v']);
    // the demo: a title word that looks like a flag, with --dry-run as a property
    const added = data(
      await run(
        buildTasksCli(),
        ['add', '--args-json', JSON.stringify({ title: ['--not-a-flag', '-t'], dry_run: true })],
        { TASKS_FILE: `/nonexistent-${process.pid}/t.json` },
      ),
    );
    expect(added.title).toBe('--not-a-flag -t');
  });

  it('arrays with commas keep their items (stringSlice is never split, unlike on the command line)', async () => {
    const d = data(
      await surf([
        'echo',
        '--args-json',
        JSON.stringify({ token: 't', labels: ['a,b', 'c'], raw: ['x,y'], ports: [80, 443] }),
      ]),
    );
    expect(d).toMatchObject({ labels: ['a,b', 'c'], raw: ['x,y'], ports: [80, 443] });
    // the same text on the command line is split (pflag), which is what --args-json avoids
    expect(data(await surf(['echo', '--token', 't', '--labels', 'a,b', '--labels', 'c'])).labels).toEqual([
      'a',
      'b',
      'c',
    ]);
    const tagged = data(await surf(['items', 'tag', '--args-json', JSON.stringify({ id: 'a1', tags: ['x,y', 'z'] })]));
    expect(tagged.tags).toEqual(['heavy', 'x,y', 'z']);
    const added = data(
      await run(
        buildTasksCli(),
        ['add', '--args-json', JSON.stringify({ title: ['buy', 'milk'], tag: ['a,b', 'home'], dry_run: true })],
        { TASKS_FILE: `/nonexistent-${process.pid}/t.json` },
      ),
    );
    expect(added).toMatchObject({ title: 'buy milk', tags: ['a,b', 'home'] });
  });

  it('every type binds: bool, int, float, duration, count, slices, json, choices, negatable default, persistent flags', async () => {
    const d = data(
      await surf([
        'echo',
        '--args-json',
        JSON.stringify({
          token: 't',
          enabled: true,
          count: 7,
          ratio: 1.25,
          timeout: '2s',
          level: 3,
          ports: [1],
          meta: { k: [1, null] },
          color: 'green',
          cache: false,
          profile: 'p',
        }),
      ]),
    );
    expect(d).toMatchObject({
      enabled: true,
      count: 7,
      ratio: 1.25,
      timeout_ms: 2000,
      level: 3,
      ports: [1],
      meta: { k: [1, null] },
      color: 'green',
      cache: false,
      token: 't',
    });
    const reindex = data(
      await surf(['items', 'admin', 'reindex', '--args-json', '{"region":"us","reason":"nightly"}']),
    );
    expect(reindex).toEqual({ region: 'us', reason: 'nightly' });
    expect(failure(await surf(['echo', '--args-json', '{"token":"t","timeout":"soon"}'])).context).toMatchObject({
      reason: 'invalid_flag_value',
      property: 'timeout',
    });
  });

  it('injected inputs: dry_run and idempotency_key are properties', async () => {
    const r = await surf([
      'items',
      'create',
      '--args-json',
      '{"name":"x","kind":"tool","dry_run":true,"idempotency_key":"k-1"}',
    ]);
    expect(r.code).toBe(0);
    const line = JSON.parse(r.stdout);
    expect(line.meta).toMatchObject({ idempotency_key: 'k-1', dry_run: true, would: ['create item x'] });
  });

  it('deprecated properties warn like deprecated flags (stderr and meta.warnings)', async () => {
    const r = await surf(['echo', '--args-json', '{"token":"t","legacy":"x"}']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Property legacy (--legacy) has been deprecated, use --name instead');
    expect(JSON.parse(r.stdout).meta.warnings).toEqual([
      { code: 'deprecated_flag', message: 'Property legacy (--legacy) has been deprecated, use --name instead' },
    ]);
  });

  it('confirmation: refused without the property, names the property in the fix; yes: true confirms', async () => {
    const e = failure(await surf(['items', 'purge', '--args-json', '{}']));
    expect(e).toMatchObject({ kind: 'confirmation_required', exit_code: 2, context: { bypass_flag: 'yes' } });
    expect(e.actionable_fix).toContain('"yes"');
    expect(data(await surf(['items', 'purge', '--args-json', '{"yes":true}']))).toEqual({ purged: 2 });
  });

  it('streams, opaque output, handler errors and the runnable root work the same way', async () => {
    const t = await surf(['tail', '--args-json', '{"topic":"metrics","max":2}']);
    expect(t.code).toBe(0);
    expect(
      t.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).data),
    ).toEqual([
      { seq: 1, topic: 'metrics' },
      { seq: 2, topic: 'metrics' },
    ]);
    const dump = await surf(['dump', '--args-json', '{}']);
    expect(dump).toMatchObject({ code: 0, stdout: 'id,name\na1,anvil\nb2,bellows\nc3,crucible\n' });
    expect(failure(await surf(['items', 'get', '--args-json', '{"id":"zz"}']))).toMatchObject({
      kind: 'surf_not_found',
      exit_code: 5,
    });
    expect(data(await surf(['--args-json', '{"target":"x","profile":"p"}'], 'root-positionals'))).toEqual({
      target: 'x',
      profile: 'p',
    });
    expect(data(await surf(['--args-json', '{"profile":"q"}'], 'runnable-root'))).toEqual({
      target: null,
      profile: 'q',
    });
  });

  it('a command with its own --format: the format property is its own argument', async () => {
    const r = await surf(['report', '--args-json', '{"format":"csv","name":"q1"}']);
    expect(data(r)).toEqual({ name: 'q1', syntax: 'csv' });
  });
});
