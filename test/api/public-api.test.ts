/**
 * The public API is reviewed, never grown by accident: every entry point package.json exports
 * (`ax-ts`, `ax-ts/mcp`, `ax-ts/golden`, `ax-ts/schema`, `ax-ts/store`, `ax-ts/config`) exports
 * exactly the names, and kinds, of test/api/public-api.snapshot.json — types included, read from the
 * sources with the TypeScript compiler API. An added name fails as a removed one does, until the
 * snapshot is rewritten on purpose: `AX_API_UPDATE=1 npx vitest run test/api/public-api.test.ts`.
 * The checker is shown to catch an added and a removed name on synthetic entries built from the
 * real one. docs/api.md lists each entry and what it is for; the built package's runtime names are
 * checked against the same snapshot by test/e2e/package.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import ts from 'typescript';
import { apiChanges, exportedApi, type Api } from '../helpers/api.ts';
import { publicEntries } from '../helpers/entries.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const SNAPSHOT = join(repo, 'test/api/public-api.snapshot.json');
const entries = publicEntries(repo);
const tmp = mkdtempSync(join(tmpdir(), 'ax-api-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// Two synthetic entries made from the real `ax-ts` entry (its export statements as written): one
// with a name added, one with a name removed; checked in the same compiler run as the real entries.
const main = resolve(repo, 'lib/index.ts');
const added = join(tmp, 'added.ts');
const removed = join(tmp, 'removed.ts');
writeFileSync(added, `export * from ${JSON.stringify(main)};\nexport const extraTunable = 30_000;\n`);
const mainSource = ts.createSourceFile(main, readFileSync(main, 'utf8'), ts.ScriptTarget.Latest);
const kept = mainSource.statements
  .flatMap((st) =>
    ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause)
      ? st.exportClause.elements.map((e) => `${st.isTypeOnly || e.isTypeOnly ? 'type ' : ''}${e.name.text}`)
      : [],
  )
  .filter((n) => n !== 'execute');
writeFileSync(removed, `export { ${kept.join(', ')} } from ${JSON.stringify(main)};\n`);

const {
  'synthetic added': withAdded,
  'synthetic removed': withRemoved,
  ...now
} = exportedApi(
  {
    ...Object.fromEntries(entries.map((e) => [e.name, resolve(repo, e.source)])),
    'synthetic added': added,
    'synthetic removed': removed,
  },
  repo,
);

describe('the public API', () => {
  it('every entry of package.json exports has its source and built files where .ci/build.mjs puts them', () => {
    for (const e of entries) {
      expect(e.types, e.name).toBe(`./dist/${e.source.replace(/\.ts$/, '.d.ts')}`);
      expect(e.import, e.name).toBe(`./dist/${e.source.replace(/\.ts$/, '.js')}`);
    }
  });

  it('is exactly the snapshot: names and kinds of every entry (AX_API_UPDATE=1 rewrites it)', () => {
    if (process.env.AX_API_UPDATE === '1') writeFileSync(SNAPSHOT, `${JSON.stringify(now, null, 2)}\n`);
    const pinned = JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as Api;
    expect(Object.keys(pinned), 'the entries').toEqual(entries.map((e) => e.name));
    const changes = apiChanges(pinned, now);
    expect(changes, 'the public API changed: review it, then run with AX_API_UPDATE=1').toEqual({
      added: [],
      removed: [],
      changed: [],
    });
  });

  // the front ends are alternatives (a program imports the one for its CLI library) and speak one
  // vocabulary (`withAx`, `ax`, `asksForAx`, `AxDeclarations`): a name may be shared among them only
  const FRONT_ENDS = new Set(['ax-ts/commander', 'ax-ts/yargs']);
  it('keeps ax-ts small: at most 60 names, types included, and no name exported by two entries (but front ends)', () => {
    expect(Object.keys(now['ax-ts']!).length).toBeLessThanOrEqual(60);
    const owner = new Map<string, string>();
    for (const [entry, names] of Object.entries(now))
      for (const n of Object.keys(names)) {
        const before = owner.get(n);
        if (!(before && FRONT_ENDS.has(before) && FRONT_ENDS.has(entry)))
          expect(before, `${n} is exported by ${before} and ${entry}`).toBeUndefined();
        owner.set(n, entry);
      }
  });

  it('the check fails on an added name and on a removed one', () => {
    expect(apiChanges({ 'ax-ts': now['ax-ts']! }, { 'ax-ts': withAdded! })).toEqual({
      added: ['ax-ts: extraTunable (constant)'],
      removed: [],
      changed: [],
    });
    expect(apiChanges({ 'ax-ts': now['ax-ts']! }, { 'ax-ts': withRemoved! })).toEqual({
      added: [],
      removed: ['ax-ts: execute (function)'],
      changed: [],
    });
  });

  it('tells the kinds apart: class, function (an Args validator constant too), object, constant, type', () => {
    expect(now['ax-ts']).toMatchObject({
      Command: 'class',
      execute: 'function',
      NoArgs: 'function',
      mcp: 'object',
      ExitCode: 'constant',
      RunContext: 'type',
    });
    expect(now['ax-ts/schema']).toMatchObject({ AX_DOCUMENT_SCHEMA: 'constant', SCHEMA_SHAPES: 'constant' });
  });
});
