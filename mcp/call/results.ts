/**
 * A tools/call's result from a finished run (docs/mcp-server.md#toolscall): the envelope as the text
 * the model reads, `structuredContent`, attachments and bytes as content items, and what the handler
 * printed (docs/mcp-server.md#printed-output) — shaped where eras differ by the client's era.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { InvokeResult } from '../../lib/run/invoke.ts';
import { toolWrapping, type ToolRef } from '../../lib/schema/walk.ts';
import { attachmentItem, bytesItem } from '../base/content.ts';
import type { Era } from './era.ts';

/**
 * A failed call as the tools/call result: isError, the error envelope (`{error, meta}`: kind,
 * message, `actionable_fix`, `context.reason`, a stop's `next` steps) as the text the model reads,
 * and the same object as `structuredContent` (docs/mcp-server.md#toolscall) when the era says so
 * (Era.failureStructured).
 */
export function failureResult(
  ref: ToolRef,
  envelope: Record<string, unknown>,
  era: Era,
  stdout = '',
  printed = '',
): CallToolResult {
  const content = [{ type: 'text' as const, text: JSON.stringify(envelope) }, ...textItems(stdout, printed)];
  const result: CallToolResult = { isError: true, content };
  if (era.failureStructured(toolWrapping(ref.command))) result.structuredContent = envelope;
  return result;
}

/**
 * Text items that follow a result's first item, each only when not empty: what a failed command
 * delivered before it failed (a stream's items, as on the CLI's stdout: not dropped), then what the
 * handler printed (printed.ts; docs/mcp-server.md#printed-output).
 */
function textItems(...texts: string[]): { type: 'text'; text: string }[] {
  return texts.filter((t) => t !== '').map((text) => ({ type: 'text', text }));
}

/**
 * A finished call as the tools/call result: isError with the error line, or the envelope and
 * structuredContent — an object payload as it is, any other as its era shapes it (Era.structured).
 */
export function toolResult(ref: ToolRef, name: string, r: InvokeResult, era: Era, printed: string): CallToolResult {
  if (r.exitCode !== 0) {
    if (r.errorEnvelope) return failureResult(ref, r.errorEnvelope, era, r.stdout, printed);
    return { isError: true, content: [{ type: 'text', text: r.stderr.trim() }, ...textItems(r.stdout, printed)] };
  }
  const output = ref.command.output;
  const attached = r.attachments?.length ? r.attachments.map(attachmentItem) : undefined;
  if (output?.kind === 'opaque' && r.payload instanceof Uint8Array) {
    // bytes: the item itself is the result (there is no text to give); attachments follow
    const items = [bytesItem(r.payload, output.mediaType, name), ...(attached ?? []), ...textItems(printed)];
    return { content: items as CallToolResult['content'] };
  }
  const text = { type: 'text' as const, text: r.stdout };
  const items = [text, ...(attached ?? []), ...textItems(printed)];
  const result: CallToolResult = { content: items as CallToolResult['content'] };
  const wrapping = toolWrapping(ref.command);
  if (wrapping === 'object') result.structuredContent = (r.payload ?? {}) as Record<string, unknown>;
  else if (wrapping === 'result') result.structuredContent = era.structured('result', r.payload ?? null) as never;
  else if (wrapping === 'items') result.structuredContent = era.structured('items', r.items ?? []) as never;
  else if (wrapping === 'page') result.structuredContent = { items: r.payload ?? [], pagination: r.pagination ?? null };
  return result;
}
