/**
 * `declarePrompt` / `declareResource`: static MCP prompts and resources declared on commands, with
 * every rule checked at declaration time. Source: SPEC §7; ax-go schema/declarations.go (field
 * names and stable reasons).
 */
import { AxError } from '../contract/errors.ts';

/** One argument of a prompt. */
export interface PromptArgument {
  /** `^[A-Za-z0-9_.-]+$`, unique within the prompt. */
  name: string;
  title?: string;
  description?: string;
  /** Default false. */
  required?: boolean;
}

/** A prompt: a text template whose `{{name}}` placeholders name declared arguments. */
export interface PromptDecl {
  /** `^[A-Za-z0-9_.-]+$`, unique across the tree. */
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  /** The text, at most 64 KiB of UTF-8. `{{name}}` is replaced; any other brace text is literal. */
  template: string;
}

/** A static resource (fixed `uri`) or a resource template (`uriTemplate` with `{var}` parts). */
export interface ResourceDecl {
  /** Absolute URI with a scheme (`yourcli://docs/x`, `urn:yourcli:x`), ≤ 2048 bytes, no spaces or control characters. */
  uri?: string;
  /** RFC 6570 level-1 template (`yourcli://logs/{date}`) instead of `uri`; same character rules. */
  uriTemplate?: string;
  name: string;
  title?: string;
  description?: string;
  /** MIME type; spaces allowed, control characters not. */
  mimeType?: string;
  /** Static text served by `resources/read` (≤ 1 MiB UTF-8); for a template, `{var}` is replaced. Never projected into `__schema`. */
  content?: string;
}

/** Limits of SPEC §7, in bytes of UTF-8. */
export const DECLARATION_LIMITS = { templateBytes: 64 * 1024, uriBytes: 2048, contentBytes: 1024 * 1024 } as const;

const NAME_RE = /^[A-Za-z0-9_.-]+$/;

export function declarationError(kind: 'prompt' | 'resource', key: string, field: string, reason: string, fix: string): AxError {
  return new AxError('invalid_schema_declaration', `invalid ${kind} declaration ${JSON.stringify(key)}: ${field} ${reason.replace(/_/g, ' ')}`, {
    context: { field, reason },
    fix,
  });
}

function wellFormed(s: string): boolean {
  return (s as string & { isWellFormed(): boolean }).isWellFormed();
}

function bytes(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** Names referenced as `{{name}}` (exactly, no spaces) in a template, in order. */
export function templatePlaceholders(template: string): string[] {
  const out: string[] = [];
  for (const m of template.matchAll(/\{\{([^{}]*)\}\}/g)) if (NAME_RE.test(m[1]!)) out.push(m[1]!);
  return out;
}

/** Replaces declared `{{name}}` placeholders; absent values become empty text, other braces stay. */
export function renderTemplate(template: string, declared: readonly string[], values: Record<string, string | undefined>): string {
  return template.replace(/\{\{([^{}]*)\}\}/g, (whole, name: string) => (declared.includes(name) ? values[name] ?? '' : whole));
}

function checkText(kind: 'prompt' | 'resource', key: string, field: string, value: string | undefined): void {
  if (value !== undefined && (typeof value !== 'string' || !wellFormed(value))) {
    throw declarationError(kind, key, field, 'invalid_utf8', `Make ${field} valid UTF-8 text (no lone surrogates).`);
  }
}

function checkName(kind: 'prompt' | 'resource', key: string, field: string, name: unknown): void {
  if (typeof name !== 'string' || name === '') throw declarationError(kind, key, field, 'required', `Give ${field} a non-empty name.`);
  if (!wellFormed(name)) throw declarationError(kind, key, field, 'invalid_utf8', `Make ${field} valid UTF-8 text (no lone surrogates).`);
  if (!NAME_RE.test(name)) throw declarationError(kind, key, field, 'invalid_charset', `Use only letters, digits, "_", "." and "-" in ${field}.`);
}

/**
 * Validates a prompt. @throws AxError `invalid_schema_declaration` (exit 2), `context: {field, reason}`
 * with reason one of `required`, `invalid_charset`, `duplicate`, `invalid_utf8`, `too_long`,
 * `undeclared_placeholder`.
 */
export function validatePrompt(p: PromptDecl): void {
  const key = typeof p?.name === 'string' ? p.name : '';
  checkName('prompt', key, 'name', p?.name);
  checkText('prompt', key, 'title', p.title);
  checkText('prompt', key, 'description', p.description);
  const declared = new Set<string>();
  (p.arguments ?? []).forEach((a, i) => {
    const field = `arguments[${i}].name`;
    checkName('prompt', key, field, a?.name);
    if (declared.has(a.name)) throw declarationError('prompt', key, field, 'duplicate', `Give each argument of prompt ${key} a distinct name.`);
    declared.add(a.name);
    checkText('prompt', key, `arguments[${i}].title`, a.title);
    checkText('prompt', key, `arguments[${i}].description`, a.description);
  });
  if (typeof p.template !== 'string' || p.template === '') throw declarationError('prompt', key, 'template', 'required', 'Give the prompt a non-empty template.');
  checkText('prompt', key, 'template', p.template);
  if (bytes(p.template) > DECLARATION_LIMITS.templateBytes) {
    throw declarationError('prompt', key, 'template', 'too_long', `Shorten the template to at most ${DECLARATION_LIMITS.templateBytes} bytes of UTF-8.`);
  }
  for (const name of templatePlaceholders(p.template)) {
    if (!declared.has(name)) throw declarationError('prompt', key, 'template', 'undeclared_placeholder', `Declare an argument named ${JSON.stringify(name)}, or remove {{${name}}} from the template.`);
  }
}

function checkUri(key: string, field: 'uri' | 'uriTemplate', uri: string): void {
  if (!wellFormed(uri)) throw declarationError('resource', key, field, 'invalid_utf8', `Make ${field} valid UTF-8.`);
  if (bytes(uri) > DECLARATION_LIMITS.uriBytes) throw declarationError('resource', key, field, 'too_long', `Shorten ${field} to at most ${DECLARATION_LIMITS.uriBytes} bytes.`);
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f-\u009f]/u.test(uri)) throw declarationError('resource', key, field, 'invalid_character', `Remove spaces and control characters from ${field} (percent-encode them).`);
  const probe = field === 'uriTemplate' ? uri.replace(/\{[A-Za-z0-9_]+\}/g, 'x') : uri;
  let ok = /^[A-Za-z][A-Za-z0-9+.-]*:/.test(probe);
  if (ok) {
    try {
      new URL(probe);
    } catch {
      ok = false;
    }
  }
  if (!ok) throw declarationError('resource', key, field, 'not_absolute', `Give ${field} a scheme, e.g. "yourcli://docs/x" or "urn:yourcli:x".`);
}

/**
 * Validates a resource. @throws AxError `invalid_schema_declaration` (exit 2), reasons `required`,
 * `too_long`, `invalid_utf8`, `invalid_character`, `not_absolute`, `invalid_charset`.
 */
export function validateResource(r: ResourceDecl): void {
  const key = r?.uri ?? r?.uriTemplate ?? '';
  if ((r.uri === undefined || r.uri === '') === (r.uriTemplate === undefined || r.uriTemplate === '')) {
    throw declarationError('resource', key, 'uri', 'required', 'Give exactly one of uri or uriTemplate.');
  }
  if (r.uri) checkUri(key, 'uri', r.uri);
  else checkUri(key, 'uriTemplate', r.uriTemplate!);
  if (typeof r.name !== 'string' || r.name === '') throw declarationError('resource', key, 'name', 'required', 'Give the resource a name.');
  for (const f of ['name', 'title', 'description', 'mimeType'] as const) checkText('resource', key, f, r[f]);
  // eslint-disable-next-line no-control-regex
  if (r.mimeType !== undefined && /[\u0000-\u001f\u007f]/.test(r.mimeType)) {
    throw declarationError('resource', key, 'mimeType', 'invalid_character', 'Remove control characters from mimeType.');
  }
  if (r.content !== undefined) {
    checkText('resource', key, 'content', r.content);
    if (bytes(r.content) > DECLARATION_LIMITS.contentBytes) {
      throw declarationError('resource', key, 'content', 'too_long', `Keep static content at most ${DECLARATION_LIMITS.contentBytes} bytes of UTF-8, or serve it from a command.`);
    }
  }
}
