/**
 * `__schema --as=llms`: an MCP-`tools/list`-shaped manifest for agents that shell out instead of
 * speaking MCP. Its first entry is a documentation-only `help` tool carrying the calling convention;
 * the other tools are exactly the MCP tools (same walk, same inputSchema), run with `--args-json`.
 */
import type { Command } from '../tree/command.ts';
import { validationError } from '../contract/errors.ts';
import { ERROR_LINE_SCHEMA, keyOutline } from '../contract/line-schemas.ts';
import { injectedInForce } from '../tree/flagset.ts';
import { isWithin, toolDef, toolRefs } from './walk.ts';

/** The error line's keys the calling convention names, rendered from the line's schema. */
const ERROR_KEYS = keyOutline(ERROR_LINE_SCHEMA.properties.error, [
  'kind',
  'message',
  'exit_code',
  'retryable',
  'actionable_fix',
  'suggestions',
  'context',
]);

/** The calling convention, as the `help` entry's description. */
export function callingConvention(root: Command, refs = toolRefs(root)): string {
  const p = root.name;
  const opaque = refs.filter((r) => r.command.output?.kind === 'opaque').map((r) => r.name);
  const ownFormat = refs.filter((r) => !injectedInForce(r.command, 'format')).map((r) => r.name);
  const lines = [
    `Documentation only: do not call this entry. Every other tool is a command of the "${p}" program.`,
    `To run tool T with arguments A (a JSON object shaped like T's inputSchema), ` +
      `run: ${p} <command words of T> --args-json '<A as JSON>' --format json`,
    `Success: exit code 0 and stdout holds one line ` +
      `{"data":<payload>,"meta":{...}} (a stream: one such line per item).`,
    ...(opaque.length
      ? [`Except: ${opaque.join(', ')} print${opaque.length === 1 ? 's' : ''} raw output (no envelope) on success.`]
      : []),
    ...(ownFormat.length
      ? [
          `For ${ownFormat.join(', ')}, leave out --format json: there --format is the ` +
            `command's own argument (piped output is JSON anyway; AGENT_MODE=1 forces it).`,
        ]
      : []),
    `Failure: a non-zero exit code, nothing more on stdout, and the last stderr line is ` +
      `{"error":{${ERROR_KEYS}},"meta":{...}}.`,
    `Exit codes: 0 success, 1 internal, 2 invalid input (fix the arguments, do not retry as is), 3 ` +
      `network/timeout (retry may help), 4 auth, 130 interrupted; others are listed by "${p} __schema" under errors.`,
    `Tools and their commands: ${refs.map((r) => `${r.name} = ${r.command.commandPath()}`).join('; ')}.`,
  ];
  return lines.join('\n');
}

/**
 * The manifest: `{tools: [help, ...MCP tools]}` (with `within`, the tools of that subtree only).
 * @throws AxError validation_error like `__schema --as=mcp`, and (reason `tool_name_collision`)
 * when a tool is named `help` (e.g. with mcp.toolName): that name is reserved for the documentation
 * entry here, never silently duplicated.
 */
export function llmsDocument(root: Command, within?: Command): Record<string, unknown> {
  const all = toolRefs(root);
  const refs = all.filter((r) => isWithin(r.command, within));
  const taken = all.find((r) => r.name === 'help');
  if (taken) {
    throw validationError(
      `command ${JSON.stringify(taken.command.commandPath())} gives the tool ` +
        `name "help", which the llms manifest reserves for its documentation entry`,
      'tool_name_collision',
      {
        context: { tool: taken.name, command: taken.command.commandPath() },
        fix: 'Give the command another tool name with mcp.toolName(cmd, "…").',
      },
    );
  }
  const help = {
    name: 'help',
    description: callingConvention(root, refs),
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false },
  };
  return { tools: [help, ...refs.map(toolDef)] };
}
