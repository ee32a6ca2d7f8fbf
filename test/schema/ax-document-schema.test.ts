/**
 * The published JSON Schema of the `__schema --as=ax` document (lib/schema/ax-document-schema.ts)
 * holds for every ax document the project has: the demo's, the golden reference fixture's and the
 * test fixtures' trees (every flag type, positionals, groups, outputs of every kind, prompts,
 * resources, lazy subtrees, exclusions, TraverseChildren), each printed by a real `__schema` run.
 * The schema is strict (closed objects), so a field the projection starts writing without the
 * schema knowing it fails here; and a document with a field taken away or a wrong type fails too.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Command } from '../../lib/index.ts';
import { AX_DOCUMENT_SCHEMA } from '../../lib/schema/index.ts';
import { BUILTIN_ERRORS } from '../../lib/contract/errors.ts';
import { buildTasksCli } from '../../cmd/tasks/cli.ts';
import { buildRefCli } from '../../golden/fixtures/ref-cli.ts';
import { buildAgentsCli } from '../fixtures/agents-cli.ts';
import { buildContractCli } from '../fixtures/contract-tree.ts';
import { buildSourcesCli } from '../fixtures/sources-cli.ts';
import { buildSurfacesCli } from '../fixtures/surfaces-cli.ts';
import { completionTree } from '../fixtures/completion-tree.ts';
import { completionTree as cobraCompletionTree } from '../fixtures/cobra-completion-tree.ts';
import { hooksTree } from '../fixtures/cobra-hooks-tree.ts';
import { traverseTree } from '../fixtures/cobra-traverse-tree.ts';
import { typesTree } from '../fixtures/cobra-types-tree.ts';
import { lazyTree } from '../fixtures/lazy-tree.ts';
import { richTree } from '../fixtures/rich-tree.ts';
import { kitchenSinkTree } from '../fixtures/schema-trees.ts';
import { runCli } from '../helpers/run.ts';

type Json = Record<string, any>;
const repo = fileURLToPath(new URL('../..', import.meta.url));

const ajv = new Ajv2020({ allErrors: true, strict: true });
const validate = ajv.compile(AX_DOCUMENT_SCHEMA as object);
const problems = (doc: unknown) => (validate(doc) ? [] : validate.errors!.map((e) => `${e.instancePath} ${e.message}`));

const TREES: [string, () => Command][] = [
  ['the demo (cmd/tasks)', buildTasksCli],
  ['the golden reference fixture', buildRefCli],
  ['agents-cli', () => buildAgentsCli('')],
  ['agents-cli, hidden root', () => buildAgentsCli('hidden-root')],
  ['contract-tree', buildContractCli],
  ['sources-cli', buildSourcesCli],
  ['surfaces-cli', () => buildSurfacesCli('full')],
  ['surfaces-cli, runnable root', () => buildSurfacesCli('runnable-root')],
  ['surfaces-cli, root positionals', () => buildSurfacesCli('root-positionals')],
  ['completion-tree', () => completionTree()],
  ['cobra completion tree', cobraCompletionTree],
  ['cobra hooks tree', () => hooksTree(() => {})],
  ['cobra traverse tree', traverseTree],
  ['cobra types tree', typesTree],
  ['lazy-tree (subtrees loaded by __schema)', lazyTree],
  ['rich-tree, literal', () => richTree('literal')],
  ['rich-tree, lazy', () => richTree('lazy')],
  ['kitchen-sink tree', kitchenSinkTree],
];

/** What `__schema` prints with `args` (default: the whole document, `--full`). */
async function axOf(build: () => Command, args: string[] = ['--full']): Promise<Json> {
  const r = await runCli(build(), ['__schema', ...args]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Json;
}

describe('the ax document schema', () => {
  it('is a valid JSON Schema 2020-12 under Ajv strict mode', () => {
    expect(ajv.validateSchema(AX_DOCUMENT_SCHEMA as object)).toBe(true);
  });

  it.each(TREES)('accepts the ax document of %s', async (_name, build) => {
    const whole = await axOf(build);
    expect(problems(whole)).toEqual([]);
    expect(whole.error_envelope.required).toContain('error.kind');
    // the default answer (the whole document, or a summary over the budget or of lazy subtrees),
    // a summary however small the budget, and one command's document
    expect(problems(await axOf(build, []))).toEqual([]);
    const summary = await axOf(build, ['--budget', '600']);
    expect(summary.summary?.reason).toMatch(/^(budget|lazy)$/);
    expect(problems(summary)).toEqual([]);
    const first = (whole.command.commands as Json[])[0];
    if (first) {
      const one = await axOf(build, [first.name as string]);
      expect(one.path).toBe(`${whole.tool as string} ${first.name as string}`);
      expect(problems(one)).toEqual([]);
    }
  });

  it.each(['tasks', 'ref'])('accepts the pinned golden golden/testdata/%s/schema.ax.golden', (dir) => {
    const doc = JSON.parse(readFileSync(join(repo, 'golden/testdata', dir, 'schema.ax.golden'), 'utf8')) as Json;
    expect(problems(doc)).toEqual([]);
  });

  it('refuses a document with an unknown field, a missing field or a wrong type, at any depth', async () => {
    const doc = await axOf(buildTasksCli);
    const child = () => (doc.command.commands as Json[])[0]!;
    const cases: [string, () => void, () => void][] = [
      ['top-level extra', () => (doc.extra = 1), () => delete doc.extra],
      ['command extra', () => (child().surprise = true), () => delete child().surprise],
      ['flag extra', () => (child().flags[0].surprise = 1), () => delete child().flags[0].surprise],
      [
        'missing use',
        () => ((doc.saved = child().use), delete child().use),
        () => ((child().use = doc.saved), delete doc.saved),
      ],
      ['a mark at its default', () => (child().flags[0].required = false), () => {}],
      ['wrong flag type', () => (child().flags[0].type = 'float64'), () => {}],
    ];
    for (const [name, mutate] of cases) {
      const copy = structuredClone(doc);
      expect(problems(copy), `${name}: the unmutated copy`).toEqual([]);
      mutate.call(null);
      expect(problems(doc).length, name).toBeGreaterThan(0);
      Object.assign(doc, copy); // restore
      for (const k of Object.keys(doc)) if (!(k in copy)) delete doc[k];
    }
  });

  it("describes an author's error kinds; ax-ts's own are described once, in docs/contract.md", async () => {
    const doc = await axOf(buildTasksCli);
    const builtin = new Set(BUILTIN_ERRORS.map((e) => e.kind));
    for (const e of doc.errors as Json[]) expect(e.description === undefined, e.kind).toBe(builtin.has(e.kind));
    const contract = readFileSync(join(repo, 'docs/contract.md'), 'utf8');
    for (const e of BUILTIN_ERRORS)
      expect(contract, e.kind).toContain(
        `| \`${e.kind}\` | ${e.exitCode} | ${e.retryable ? 'yes' : 'no'} | ${e.description.replace(/\|/g, '\\|')} |`,
      );
  });
});
