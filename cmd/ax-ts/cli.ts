/**
 * The `ax-ts` command-line tool, built with ax-ts itself (public API only): `ax-ts schema-diff <old> <new>`
 * classifies the changes between two `__schema` documents and exits 1 when anything would break
 * existing callers, so a CI can stop a release; `skill` writes SKILL.md/AGENTS.md; `schema-manifest`
 * writes a bundled program's `__schema` documents ahead of time.
 */
import { readFile } from 'node:fs/promises';
import { skillCommand } from './skill.ts';
import { schemaManifestCommand } from './manifest.ts';
import { AxError, Command, defineError, resolveVersion, type RunContext } from '../../lib/index.ts';
import { buildCommand } from './build.ts';
import { doctorCommand } from './doctor.ts';
import {
  diffSummary,
  formatDiff,
  schemaDiff,
  schemaShape,
  type Change,
  type SchemaDiff,
} from '../../lib/schema/index.ts';

/** At least one change between the two documents breaks existing callers. Exit 1. */
export const breakingChange = defineError({
  kind: 'breaking_change',
  exitCode: 1,
  description:
    'schema-diff found at least one breaking change between the two __schema documents (listed in context.breaking).',
});

const CHANGE_SCHEMA = {
  type: 'object',
  properties: {
    kind: { type: 'string', description: 'Stable name of the change, e.g. flag_removed.' },
    severity: { type: 'string', enum: ['breaking', 'additive', 'info'] },
    target: {
      type: 'string',
      description: 'Where: a command path with flag or positional, a tool, prompt, resource or error kind.',
    },
    message: { type: 'string' },
    before: {},
    after: {},
  },
  required: ['kind', 'severity', 'target', 'message'],
};

const DIFF_SCHEMA = {
  type: 'object',
  properties: {
    shape: { type: 'string', enum: ['ax', 'mcp'], description: 'Shape of the two documents.' },
    compatible: { type: 'boolean', description: 'True when nothing breaks.' },
    summary: { type: 'string' },
    breaking: { type: 'array', items: CHANGE_SCHEMA },
    additive: { type: 'array', items: CHANGE_SCHEMA },
    info: { type: 'array', items: CHANGE_SCHEMA },
  },
  required: ['shape', 'compatible', 'summary', 'breaking', 'additive', 'info'],
};

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += chunk as string;
  return text;
}

function unreadable(argument: string, file: string, reason: string, message: string, fix: string): AxError {
  return new AxError('validation_error', message, { fix, context: { reason, argument, path: file } });
}

/** Reads and parses one document (`-` is stdin). @throws AxError validation_error (exit 2). */
async function loadDocument(ctx: RunContext, argument: string, file: string): Promise<unknown> {
  let text: string;
  try {
    text = file === '-' ? await readAll(ctx.stdin) : await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'it is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : (e as Error).message;
    throw unreadable(
      argument,
      file,
      'unreadable_file',
      `cannot read <${argument}> ${JSON.stringify(file)}: ${why}`,
      `Pass the path of a file written by '<your-cli> __schema > ${argument}.json' (or - for stdin).`,
    );
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw unreadable(
      argument,
      file,
      'invalid_json',
      `<${argument}> ${JSON.stringify(file)} is not JSON: ${(e as Error).message}`,
      `Regenerate it with '<your-cli> __schema > ${argument}.json'.`,
    );
  }
  if (!schemaShape(doc)) {
    throw unreadable(
      argument,
      file,
      'not_a_schema_document',
      `<${argument}> ${JSON.stringify(file)} is not a __schema document (no "command" tree and no "tools" list)`,
      `Regenerate it with '<your-cli> __schema' (ax shape) or '<your-cli> __schema --as=mcp'.`,
    );
  }
  return doc;
}

function payload(d: SchemaDiff): {
  shape: string;
  compatible: boolean;
  summary: string;
  breaking: Change[];
  additive: Change[];
  info: Change[];
} {
  return {
    shape: d.shape,
    compatible: d.breaking.length === 0,
    summary: diffSummary(d),
    breaking: d.breaking,
    additive: d.additive,
    info: d.info,
  };
}

function schemaDiffCommand(): Command {
  return new Command({
    use: 'schema-diff <old> <new>',
    short: 'Classify the changes between two __schema documents; exit 1 when anything breaks',
    long:
      'Compares two __schema documents of one CLI (both --as=ax, or both --as=mcp) and classifies every change:\n' +
      'breaking (a command, tool, flag, positional or error kind removed; a type changed; a new required flag or\n' +
      'positional; choices narrowed; a tool renamed or dropped from MCP; ...), additive, or info (texts, defaults).\n' +
      'Prints a report (text) or the classified changes (json). Exits 0 when nothing breaks, 1 (breaking_change)\n' +
      'when something does, 2 when a file cannot be read or is not a __schema document. Either file may be - (stdin).',
    example: [
      'ax-ts schema-diff released.json current.json',
      'mycli __schema | ax-ts schema-diff golden/schema.json -',
      'ax-ts schema-diff old-mcp.json new-mcp.json --format json',
    ].join('\n'),
    args: [
      { name: 'old', description: 'the __schema document of the released version (a file, or - for stdin)' },
      { name: 'new', description: 'the __schema document of the new version (a file, or - for stdin)' },
    ],
    effects: 'read_only',
    output: { schema: DIFF_SCHEMA, cardinality: 'single' },
    run: async (ctx) => {
      if (ctx.args.old === '-' && ctx.args.new === '-') {
        throw new AxError('validation_error', 'only one of <old> and <new> may be - (stdin)', {
          fix: 'Pass a file for the other one.',
          context: { reason: 'invalid_argument', argument: 'new' },
        });
      }
      const oldDoc = await loadDocument(ctx, 'old', ctx.args.old);
      const newDoc = await loadDocument(ctx, 'new', ctx.args.new);
      if (schemaShape(oldDoc) !== schemaShape(newDoc)) {
        throw new AxError(
          'validation_error',
          `the documents have different shapes (old: ${schemaShape(oldDoc)}, new: ${schemaShape(newDoc)})`,
          {
            fix: 'Compare like with like: both from `__schema` (ax shape) or both from `__schema --as=mcp`.',
            context: { reason: 'shape_mismatch', old: schemaShape(oldDoc), new: schemaShape(newDoc) },
          },
        );
      }
      const d = schemaDiff(oldDoc, newDoc);
      if (d.breaking.length === 0) return payload(d);
      if (ctx.mode === 'human') ctx.stdout.write(formatDiff(d));
      const first = d.breaking[0]!;
      throw breakingChange(`${diffSummary(d)}; first: ${first.message}`, {
        fix:
          'Keep the old behaviour (restore what was removed, make new inputs ' +
          'optional), or release it as a new major version and tell callers.',
        context: payload(d),
      });
    },
    render: (data) => formatDiff(data as SchemaDiff),
  });
}

/** Builds the `ax-ts` command tree (fresh on every call). */
export function buildAxTsCli(): Command {
  return new Command({
    use: 'ax-ts',
    short: 'ax-ts: tools for CLIs built with ax-ts',
    long:
      'Tools for CLIs built with ax-ts. schema-diff compares two __schema documents and fails ' +
      'when a change would break agents or scripts; skill writes (or checks) SKILL.md and ' +
      'AGENTS.md for a program; build bundles a program into a fast-starting entry, bundle and ' +
      "chunks; schema-manifest writes a built program's __schema documents ahead of time; doctor " +
      'shows this ax-ts, the runtime against its floor and the packages bundled inside it. ' +
      '`ax-ts wrap <bin> __schema | mcp-server | <command…> --format json` serves an installed ' +
      "commander or yargs program with nothing edited (every word after <bin> is the program's; " +
      'docs/frontends.md).',
    example:
      'ax-ts schema-diff released.json current.json\n' +
      'ax-ts skill dist/bin/tasks.js --out skills/tasks --check\nax-ts build src/cli.ts --name mycli\n' +
      'ax-ts wrap markdownlint mcp-server',
    version: resolveVersion(undefined, import.meta.url),
    commands: [schemaDiffCommand(), skillCommand(), schemaManifestCommand(), buildCommand(), doctorCommand()],
  });
}
