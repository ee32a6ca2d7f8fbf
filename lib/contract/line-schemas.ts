/**
 * The lines of the contract as data: JSON Schemas (2020-12) of the success line (one document
 * result), the stream line (one NDJSON item) and the error line, beside the code that writes them
 * (envelope.ts). Every field a run writes is here, and nothing else: the schemas close each object
 * (`additionalProperties: false`) except the author's own data (`data`, `error.context`). The prose
 * that describes the lines — `__schema --as=ax`, clispec's `stdout_schema`, SKILL.md, docs/contract.md
 * — is rendered from these schemas or tested against them (test/contract/line-schemas.test.ts,
 * which also validates real output of every path against them). Published by `ax-ts/schema`.
 */
import { ERROR_SCHEMA_VERSION } from './envelope.ts';

/** The JSON Schema dialect of every schema ax-ts publishes. */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** Freezes a JSON value and everything in it (a published schema cannot be changed by a caller). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const strings = (description: string) =>
  ({ type: 'array', items: { type: 'string' }, minItems: 1, description }) as const;

/** The provenance of one flag's value (`meta.provenance[label]`), as config/provenance.ts builds it. */
const FLAG_PROVENANCE = {
  type: 'object',
  required: ['source', 'beat'],
  properties: {
    source: {
      enum: ['flag', 'argument', 'env', 'config', 'default'],
      description: 'The source that won: the command line, an MCP or --args-json property, env, config or default.',
    },
    env: { type: 'string', description: 'The environment variable the flag reads, when it declares one.' },
    config: {
      type: 'object',
      required: ['key', 'file'],
      properties: {
        key: { type: 'string', description: 'The config key the flag reads.' },
        file: { type: ['string', 'null'], description: 'The config file, null when the program has none.' },
      },
      additionalProperties: false,
    },
    beat: {
      type: 'array',
      items: { enum: ['env', 'config', 'default'] },
      description: 'Lower-precedence sources that also had a value and lost, in precedence order.',
    },
  },
  additionalProperties: false,
} as const;

/** One warning (`meta.warnings[]`, `error.context.warnings[]` of warnings_as_errors): ax-go's {code, message}. */
const WARNING = {
  type: 'object',
  required: ['code', 'message'],
  properties: {
    code: {
      type: 'string',
      pattern: '^[a-z][a-z0-9_]*$',
      description: "Stable machine code (deprecated_flag, deprecated_command, warning, an author's own…).",
    },
    message: { type: 'string', description: 'One readable sentence, also the line written on stderr.' },
  },
  additionalProperties: false,
} as const;

/** One runnable next step of a stop (`error.next[]`): a command line, a tool call, or both. */
const NEXT_STEP = {
  type: 'object',
  minProperties: 1,
  properties: {
    description: { type: 'string', description: 'What the step does.' },
    command: {
      type: 'string',
      description:
        "The command line, the program's name first, quoted for a POSIX shell; <name> is a value to fill in.",
    },
    argv: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'The same command line as words.' },
    tool: { type: 'string', description: 'The MCP tool to call instead.' },
    arguments: { type: 'object', description: "That tool's arguments (the --args-json object)." },
  },
  additionalProperties: false,
} as const;

/**
 * `meta.pagination` of a paged command's answer (envelope.ts's Pagination;
 * docs/contract.md#paging---limit---cursor).
 */
export const PAGINATION_SCHEMA = deepFreeze({
  type: 'object',
  required: ['returned', 'truncated', 'has_more', 'next_cursor'],
  properties: {
    total: { type: 'integer', minimum: 0, description: 'How many items the whole list has, when known.' },
    returned: { type: 'integer', minimum: 0, description: 'Items on this page (the length of data).' },
    truncated: { type: 'boolean', description: 'Whether this answer is less than the whole list.' },
    has_more: { type: 'boolean', description: 'Whether a next page exists.' },
    next_cursor: {
      type: ['string', 'null'],
      description: 'The next page: pass it as --cursor (MCP cursor); null on the last page.',
    },
  },
  additionalProperties: false,
} as const);

/** The outcome of a run, in the `meta` of every line (envelope.ts's OutcomeMeta). */
const OUTCOME = {
  schema_version: { const: ERROR_SCHEMA_VERSION, description: 'Version of the envelope lines.' },
  ok: { type: 'boolean', description: 'Whether the run succeeded: true on stdout, false on the error line.' },
  exit_code: {
    type: 'integer',
    minimum: 0,
    maximum: 255,
    description: "The process exit code: 0 on a success line, the error's on the error line.",
  },
  duration_ms: {
    type: 'integer',
    minimum: 0,
    description: 'Whole milliseconds the run had taken when the line was written.',
  },
} as const;

/** `meta` of a success or stream line, properties in the order a run writes them. */
const SUCCESS_META = {
  type: 'object',
  required: ['trace_id', 'span_id', 'idempotency_key', 'schema_version', 'ok', 'exit_code', 'duration_ms'],
  properties: {
    trace_id: {
      type: 'string',
      pattern: '^[0-9a-f]{32}$',
      description: "The run's W3C trace id: the caller's trace when the run continues one, else new.",
    },
    span_id: { type: 'string', pattern: '^[0-9a-f]{16}$', description: "The run's own span id, new per run." },
    idempotency_key: {
      type: 'string',
      minLength: 1,
      description: '--idempotency-key exactly as given (not trimmed), else (absent or blank) a fresh UUID v4.',
    },
    schema_version: OUTCOME.schema_version,
    ok: { ...OUTCOME.ok, const: true },
    exit_code: { ...OUTCOME.exit_code, const: 0 },
    duration_ms: OUTCOME.duration_ms,
    attached: strings('URIs of the declared resources the handler attached (ctx.attach), in order.'),
    dry_run: { const: true, description: 'Present only when the run was a dry run.' },
    warnings: {
      type: 'array',
      minItems: 1,
      items: WARNING,
      description: 'Deprecation notices and ctx.warn warnings ({code, message}), each message also written to stderr.',
    },
    changed: {
      type: 'boolean',
      description: 'Whether the run changed anything, when the handler said (ctx.setChanged); false in a dry run.',
    },
    would: strings('In a dry run, the side effects ctx.guard/ctx.perform skipped.'),
    provenance: {
      type: 'object',
      additionalProperties: FLAG_PROVENANCE,
      description: 'Per flag with an env or config source (keyed by its label), which source gave its value.',
    },
    replayed: {
      const: true,
      description: 'This outcome was recorded by an earlier call with the same idempotency key and arguments.',
    },
    pagination: PAGINATION_SCHEMA,
    next: {
      type: 'array',
      minItems: 1,
      items: NEXT_STEP,
      description: "A page with more after it: the call that fetches the next page, in the caller's words.",
    },
  },
  additionalProperties: false,
} as const;

/** A line of a successful run: `data` as described, and the run's {@link SUCCESS_META}. */
const successLine = <T extends string, D extends string>(title: T, description: string, data: D) =>
  deepFreeze({
    $schema: JSON_SCHEMA_DIALECT,
    title,
    description,
    type: 'object',
    required: ['data', 'meta'],
    properties: { data: { description: data }, meta: SUCCESS_META },
    additionalProperties: false,
  } as const);

/** The success line: one JSON document result on stdout, `{"data":…,"meta":{…}}` and a newline. */
export const SUCCESS_LINE_SCHEMA = successLine(
  'ax-ts success line',
  'json mode: the one line a successful command writes on stdout (also the text of an MCP tools/call result).',
  'What the handler returned (null when it returned nothing), as the command declares it.',
);

/** The stream line: one NDJSON line per item of a stream (`output.kind: "stream"`), each with the run's meta. */
export const STREAM_LINE_SCHEMA = successLine(
  'ax-ts stream line',
  'json mode: one line per item a stream yields, written as soon as the item is.',
  'One item (null for an undefined item), as the command declares an item.',
);

/** The error line: the last line of stderr of a failed run (and the text of an MCP `isError` result). */
export const ERROR_LINE_SCHEMA = deepFreeze({
  $schema: JSON_SCHEMA_DIALECT,
  title: 'ax-ts error line',
  description:
    'json mode: exactly one JSON line, the last line of stderr, ' +
    'when a run fails (also the text of an MCP isError result).',
  type: 'object',
  required: ['error', 'meta'],
  properties: {
    error: {
      type: 'object',
      required: ['kind', 'message', 'exit_code', 'retryable'],
      properties: {
        kind: {
          type: 'string',
          pattern: '^[a-z][a-z0-9_]*$',
          description: 'Stable machine name of the failure; one of the error catalogue.',
        },
        message: { type: 'string', description: 'One readable sentence.' },
        exit_code: {
          type: 'integer',
          minimum: 1,
          maximum: 255,
          description: 'The process exit code (never 0).',
        },
        retryable: {
          type: 'boolean',
          description:
            'Whether the same call may succeed later: the error ' +
            "catalogue's answer for the kind (false when it has none).",
        },
        actionable_fix: { type: 'string', minLength: 1, description: 'What to do differently.' },
        suggestions: strings('"Did you mean" candidates, most likely first.'),
        context: {
          type: 'object',
          minProperties: 1,
          description: "Machine-readable details; ax-ts's own errors carry a stable reason.",
        },
        retry_after_seconds: {
          type: 'number',
          exclusiveMinimum: 0,
          description: 'How long to wait before retrying, when the thrower knows.',
        },
        next: {
          type: 'array',
          minItems: 1,
          items: NEXT_STEP,
          description: 'A stop: the runnable next steps (confirmation_required, input_required, action_required).',
        },
      },
      additionalProperties: false,
    },
    meta: {
      type: 'object',
      required: ['trace_id', 'tool', 'version', 'schema_version', 'ok', 'exit_code', 'duration_ms'],
      properties: {
        trace_id: SUCCESS_META.properties.trace_id,
        tool: { type: 'string', description: "The program: the root command's name." },
        version: { type: 'string', description: "The program's version." },
        schema_version: OUTCOME.schema_version,
        ok: { ...OUTCOME.ok, const: false },
        exit_code: {
          ...OUTCOME.exit_code,
          minimum: 1,
          description: 'The process exit code (never 0): error.exit_code.',
        },
        duration_ms: OUTCOME.duration_ms,
        replayed: {
          const: true,
          description: 'This failure was recorded by an earlier call with the same idempotency key and arguments.',
        },
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const);

/** An object schema: its properties and which are required. */
interface ObjectSchema {
  readonly required?: readonly string[];
  readonly properties: Readonly<Record<string, unknown>>;
}

/**
 * The keys of an object schema as the contract's prose writes them: `"trace_id","dry_run"?` (an
 * optional one marked `?`). @param names the keys to name, in order (default: every property).
 * @throws TypeError on a name the schema does not have.
 */
export function keyOutline(schema: ObjectSchema, names: readonly string[] = Object.keys(schema.properties)): string {
  return names
    .map((n) => {
      if (!Object.hasOwn(schema.properties, n)) throw new TypeError(`keyOutline: the schema has no property ${n}`);
      return `"${n}"${schema.required?.includes(n) ? '' : '?'}`;
    })
    .join(',');
}
