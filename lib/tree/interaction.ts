/**
 * What a handler may ask for while it runs, beyond its arguments: a small form (`ctx.elicit`), a
 * yes/no (`ctx.confirm`), the client's model (`ctx.sample`), and declared resources attached to its
 * result (`ctx.attach`). The shapes follow MCP 2025-11-25 (client features "Elicitation" — the
 * restricted form schema of SEP-1034 defaults and SEP-1330 enums — and "Sampling"), so the MCP
 * bridge can pass them through unchanged; on the command line the run context answers them itself.
 */

/** A string field of a form. `format` is one of MCP's: `email`, `uri`, `date`, `date-time`. */
export interface ElicitStringField {
  type: 'string';
  title?: string;
  description?: string;
  default?: string;
  minLength?: number;
  maxLength?: number;
  format?: 'email' | 'uri' | 'date' | 'date-time';
  /** Single choice, untitled (SEP-1330). */
  enum?: string[];
  /** Legacy titles for `enum`, same order (deprecated in MCP; still sent as given). */
  enumNames?: string[];
  /** Single choice with titles (SEP-1330): `[{const: 'v1', title: 'First'}]`. */
  oneOf?: { const: string; title: string }[];
}

/** A number field (`integer` or `number`). */
export interface ElicitNumberField {
  type: 'number' | 'integer';
  title?: string;
  description?: string;
  default?: number;
  minimum?: number;
  maximum?: number;
}

/** A yes/no field. */
export interface ElicitBooleanField {
  type: 'boolean';
  title?: string;
  description?: string;
  default?: boolean;
}

/** A multiple choice (SEP-1330): items are an untitled `enum` or titled `anyOf` of consts. */
export interface ElicitArrayField {
  type: 'array';
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  items: { type: 'string'; enum: string[] } | { anyOf: { const: string; title: string }[] };
  default?: string[];
}

/** One field of a form. */
export type ElicitField = ElicitStringField | ElicitNumberField | ElicitBooleanField | ElicitArrayField;

/**
 * A small flat form: MCP's `requestedSchema` (an object of primitive fields, no nesting). Field
 * names should be the long names of flags of the command when the values can also be passed as
 * flags: then `ctx.elicit` takes them from the flags first, and its error names those flags.
 */
export interface ElicitSchema {
  type: 'object';
  properties: Record<string, ElicitField>;
  required?: string[];
}

/** The client's answer to a form (MCP `ElicitResult`). */
export interface ElicitAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
}

/** One message of a sampling request. */
export interface SampleMessage {
  role: 'user' | 'assistant';
  /** Text of the message. */
  text: string;
}

/** What `ctx.sample` asks the client's model (MCP `sampling/createMessage`). */
export interface SampleRequest {
  /** The conversation; a string is one user message. */
  messages: string | SampleMessage[];
  /** Most tokens to generate. Default 1024. */
  maxTokens?: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  /** MCP model preferences (hints and priorities), passed through. */
  modelPreferences?: {
    hints?: { name?: string }[];
    costPriority?: number;
    speedPriority?: number;
    intelligencePriority?: number;
  };
}

/** The model's answer (MCP `CreateMessageResult`, text only). */
export interface SampleResult {
  /** The text the model produced (empty when it answered with something else than text). */
  text: string;
  /** Name of the model that answered, as the client reports it. */
  model: string;
  /** Why generation stopped (`endTurn`, `stopSequence`, `maxTokens`, or the client's own word). */
  stopReason?: string;
  role: 'user' | 'assistant';
}

/** Options of one question (`ctx.confirm`, `ctx.elicit`, `ctx.sample`, `ctx.roots`). */
export interface AskOptions {
  /**
   * The name the question goes by in a 2026-07-28 client's `inputRequests` (multi round-trip
   * requests, docs/mcp-server.md#asking-the-client-confirm-elicit-sample): letters, digits, `_`,
   * `-`, at most 64. Default: the kind of question (`confirm`, `elicit`, `sample`, `roots`), with
   * `-2`, `-3`… for the second and later of a kind in one run. Unused on every other path.
   */
  key?: string;
}

/** One of the client's roots (MCP `Root`): a `file://` URI and an optional display name. */
export interface Root {
  uri: string;
  name?: string;
}

/**
 * The channel a run can ask through (set by the MCP bridge when the client declared the
 * capability). Each function resolves with the client's answer or rejects with an `AxError`;
 * `key` is the question's name ({@link AskOptions.key}, never empty).
 */
export interface Interaction {
  /** Sends `elicitation/create`; present only when the client declared `elicitation`. */
  elicit?: (message: string, schema: ElicitSchema, signal: AbortSignal, key: string) => Promise<ElicitAnswer>;
  /** Sends `sampling/createMessage`; present only when the client declared `sampling`. */
  sample?: (request: SampleRequest, signal: AbortSignal, key: string) => Promise<SampleResult>;
  /** Sends `roots/list`; present only when the client declared `roots`. */
  roots?: (signal: AbortSignal, key: string) => Promise<Root[]>;
}

/**
 * What `ctx.actionRequired` takes: why the run stops before it changes anything, and what to run
 * next (docs/contract.md "Stops and next steps").
 */
export interface ActionRequired {
  /** Why, as a stable code (`^[a-z][a-z0-9_]*$`: `login_required`, `choose_region`), in `context.reason`. */
  reason: string;
  /** One readable sentence: what must happen first. */
  message: string;
  /**
   * The next steps, each the words of a command line after the program's name (`['login',
   * '--sso']`) and what it does. ax-ts puts the program's name in front, carries the caller's own
   * `--format`, and over MCP gives the tool call the line makes. A word `<name>` is a value the
   * caller fills in.
   */
  next: readonly { args: readonly string[]; description?: string }[];
  /** The `actionable_fix`. Default: "Run the next step that fits: <step>; or <step>." */
  fix?: string;
}
