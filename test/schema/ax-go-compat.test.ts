/**
 * The ax document is ax-go's (docs/cobra-differences.md#ax-go): ax-go's own `__schema` goldens, read
 * at run time from ../shared/data/ax-go-goldens (rshade/ax-go at 306a300, kept verbatim there and never
 * copied into this repository), against the same trees rebuilt with ax-ts here — ax-go's
 * `examples/integration` program and its `internal/schema` test tree. Every key path of ax-go's
 * document, with its value type, is in ax-ts's, except the differences listed (each with its reason,
 * the same as in the docs); the values that mean the same are the same; and the document is at most
 * 1.2× ax-go's size.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Command } from '../../lib/index.ts';
import { integrationTree, rootTree } from '../fixtures/ax-go-trees.ts';
import { expandAxDocument } from '../../lib/schema/index.ts';
import { runCli } from '../helpers/run.ts';

type Json = Record<string, any>;

const GOLDENS = fileURLToPath(new URL('../../../shared/data/ax-go-goldens/', import.meta.url));
const golden = (name: string) => readFileSync(join(GOLDENS, name), 'utf8');

/** Every key path of a JSON value (array items as `[]`) with the value types found there. */
function keyPaths(v: unknown, at = '', out = new Map<string, Set<string>>()): Map<string, Set<string>> {
  const type = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
  if (at) (out.get(at) ?? out.set(at, new Set()).get(at)!).add(type);
  if (Array.isArray(v)) for (const x of v) keyPaths(x, `${at}[]`, out);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) keyPaths(x, at ? `${at}.${k}` : k, out);
  return out;
}

/**
 * Key paths of ax-go's documents that ax-ts's do not have, each with its reason (docs/cobra-differences.md#ax-go
 * says the same). A listed path that ax-ts's document does have fails the test: the list stays exact.
 */
const DIFFERENCES: Record<string, string> = {
  'command.commands[].commands':
    "Cobra's completion command and its shells: ax-ts's injected commands (help, __schema, completion) are left out, the same in every program",
  'command.commands[].flags[].shorthand':
    'the injected --help (-h) is left out in its standard form; ax-go lists it only on __schema, where Cobra had added it',
};

/**
 * Injected flags ax-go lists on commands where ax-ts's are absent, each with its reason
 * (docs/cobra-differences.md#ax-go says the same).
 */
const FLAG_DIFFERENCES: Record<string, string> = {
  'dry-run':
    'only a command that offers a dry run (dryRun: true, or read-only) has --dry-run; ax-go injects it on every command, so a handler that ignores it still reports dry_run: true',
};

/** The paths of `ours`, and every path below a listed difference, as covered. */
function missing(theirs: Map<string, Set<string>>, ours: Map<string, Set<string>>): string[] {
  const out: string[] = [];
  for (const [path, types] of theirs) {
    if (Object.keys(DIFFERENCES).some((d) => path === d || path.startsWith(`${d}.`) || path.startsWith(`${d}[]`)))
      continue;
    for (const t of types) if (!ours.get(path)?.has(t)) out.push(`${path}: ${t}`);
  }
  return out;
}

async function axOf(build: () => Command): Promise<{ text: string; doc: Json }> {
  const r = await runCli(build(), ['__schema'], { version: undefined }); // the root's version, as ax-go's
  expect(r.code, r.stderr).toBe(0);
  return { text: r.stdout, doc: JSON.parse(r.stdout) as Json };
}

/** Commands of an ax-go document by their first `use` word. */
function byName(cmd: Json, out = new Map<string, Json>()): Map<string, Json> {
  out.set(String(cmd.use).split(' ')[0]!, cmd);
  for (const c of cmd.commands ?? []) byName(c, out);
  return out;
}

const CASES: [string, () => Command, string][] = [
  ['examples/integration', integrationTree, 'integration_schema_ax.golden.json'],
  ['internal/schema test tree', rootTree, 'root_schema_ax.golden.json'],
];

describe.skipIf(!existsSync(GOLDENS))("ax-go's __schema goldens against the same trees rebuilt with ax-ts", () => {
  it.each(CASES)("%s: every key path and value type of ax-go's document is in ax-ts's", async (_n, build, file) => {
    const theirs = keyPaths(JSON.parse(golden(file)));
    const { doc } = await axOf(build);
    expect(missing(theirs, keyPaths(doc))).toEqual([]);
    // each listed difference is one: its path is really absent from ax-ts's document
    for (const d of Object.keys(DIFFERENCES))
      if (theirs.has(d)) expect(keyPaths(doc).has(d), `${d} is listed as a difference`).toBe(false);
  });

  it.each(CASES)('%s: what means the same has the same value', async (_n, build, file) => {
    const theirs = JSON.parse(golden(file)) as Json;
    const ours = (await axOf(build)).doc;
    for (const k of ['schema_version', 'tool', 'version', 'mode_detection'] as const)
      expect(ours[k], k).toBe(theirs[k]);
    expect(ours.error_envelope.schema_version).toBe(theirs.error_envelope.schema_version);
    // ax-go's flat error keys name the same facts as ax-ts's error line locators
    const same: Record<string, string> = {
      error_code: 'error.kind',
      message: 'error.message',
      trace_id: 'meta.trace_id',
      tool: 'meta.tool',
      version: 'meta.version',
      schema_version: 'meta.schema_version',
      actionable_fix: 'error.actionable_fix',
      context: 'error.context',
      suggestions: 'error.suggestions',
    };
    for (const k of theirs.error_envelope.required) expect(ours.error_envelope.required, k).toContain(same[k]);
    for (const k of theirs.error_envelope.optional) expect(ours.error_envelope.optional, k).toContain(same[k]);
    // ax-go's locators, plus ax-ts's one additive volatile field of the line (the run's duration)
    expect(ours.error_envelope.non_deterministic_fields).toEqual(
      [...theirs.error_envelope.non_deterministic_fields.map((k: string) => same[k]), 'meta.duration_ms'].sort(),
    );
    // each command ax-go lists that the author declared: the same texts, and the author's flags alike
    const full = byName(expandAxDocument(ours).command as Json);
    const skipped = new Set<string>();
    for (const [name, them] of byName(theirs.command)) {
      if (['__schema', 'help', 'completion', 'bash', 'fish', 'powershell', 'zsh', 'mcp-server'].includes(name))
        continue;
      const us = full.get(name);
      expect(us, name).toBeDefined();
      for (const k of ['use', 'short', 'long', 'example']) expect(us![k] ?? '', `${name} ${k}`).toBe(them[k] ?? '');
      for (const f of them.flags ?? []) {
        const g = us!.flags.find((x: Json) => x.name === f.name);
        if (!g && f.name in FLAG_DIFFERENCES) {
          skipped.add(f.name);
          continue;
        }
        expect(g, `${name} --${f.name}`).toBeDefined();
        if (g.builtin) continue; // ax-go's and ax-ts's injected flags: each framework's own words
        expect([g.type, g.usage, g.shorthand ?? ''], `${name} --${f.name}`).toEqual([
          f.type,
          f.usage,
          f.shorthand ?? '',
        ]);
        // ax-go writes a default as text; ax-ts as the typed value
        expect(g.default === undefined ? '' : String(g.default), `${name} --${f.name} default`).toBe(f.default ?? '');
      }
      // data.* locators ax-go registered are ax-ts's too
      for (const l of them.non_deterministic_fields) expect(us!.non_deterministic_fields ?? [], name).toContain(l);
    }
    // each listed flag difference that ax-go's document has is one: ax-go lists the flag where ax-ts does not
    const listed = JSON.stringify(theirs);
    expect([...skipped].sort()).toEqual(
      Object.keys(FLAG_DIFFERENCES)
        .filter((n) => listed.includes(`"name":${JSON.stringify(n)}`))
        .sort(),
    );
  });

  it("examples/integration: ax-ts's document is at most 1.2× ax-go's golden (12,178 B)", async () => {
    const { text } = await axOf(integrationTree);
    const theirs = Buffer.byteLength(golden('integration_schema_ax.golden.json'));
    expect(theirs).toBe(12_178);
    expect(Buffer.byteLength(text) / theirs, `${Buffer.byteLength(text)} B`).toBeLessThanOrEqual(1.2);
  });

  it("--as=mcp: each tool carries ax-go's nonDeterministicFields, in _meta, as its command's in the ax document", async () => {
    const build = integrationTree;
    const mcp = JSON.parse((await runCli(build(), ['__schema', '--as=mcp'])).stdout) as Json;
    const ax = expandAxDocument((await axOf(build)).doc) as Json;
    const byTool = new Map<string, Json>();
    const walk = (c: Json) => {
      if (c.mcp?.tool) byTool.set(c.mcp.tool, c);
      for (const k of c.commands) walk(k);
    };
    walk(ax.command);
    expect(mcp.tools.length).toBeGreaterThan(0);
    for (const t of mcp.tools)
      expect(t._meta.nonDeterministicFields, t.name).toEqual(byTool.get(t.name)!.non_deterministic_fields);
    // ax-go's golden lists data.entity_id for the root's tool; so does ax-ts's
    const theirs = JSON.parse(golden('integration_schema_mcp.golden.json')) as Json;
    expect(theirs.tools[0].nonDeterministicFields).toContain('data.entity_id');
    expect(mcp.tools.find((t: Json) => t.name === 'ax-integration')._meta.nonDeterministicFields).toContain(
      'data.entity_id',
    );
  });
});
