/**
 * The rules of `declarePrompt` / `declareResource`, checked at declaration time and again by every
 * walk (docs/schema.md#declaration-rules): names, text, URIs and templates, sizes, fields; and the
 * frozen copies a declaration is kept as. Source: ax-go schema/declarations.go (field names and
 * stable reasons).
 */
import { AxError } from '../contract/errors.ts';
import type { PromptArgument, PromptDecl, PromptEmbed, ResourceDecl } from './declarations.ts';

/** Limits of docs/schema.md#declaration-rules, in bytes of UTF-8. */
export const DECLARATION_LIMITS = { templateBytes: 64 * 1024, uriBytes: 2048, contentBytes: 1024 * 1024 } as const;

const NAME_RE = /^[A-Za-z0-9_.-]+$/;

export function declarationError(
  kind: 'prompt' | 'resource',
  key: string,
  field: string,
  reason: string,
  fix: string,
): AxError {
  return new AxError(
    'invalid_schema_declaration',
    `invalid ${kind} declaration ${JSON.stringify(key)}: ${field} ${reason.replace(/_/g, ' ')}`,
    {
      context: { field, reason },
      fix,
    },
  );
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

type Kind = 'prompt' | 'resource';

/** Whether a value is a non-null, non-array object (a declaration record). */
function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What a value is, for messages: `null`, `array`, `function`, `symbol`, `number`… */
function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v;
}

function checkRecord(
  kind: Kind,
  key: string,
  field: string,
  v: unknown,
  allowed: readonly string[],
  what: string,
): asserts v is Record<string, unknown> {
  if (!isRecord(v)) throw declarationError(kind, key, field, 'invalid_type', `Pass ${what} (got ${typeName(v)}).`);
  for (const k of Object.keys(v)) {
    if (!allowed.includes(k))
      throw declarationError(
        kind,
        key,
        field === '(declaration)' ? k : `${field}.${k}`,
        'unknown_field',
        `Remove ${JSON.stringify(k)}: ${what} has only ${allowed.join(', ')}.`,
      );
  }
}

function checkText(kind: Kind, key: string, field: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'string')
    throw declarationError(
      kind,
      key,
      field,
      'invalid_type',
      `Make ${field} a string (got ${typeName(value)}), or leave it out.`,
    );
  if (!wellFormed(value))
    throw declarationError(kind, key, field, 'invalid_utf8', `Make ${field} valid UTF-8 text (no lone surrogates).`);
}

function checkName(kind: Kind, key: string, field: string, name: unknown): asserts name is string {
  if (name === undefined || name === '')
    throw declarationError(kind, key, field, 'required', `Give ${field} a non-empty name.`);
  if (typeof name !== 'string')
    throw declarationError(kind, key, field, 'invalid_type', `Make ${field} a string (got ${typeName(name)}).`);
  if (!wellFormed(name))
    throw declarationError(kind, key, field, 'invalid_utf8', `Make ${field} valid UTF-8 text (no lone surrogates).`);
  if (!NAME_RE.test(name))
    throw declarationError(
      kind,
      key,
      field,
      'invalid_charset',
      `Use only letters, digits, "_", "." and "-" in ${field}.`,
    );
}

const PROMPT_FIELDS = ['name', 'title', 'description', 'arguments', 'template', 'embed'] as const;
const ARGUMENT_FIELDS = ['name', 'title', 'description', 'required'] as const;
const RESOURCE_FIELDS = ['uri', 'uriTemplate', 'name', 'title', 'description', 'mimeType', 'content'] as const;

/**
 * Validates a prompt; any value (wrong types, `null`, functions, symbols, unknown fields) is refused
 * with an AxError, never a raw TypeError. @throws AxError `invalid_schema_declaration` (exit 2),
 * `context: {field, reason}` with reason one of `invalid_type`, `unknown_field`, `required`,
 * `invalid_charset`, `duplicate`, `invalid_utf8`, `too_long`, `undeclared_placeholder`.
 */
export function validatePrompt(p: unknown): asserts p is PromptDecl {
  const key = isRecord(p) && typeof p.name === 'string' ? p.name : '';
  checkRecord(
    'prompt',
    key,
    '(declaration)',
    p,
    PROMPT_FIELDS,
    'a prompt declaration {name, template, title?, description?, arguments?, embed?}',
  );
  checkName('prompt', key, 'name', p.name);
  checkText('prompt', key, 'title', p.title);
  checkText('prompt', key, 'description', p.description);
  const declared = new Set<string>();
  if (p.arguments !== undefined && !Array.isArray(p.arguments)) {
    throw declarationError(
      'prompt',
      key,
      'arguments',
      'invalid_type',
      `Make arguments an array of {name, description?, required?} (got ${typeName(p.arguments)}).`,
    );
  }
  ((p.arguments ?? []) as unknown[]).forEach((a, i) => {
    const field = `arguments[${i}]`;
    checkRecord('prompt', key, field, a, ARGUMENT_FIELDS, 'a prompt argument {name, title?, description?, required?}');
    checkName('prompt', key, `${field}.name`, a.name);
    if (declared.has(a.name))
      throw declarationError(
        'prompt',
        key,
        `${field}.name`,
        'duplicate',
        `Give each argument of prompt ${key} a distinct name.`,
      );
    declared.add(a.name);
    checkText('prompt', key, `${field}.title`, a.title);
    checkText('prompt', key, `${field}.description`, a.description);
    if (a.required !== undefined && typeof a.required !== 'boolean')
      throw declarationError(
        'prompt',
        key,
        `${field}.required`,
        'invalid_type',
        `Make ${field}.required true or false (got ${typeName(a.required)}).`,
      );
  });
  if (p.template === undefined || p.template === '')
    throw declarationError('prompt', key, 'template', 'required', 'Give the prompt a non-empty template.');
  checkText('prompt', key, 'template', p.template);
  const template = p.template as string;
  if (bytes(template) > DECLARATION_LIMITS.templateBytes) {
    throw declarationError(
      'prompt',
      key,
      'template',
      'too_long',
      `Shorten the template to at most ${DECLARATION_LIMITS.templateBytes} bytes of UTF-8.`,
    );
  }
  for (const name of templatePlaceholders(template)) {
    if (!declared.has(name))
      throw declarationError(
        'prompt',
        key,
        'template',
        'undeclared_placeholder',
        `Declare an argument named ${JSON.stringify(name)}, or remove {{${name}}} from the template.`,
      );
  }
  if (p.embed !== undefined && !Array.isArray(p.embed))
    throw declarationError(
      'prompt',
      key,
      'embed',
      'invalid_shape',
      'Give embed as a list of {resource: uri}, {image: uri} or {audio: uri}.',
    );
  ((p.embed ?? []) as unknown[]).forEach((e, i) => {
    const field = `embed[${i}]`;
    const keys = e && typeof e === 'object' ? Object.keys(e) : [];
    const uri = keys.length === 1 ? (e as Record<string, unknown>)[keys[0]!] : undefined;
    if (
      keys.length !== 1 ||
      !['resource', 'image', 'audio'].includes(keys[0]!) ||
      typeof uri !== 'string' ||
      uri === ''
    ) {
      throw declarationError(
        'prompt',
        key,
        field,
        'invalid_shape',
        'Give each embed exactly one of resource, image or audio, naming a declared resource URI.',
      );
    }
    checkText('prompt', key, field, uri);
    for (const name of templatePlaceholders(uri)) {
      if (!declared.has(name))
        throw declarationError(
          'prompt',
          key,
          field,
          'undeclared_placeholder',
          `Declare an argument named ${JSON.stringify(name)}, or remove {{${name}}} from the embedded URI.`,
        );
    }
  });
}

function checkUri(key: string, field: 'uri' | 'uriTemplate', uri: string): void {
  if (!wellFormed(uri)) throw declarationError('resource', key, field, 'invalid_utf8', `Make ${field} valid UTF-8.`);
  if (bytes(uri) > DECLARATION_LIMITS.uriBytes)
    throw declarationError(
      'resource',
      key,
      field,
      'too_long',
      `Shorten ${field} to at most ${DECLARATION_LIMITS.uriBytes} bytes.`,
    );
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f-\u009f]/u.test(uri))
    throw declarationError(
      'resource',
      key,
      field,
      'invalid_character',
      `Remove spaces and control characters from ${field} (percent-encode them).`,
    );
  if (/%(?![0-9A-Fa-f]{2})/.test(uri))
    throw declarationError(
      'resource',
      key,
      field,
      'invalid_percent_encoding',
      `Write every "%" in ${field} as a percent-escape of two hex digits (a literal "%" is "%25").`,
    );
  let probe = uri;
  if (field === 'uriTemplate') {
    probe = uri.replace(/\{[A-Za-z0-9_]+\}/g, 'x');
    if (/[{}]/.test(probe))
      throw declarationError(
        'resource',
        key,
        field,
        'invalid_template',
        'Write each template variable as {name} (letters, digits, "_"); percent-encode other braces.',
      );
  }
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(probe))
    throw declarationError(
      'resource',
      key,
      field,
      'not_absolute',
      `Give ${field} a scheme, e.g. "yourcli://docs/x" or "urn:yourcli:x".`,
    );
  try {
    new URL(probe);
  } catch {
    throw declarationError(
      'resource',
      key,
      field,
      'invalid_uri',
      `Make ${field} a URI that parses (RFC 3986), e.g. "yourcli://docs/x".`,
    );
  }
}

/**
 * Validates a resource; any value (wrong types, `null`, functions, symbols, unknown fields) is
 * refused with an AxError, never a raw TypeError. @throws AxError `invalid_schema_declaration`
 * (exit 2), reasons `invalid_type`, `unknown_field`, `required`, `too_long`, `invalid_utf8`,
 * `invalid_character`, `invalid_percent_encoding`, `invalid_template`, `not_absolute`, `invalid_uri`.
 */
export function validateResource(r: unknown): asserts r is ResourceDecl {
  const key = isRecord(r)
    ? typeof r.uri === 'string'
      ? r.uri
      : typeof r.uriTemplate === 'string'
        ? r.uriTemplate
        : ''
    : '';
  checkRecord(
    'resource',
    key,
    '(declaration)',
    r,
    RESOURCE_FIELDS,
    'a resource declaration {uri or uriTemplate, name, title?, description?, mimeType?, content?}',
  );
  for (const f of ['uri', 'uriTemplate'] as const) {
    if (r[f] !== undefined && typeof r[f] !== 'string')
      throw declarationError('resource', key, f, 'invalid_type', `Make ${f} a string (got ${typeName(r[f])}).`);
  }
  const uri = r.uri as string | undefined;
  const uriTemplate = r.uriTemplate as string | undefined;
  if ((uri === undefined || uri === '') === (uriTemplate === undefined || uriTemplate === '')) {
    throw declarationError('resource', key, 'uri', 'required', 'Give exactly one of uri or uriTemplate.');
  }
  if (uri) checkUri(key, 'uri', uri);
  else checkUri(key, 'uriTemplate', uriTemplate!);
  if (r.name === undefined || r.name === '')
    throw declarationError('resource', key, 'name', 'required', 'Give the resource a name.');
  for (const f of ['name', 'title', 'description', 'mimeType'] as const) checkText('resource', key, f, r[f]);
  // eslint-disable-next-line no-control-regex
  if (r.mimeType !== undefined && /[\u0000-\u001f\u007f]/.test(r.mimeType as string)) {
    throw declarationError(
      'resource',
      key,
      'mimeType',
      'invalid_character',
      'Remove control characters from mimeType.',
    );
  }
  if (r.content !== undefined) {
    if (!(r.content instanceof Uint8Array)) checkText('resource', key, 'content', r.content);
    if (
      (r.content instanceof Uint8Array ? r.content.byteLength : bytes(r.content as string)) >
      DECLARATION_LIMITS.contentBytes
    ) {
      throw declarationError(
        'resource',
        key,
        'content',
        'too_long',
        `Keep static content at most ${DECLARATION_LIMITS.contentBytes} bytes, or serve it from a command.`,
      );
    }
  }
}

/** A frozen copy of a validated prompt with only its declared fields (no shared references). */
export function copyPrompt(p: PromptDecl): Readonly<PromptDecl> {
  const out: PromptDecl = { name: p.name, template: p.template };
  if (p.title !== undefined) out.title = p.title;
  if (p.description !== undefined) out.description = p.description;
  if (p.arguments !== undefined) {
    out.arguments = p.arguments.map((a) => {
      const x: PromptArgument = { name: a.name };
      if (a.title !== undefined) x.title = a.title;
      if (a.description !== undefined) x.description = a.description;
      if (a.required !== undefined) x.required = a.required;
      return Object.freeze(x);
    });
    Object.freeze(out.arguments);
  }
  if (p.embed !== undefined) out.embed = Object.freeze(p.embed.map((e) => Object.freeze({ ...e }))) as PromptEmbed[];
  return Object.freeze(out);
}

/** A frozen copy of a validated resource with only its declared fields. */
export function copyResource(r: ResourceDecl): Readonly<ResourceDecl> {
  const out = {} as ResourceDecl;
  for (const f of RESOURCE_FIELDS)
    if (r[f] !== undefined && !((f === 'uri' || f === 'uriTemplate') && r[f] === ''))
      (out as unknown as Record<string, unknown>)[f] = r[f];
  if (r.content instanceof Uint8Array) out.content = new Uint8Array(r.content); // bytes are copied, not shared
  return Object.freeze(out);
}
