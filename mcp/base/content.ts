/**
 * MCP content items from what commands and declarations hold: bytes as image/audio content or a
 * base64 `blob`, declared resources as embedded `resource` items, prompts as messages with their
 * embedded resources and images before the text. Source: MCP 2025-11-25 server features (tools
 * "Tool Result" content types, resources "Resource Contents", prompts "Embedded Resources").
 */
import {
  readDeclared,
  renderTemplate,
  type PromptDecl,
  type ResourceContent,
  type ResourceDecl,
} from '../../lib/tree/declarations.ts';
import { rpcError } from './eras.ts';

/** A `resources/read` entry (or an embedded resource): `text`, or `blob` (base64) for bytes. */
export function resourceContents(rc: ResourceContent): Record<string, unknown> {
  const base = { uri: rc.uri, ...(rc.mimeType ? { mimeType: rc.mimeType } : {}) };
  return rc.bytes ? { ...base, blob: base64(rc.bytes) } : { ...base, text: rc.text ?? '' };
}

/** Base64 of bytes (no copy for a Buffer). */
export function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** `image` or `audio` for a media type that is one, else undefined. */
function mediaKind(mimeType: string | undefined): 'image' | 'audio' | undefined {
  const t = (mimeType ?? '').toLowerCase();
  return t.startsWith('image/') ? 'image' : t.startsWith('audio/') ? 'audio' : undefined;
}

/** One attached resource as a content item: image/audio for image/audio bytes, else an embedded resource. */
export function attachmentItem(rc: ResourceContent): Record<string, unknown> {
  const kind = mediaKind(rc.mimeType);
  if (rc.bytes && kind) return { type: kind, data: base64(rc.bytes), mimeType: rc.mimeType };
  return { type: 'resource', resource: resourceContents(rc) };
}

/**
 * The content item for an opaque command's bytes: image/audio content for an image/audio media
 * type, else an embedded resource `urn:ax-ts:output:<tool>` carrying the bytes as a blob.
 */
export function bytesItem(bytes: Uint8Array, mediaType: string | undefined, tool: string): Record<string, unknown> {
  const kind = mediaKind(mediaType);
  if (kind) return { type: kind, data: base64(bytes), mimeType: mediaType };
  return {
    type: 'resource',
    resource: {
      uri: `urn:ax-ts:output:${tool}`,
      mimeType: mediaType ?? 'application/octet-stream',
      blob: base64(bytes),
    },
  };
}

/**
 * `prompts/get` messages: one user message per embedded resource (in declared order), then the
 * rendered template as a text message. @throws a JSON-RPC error -32602 when an embedded URI names no declared
 * resource, or an image/audio embed names one without image/audio bytes.
 */
export function promptMessages(
  decl: PromptDecl,
  given: Record<string, string | undefined>,
  resources: readonly ResourceDecl[],
): Record<string, unknown>[] {
  const declared = (decl.arguments ?? []).map((a) => a.name);
  const messages: Record<string, unknown>[] = [];
  for (const e of decl.embed ?? []) {
    const [kind, raw] = Object.entries(e)[0] as ['resource' | 'image' | 'audio', string];
    const uri = renderTemplate(raw, declared, given);
    const rc = readDeclared(resources, uri);
    if (!rc) throw rpcError(-32602, `Prompt ${decl.name} embeds ${uri}, which is not a declared resource`, { uri });
    if (kind === 'resource') {
      messages.push({ role: 'user', content: { type: 'resource', resource: resourceContents(rc) } });
      continue;
    }
    if (!rc.bytes || mediaKind(rc.mimeType) !== kind) {
      throw rpcError(
        -32602,
        `Prompt ${decl.name} embeds ${uri} as ${kind}, but that resource ` +
          `is not ${kind} bytes (mimeType ${rc.mimeType ?? 'none'})`,
        { uri },
      );
    }
    messages.push({ role: 'user', content: { type: kind, data: base64(rc.bytes), mimeType: rc.mimeType } });
  }
  messages.push({ role: 'user', content: { type: 'text', text: renderTemplate(decl.template, declared, given) } });
  return messages;
}
