/**
 * The JSON Schema (2020-12) of what `__schema --as=ax` prints (ax.ts, discovery.ts): the whole
 * document, one command's (`__schema <command…>`) or a summary (above the budget) — one of the
 * three. Every field the projection writes, each object closed (`additionalProperties: false`)
 * except what the author declares verbatim (a flag's `default`, `examples` and `schema`, an output
 * `schema` and `pagination`, annotations). The document is lean (docs/schema.md#reading-a-lean-document):
 * a field at its default, or that follows from a name or from a declaration higher up, is left out;
 * `expandAxDocument` writes it in full.
 * Published by `ax-ts/schema`;
 * test/schema/ax-document-schema.test.ts validates the ax documents of the demo and of the test
 * fixtures against it. Field by field: docs/schema.md.
 */
import { deepFreeze, JSON_SCHEMA_DIALECT } from '../contract/line-schemas.ts';
import { ERROR_SCHEMA_VERSION } from '../contract/envelope.ts';
import { MODE_DETECTION } from '../contract/mode.ts';
import { FLAG_TYPES } from '../tree/flags.ts';
import { ARG_TYPES } from '../tree/flag-spec.ts';
import { CAPABILITIES } from '../tree/output.ts';
import { AX_SCHEMA_VERSION } from './ax.ts';

const str = { type: 'string' } as const;
const strings = { type: 'array', items: str } as const;
const KIND = { type: 'string', pattern: '^[a-z][a-z0-9_]*$' } as const;
const EXIT_CODE = { type: 'integer', minimum: 1, maximum: 255 } as const;
/** A list of flag-name sets (`flag_groups`): each set names flags of the command by long name. */
const GROUPS = { type: 'array', items: { type: 'array', items: str, minItems: 1 } } as const;

const FLAG = {
  type: 'object',
  description:
    "One flag: the command's own, one it inherits from above the document's top command, a traversed " +
    'one, or (`inherited` without `persistent`) an inherited one that differs here from its declaration.',
  required: ['name', 'type'],
  properties: {
    name: { type: 'string', description: 'Long name without dashes: `--name`, MCP property name with `_` for `-`.' },
    type: { enum: [...FLAG_TYPES] },
    shorthand: {
      type: 'string',
      maxLength: 1,
      description: 'One letter; `""` in a reference: the declaration\'s letter is not this command\'s.',
    },
    default: { description: 'The declared default, as declared.' },
    usage: str,
    required: { const: true },
    choices: { type: 'array', description: 'Closed set of accepted values.' },
    examples: { type: 'array', minItems: 1, description: 'Example values, as an agent sends them.' },
    persistent: { const: true, description: 'Declared persistent: every command below has it too.' },
    negatable: { const: true, description: 'bool only: `--no-<name>` sets false.' },
    deprecated: { type: 'string', description: 'Deprecation message.' },
    shorthand_deprecated: { type: 'string', description: 'Deprecation message of the shorthand.' },
    mcp: { const: false, description: 'Kept out of every inputSchema and of --args-json.' },
    schema: { type: 'object', description: 'json flags: the JSON Schema of the value, as declared.' },
    env: { type: 'string', description: 'Environment variable that supplies the value.' },
    config_key: { type: 'string', description: 'Config file key that supplies the value.' },
    secret: {
      type: 'string',
      enum: ['env_file_stdin', 'argv_allowed'],
      description:
        'The value is a secret, never echoed: env_file_stdin — from env, config, `@file` or `-` (stdin), ' +
        'refused as a plain argv value; argv_allowed — also as a plain argv value.',
    },
    builtin: { const: true, description: 'Injected by ax-ts (--format, --dry-run, --help, …).' },
    traversed_from: {
      type: 'string',
      description: 'TraverseChildren: the command path of the ancestor whose local flag this is.',
    },
    inherited: { const: true, description: "Not the command's own: inherited or traversed." },
  },
  additionalProperties: false,
} as const;

const ARG = {
  type: 'object',
  description: 'One declared positional, in command-line order.',
  required: ['name'],
  properties: {
    name: { type: 'string', description: 'Its MCP property name with `_` for `-`; its position is its index + 1.' },
    type: { enum: ARG_TYPES.filter((t) => t !== 'string'), description: 'Absent: string.' },
    description: str,
    required: { const: false, description: 'Absent: required.' },
    variadic: { const: true, description: 'Takes every remaining positional.' },
    choices: strings,
    examples: { type: 'array', minItems: 1, description: 'Example values.' },
  },
  additionalProperties: false,
} as const;

const OUTPUT = {
  type: 'object',
  minProperties: 1,
  properties: {
    kind: { enum: ['stream', 'opaque'], description: 'Absent: data.' },
    cardinality: { enum: ['single', 'bounded', 'unbounded'] },
    schema: {
      type: 'object',
      description:
        'JSON Schema of the payload (of one item for a stream), as declared; a ' +
        'subschema written earlier in the document is {"$ref": "#<JSON Pointer>"}.',
    },
    mcp_structured_content: {
      type: 'string',
      description: 'How structuredContent wraps a payload that is not an object (absent: the payload itself).',
    },
    pagination: {
      type: 'object',
      description: 'How to page an unbounded result, as declared.',
      required: ['style', 'limitFlag'],
      properties: {
        style: { enum: ['offset', 'cursor'] },
        limitFlag: str,
        offsetFlag: str,
        cursorFlag: str,
        cursorField: str,
      },
    },
    fields_flag: { type: 'string', description: 'The flag that selects output fields.' },
    paging: {
      type: 'object',
      description: 'ax-ts pages the list (output.paging): --limit and --cursor, meta.pagination; see the root paging.',
      required: ['default_limit'],
      properties: {
        default_limit: { type: 'integer', minimum: 1 },
        max_limit: { type: 'integer', minimum: 1, description: 'Absent: no bound.' },
      },
      additionalProperties: false,
    },
    media_type: { type: 'string', description: 'Media type of an opaque output.' },
  },
  additionalProperties: false,
} as const;

const PROMPT = {
  type: 'object',
  required: ['name', 'template'],
  properties: {
    name: str,
    title: str,
    description: str,
    arguments: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name'],
        properties: { name: str, title: str, description: str, required: { const: true } },
        additionalProperties: false,
      },
    },
    template: str,
  },
  additionalProperties: false,
} as const;

const RESOURCE = {
  type: 'object',
  required: ['name'],
  oneOf: [
    { required: ['uri'], properties: { uri: str } },
    { required: ['uriTemplate'], properties: { uriTemplate: str } },
  ],
  properties: { uri: str, uriTemplate: str, name: str, title: str, description: str, mimeType: str },
  additionalProperties: false,
} as const;

const COMMAND = {
  type: 'object',
  description: 'One command; its visible children under `commands`.',
  required: ['name', 'use', 'non_deterministic_fields'],
  properties: {
    name: str,
    use: str,
    short: str,
    long: str,
    example: str,
    aliases: strings,
    deprecated: str,
    runnable: { const: false, description: 'A group without a handler (absent: it runs).' },
    mcp: {
      description:
        'Why the command is no MCP tool, other than being a group (absent: a runnable command ' +
        'is the tool named by ax-ts/mcp/name, else by its path below the root joined with _).',
      type: 'object',
      required: ['tool', 'reason'],
      properties: { tool: { const: null }, reason: { enum: ['hidden', 'reserved', 'excluded'] } },
      additionalProperties: false,
    },
    effects: { enum: ['read_only', 'idempotent', 'non_idempotent'] },
    capabilities: {
      type: 'array',
      minItems: 1,
      items: { enum: [...CAPABILITIES] },
      description: "ax-go's capability classes: what the command touches.",
    },
    output: OUTPUT,
    non_deterministic_fields: {
      ...strings,
      description: "ax-go's: envelope fields that differ between runs (meta.* ids, data.* paths); [] for a group.",
    },
    dry_run: {
      const: false,
      description:
        'Offers no dry run (declares none and is not read-only): ' +
        'no --dry-run here; asking for one is dry_run_unsupported.',
    },
    replays: {
      const: true,
      description: 'A retry with the same --idempotency-key and arguments replays the first outcome.',
    },
    confirmation_flag: { type: 'string', description: 'The flag that bypasses the confirmation gate.' },
    flags: { type: 'array', items: FLAG },
    args: { type: 'array', items: ARG },
    flag_groups: {
      type: 'object',
      minProperties: 1,
      properties: { mutually_exclusive: GROUPS, required_together: GROUPS, one_required: GROUPS },
      additionalProperties: false,
    },
    annotations: {
      type: 'object',
      additionalProperties: str,
      description: "The author's annotations, by key.",
    },
    prompts: { type: 'array', items: PROMPT },
    resources: { type: 'array', items: RESOURCE },
    commands: { type: 'array', items: { $ref: '#/$defs/command' } },
  },
  additionalProperties: false,
} as const;

/** The whole document (`__schema --full`, or `__schema` within the budget). */
const WHOLE = {
  type: 'object',
  description: 'The whole command tree as data, with the machine contract around it.',
  required: [
    'schema_version',
    'tool',
    'version',
    'mode_detection',
    'success_envelope',
    'error_envelope',
    'errors',
    'command',
  ],
  properties: {
    schema_version: { const: AX_SCHEMA_VERSION },
    tool: { type: 'string', description: "The program: the root command's name." },
    version: str,
    mode_detection: { const: MODE_DETECTION },
    success_envelope: {
      type: 'object',
      required: ['stream', 'format'],
      properties: { stream: { const: 'stdout' }, format: str },
      additionalProperties: false,
    },
    paging: {
      type: 'string',
      description:
        'Present when a command pages (output.paging): how --limit, --cursor and meta.pagination work, said once.',
    },
    error_envelope: {
      type: 'object',
      required: [
        'stream',
        'format',
        'schema_version',
        'required',
        'optional',
        'non_deterministic_fields',
        'exit_codes',
      ],
      properties: {
        stream: { const: 'stderr' },
        format: str,
        schema_version: { const: ERROR_SCHEMA_VERSION },
        required: {
          ...strings,
          description: "ax-go's: the keys every error line has (error.kind, meta.trace_id, …).",
        },
        optional: { ...strings, description: "ax-go's: the keys an error line may have." },
        non_deterministic_fields: {
          ...strings,
          description: "ax-go's: the error line's keys that differ between runs.",
        },
        exit_codes: {
          type: 'object',
          description: 'Every code a run can end with, code → name.',
          propertyNames: { pattern: '^(0|[1-9][0-9]*)$' },
          additionalProperties: str,
        },
      },
      additionalProperties: false,
    },
    errors: {
      type: 'array',
      description: 'The error catalogue, sorted by kind.',
      items: {
        type: 'object',
        required: ['kind', 'exit_code'],
        properties: {
          kind: KIND,
          exit_code: EXIT_CODE,
          retryable: { const: true },
          description: { type: 'string', description: "An author's kind (ax-ts's own are described in its docs)." },
        },
        additionalProperties: false,
      },
    },
    command: { $ref: '#/$defs/command' },
  },
  additionalProperties: false,
} as const;

/** One command and its subtree (`__schema <command…>`). */
const SUBTREE = {
  type: 'object',
  description: "One command's document: its path and its entry, as the whole document has it.",
  required: ['schema_version', 'tool', 'version', 'path', 'command'],
  properties: {
    schema_version: { const: AX_SCHEMA_VERSION },
    tool: str,
    version: str,
    path: str,
    command: { $ref: '#/$defs/command' },
  },
  additionalProperties: false,
} as const;

/** A summary: the whole answer above the budget. */
const SUMMARY = {
  type: 'object',
  description: "A summary: each command's path, one line and how to drill in (docs/schema.md#budgets-and-summaries).",
  required: ['schema_version', 'tool', 'version', 'summary', 'commands'],
  properties: {
    schema_version: { const: AX_SCHEMA_VERSION },
    tool: str,
    version: str,
    summary: {
      type: 'object',
      required: ['shape', 'reason', 'budget', 'full_size', 'full', 'command', 'field', 'explain'],
      properties: {
        shape: { enum: ['ax', 'mcp', 'llms'] },
        reason: { const: 'budget', description: 'The whole answer is over the budget.' },
        budget: { type: 'integer', minimum: 1 },
        full_size: { type: 'integer', description: 'Characters of the whole answer.' },
        full: { type: 'string', description: 'The command line that prints the whole answer.' },
        command: str,
        field: str,
        explain: str,
      },
      additionalProperties: false,
    },
    short: { type: 'string', description: "The root's one line (a summary of the whole tree)." },
    path: { type: 'string', description: 'The command summarized (a drill-in).' },
    commands: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'short', 'runnable', 'drill'],
        properties: {
          path: str,
          short: str,
          runnable: { type: 'boolean' },
          tool: str,
          commands: { type: 'integer', minimum: 1, description: 'How many commands are below, not listed.' },
          drill: { type: 'string', description: 'The command line that prints its document.' },
        },
        additionalProperties: false,
      },
    },
    omitted: { type: 'integer', minimum: 1, description: 'Commands of the first level left out to fit.' },
  },
  additionalProperties: false,
} as const;

/**
 * The JSON Schema (2020-12) of what `__schema --as=ax` prints: the whole document, one command's,
 * or a summary (the summary of `--as=mcp` and `--as=llms` has the same form).
 */
export const AX_DOCUMENT_SCHEMA = deepFreeze({
  $schema: JSON_SCHEMA_DIALECT,
  title: 'ax-ts __schema --as=ax document',
  description:
    'The command tree as data (docs/schema.md): the whole document, one command with its subtree, or a summary.',
  oneOf: [{ $ref: '#/$defs/whole' }, { $ref: '#/$defs/subtree' }, { $ref: '#/$defs/summary' }],
  $defs: { whole: WHOLE, subtree: SUBTREE, summary: SUMMARY, command: COMMAND },
} as const);
