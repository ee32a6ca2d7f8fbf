/**
 * The injected `__schema` command (docs/schema.md) and the clispec `schema` command: the tree as
 * data, in one of the shapes of the registry (shapes.ts): `--as=ax` (default) is the ax document,
 * `--as=mcp` exactly what the MCP server lists, and so on — for the whole tree, one command's
 * subtree (`__schema deploy`) or one field (`--field flags.region`), a summary above the budget
 * (discovery.ts). All read declarations only: no handler, config or network.
 */
import { Command } from '../tree/command.ts';
import { BUILTIN_ANNOTATION } from '../tree/marks.ts';
import type { ArgSpec } from '../tree/args.ts';
import type { FlagSpec } from '../tree/flags.ts';
import { exclusionWarnings } from './walk.ts';
import { DEFAULT_SCHEMA_BUDGET, SCHEMA_SHAPES, SHAPES, type SchemaShape } from './shapes.ts';
import type { OutputStream } from '../contract/envelope.ts';

/** Writes {@link exclusionWarnings} to stderr, one line each (every `__schema` shape, and `schema`). */
function warnExclusions(root: Command, stderr: OutputStream): void {
  for (const line of exclusionWarnings(root)) stderr.write(`${line}\n`);
}

/** The positional both commands take: the words of the command to describe. */
const COMMAND_WORDS: readonly ArgSpec[] = [
  {
    name: 'command',
    variadic: true,
    required: false,
    description: 'the words of one command to describe with its subcommands (none: the whole tree)',
  },
];

/**
 * `--field a.b`: one field of the answer; its usage's example is a command line of `command` (the
 * one the flag belongs to) that runs once its `<…>` are filled in.
 */
function fieldFlag(program: string, command: '__schema' | 'schema'): FlagSpec {
  const mcp = command === '__schema' ? '; with --as=mcp, inputSchema.properties.<property>' : '';
  return {
    type: 'string',
    usage:
      `print one field of the document as JSON, by a dotted path of keys, list ` +
      `indexes or list entries by name (\`options.<flag>\`: a command's flag, ` +
      `as in ${program} ${command} <command…> --field options.<flag>${mcp})`,
  };
}

/** The budget of a run: `--budget`, else the root's `schemaBudget`, else the default. */
function budgetOf(root: Command, given: unknown): number {
  return typeof given === 'number' ? Math.max(0, given) : (root.schemaBudget ?? DEFAULT_SCHEMA_BUDGET);
}

/** The `__schema` command for a root. Hidden from help; never a tool. */
export function schemaCommand(root: Command): Command {
  return new Command({
    use: '__schema [command...]',
    short: `Print the command tree as JSON (--as=${SCHEMA_SHAPES.join('|')})`,
    hidden: true,
    annotations: { [BUILTIN_ANNOTATION]: 'true' },
    effects: 'read_only',
    output: { kind: 'opaque', mediaType: 'application/json' },
    args: COMMAND_WORDS,
    flags: {
      as: {
        type: 'string',
        default: SCHEMA_SHAPES[0],
        choices: SCHEMA_SHAPES,
        usage: `document shape: ${SHAPES.map((s) => `${s.name} (${s.description})`).join(', ')}`,
      },
      full: {
        type: 'bool',
        usage: 'the whole document whatever its size; without it, an answer above the budget is a summary',
      },
      budget: {
        type: 'int',
        usage:
          `most characters before the answer is a summary (0: no limit; ` +
          `default: the program's, else ${DEFAULT_SCHEMA_BUDGET})`,
      },
      field: fieldFlag(root.name, '__schema'),
    },
    run: async (ctx) => {
      const { discoveryAnswer } = await import('./discovery.ts');
      const doc = await discoveryAnswer(root, ctx.version, {
        shape: ctx.flags.as as SchemaShape,
        words: (ctx.args.command as string[] | undefined) ?? [],
        full: ctx.flags.full === true,
        budget: budgetOf(root, ctx.flags.budget),
        field: typeof ctx.flags.field === 'string' ? ctx.flags.field : undefined,
      });
      warnExclusions(root, ctx.stderr);
      return doc;
    },
  });
}

/** The clispec `schema` command: prints the CLI Spec v0.3 document (same as `__schema --as=clispec`). */
export function clispecCommand(root: Command): Command {
  return new Command({
    use: 'schema [command...]',
    short: 'Print the CLI Spec (clispec.dev v0.3) description of this program as JSON',
    annotations: { [BUILTIN_ANNOTATION]: 'true' },
    effects: 'read_only',
    output: { kind: 'opaque', mediaType: 'application/json' },
    args: COMMAND_WORDS,
    flags: { field: fieldFlag(root.name, 'schema') },
    run: async (ctx) => {
      const { discoveryAnswer } = await import('./discovery.ts');
      const doc = await discoveryAnswer(root, ctx.version, {
        shape: 'clispec',
        words: (ctx.args.command as string[] | undefined) ?? [],
        budget: 0,
        field: typeof ctx.flags.field === 'string' ? ctx.flags.field : undefined,
      });
      warnExclusions(root, ctx.stderr);
      return doc;
    },
  });
}
