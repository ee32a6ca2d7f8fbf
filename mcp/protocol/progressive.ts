/**
 * Progressive discovery (docs/mcp-server.md#progressive-discovery): instead of one tool per
 * command, `tools/list` lists four fixed tools — `search_tools` and `describe_tool` to find and
 * read a command's tool definition, `call_read_only_tool` to run a read-only one, `call_tool` to
 * run any — so the list stays a few kilobytes however large the tree. The two call tools split by
 * effects so that a client's approval per tool still means something: approving
 * `call_read_only_tool` once approves only calls that change nothing. Both run the command through
 * a ToolCall (tool-call.ts), the very path of a direct call: the same validation, errors,
 * structuredContent, dry run, idempotency, tasks, input_required and exit codes.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { AxError, validationError } from '../../lib/contract/errors.ts';
import type { JsonSchema } from '../../lib/parse/input-schema.ts';
import { searchRefs } from '../../lib/schema/search.ts';
import { toolAnnotations } from '../../lib/schema/tool.ts';
import type { ToolDef, ToolRef } from '../../lib/schema/walk.ts';
import { rpcError } from '../base/eras.ts';
import type { McpModel, McpServerOptions } from '../call/model.ts';
import { errorOf, unloadedTool } from '../call/tools.ts';
import { ToolCall } from '../call/tool-call.ts';
import type { CallExtra } from '../call/era.ts';

/** The fixed tools' names. */
export const SEARCH_TOOLS = 'search_tools';
export const DESCRIBE_TOOL = 'describe_tool';
export const CALL_READ_ONLY_TOOL = 'call_read_only_tool';
export const CALL_TOOL = 'call_tool';

/** Most hits `search_tools` returns at once. */
export const MAX_LIMIT = 100;

const NAME = { type: 'string', description: 'the tool name, as search_tools gives it' } as const;
const CALL_INPUT: JsonSchema = {
  type: 'object',
  properties: {
    name: NAME,
    arguments: {
      type: 'object',
      description: "the tool's arguments, as its inputSchema (describe_tool) describes them",
    },
  },
  required: ['name'],
  additionalProperties: false,
};

/** The four tools `tools/list` lists in progressive mode (the same in both eras). */
export const PROGRESSIVE_TOOLS: readonly ToolDef[] = [
  {
    name: SEARCH_TOOLS,
    description:
      "Find this server's tools (one per command) by words: each hit has the tool's " +
      'name, its command, its one line, its annotations and call_with, the tool that ' +
      'runs it. Every word must match the name, command path or help; an empty query ' +
      "lists every tool in tree order. Then describe_tool gives a tool's arguments.",
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'words to look for (empty: every tool)' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_LIMIT,
          description: `most hits to return (default 20, at most ${MAX_LIMIT})`,
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false },
  },
  {
    name: DESCRIBE_TOOL,
    description:
      'The full definition of one tool, as tools/list would give it: description, ' +
      'inputSchema (its arguments), outputSchema, annotations; and call_with, the ' +
      'tool that runs it (call_read_only_tool for a read-only tool, else call_tool).',
    inputSchema: { type: 'object', properties: { name: NAME }, required: ['name'], additionalProperties: false },
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false },
  },
  {
    name: CALL_READ_ONLY_TOOL,
    description:
      'Run a read-only tool (annotations.readOnlyHint: true) with its arguments; the result is ' +
      "that tool's own. A tool that changes anything is refused here: run it with call_tool.",
    inputSchema: CALL_INPUT,
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false },
  },
  {
    name: CALL_TOOL,
    description:
      "Run any tool with its arguments; the result is that tool's own. It may change or delete things: " +
      "check the tool's annotations (describe_tool) first, and prefer call_read_only_tool for a read-only tool.",
    inputSchema: CALL_INPUT,
    annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: true },
  },
];

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a tool changes nothing (its annotations say read-only): what `call_read_only_tool` runs. */
function readOnly(ref: ToolRef): boolean {
  return toolAnnotations(ref.command)?.readOnlyHint === true;
}

/** The call tool that runs `ref`. */
function callWith(ref: ToolRef): string {
  return readOnly(ref) ? CALL_READ_ONLY_TOOL : CALL_TOOL;
}

/**
 * A next step's call on this server: the call tool that runs `tool` (by its effects, as `call_with`
 * says) with the inner name and arguments; `call_tool` for a name no tool has.
 */
function via(model: McpModel, tool: string, args: Record<string, unknown>) {
  const ref = model.byName.get(tool);
  return { tool: ref ? callWith(ref) : CALL_TOOL, arguments: { name: tool, arguments: args } };
}

/** The arguments of a fixed tool, checked against its inputSchema. @throws AxError validation_error. */
function checked(tool: ToolDef, args: unknown): Record<string, unknown> {
  const a = args ?? {};
  if (!isObj(a)) throw validationError('tool arguments must be a JSON object', 'invalid_arguments');
  const schema = tool.inputSchema as { properties: Record<string, { type: string }>; required: string[] };
  for (const k of Object.keys(a))
    if (!Object.hasOwn(schema.properties, k))
      throw validationError(`unknown property ${JSON.stringify(k)}`, 'unknown_property', {
        context: { property: k, tool: tool.name },
        fix: `Pass only ${Object.keys(schema.properties).join(', ')}.`,
      });
  for (const k of schema.required)
    if (a[k] === undefined || a[k] === null)
      throw validationError(`missing required property ${JSON.stringify(k)}`, 'missing_required_property', {
        context: { property: k, tool: tool.name },
        fix: `Pass ${k}.`,
      });
  for (const [k, v] of Object.entries(a)) {
    const type = schema.properties[k]!.type;
    const ok =
      v === null ||
      (type === 'object'
        ? isObj(v)
        : type === 'integer'
          ? Number.isInteger(v) && (v as number) >= 1 && (v as number) <= MAX_LIMIT
          : typeof v === type);
    if (!ok)
      throw validationError(
        `property ${k} must be ${type === 'integer' ? `an integer from 1 to ${MAX_LIMIT}` : `a JSON ${type}`}`,
        'invalid_property_value',
        { context: { property: k, tool: tool.name }, fix: `Pass ${k} as the inputSchema describes.` },
      );
  }
  return a;
}

/** The tool named `name`, or an error that points to search_tools. @throws AxError validation_error. */
function refNamed(model: McpModel, name: string): ToolRef {
  const ref = model.byName.get(name);
  if (ref) return ref;
  throw validationError(`no tool is named ${JSON.stringify(name)}`, 'unknown_tool', {
    context: { tool: name },
    fix: 'Find the tool with search_tools, and use the name it gives.',
  });
}

/** A successful fixed-tool result: the object as text and as structuredContent. */
function objectResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

/** `tools/list` in progressive mode. */
export function progressiveList(): ToolDef[] {
  return [...PROGRESSIVE_TOOLS];
}

/**
 * A `tools/call` in progressive mode. Bad arguments to a fixed tool (a missing name, a tool that
 * does not exist, a tool that is not read-only given to `call_read_only_tool`) are `isError`
 * results with a `validation_error` (exit 2), as a direct call's bad arguments are; what the called
 * tool itself does is its ToolCall's. @throws a JSON-RPC -32602 for a name that is none of the four
 * (a command's own tool name among them: this server lists only the four).
 */
export async function progressiveCall(
  model: McpModel,
  options: McpServerOptions,
  name: string,
  args: unknown,
  extra: CallExtra,
): Promise<CallToolResult> {
  const tool = PROGRESSIVE_TOOLS.find((t) => t.name === name);
  if (!tool) {
    const hint = model.byName.has(name) ? `; run it with ${CALL_TOOL} {"name": ${JSON.stringify(name)}, …}` : '';
    throw rpcError(-32602, `Unknown tool: ${name} (this server lists only its four discovery tools${hint})`, {
      available: PROGRESSIVE_TOOLS.map((t) => t.name),
    });
  }
  let call: { name: string; args: unknown };
  try {
    const a = checked(tool, args);
    if (name === SEARCH_TOOLS) return search(model, a.query as string, (a.limit as number | null | undefined) ?? 20);
    const wanted = a.name as string;
    // a name no loaded tool has, below a lazy subtree that failed to load: its ToolCall answers
    // with the load error and runs nothing (a loaded tool goes through the read-only check below)
    if (name !== DESCRIBE_TOOL && unloadedTool(model, wanted)) call = { name: wanted, args: a.arguments ?? {} };
    else {
      const ref = refNamed(model, wanted);
      if (name === DESCRIBE_TOOL)
        return objectResult({ ...extra.era.toolEntry(model, ref), call_with: callWith(ref) } as never);
      if (name === CALL_READ_ONLY_TOOL && !readOnly(ref))
        throw validationError(
          `${ref.name} is not read-only: ${CALL_READ_ONLY_TOOL} runs only read-only tools`,
          'not_read_only',
          {
            context: { tool: ref.name },
            fix: `Run it with ${CALL_TOOL}, which may change things (the client may ask the user first).`,
          },
        );
      call = { name: ref.name, args: a.arguments ?? {} };
    }
  } catch (e) {
    if (!(e instanceof AxError)) throw e;
    const envelope = errorOf(model, options, extra, e);
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(envelope) }], structuredContent: envelope };
  }
  return new ToolCall(model, options, call.name, call.args, {
    ...extra,
    toolVia: (tool, args) => via(model, tool, args),
  }).answer();
}

/** `search_tools`' result: how many tools match, and the first `limit` of them. */
function search(model: McpModel, query: string, limit: number): CallToolResult {
  const hits = searchRefs(model.refs, query);
  return objectResult({
    total: hits.length,
    tools: hits.slice(0, limit).map((h) => {
      const ref = model.byName.get(h.tool)!;
      const annotations = toolAnnotations(ref.command);
      return {
        name: h.tool,
        command: h.command,
        description: h.short,
        ...(annotations ? { annotations } : {}),
        call_with: callWith(ref),
      };
    }),
  });
}
