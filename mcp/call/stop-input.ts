/**
 * A stop the client can answer, as a 2026-07-28 `input_required` result
 * (docs/mcp-server.md#2026-07-28-input_required-results). Multi round-trip requests ask the
 * client with an `elicitation/create`, `sampling/createMessage` or `roots/list` request and then
 * retry the original request with the answer (MCP 2026-07-28 "Multi Round-Trip Requests",
 * basic/patterns/mrtr). A `ctx.actionRequired` stop fits when its one next step is the very call
 * that stopped with values to fill in (`['deploy', '--region', '<region>']`): that is a form whose
 * fields are those properties, and the retry runs the call with the answers added. A stop whose
 * next step is another tool call (log in first) does not fit — an input request is answered by
 * the client, not by running some other tool — and stays the structured result with `next`.
 */
import type { InvokeResult } from '../../lib/run/invoke.ts';
import type { ToolDef } from '../../lib/schema/walk.ts';
import type { InputRequest, StopFill } from './input-required.ts';

/** The `inputRequests` key of a stop's form. */
export const STOP_KEY = 'action_required';

/** The keywords of a property schema an elicitation form field may carry (primitive fields only). */
const FIELD_KEYWORDS = [
  'type',
  'title',
  'description',
  'enum',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'format',
  'default',
];
const PRIMITIVE = new Set(['string', 'number', 'integer', 'boolean']);
const PLACEHOLDER = /^<[A-Za-z0-9_-]+>$/;

/** A property's schema as a form field (its non-null branch), or undefined when it is no primitive. */
function fieldSchema(schema: unknown): Record<string, unknown> | undefined {
  let s = schema as Record<string, unknown> | undefined;
  if (Array.isArray(s?.anyOf)) {
    const branches = (s.anyOf as Record<string, unknown>[]).filter((b) => b?.type !== 'null');
    if (branches.length !== 1) return undefined;
    s = { ...branches[0], ...(s.description !== undefined ? { description: s.description } : {}) };
  }
  if (!s || typeof s.type !== 'string' || !PRIMITIVE.has(s.type)) return undefined;
  return Object.fromEntries(FIELD_KEYWORDS.filter((k) => s[k] !== undefined).map((k) => [k, s[k]]));
}

/**
 * The form a stop asks, when the run of tool `name` ended in a `ctx.actionRequired` stop whose one
 * next step calls `name` again with `<placeholder>` values, each a primitive property of the
 * tool's inputSchema: the `elicitation/create` request (the stop's message; one required field per
 * placeholder) and what the retry adds. Otherwise undefined (the stop stays a structured result).
 */
export function stopForm(
  name: string,
  def: ToolDef,
  r: InvokeResult,
): { request: InputRequest; fill: StopFill } | undefined {
  const error = r.error;
  if (r.exitCode === 0 || error?.kind !== 'action_required' || error.next?.length !== 1) return undefined;
  const step = error.next[0]!;
  if (step.tool !== name || !step.arguments) return undefined;
  const props = (def.inputSchema as { properties?: Record<string, unknown> }).properties ?? {};
  const fields: string[] = [];
  const fixed: Record<string, unknown> = {};
  const properties: Record<string, Record<string, unknown>> = {};
  for (const [k, v] of Object.entries(step.arguments)) {
    if (typeof v !== 'string' || !PLACEHOLDER.test(v)) {
      fixed[k] = v;
      continue;
    }
    const field = fieldSchema(props[k]);
    if (!field) return undefined;
    properties[k] = field;
    fields.push(k);
  }
  if (!fields.length) return undefined;
  const message = `${error.message ?? ''}${step.description ? ` (${step.description})` : ''}`;
  return {
    request: {
      method: 'elicitation/create',
      params: { message, requestedSchema: { type: 'object', properties, required: fields } },
    },
    fill: { fixed, fields },
  };
}
