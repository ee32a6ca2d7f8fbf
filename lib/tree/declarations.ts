/**
 * Static MCP prompts and resources declared on commands (`declarePrompt` / `declareResource`): their
 * shapes, and how a declared resource answers a URI and a prompt its arguments. The rules a declaration
 * must follow are in declaration-rules.ts (docs/schema.md#declaration-rules).
 */

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
  /**
   * Declared resources sent before the text, each as its own user message: `{resource: uri}` embeds
   * the resource (MCP `resource` content: text, or a base64 blob for bytes); `{image: uri}` /
   * `{audio: uri}` send an image/audio resource's bytes as MCP `image`/`audio` content. `uri` may
   * hold `{{name}}` placeholders of declared arguments; it must name a declared resource (a static
   * URI or one matching a template), else `prompts/get` answers -32602.
   */
  embed?: PromptEmbed[];
}

/** One declared resource a prompt sends before its text (see {@link PromptDecl.embed}). */
export type PromptEmbed = { resource: string } | { image: string } | { audio: string };

/** A static resource (fixed `uri`) or a resource template (`uriTemplate` with `{var}` parts). */
export interface ResourceDecl {
  /**
   * Absolute URI with a scheme (`yourcli://docs/x`, `urn:yourcli:x`), ≤ 2048 bytes, no spaces or
   * control characters.
   */
  uri?: string;
  /** RFC 6570 level-1 template (`yourcli://logs/{date}`) instead of `uri`; same character rules. */
  uriTemplate?: string;
  name: string;
  title?: string;
  description?: string;
  /** MIME type; spaces allowed, control characters not. */
  mimeType?: string;
  /**
   * Static content served by `resources/read` (≤ 1 MiB): text (UTF-8; for a template, `{var}` is
   * replaced), or bytes (a `Uint8Array`, served as a base64 `blob`, never substituted). Never
   * projected into `__schema`.
   */
  content?: string | Uint8Array;
}

/** A declared resource read for one URI: text, or bytes. */
export interface ResourceContent {
  uri: string;
  mimeType?: string;
  text?: string;
  bytes?: Uint8Array;
}

/**
 * Matches a URI against a level-1 URI template (`x://logs/{date}`); returns the variables
 * (percent-decoded) or undefined. @throws URIError when a matched variable has a malformed percent-escape.
 */
export function matchTemplate(template: string, uri: string): Record<string, string> | undefined {
  const names: string[] = [];
  const re = new RegExp(
    `^${template
      .split(/(\{[A-Za-z0-9_]+\})/)
      .map((part) => {
        const m = /^\{([A-Za-z0-9_]+)\}$/.exec(part);
        if (m) {
          names.push(m[1]!);
          return '([^/?#]+)';
        }
        return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('')}$`,
  );
  const m = re.exec(uri);
  if (!m) return undefined;
  return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
}

/**
 * Reads `uri` from the declared resources: a static URI first, then the first template it matches
 * (its `{var}` replaced in text content). @returns undefined when nothing declared matches.
 * @throws URIError when the URI matches a template but a variable has a malformed percent-escape.
 */
export function readDeclared(resources: readonly ResourceDecl[], uri: string): ResourceContent | undefined {
  const shape = (decl: ResourceDecl, vars?: Record<string, string>): ResourceContent => {
    const c = decl.content ?? '';
    const base = { uri, ...(decl.mimeType ? { mimeType: decl.mimeType } : {}) };
    if (c instanceof Uint8Array) return { ...base, bytes: c };
    return { ...base, text: vars ? c.replace(/\{([A-Za-z0-9_]+)\}/g, (whole, n: string) => vars[n] ?? whole) : c };
  };
  for (const decl of resources) if (decl.uri === uri) return shape(decl);
  for (const decl of resources) {
    const vars = decl.uriTemplate ? matchTemplate(decl.uriTemplate, uri) : undefined;
    if (vars) return shape(decl, vars);
  }
  return undefined;
}

/**
 * Replaces declared `{{name}}` placeholders; absent values become empty text, other braces stay.
 * Only the values object's own properties count: `{{constructor}}` or `{{toString}}` are plain
 * argument names, never something inherited from `Object.prototype`.
 */
export function renderTemplate(
  template: string,
  declared: readonly string[],
  values: Record<string, string | undefined>,
): string {
  return template.replace(/\{\{([^{}]*)\}\}/g, (whole, name: string) => {
    if (!declared.includes(name)) return whole;
    const v = Object.hasOwn(values, name) ? values[name] : undefined;
    return typeof v === 'string' ? v : '';
  });
}
