/**
 * The registry of `__schema` shapes (lib/schema/shapes.ts) is the one list every consumer reads:
 * `__schema`'s `--as` choices, default, help and completion, the invalid-value error, the document
 * each shape prints (its media type), `schemaDocument` and docs/schema.md's table. (The schema
 * manifest's use of it is tested by test/run/schema-manifest.test.ts on the built programs.)
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AxError } from '../../lib/index.ts';
import { SCHEMA_SHAPES, SHAPES, shapeSpec } from '../../lib/schema/shapes.ts';
import { schemaDocument } from '../../lib/schema/documents.ts';
import { loadTree } from '../../lib/tree/lazy.ts';
import { buildTasksCli } from '../../cmd/tasks/cli.ts';
import { lazyTree } from '../fixtures/lazy-tree.ts';
import { runCli } from '../helpers/run.ts';

describe('the __schema shapes registry', () => {
  it('names each shape once, with a media type and a description', () => {
    expect(new Set(SCHEMA_SHAPES).size).toBe(SHAPES.length);
    expect(SCHEMA_SHAPES).toEqual(SHAPES.map((s) => s.name));
    for (const s of SHAPES) {
      expect(s.name).toMatch(/^[a-z]+$/);
      expect(s.mediaType).toMatch(/^[a-z]+\/[a-z+.-]+$/);
      expect(s.description.length).toBeGreaterThan(0);
    }
  });

  it("is __schema's --as: choices and default in its order, every shape and description in help", async () => {
    const help = await runCli(buildTasksCli(), ['__schema', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(`--as ${SCHEMA_SHAPES.join('|')}`);
    expect(help.stdout).toContain(`(--as=${SCHEMA_SHAPES.join('|')})`);
    for (const s of SHAPES) expect(help.stdout).toContain(`${s.name} (${s.description})`);
    expect(help.stdout).toContain(`(default "${SCHEMA_SHAPES[0]}")`);
    expect((await runCli(buildTasksCli(), ['__schema'])).stdout).toBe(
      (await runCli(buildTasksCli(), ['__schema', `--as=${SCHEMA_SHAPES[0]}`])).stdout,
    );
  });

  it('completes --as with every shape, in order', async () => {
    const r = await runCli(buildTasksCli(), ['__complete', '__schema', '--as', '']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').slice(0, -2)).toEqual([...SCHEMA_SHAPES]);
  });

  it('refuses any other --as with the accepted list from the registry', async () => {
    const r = await runCli(buildTasksCli(), ['__schema', '--as=yaml']);
    expect(r.code).toBe(2);
    const line = JSON.parse(r.stderr.trim().split('\n').pop()!);
    expect(line.error.context).toMatchObject({ reason: 'invalid_flag_value' });
    expect(line.error.message).toContain(`must be one of ${SCHEMA_SHAPES.join('|')}`);
  });

  it.each(SHAPES.map((s) => [s.name, s.mediaType]))(
    '--as=%s --full prints schemaDocument of the loaded tree, a %s document',
    async (name, mediaType) => {
      const r = await runCli(lazyTree(), ['__schema', `--as=${name}`, '--full']);
      expect(r.code, r.stderr).toBe(0);
      const root = lazyTree();
      await loadTree(root);
      expect(r.stdout).toBe(schemaDocument(root, name, '1.2.3'));
      expect(r.stdout.endsWith('\n')).toBe(true);
      if (mediaType === 'application/json') expect(() => JSON.parse(r.stdout) as unknown).not.toThrow();
      else expect(mediaType).toBe('text/markdown');
    },
  );

  it('an unknown shape is a validation_error from schemaDocument too, never a default', () => {
    const err = (() => {
      try {
        schemaDocument(buildTasksCli(), 'yaml' as never, '1.0.0');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(AxError);
    expect(err).toMatchObject({ kind: 'validation_error', context: { reason: 'invalid_schema_shape' } });
    expect(shapeSpec('mcp').name).toBe('mcp');
  });

  it("docs/schema.md's table lists exactly the registry, with each media type and description", () => {
    const doc = readFileSync(fileURLToPath(new URL('../../docs/schema.md', import.meta.url)), 'utf8');
    const rows = [...doc.matchAll(/^\| `([a-z]+)` \| `([^`]+)` \| (.+) \|$/gm)].map((m) => [m[1], m[2], m[3]]);
    expect(rows.map((r) => r[0])).toEqual([...SCHEMA_SHAPES]);
    for (const [name, mediaType, text] of rows) {
      const spec = shapeSpec(name!);
      expect(mediaType, name).toBe(spec.mediaType);
      expect(text!.startsWith(spec.description), name).toBe(true);
    }
    expect(doc).toContain(`\`--as\` is not one of ${SCHEMA_SHAPES.map((s) => `\`${s}\``).join(', ')}`);
  });
});
