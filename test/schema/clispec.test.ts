/**
 * The CLI Spec v0.3 document (`schema`, `__schema --as=clispec`) of the demo and of the surfaces
 * fixture: validated against the vendored schema (lib/vendor/clispec-v0.3.json, Ajv2020), plus every
 * rule of the schema's `x-checker-rules` that JSON Schema cannot express, implemented here.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { Command } from '../../lib/index.ts';
import { runCli } from '../helpers/run.ts';
import { buildTasksCli } from '../../cmd/tasks/cli.ts';
import { buildSurfacesCli, SURFACES_VERSION, type SurfacesVariant } from '../fixtures/surfaces-cli.ts';

type Json = Record<string, any>;

const CLISPEC_SCHEMA = JSON.parse(
  readFileSync(new URL('../../lib/vendor/clispec-v0.3.json', import.meta.url), 'utf8'),
) as Json;
const validateDocument = new Ajv2020({ strict: false, allErrors: true }).compile(CLISPEC_SCHEMA);

/** Runs a tree in-process with captured streams (piped: json mode), no version injected. */
function run(root: Command, args: string[], env: Record<string, string | undefined> = {}) {
  return runCli(root, args, { env, version: undefined });
}

/** `schema` of a fresh tree: exit 0, nothing on stderr, one JSON document + newline. */
async function schemaOf(root: Command, args: string[] = ['schema']): Promise<{ text: string; doc: Json }> {
  const r = await run(root, args);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout.endsWith('}\n')).toBe(true);
  expect(r.stdout.slice(0, -1)).not.toContain('\n');
  return { text: r.stdout, doc: JSON.parse(r.stdout) as Json };
}

/** Ajv's errors, readable. */
function schemaErrors(doc: unknown): string[] {
  return validateDocument(doc)
    ? []
    : (validateDocument.errors ?? []).map(
        (e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
      );
}

/**
 * The `x-checker-rules` errors of the CLI Spec v0.3 (the rules JSON Schema cannot express), as
 * `rule: detail` strings; empty when the document conforms.
 */
export function checkerFindings(doc: Json): string[] {
  const out: string[] = [];
  const commands: Json[] = Array.isArray(doc.commands) ? doc.commands : [];
  const errors: Json[] = Array.isArray(doc.errors) ? doc.errors : [];
  const outcomes: Json[] = Array.isArray(doc.outcomes) ? doc.outcomes : [];
  // ambiguous-exit-code: no code claimed by an error and an outcome, no two outcomes share one.
  const errorCodes = new Set(errors.map((e) => e.exit_code));
  const outcomeCodes = new Set<number>();
  for (const o of outcomes) {
    if (errorCodes.has(o.code)) out.push(`ambiguous-exit-code: ${o.code} is an error and the outcome ${o.name}`);
    if (outcomeCodes.has(o.code)) out.push(`ambiguous-exit-code: two outcomes use ${o.code}`);
    outcomeCodes.add(o.code);
  }
  // unique-error-kinds / unique-outcome-names / unique-command-names.
  for (const [rule, list, key] of [
    ['unique-error-kinds', errors, 'kind'],
    ['unique-outcome-names', outcomes, 'name'],
    ['unique-command-names', commands, 'name'],
  ] as const) {
    const seen = new Set<unknown>();
    for (const e of list) {
      if (seen.has(e[key])) out.push(`${rule}: ${JSON.stringify(e[key])} is declared more than once`);
      seen.add(e[key]);
    }
  }
  const kinds = new Set(errors.map((e) => e.kind));
  const outcomeNames = new Set(outcomes.map((o) => o.name));
  const globals = new Set(((doc.global_args ?? []) as Json[]).map((a) => a.name));
  for (const c of commands) {
    // error-ref-resolves / outcome-ref-resolves.
    for (const k of c.errors ?? [])
      if (!kinds.has(k)) out.push(`error-ref-resolves: ${c.name} names the undeclared kind ${k}`);
    for (const k of c.outcomes ?? [])
      if (!outcomeNames.has(k)) out.push(`outcome-ref-resolves: ${c.name} names the undeclared outcome ${k}`);
    // conditional-error-kind.
    if (c.confirmation_bypass_arg && !kinds.has('confirmation_required'))
      out.push(
        `conditional-error-kind: ${c.name} has a confirmation_bypass_arg but confirmation_required is not declared`,
      );
    if (c.requires_tty === true && !kinds.has('tty_required'))
      out.push(`conditional-error-kind: ${c.name} requires a tty but tty_required is not declared`);
    // arg-ref-resolves.
    const known = new Set([...globals, ...((c.args ?? []) as Json[]).map((a) => a.name)]);
    const refs: [string, unknown][] = [
      ['fields_arg', c.fields_arg],
      ['confirmation_bypass_arg', c.confirmation_bypass_arg],
      ['idempotency_key_arg', c.idempotency_key_arg],
      ['pagination.limit_arg', c.pagination?.limit_arg],
      ['pagination.offset_arg', c.pagination?.offset_arg],
      ['pagination.cursor_arg', c.pagination?.cursor_arg],
    ];
    for (const [label, v] of refs)
      if (typeof v === 'string' && !known.has(v))
        out.push(`arg-ref-resolves: ${c.name} ${label} names ${v}, which is not an argument`);
    // stdout-schema-valid: a valid 2020-12 schema (meta-schema valid and every $ref resolves).
    if (c.stdout_schema !== undefined) {
      try {
        new Ajv2020({ strict: false }).compile(c.stdout_schema);
      } catch (e) {
        out.push(`stdout-schema-valid: ${c.name}: ${(e as Error).message}`);
      }
    }
  }
  return out;
}

/** Schema validation and checker rules together. */
function expectConformant(doc: Json): void {
  expect(schemaErrors(doc)).toEqual([]);
  expect(checkerFindings(doc)).toEqual([]);
}

const SHELL_OPERATOR = /^(?:\||\|\||&&|;|&|\d*[<>]{1,2}.*)$/;

/** Properties every command of every document has, beyond what the schema requires. */
function expectWellFormedCommands(doc: Json): void {
  for (const c of doc.commands as Json[]) {
    expect(Array.isArray(c.args), c.name).toBe(true);
    if (c.example) {
      // example.args are the arguments after the program name, command words included.
      if (c.name !== doc.name)
        expect(
          c.example.args.slice(0, c.name.split(' ').length),
          `${c.name}: example starts with the command words`,
        ).toEqual(c.name.split(' '));
      for (const w of c.example.args)
        expect(SHELL_OPERATOR.test(w), `${c.name}: example word ${JSON.stringify(w)} is a shell operator`).toBe(false);
    }
  }
}

describe('the checker rules implemented here (they must catch what they claim)', () => {
  const base = (): Json => ({
    clispec: '0.3',
    name: 't',
    version: '1.0.0',
    global_args: [{ name: '--format', type: 'string' }],
    commands: [
      {
        name: 'list',
        description: 'List',
        effects: 'read_only',
        cardinality: 'unbounded',
        pagination: { style: 'offset', limit_arg: '--limit', offset_arg: '--offset' },
        fields_arg: '--fields',
        args: [
          { name: '--limit', type: 'integer' },
          { name: '--offset', type: 'integer' },
          { name: '--fields', type: 'string[]' },
        ],
        output_fields: [{ name: 'id', type: 'string' }],
        errors: ['not_found'],
      },
      {
        name: 'rm',
        description: 'Remove',
        effects: 'non_idempotent',
        cardinality: 'single',
        confirmation_bypass_arg: '--yes',
        args: [{ name: '--yes', type: 'boolean' }],
        stdout_schema: {},
      },
    ],
    errors: [
      { kind: 'not_found', exit_code: 5 },
      { kind: 'confirmation_required', exit_code: 2 },
      { kind: 'usage', exit_code: 2 },
    ],
    outcomes: [{ code: 1, name: 'differs' }],
  });

  it('accepts a conformant document (two kinds may share an exit code)', () => {
    expectConformant(base());
  });

  const cases: [string, (d: Json) => void, RegExp][] = [
    ['duplicate command', (d) => d.commands.push({ ...d.commands[0] }), /^unique-command-names/],
    ['duplicate error kind', (d) => d.errors.push({ kind: 'not_found', exit_code: 9 }), /^unique-error-kinds/],
    ['duplicate outcome name', (d) => d.outcomes.push({ code: 3, name: 'differs' }), /^unique-outcome-names/],
    ['error and outcome share a code', (d) => d.outcomes.push({ code: 5, name: 'same' }), /^ambiguous-exit-code/],
    ['two outcomes share a code', (d) => d.outcomes.push({ code: 1, name: 'other' }), /^ambiguous-exit-code/],
    ['dangling error ref', (d) => d.commands[0].errors.push('gone'), /^error-ref-resolves/],
    ['dangling outcome ref', (d) => (d.commands[0].outcomes = ['gone']), /^outcome-ref-resolves/],
    [
      'confirmation without confirmation_required',
      (d) => (d.errors = d.errors.filter((e: Json) => e.kind !== 'confirmation_required')),
      /^conditional-error-kind/,
    ],
    ['requires_tty without tty_required', (d) => (d.commands[1].requires_tty = true), /^conditional-error-kind/],
    ['dangling limit_arg', (d) => (d.commands[0].pagination.limit_arg = '--max'), /^arg-ref-resolves/],
    ['dangling offset_arg', (d) => (d.commands[0].pagination.offset_arg = '--skip'), /^arg-ref-resolves/],
    [
      'dangling cursor_arg',
      (d) =>
        (d.commands[0].pagination = {
          style: 'cursor',
          cursor_arg: '--cursor',
          cursor_field: 'next',
          limit_arg: '--limit',
        }),
      /^arg-ref-resolves/,
    ],
    ['dangling fields_arg', (d) => (d.commands[0].fields_arg = '--select'), /^arg-ref-resolves/],
    ['dangling confirmation arg', (d) => (d.commands[1].confirmation_bypass_arg = '--force'), /^arg-ref-resolves/],
    ['dangling idempotency key arg', (d) => (d.commands[1].idempotency_key_arg = '--request-id'), /^arg-ref-resolves/],
    ['invalid stdout_schema', (d) => (d.commands[1].stdout_schema = { type: 'nope' }), /^stdout-schema-valid/],
    [
      'stdout_schema with an unresolvable $ref',
      (d) => (d.commands[1].stdout_schema = { properties: { data: { $ref: '#/$defs/item' } } }),
      /^stdout-schema-valid/,
    ],
  ];
  for (const [what, mutate, rule] of cases) {
    it(`flags ${what}`, () => {
      const d = base();
      mutate(d);
      const found = checkerFindings(d);
      expect(found.length, found.join('\n')).toBeGreaterThan(0);
      expect(
        found.every((f) => rule.test(f)),
        found.join('\n'),
      ).toBe(true);
    });
  }

  it('the vendored schema itself rejects what it should (missing effects, unbounded without pagination, retired keys)', () => {
    const d1 = base();
    delete d1.commands[0].effects;
    expect(schemaErrors(d1).length).toBeGreaterThan(0);
    const d2 = base();
    delete d2.commands[0].pagination;
    expect(schemaErrors(d2).length).toBeGreaterThan(0);
    const d3 = base();
    d3.command_layout = 'flat';
    expect(schemaErrors(d3).length).toBeGreaterThan(0);
    const d4 = base();
    d4.commands[1].output_kind = 'opaque';
    expect(schemaErrors(d4).length).toBeGreaterThan(0); // opaque without media_type and with cardinality/stdout_schema
  });
});

describe('clispec document of the demo (tasks)', () => {
  it('`schema` prints a document that validates against clispec v0.3 and passes every checker rule', async () => {
    const { doc } = await schemaOf(buildTasksCli());
    expectConformant(doc);
    expectWellFormedCommands(doc);
    expect(doc.clispec).toBe('0.3');
    expect(doc.name).toBe('tasks');
    expect(doc.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(doc.output).toEqual({ tty: 'text', piped: 'json' });
  });

  it('`schema` and `__schema --as=clispec` print identical bytes, the same on every run and every fresh tree', async () => {
    const a = await schemaOf(buildTasksCli());
    const b = await schemaOf(buildTasksCli(), ['__schema', '--as=clispec']);
    const c = await schemaOf(buildTasksCli(), ['__schema', '--as', 'clispec']);
    const root = buildTasksCli();
    const d = await schemaOf(root);
    const e = await schemaOf(root);
    expect(b.text).toBe(a.text);
    expect(c.text).toBe(a.text);
    expect(d.text).toBe(a.text);
    expect(e.text).toBe(a.text);
  });

  it('lists exactly the runnable commands, with full explicit declarations', async () => {
    const { doc } = await schemaOf(buildTasksCli());
    const byName = new Map<string, Json>((doc.commands as Json[]).map((c) => [c.name, c]));
    expect([...byName.keys()]).toEqual(['add', 'done', 'export', 'list', 'rm', 'show']);
    for (const c of doc.commands as Json[]) {
      // Nothing guessed: effects and (for data commands) cardinality are the author's declarations.
      expect(c.extensions?.['x-ax-ts']?.effects_declared, c.name).toBeUndefined();
      expect(c.extensions?.['x-ax-ts']?.cardinality_declared, c.name).toBeUndefined();
      if ((c.output_kind ?? 'data') === 'data') expect(['single', 'bounded', 'unbounded']).toContain(c.cardinality);
      if (c.cardinality === 'unbounded') {
        expect(c.pagination?.style).toMatch(/^(offset|cursor)$/);
        expect(typeof c.fields_arg).toBe('string');
      }
    }
    expect(byName.get('add')).toMatchObject({
      effects: 'non_idempotent',
      cardinality: 'single',
      idempotency_key_arg: '--idempotency-key',
      example: { args: ['add', 'buy', 'milk'] },
    });
    expect(byName.get('done')).toMatchObject({ effects: 'idempotent', cardinality: 'single' });
    expect(byName.get('done')!.idempotency_key_arg).toBeUndefined();
    expect(byName.get('export')).toMatchObject({
      effects: 'read_only',
      output_kind: 'stream',
      stream_format: 'ndjson',
      example: { args: ['export'] },
    });
    expect(byName.get('export')!.cardinality).toBeUndefined();
    expect(byName.get('list')).toMatchObject({
      effects: 'read_only',
      cardinality: 'unbounded',
      pagination: { style: 'offset', limit_arg: '--limit', offset_arg: '--offset' },
      fields_arg: '--fields',
    });
    expect(byName.get('rm')).toMatchObject({ effects: 'non_idempotent', confirmation_bypass_arg: '--yes' });
    expect(byName.get('show')).toMatchObject({
      effects: 'read_only',
      cardinality: 'single',
      // a read-only command offers a dry run without declaring one
      args: [
        { name: 'id', type: 'integer', required: true },
        { name: '--dry-run', type: 'boolean', required: false },
      ],
    });
    const list = byName.get('list')!;
    expect((list.args as Json[]).find((a) => a.name === '--status')).toMatchObject({
      type: 'string',
      enum: ['open', 'done', 'all'],
      default: 'open',
    });
    expect((list.args as Json[]).find((a) => a.name === '--all')).toMatchObject({ type: 'boolean', short: '-a' });
    expect(list.output_fields.map((f: Json) => f.name)).toEqual([
      'id',
      'title',
      'status',
      'tags',
      'due',
      'created_at',
      'done_at',
    ]);
  });

  it('declares the error catalogue with exit codes, and the global arguments', async () => {
    const { doc } = await schemaOf(buildTasksCli());
    const codes = Object.fromEntries((doc.errors as Json[]).map((e) => [e.kind, e.exit_code]));
    expect(codes).toMatchObject({
      validation_error: 2,
      confirmation_required: 2,
      internal_error: 1,
      not_found: 5,
      idempotency_conflict: 2,
      store_corrupt: 7,
      store_locked: 8,
      store_error: 9,
      interrupted: 130,
    });
    expect((doc.global_args as Json[]).map((a) => a.name)).toEqual([
      '--args-json',
      '--explain',
      '--fields',
      '--format',
      '--idempotency-key',
      '--store',
      '--strict',
      '--timeout',
      '--yes',
    ]);
    expect((doc.global_args as Json[]).find((a) => a.name === '--format')!.enum).toEqual(['json', 'text']);
  });

  it('every stdout_schema accepts what the command really prints', async () => {
    const { doc } = await schemaOf(buildTasksCli());
    const byName = new Map<string, Json>((doc.commands as Json[]).map((c) => [c.name, c]));
    const root = buildTasksCli();
    const env = { TASKS_FILE: `/nonexistent-dir-${process.pid}/tasks.json` };
    // Commands that write nothing: reads of a missing store are empty, dry runs change nothing.
    for (const [name, args] of [
      ['list', ['list']],
      ['add', ['add', 'buy', 'milk', '--dry-run']],
    ] as const) {
      const r = await run(root, [...args], env);
      expect(r.code, r.stderr).toBe(0);
      const check = new Ajv2020({ strict: false }).compile(byName.get(name)!.stdout_schema);
      for (const line of r.stdout.trimEnd().split('\n'))
        expect(check(JSON.parse(line)), JSON.stringify(check.errors)).toBe(true);
    }
  });

  it('root --help names the schema command', async () => {
    const r = await run(buildTasksCli(), ['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}schema +Print the CLI Spec/m);
  });
});

describe('clispec document of the surfaces fixture (every feature)', () => {
  const docOf = async (variant: SurfacesVariant = 'full', args: string[] = ['schema']) =>
    (await schemaOf(buildSurfacesCli(variant), args)).doc;
  const command = (doc: Json, name: string): Json => {
    const c = (doc.commands as Json[]).find((x) => x.name === name);
    if (!c) throw new Error(`no command ${name} in ${(doc.commands as Json[]).map((x) => x.name).join(', ')}`);
    return c;
  };
  const arg = (c: Json, name: string): Json | undefined => (c.args as Json[]).find((a) => a.name === name);

  it('validates and passes every checker rule; identical to __schema --as=clispec; deterministic', async () => {
    const a = await schemaOf(buildSurfacesCli());
    const b = await schemaOf(buildSurfacesCli(), ['__schema', '--as=clispec']);
    const c = await schemaOf(buildSurfacesCli());
    expect(b.text).toBe(a.text);
    expect(c.text).toBe(a.text);
    expectConformant(a.doc);
    expectWellFormedCommands(a.doc);
    expect(a.doc.version).toBe(SURFACES_VERSION);
  });

  it('lists every command an agent may call by full path: hidden, groups, reserved and MCP-excluded commands left out', async () => {
    const doc = await docOf();
    expect((doc.commands as Json[]).map((c) => c.name)).toEqual([
      'config get',
      'dump',
      'echo',
      'items admin reindex',
      'items create',
      'items get',
      'items list',
      'items purge',
      'items scan',
      'items tag',
      'legacy-sync',
      'report',
      'tail',
    ]);
    expect(doc.extensions['x-ax-ts'].reserved_commands).toEqual(['mcp-server']);
  });

  it('maps every flag type; hidden flags left out; deprecated flags kept', async () => {
    const echo = command(await docOf(), 'echo');
    expect(arg(echo, '--name')).toMatchObject({ type: 'string', short: '-n', required: false });
    expect(arg(echo, '--enabled')).toMatchObject({ type: 'boolean', short: '-e' });
    expect(arg(echo, '--count')).toMatchObject({ type: 'integer', default: 3 });
    expect(arg(echo, '--ratio')).toMatchObject({ type: 'number', default: 0.5 });
    expect(arg(echo, '--timeout')).toMatchObject({ type: 'duration', default: '1m30s' });
    expect(arg(echo, '--level')).toMatchObject({ type: 'integer', short: '-c' });
    expect(arg(echo, '--labels')).toMatchObject({ type: 'string[]' });
    expect(arg(echo, '--raw')).toMatchObject({ type: 'string[]' });
    expect(arg(echo, '--ports')).toMatchObject({ type: 'integer[]' });
    expect(arg(echo, '--meta')).toMatchObject({ type: 'object' });
    expect(arg(echo, '--color')).toMatchObject({ type: 'string', enum: ['red', 'green', 'blue'], default: 'red' });
    expect(arg(echo, '--cache')).toMatchObject({ type: 'boolean', default: true });
    expect(arg(echo, '--token')).toMatchObject({ type: 'string', required: true });
    expect(arg(echo, '--legacy')).toBeDefined();
    expect(arg(echo, '--secret')).toBeUndefined();
    expect(arg(echo, '--help')).toBeUndefined();
    expect(arg(echo, '--profile')).toBeUndefined(); // global
    expect(echo.example).toEqual({ args: ['echo', '--token', 't', '--name', 'n'] });
  });

  it('positionals: required, optional, variadic, choices', async () => {
    const doc = await docOf();
    expect(command(doc, 'items get').args[0]).toEqual({
      name: 'id',
      type: 'string',
      required: true,
      description: 'item id, e.g. a1',
    });
    expect(command(doc, 'items create').args.slice(0, 2)).toEqual([
      { name: 'name', type: 'string', required: true, description: 'name of the new item' },
      { name: 'note', type: 'string', required: false, description: 'a note' },
    ]);
    expect(command(doc, 'items tag').args[1]).toMatchObject({ name: 'tags', type: 'string[]', required: true });
    expect(command(doc, 'tail').args[0]).toMatchObject({ name: 'topic', enum: ['alerts', 'metrics'] });
  });

  it('persistent flags of groups are arguments of their descendants, not global ones', async () => {
    const doc = await docOf();
    const reindex = command(doc, 'items admin reindex');
    expect(arg(reindex, '--region')).toMatchObject({ type: 'string', enum: ['eu', 'us'], default: 'eu' });
    expect(arg(reindex, '--reason')).toMatchObject({ type: 'string' });
    expect(arg(command(doc, 'items list'), '--region')).toBeDefined();
    expect(arg(command(doc, 'items list'), '--reason')).toBeUndefined();
    expect(arg(command(doc, 'echo'), '--region')).toBeUndefined();
    expect((doc.global_args as Json[]).map((a) => a.name)).toEqual([
      '--args-json',
      '--explain',
      '--fields',
      '--format',
      '--idempotency-key',
      '--profile',
      '--strict',
      '--timeout',
      '--yes',
    ]);
  });

  it('effects, idempotency keys, confirmation, deprecation and undeclared effects/cardinality', async () => {
    const doc = await docOf();
    expect(command(doc, 'items create')).toMatchObject({
      effects: 'non_idempotent',
      idempotency_key_arg: '--idempotency-key',
    });
    expect(command(doc, 'items purge')).toMatchObject({
      effects: 'non_idempotent',
      idempotency_key_arg: '--idempotency-key',
      confirmation_bypass_arg: '--yes',
    });
    expect(command(doc, 'items tag')).toMatchObject({ effects: 'idempotent' });
    for (const c of doc.commands as Json[])
      if (c.effects !== 'non_idempotent') expect(c.idempotency_key_arg, c.name).toBeUndefined();
    const legacy = command(doc, 'legacy-sync');
    expect(legacy).toMatchObject({
      effects: 'non_idempotent',
      cardinality: 'single',
      stability: 'deprecated',
      extensions: { 'x-ax-ts': { effects_declared: false, cardinality_declared: false } },
    });
    expect(legacy.stdout_schema).toMatchObject({ properties: { data: {} } });
  });

  it('output kinds: unbounded with offset or cursor pagination, stream, opaque', async () => {
    const doc = await docOf();
    expect(command(doc, 'items list')).toMatchObject({
      cardinality: 'unbounded',
      pagination: { style: 'offset', limit_arg: '--limit', offset_arg: '--offset' },
      fields_arg: '--fields',
    });
    const scan = command(doc, 'items scan');
    expect(scan).toMatchObject({
      cardinality: 'unbounded',
      pagination: { style: 'cursor', limit_arg: '--limit', cursor_arg: '--cursor', cursor_field: 'next_cursor' },
      fields_arg: '--select',
    });
    const tail = command(doc, 'tail');
    expect(tail).toMatchObject({ output_kind: 'stream', stream_format: 'ndjson' });
    expect(tail.cardinality).toBeUndefined();
    expect(tail.output_fields).toBeUndefined();
    expect(tail.example).toEqual({ args: ['tail', 'alerts', '--max', '2'] });
    const dump = command(doc, 'dump');
    expect(dump).toMatchObject({ output_kind: 'opaque', media_type: 'text/csv' });
    for (const k of ['cardinality', 'stdout_schema', 'output_fields', 'pagination', 'fields_arg'])
      expect(dump[k], k).toBeUndefined();
    expect(dump.example).toEqual({ args: ['dump'] });
  });

  it('a payload schema with $defs/$ref stays resolvable inside stdout_schema, and matches the real output', async () => {
    const doc = await docOf();
    const check = new Ajv2020({ strict: false }).compile(command(doc, 'items scan').stdout_schema);
    const r = await run(buildSurfacesCli(), ['items', 'scan', '--limit', '1']);
    expect(r.code, r.stderr).toBe(0);
    expect(check(JSON.parse(r.stdout)), JSON.stringify(check.errors)).toBe(true);
    expect(
      check({
        data: { items: [{ id: 1 }], next_cursor: null },
        meta: { trace_id: 'x', span_id: 'y', idempotency_key: 'z' },
      }),
    ).toBe(false);
  });

  it("a command's own --format (shadowing the global one) is listed among its arguments", async () => {
    const report = command(await docOf(), 'report');
    expect(arg(report, '--format')).toMatchObject({ type: 'string', enum: ['table', 'csv'], default: 'table' });
  });

  it('runnable root: the root is a command too, and `schema` is still injected', async () => {
    const root = buildSurfacesCli('runnable-root');
    const { doc, text } = await schemaOf(root);
    expectConformant(doc);
    expectWellFormedCommands(doc);
    const self = command(doc, 'surf');
    expect(self).toMatchObject({ effects: 'read_only', cardinality: 'single' });
    expect(self.example).toEqual({ args: [] }); // the root's examples run its children, not the root
    expect((await schemaOf(buildSurfacesCli('runnable-root'), ['__schema', '--as=clispec'])).text).toBe(text);
    expect((await run(buildSurfacesCli('runnable-root'), ['--help'])).stdout).toMatch(/^ {2}schema +/m);
  });

  it('a root that takes positionals gets no `schema` command (the word is its argument); __schema --as=clispec still works', async () => {
    const root = buildSurfacesCli('root-positionals');
    const r = await run(root, ['schema']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).data).toEqual({ target: 'schema', profile: 'default' });
    expect(root.findChild('schema')).toBeUndefined();
    expect((await run(buildSurfacesCli('root-positionals'), ['--help'])).stdout).not.toMatch(/^ {2}schema +/m);
    const { doc } = await schemaOf(buildSurfacesCli('root-positionals'), ['__schema', '--as=clispec']);
    expectConformant(doc);
    expect(command(doc, 'surf').args[0]).toMatchObject({ name: 'target', required: false });
    expect(command(doc, 'surf').example).toEqual({ args: ['home'] });
  });

  it("an author's own `schema` command is not replaced (and is listed as a command)", async () => {
    const root = buildSurfacesCli('own-schema');
    const r = await run(root, ['schema']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).data).toMatchObject({ author: true });
    expect(root.commands().filter((c) => c.name === 'schema')).toHaveLength(1);
    const { doc } = await schemaOf(buildSurfacesCli('own-schema'), ['__schema', '--as=clispec']);
    expectConformant(doc);
    expect(command(doc, 'schema')).toMatchObject({ effects: 'read_only', cardinality: 'single' });
  });

  it('an idempotency key the command cannot take is never named (author shadows --idempotency-key with a root-local flag)', async () => {
    const root = new Command({
      use: 'edge',
      flags: { 'idempotency-key': { type: 'string', usage: "the root's own, not inherited" } },
      commands: [
        new Command({
          use: 'make',
          short: 'Make one',
          effects: 'non_idempotent',
          output: { cardinality: 'single' },
          run: () => ({ made: 1 }),
        }),
      ],
    });
    const { doc } = await schemaOf(root);
    expectConformant(doc);
    expect(command(doc, 'make').idempotency_key_arg).toBeUndefined();
  });

  it("an example with its own input: exampleStdin is the example's stdin, and the example run with it prints the normal output", async () => {
    const root = new Command({
      use: 'wc',
      commands: [
        new Command({
          use: 'count <file>',
          short: 'Count the lines of a file (- reads stdin)',
          effects: 'read_only',
          output: { cardinality: 'single' },
          example: 'wc count -',
          exampleStdin: 'a\nb\n',
          run: async (ctx) => {
            let text = '';
            for await (const chunk of ctx.stdin) text += String(chunk);
            return { lines: text.split('\n').filter(Boolean).length };
          },
        }),
      ],
    });
    const { doc } = await schemaOf(root);
    expectConformant(doc);
    const example = command(doc, 'count').example as { args: string[]; stdin: string };
    expect(example).toEqual({ args: ['count', '-'], stdin: 'a\nb\n' });
    const r = await runCli(root, example.args, { stdin: example.stdin });
    expect(JSON.parse(r.stdout).data).toEqual({ lines: 2 });
  });
});

describe('clispec document of the golden reference fixture (golden/fixtures/ref-cli.ts)', () => {
  it('validates and passes every checker rule; render lists its own --format', async () => {
    const { buildRefCli } = await import('../../golden/fixtures/ref-cli.ts');
    const a = await schemaOf(buildRefCli());
    const b = await schemaOf(buildRefCli(), ['__schema', '--as=clispec']);
    expect(b.text).toBe(a.text);
    expectConformant(a.doc);
    expectWellFormedCommands(a.doc);
    const render = (a.doc.commands as Json[]).find((c) => c.name === 'render')!;
    expect((render.args as Json[]).find((x) => x.name === '--format')).toMatchObject({ enum: ['table', 'csv'] });
    expect(render.extensions).toEqual({ 'x-ax-ts': { effects_declared: false, cardinality_declared: false } });
    expect((a.doc.commands as Json[]).map((c) => c.name)).not.toContain('completion');
  });
});
