/**
 * `ax-ts schema-manifest <entry>`: writes a program's `__schema` documents ahead of time, so that
 * its `__schema` answers without loading the command tree. The entry must be a program built with
 * `ax-ts build` (which writes the manifest itself unless told not to precompute); the work is
 * `writeSchemaManifest` of `ax-ts/build` (docs/shipping.md#the-schema-manifest).
 */
import { resolve } from 'node:path';
import { Command, type RunContext } from '../../lib/index.ts';
import { SCHEMA_SHAPES } from '../../lib/schema/index.ts';
import { writeSchemaManifest } from '../../lib/build/index.ts';

/** The `schema-manifest` command. */
export function schemaManifestCommand(): Command {
  return new Command({
    use: 'schema-manifest <entry>',
    short: "Write a built program's __schema documents ahead of time, so __schema answers without loading the tree",
    long:
      `Runs the built program <entry> (e.g. dist/bin/tasks.js) once per ` +
      `shape (__schema --as=${SCHEMA_SHAPES.join(', ')}) and writes\n` +
      'the documents to <entry dir>/<name>.schema/ with an index.json ' +
      'tying them to this build (a shape printed with warnings on\n' +
      'stderr is left to the program). Afterwards a bare\n' +
      '`<program> __schema [--as=<shape>]` prints the stored document, ' +
      'byte for byte what the program prints, as long as the\n' +
      'bundle and its lazy chunks are unchanged; otherwise the program answers itself.\n' +
      '`ax-ts build` runs it unless built with --precompute=false. ' +
      'Only for programs whose tree does not depend on the environment.',
    example: 'ax-ts schema-manifest dist/bin/tasks.js',
    effects: 'idempotent',
    output: {
      cardinality: 'single',
      schema: {
        type: 'object',
        properties: {
          dir: { type: 'string', description: 'the manifest directory' },
          shapes: { type: 'array', items: { type: 'string' }, description: 'the shapes stored' },
          skipped: {
            type: 'array',
            items: { type: 'string' },
            description: 'shapes left to the program because it printed warnings with them',
          },
          bytes: { type: 'integer', description: 'bytes of documents stored' },
        },
        required: ['dir', 'shapes', 'skipped', 'bytes'],
      },
    },
    run: async (ctx: RunContext) => writeSchemaManifest(resolve(String(ctx.args.entry)), { signal: ctx.signal }),
  });
}
