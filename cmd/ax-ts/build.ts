/**
 * `ax-ts build <entry>`: builds a program made with ax-ts as it should ship (docs/shipping.md):
 * a small entry with precomputed answers, a code cache and stdio served in place; one minified
 * bundle; chunks for what only some runs need; the schema manifest. The command behind it is the
 * public `ax-ts/build` API (`buildProgram`).
 */
import { basename, extname, join, resolve } from 'node:path';
import { Command, type RunContext } from '../../lib/index.ts';
import { buildProgram } from '../../lib/build/index.ts';

/** The `build` command. */
export function buildCommand(): Command {
  return new Command({
    use: 'build <entry>',
    short: 'Build a program made with ax-ts into a fast-starting bundle (entry, bundle, chunks, schema manifest)',
    long:
      'Bundles the program whose entry module is <entry> ' +
      '(TypeScript or JavaScript, ESM or CommonJS) into --out-dir:\n' +
      '<name>.js (the entry to run: precomputed --help/--version, ' +
      'the schema manifest, a per-user code cache, stdio served\n' +
      'in place for mcp-server), <name>.main.js (the program, ' +
      'minified CommonJS), chunks/ (the MCP SDK, express, Ajv, pino,\n' +
      'OpenTelemetry, jsonc-parser, redis and each lazy subtree, ' +
      'loaded only by the runs that need them) and <name>.schema/.\n' +
      "The program's version is embedded (--program-version, else " +
      'the nearest package.json), and the Git revision it was\n' +
      'built from (--program-revision, else HEAD, -dirty with ' +
      'uncommitted changes), which the version falls back to.\n' +
      'With --single-file, ONE CommonJS file <name>.cjs holds ' +
      'the program and everything it loads (for a Node single\n' +
      'executable or bun build --compile). Needs the esbuild package.\n' +
      'Use --precompute=false for a program whose help or schema depends on its environment.',
    example:
      'ax-ts build src/cli.ts --out-dir dist/bin --name mycli\n' +
      'ax-ts build cmd/tasks/main.ts --name tasks\nax-ts build src/cli.ts --single-file --name mycli',
    args: [{ name: 'entry', description: "the program's entry module (e.g. src/cli.ts)" }],
    effects: 'idempotent',
    dryRun: true, // the handler rehearses with ctx.guard
    flags: {
      'out-dir': { type: 'string', default: 'dist/bin', usage: 'directory the program is written to (its own)' },
      name: { type: 'string', usage: "the program's name: <out-dir>/<name>.js (default: the entry's file name)" },
      'program-version': {
        type: 'string',
        usage: "the version embedded in the program (default: the nearest package.json's version)",
      },
      'program-revision': {
        type: 'string',
        usage:
          'the version-control revision embedded in the program ' +
          '(default: the Git HEAD of the entry, -dirty with changes)',
      },
      'single-file': {
        type: 'bool',
        usage: 'write ONE CommonJS file, <out-dir>/<name>.cjs, with everything the program loads (no chunks, no entry)',
      },
      metafile: { type: 'bool', usage: "also write esbuild's metafile to <out-dir>/<name>.meta.json" },
      precompute: {
        type: 'bool',
        default: true,
        usage: 'precompute --help/--version and write the schema manifest (false for an environment-dependent tree)',
      },
    },
    output: {
      cardinality: 'single',
      schema: {
        type: 'object',
        properties: {
          entry: { type: 'string', description: 'the entry file to run (with --dry-run: the one a build would write)' },
          main: { type: 'string', description: 'the bundle' },
          chunks: { type: 'array', items: { type: 'string' }, description: 'every chunk file' },
          version: { type: ['string', 'null'], description: 'the embedded version (null: none)' },
          revision: { type: ['string', 'null'], description: 'the embedded version-control revision (null: none)' },
          precomputed: { type: 'array', items: { type: 'string' }, description: 'answers precomputed' },
          manifest: { type: ['string', 'null'], description: 'the schema manifest directory (null: none)' },
        },
        required: ['entry', 'main', 'chunks', 'version', 'revision', 'precomputed', 'manifest'],
      },
    },
    run: async (ctx: RunContext) => {
      const outDir = resolve(ctx.flags.outDir as string);
      const name =
        (ctx.flags.name as string | undefined) ?? basename(String(ctx.args.entry), extname(String(ctx.args.entry)));
      const single = ctx.flags.singleFile === true;
      const file = join(outDir, `${name}.${single ? 'cjs' : 'js'}`);
      if (!ctx.guard(`build ${String(ctx.args.entry)} into ${file}`))
        return {
          entry: file,
          main: single ? file : join(outDir, `${name}.main.js`),
          chunks: [],
          version: null,
          revision: null,
          precomputed: [],
          manifest: null,
        };
      const r = await buildProgram({
        entry: String(ctx.args.entry),
        outDir: ctx.flags.outDir as string,
        name: ctx.flags.name as string | undefined,
        version: ctx.flags.programVersion as string | undefined,
        revision: ctx.flags.programRevision as string | undefined,
        singleFile: single,
        precompute: ctx.flags.precompute !== false,
        metafile: ctx.flags.metafile === true,
      });
      return {
        entry: r.entry,
        main: r.main,
        chunks: r.chunks,
        version: r.version ?? null,
        revision: r.revision ?? null,
        precomputed: r.precomputed,
        manifest: r.manifest?.dir ?? null,
      };
    },
  });
}
