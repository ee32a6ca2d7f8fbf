/**
 * Every description of the contract's lines agrees with their JSON Schemas
 * (lib/contract/line-schemas.ts): the ax document's success format and its `error_envelope.schema`,
 * clispec's `stdout_schema`, SKILL.md's contract lines — read from real `__schema` output and from
 * the pinned goldens — and docs/contract.md's outlines and field tables. A key outline (`"trace_id",
 * "dry_run"?`) may name only properties the schema has, must name every required one, and marks
 * exactly the optional ones `?`; docs/contract.md must name every property. A schema published in a
 * document must be a relaxation of the full one (each of its keywords holds there too), so it
 * accepts every real line. The checks are shown to fail on a wrong outline and a wrong schema.
 */
import { isDeepStrictEqual } from 'node:util';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_LINE_SCHEMA, SUCCESS_LINE_SCHEMA } from '../../lib/schema/index.ts';
import { buildTasksCli } from '../../cmd/tasks/cli.ts';
import { buildRefCli } from '../../golden/fixtures/ref-cli.ts';
import { runCli } from '../helpers/run.ts';

type Json = Record<string, any>;
interface ObjectSchema {
  readonly required: readonly string[];
  readonly properties: Readonly<Record<string, unknown>>;
}

const repo = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(join(repo, path), 'utf8');
const SUCCESS_META = SUCCESS_LINE_SCHEMA.properties.meta;
const ERROR = ERROR_LINE_SCHEMA.properties.error;
const ERROR_META = ERROR_LINE_SCHEMA.properties.meta;

/** The keys of the object `"<key>":{…}` in an outline text, each with whether it is marked optional. */
function outlineOf(text: string, key: string): [string, boolean][] {
  const at = text.indexOf(`"${key}":{`);
  if (at < 0) throw new Error(`no "${key}":{…} in ${text}`);
  const inner = text.slice(at + key.length + 4, text.indexOf('}', at));
  return [...inner.matchAll(/"([a-z_]+)"(\?)?(?::"[^"]*")?/g)].map((m) => [m[1]!, m[2] === '?']);
}

/**
 * What is wrong with an outline of an object schema: a key it does not have, a required key left
 * out or marked `?`, an optional one not marked; with `complete`, an optional key left out too.
 */
function outlineProblems(outline: [string, boolean][], schema: ObjectSchema, complete: boolean): string[] {
  const out: string[] = [];
  const named = new Map(outline);
  for (const [k, optional] of outline) {
    if (!Object.hasOwn(schema.properties, k)) out.push(`names ${k}, which the schema does not have`);
    else if (optional === schema.required.includes(k))
      out.push(`marks ${k} ${optional ? 'optional' : 'required'}, the schema does not`);
  }
  for (const k of Object.keys(schema.properties))
    if (!named.has(k) && (complete || schema.required.includes(k))) out.push(`leaves out ${k}`);
  return out;
}

/** Where `summary` says something `full` does not: every keyword of it must hold in `full` too. */
function relaxationProblems(summary: Json, full: Json, at = '#'): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(summary)) {
    if (!Object.hasOwn(full, k)) out.push(`${at}: ${k} is not in the full schema`);
    else if (k === 'properties')
      for (const [p, s] of Object.entries(v as Json)) {
        if (!Object.hasOwn(full.properties, p)) out.push(`${at}: property ${p} is not in the full schema`);
        else out.push(...relaxationProblems(s as Json, full.properties[p] as Json, `${at}/properties/${p}`));
      }
    else if (k === 'items') out.push(...relaxationProblems(v as Json, full.items as Json, `${at}/items`));
    else if (!isDeepStrictEqual(v, full[k]))
      out.push(`${at}: ${k} is ${JSON.stringify(v)}, not ${JSON.stringify(full[k])}`);
  }
  return out;
}

async function shape(build: () => any, as: string): Promise<string> {
  const r = await runCli(build(), ['__schema', `--as=${as}`, '--full']); // the whole document, whatever the budget
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

/** The ax documents: of the demo and the reference fixture, printed now and as pinned. */
async function axDocs(): Promise<[string, Json][]> {
  return [
    ['tasks', JSON.parse(await shape(buildTasksCli, 'ax')) as Json],
    ['ref', JSON.parse(await shape(buildRefCli, 'ax')) as Json],
    ['golden tasks', JSON.parse(read('golden/testdata/tasks/schema.ax.golden')) as Json],
    ['golden ref', JSON.parse(read('golden/testdata/ref/schema.ax.golden')) as Json],
  ];
}

describe('__schema --as=ax', () => {
  it('success_envelope.format outlines the success meta as the schema has it', async () => {
    for (const [name, doc] of await axDocs())
      expect(outlineProblems(outlineOf(doc.success_envelope.format, 'meta'), SUCCESS_META, false), name).toEqual([]);
  });

  it("error_envelope's required and optional name exactly the keys of the error line schema", async () => {
    const keys = (req: boolean) =>
      (['error', 'meta'] as const).flatMap((part) => {
        const o = ERROR_LINE_SCHEMA.properties[part] as { required: readonly string[]; properties: object };
        return Object.keys(o.properties)
          .filter((k) => o.required.includes(k) === req)
          .map((k) => `${part}.${k}`);
      });
    for (const [name, doc] of await axDocs()) {
      expect(doc.error_envelope.required, name).toEqual(keys(true));
      expect(doc.error_envelope.optional, name).toEqual(keys(false));
      expect(doc.error_envelope.non_deterministic_fields, name).toEqual(['meta.duration_ms', 'meta.trace_id']);
    }
  });
});

describe('clispec stdout_schema', () => {
  it('describes meta as a relaxation of the success meta schema, on every command', async () => {
    for (const build of [buildTasksCli, buildRefCli]) {
      const doc = JSON.parse(await shape(build, 'clispec')) as Json;
      const lines = (doc.commands as Json[]).filter((c) => c.stdout_schema);
      expect(lines.length).toBeGreaterThan(0);
      for (const c of lines) {
        expect(relaxationProblems(c.stdout_schema.properties.meta, SUCCESS_META), c.name).toEqual([]);
        expect(c.stdout_schema.required).toEqual(SUCCESS_LINE_SCHEMA.required);
      }
    }
  });
});

describe('SKILL.md', () => {
  it('its Success and Failure lines outline meta and error as the schemas have them', async () => {
    for (const text of [await shape(buildTasksCli, 'skill'), read('golden/testdata/tasks/skill.md.golden')]) {
      const success = text.split('\n').find((l) => l.startsWith('- Success:'))!;
      const failure = text.split('\n').find((l) => l.startsWith('- Failure:'))!;
      expect(outlineProblems(outlineOf(success, 'meta'), SUCCESS_META, false)).toEqual([]);
      expect(outlineProblems(outlineOf(failure, 'error'), ERROR, false)).toEqual([]);
    }
  });
});

describe('docs/contract.md', () => {
  const doc = read('docs/contract.md');
  const section = (title: string) => doc.split(`\n## ${title}\n`)[1]!.split('\n## ')[0]!;
  /** The first ```text block of a section: the outline of its line. */
  const outline = (s: string) => /```text\n([\s\S]*?)```/.exec(s)![1]!;
  /** The fields the table of a section names (`meta.trace_id`, `error.kind`, `meta.tool`, …). */
  const rows = (s: string, prefix: string) =>
    [...s.matchAll(/^\| ([^|]+) \|/gm)]
      .flatMap((m) => [...m[1]!.matchAll(/`([a-z_.]+)`/g)].map((x) => x[1]!))
      .filter((f) => f.startsWith(`${prefix}.`))
      .map((f) => f.slice(prefix.length + 1))
      .sort();

  it('Success envelope: the outline and the table name every meta field, required ones without ?', () => {
    const s = section('Success envelope');
    expect(outlineProblems(outlineOf(outline(s), 'meta'), SUCCESS_META, true)).toEqual([]);
    expect(rows(s, 'meta')).toEqual(Object.keys(SUCCESS_META.properties).sort());
  });

  it('Errors: the outline and the table name every field of error and of meta', () => {
    const s = section('Errors');
    expect(outlineProblems(outlineOf(outline(s), 'error'), ERROR, true)).toEqual([]);
    expect(outlineProblems(outlineOf(outline(s), 'meta'), ERROR_META, true)).toEqual([]);
    expect(rows(s, 'error')).toEqual(Object.keys(ERROR.properties).sort());
    expect(rows(s, 'meta')).toEqual(Object.keys(ERROR_META.properties).sort());
  });
});

describe('the checks can fail', () => {
  it('an outline naming an unknown key, dropping a required one or mismarking one is refused', () => {
    const bad = outlineOf('{"data":1,"meta":{"trace_id","span_id"?,"nonce","dry_run"}}', 'meta');
    expect(outlineProblems(bad, SUCCESS_META, false)).toEqual([
      'marks span_id optional, the schema does not',
      'names nonce, which the schema does not have',
      'marks dry_run required, the schema does not',
      'leaves out idempotency_key',
      'leaves out schema_version',
      'leaves out ok',
      'leaves out exit_code',
      'leaves out duration_ms',
    ]);
    expect(
      outlineProblems(outlineOf('{"meta":{"trace_id","span_id","idempotency_key"}}', 'meta'), SUCCESS_META, true),
    ).toContain('leaves out replayed');
  });

  it('a published schema stricter than the full one, or naming a field it lacks, is refused', () => {
    expect(relaxationProblems({ type: 'object', required: ['error'] }, ERROR_LINE_SCHEMA)).toEqual([
      '#: required is ["error"], not ["error","meta"]',
    ]);
    expect(
      relaxationProblems({ properties: { error: { properties: { code: { type: 'string' } } } } }, ERROR_LINE_SCHEMA),
    ).toEqual(['#/properties/error: property code is not in the full schema']);
  });
});
