/**
 * The command tree: {@link Command}, with Cobra's fields and pflag-style local and persistent flags.
 * A tree is a declaration only; parse state lives in each invocation (see parse.ts), so one tree can
 * run many times, concurrently. Source: spf13/cobra command.go; SPEC §1.
 *
 * Past ~400 lines on purpose: `CommandConfig`, the `Command` class and `RunContext` share their
 * generic parameters and refer to each other, so splitting them would make a type-import circle
 * (test/layers.test.ts); shapes that stand alone live in output.ts and hooks.ts.
 *
 * Layer `lib/tree/`: the declarations — `Command`, flag and positional specs with their Args
 * validators, the typed `ctx` values, prompt/resource declarations and the MCP marks. It knows only
 * declarations and may import only `lib/contract/`.
 */
import { argsFromUse, checkArgDecls, DeclaredArgs, type ArgSpec, type ArgsValidator } from './args.ts';
import type { Readable } from 'node:stream';
import type { AxError, AxErrorOptions } from '../contract/errors.ts';
import type { OutputStream } from '../contract/envelope.ts';
import type { Mode } from '../contract/mode.ts';
import type { ArgValues, FlagDecls, FlagValues } from './values.ts';
import { checkFlagDecl, type Flag, type FlagSpec } from './flags.ts';
import type { PromptDecl, ResourceDecl } from './declarations.ts';
import { checkLoggingDecl, type Logger, type LoggingDecl } from './logging.ts';
import { checkNonDeterministic } from './nondeterministic.ts';

/** Where the config file of a program is (root only). */
export interface ConfigFileDecl {
  /**
   * Path of the JSONC config file, or a function of the run's environment giving it (undefined: no
   * file). A leading `~/` is the environment's `HOME`. A missing file supplies nothing.
   */
  file: string | ((env: Record<string, string | undefined>) => string | undefined);
  /** Size cap in bytes. Default 1 MiB (see readConfig). */
  maxBytes?: number;
}
import type { ElicitSchema, SampleRequest, SampleResult } from './interaction.ts';
import type { Effects, OutputDecl } from './output.ts';
import type { CommandGroup, RunHook, RunHooks } from './hooks.ts';

export type { CommandGroup, RunHook, RunHooks } from './hooks.ts';

export type { Effects, OutputDecl } from './output.ts';

/** A `run` handler: returns the payload, nothing, or an (async) iterable of stream items. */
export type RunFn<F extends FlagDecls = FlagDecls, A extends readonly ArgSpec[] = readonly ArgSpec[]> = (ctx: RunContext<F, A>) => unknown;

/** Renders a payload (or one stream item) as text for human mode. Return a string or write to ctx.stdout. */
export type RenderFn = (data: unknown, ctx: RunContext) => string | void;

/** The declaration a {@link Command} is built from (with Cobra's run hooks, see {@link RunHooks}). */
export interface CommandConfig<F extends FlagDecls = FlagDecls, P extends FlagDecls = FlagDecls, A extends readonly ArgSpec[] = readonly ArgSpec[]>
  extends RunHooks<RunContext<F & P, A>> {
  /** Usage line; its first word is the name: `'show <id>'`, `'add <title...>'`. */
  use: string;
  /** One-line summary (help listings, tool descriptions). */
  short?: string;
  /** Long description (help, schema). */
  long?: string;
  /** Example invocations, one per line, each beginning with the full command (`tasks add milk`). */
  example?: string;
  /** Other names the command answers to. */
  aliases?: string[];
  /** Left out of help listings, schemas and MCP, still runnable. */
  hidden?: boolean;
  /** Deprecation message: using the command prints `Command "x" is deprecated, <message>` on stderr. */
  deprecated?: string;
  /** Free string annotations; ax-ts reads `ax-ts/mcp/exclude`. */
  annotations?: Record<string, string>;
  /** Local flags (this command only). */
  flags?: F;
  /** Persistent flags (this command and every descendant). */
  persistentFlags?: P;
  /** Named positionals. Default: read from `use` (`<id>`, `[file]`, `<items...>`); none → no positionals. */
  args?: A;
  /** Cobra Args validator; default: {@link DeclaredArgs}. */
  validateArgs?: ArgsValidator;
  /** Cobra ValidArgs (for OnlyValidArgs and completion). */
  validArgs?: string[];
  /** Groups of flags of which at most one may be given. */
  mutuallyExclusive?: string[][];
  /** Groups of flags that must be given together or not at all. */
  requiredTogether?: string[][];
  /** Groups of flags of which at least one must be given. */
  oneRequired?: string[][];
  /** What re-running does. Undeclared: clients assume destructive. */
  effects?: Effects;
  /**
   * Whether the command may destroy or overwrite data (MCP `destructiveHint`). Default: true for
   * `non_idempotent`, false otherwise. Set false for a command that only adds (a create).
   */
  destructive?: boolean;
  /**
   * Whether a retry with the same `--idempotency-key` and arguments replays the first outcome
   * (SPEC §2 "Replay"). Default: true for `non_idempotent` and undeclared `effects`; read-only and
   * idempotent commands never record. Set false to opt out (the key is then only echoed in `meta`).
   */
  replay?: boolean;
  /** Output declaration. */
  output?: OutputDecl;
  /** Flag (long name) that bypasses this command's confirmation prompt (clispec `confirmation_bypass_arg`). */
  confirmationFlag?: string;
  /**
   * The command shuts something down when signalled (a server): after SIGINT or SIGTERM its handler
   * gets `SHUTDOWN_BUDGET_MS` (3 s) instead of the usual 1 s to settle. Default false. (For every
   * command, a result that arrives within its grace stands; docs/contract.md "Signals".)
   */
  finishOnSigterm?: boolean;
  /** Handler; absent = a pure group that prints its help. */
  run?: RunFn<F & P, A>;
  /** Human-mode renderer of the payload. */
  render?: RenderFn;
  /** Version of the program (root only); else resolved by `resolveVersion`. */
  version?: string;
  /** Root only: the level and labels of `ctx.logger` (see {@link LoggingDecl}). */
  logging?: LoggingDecl;
  /** Root only: the config file that flags with a `config` key read (see {@link ConfigFileDecl}). */
  config?: ConfigFileDecl;
  /** Children, added with {@link Command.addCommand}. */
  commands?: Command[];
  /**
   * Makes this command a lazy stub (issue 14): its body — flags, handler, children, the whole
   * subtree — comes from `load`, called only when a run selects the command, `help` or completion
   * descends into it, or a walk of the whole tree needs it (`__schema`, `mcp-server`; see
   * {@link loadTree}). Until then help listings and completion show the stub's `use`, `short`,
   * `aliases`, `hidden` and `deprecated`, so declare those here exactly as the loaded command has
   * them (a loaded command with another name, short text or aliases is refused at load:
   * `internal_error`). A stub declares nothing else (a TypeError otherwise). Typical:
   * `load: () => import('./deploy.ts')` with `export default new Command({ use: 'deploy', … })`.
   */
  load?: CommandLoader;
  /** Cobra's GroupID: the id of one of the parent's {@link CommandGroup}s this command is listed under in help. */
  groupId?: string;
  /** Cobra's DisableFlagParsing: every word after the command is a positional (`--help` included); it takes no flags from the command line, and over MCP its inputs are its positionals only. */
  disableFlagParsing?: boolean;
  /** Cobra's SetHelpFunc: the whole help text of this command and (unless they set their own) its descendants. Default: {@link helpText}. */
  helpFunc?: (cmd: Command) => string;
  /** Cobra's SetUsageFunc: the usage part of the help text (from `Usage:` on), inherited like helpFunc. */
  usageFunc?: (cmd: Command) => string;
  /** Cobra's SetVersionTemplate, as a function (root only): the `--version` text in human mode. Default: Cobra's `<name> version <version>\n`. */
  versionTemplate?: (info: { name: string; version: string; command: Command }) => string;
}

/** Loads a lazy command's body: the Command, or a module whose default export is it. */
export type CommandLoader = () => Command<any, any, any> | { default: Command<any, any, any> } | Promise<Command<any, any, any> | { default: Command<any, any, any> }>;

/**
 * One node of the command tree. Build it from a {@link CommandConfig}; add children with
 * {@link Command.addCommand}. Everything is declaration; nothing here holds parse state.
 *
 * @throws TypeError from the constructor when `use` is empty or argument declarations are inconsistent.
 */
export class Command<const F extends FlagDecls = {}, const P extends FlagDecls = {}, const A extends readonly ArgSpec[] = readonly ArgSpec[]> {
  /** Usage line. */
  readonly use: string;
  /** First word of `use`. */
  readonly name: string;
  short: string;
  long: string;
  example: string;
  aliases: string[];
  hidden: boolean;
  deprecated?: string;
  annotations: Record<string, string>;
  /** Local flag declarations. */
  readonly localFlags: Record<string, FlagSpec>;
  /** Persistent flag declarations. */
  readonly persistentFlags: Record<string, FlagSpec>;
  /** Named positional declarations. */
  readonly args: readonly ArgSpec[];
  private _validateArgs?: ArgsValidator;
  validArgs?: string[];
  readonly mutuallyExclusive: string[][];
  readonly requiredTogether: string[][];
  readonly oneRequired: string[][];
  effects?: Effects;
  destructive?: boolean;
  /** `false`: a retry with the same key runs again (see {@link CommandConfig.replay}). */
  replay?: boolean;
  output?: OutputDecl;
  confirmationFlag?: string;
  finishOnSigterm: boolean;
  run?: RunFn<any, any>;
  render?: RenderFn;
  version?: string;
  logging?: LoggingDecl;
  config?: ConfigFileDecl;
  /** Cobra's run hooks (see {@link RunHooks}). */
  persistentPreRun?: RunHook<RunContext<any, any>>;
  preRun?: RunHook<RunContext<any, any>>;
  postRun?: RunHook<RunContext<any, any>>;
  persistentPostRun?: RunHook<RunContext<any, any>>;
  enableTraverseRunHooks: boolean;
  groupId?: string;
  disableFlagParsing: boolean;
  helpFunc?: (cmd: Command) => string;
  usageFunc?: (cmd: Command) => string;
  versionTemplate?: (info: { name: string; version: string; command: Command }) => string;
  /** Command groups declared with {@link Command.addGroup}, in order. */
  readonly groups: CommandGroup[] = [];
  /** Parent command, undefined at the root. */
  parent?: Command;
  private _prompts: readonly Readonly<PromptDecl>[] = Object.freeze([]);
  private _resources: readonly Readonly<ResourceDecl>[] = Object.freeze([]);
  /**
   * Prompts declared on this command, in declaration order. Read-only (in type and at run time: the
   * array and its entries are frozen); add them with `declarePrompt`, which checks every rule.
   */
  get prompts(): readonly Readonly<PromptDecl>[] {
    return this._prompts;
  }
  /** Resources declared on this command; read-only like {@link Command.prompts}. Add them with `declareResource`. */
  get resources(): readonly Readonly<ResourceDecl>[] {
    return this._resources;
  }
  private readonly children: Command[] = [];
  /** The loader of a lazy stub's body (see {@link CommandConfig.load}); undefined for an ordinary command. */
  readonly load?: CommandLoader;
  /** @internal the loaded body of a lazy stub, once loaded (it has taken the stub's place). */
  _loaded?: Command;
  /** @internal the load in progress. */
  _loading?: Promise<Command>;
  /** @internal derived-data caches (flag set, tool properties), valid while {@link treeGeneration} is unchanged. */
  _cache?: { gen: number; flags?: Map<string, Flag>; properties?: unknown };

  constructor(config: CommandConfig<F, P, A>) {
    const use = config.use?.trim();
    if (!use) throw new TypeError('Command: use must be a non-empty usage line such as "get <id>"');
    this.use = use;
    this.name = use.split(/\s+/)[0]!;
    this.short = config.short ?? '';
    this.long = config.long ?? '';
    this.example = config.example ?? '';
    this.aliases = config.aliases ?? [];
    this.hidden = config.hidden ?? false;
    this.deprecated = config.deprecated;
    this.annotations = { ...config.annotations };
    this.localFlags = { ...config.flags };
    this.persistentFlags = { ...config.persistentFlags };
    this.args = config.args ? [...config.args] : argsFromUse(use);
    checkArgDecls(this.name, this.args);
    this._validateArgs = config.validateArgs;
    this.validArgs = config.validArgs;
    this.mutuallyExclusive = config.mutuallyExclusive ?? [];
    this.requiredTogether = config.requiredTogether ?? [];
    this.oneRequired = config.oneRequired ?? [];
    this.effects = config.effects;
    this.destructive = config.destructive;
    this.replay = config.replay;
    this.output = config.output;
    this.confirmationFlag = config.confirmationFlag;
    this.finishOnSigterm = config.finishOnSigterm ?? false;
    this.run = config.run as RunFn<any, any> | undefined;
    this.render = config.render;
    this.version = config.version;
    checkLoggingDecl(this.name, config.logging);
    this.logging = config.logging;
    this.config = config.config;
    checkNonDeterministic(this.name, config.output?.nonDeterministic);
    this.persistentPreRun = config.persistentPreRun as RunHook<RunContext<any, any>> | undefined;
    this.preRun = config.preRun as RunHook<RunContext<any, any>> | undefined;
    this.postRun = config.postRun as RunHook<RunContext<any, any>> | undefined;
    this.persistentPostRun = config.persistentPostRun as RunHook<RunContext<any, any>> | undefined;
    this.enableTraverseRunHooks = config.enableTraverseRunHooks ?? false;
    this.groupId = config.groupId;
    this.disableFlagParsing = config.disableFlagParsing ?? false;
    this.helpFunc = config.helpFunc;
    this.usageFunc = config.usageFunc;
    this.versionTemplate = config.versionTemplate;
    for (const [n, s] of [...Object.entries(this.localFlags), ...Object.entries(this.persistentFlags)]) checkFlagDecl(this.name, n, s);
    if (config.load !== undefined) {
      if (typeof config.load !== 'function') throw new TypeError(`Command ${this.name}: load must be a function returning the command (or its module)`);
      const extra = (['long', 'example', 'annotations', 'flags', 'persistentFlags', 'args', 'validateArgs', 'validArgs', 'mutuallyExclusive', 'requiredTogether', 'oneRequired', 'effects', 'destructive', 'output', 'confirmationFlag', 'run', 'render', 'version', 'commands'] as const).filter((k) => config[k] !== undefined);
      if (extra.length) throw new TypeError(`Command ${this.name}: a lazy command (load) declares only use, short, aliases, hidden and deprecated; ${extra.join(', ')} belong to the loaded command`);
      this.load = config.load;
    }
    if (config.commands) this.addCommand(...config.commands);
  }

  /** Args validator in force: the author's, else {@link DeclaredArgs}. */
  get validateArgs(): ArgsValidator {
    return this._validateArgs ?? DeclaredArgs;
  }

  set validateArgs(v: ArgsValidator | undefined) {
    this._validateArgs = v;
  }

  /**
   * Whether the author set an Args validator (Cobra: `Args != nil`). Without one, a command with
   * subcommands of its own treats a stray word as an unknown command (Cobra's legacyArgs).
   */
  argsValidatorSet(): boolean {
    return this._validateArgs !== undefined;
  }

  /** Adds children (re-parenting them). @returns this, for chaining. */
  addCommand(...cmds: Command[]): this {
    for (const c of cmds) {
      if (c === this) throw new TypeError(`Command ${this.name}: cannot add a command to itself`);
      c.parent = this;
      this.children.push(c);
    }
    this._invalidate();
    return this;
  }

  /**
   * Cobra's AddGroup: declares titled sections for the help listing of children; a child joins one
   * with `groupId`. @returns this.
   * @throws TypeError when an id is empty or already declared.
   */
  addGroup(...groups: CommandGroup[]): this {
    for (const g of groups) {
      if (!g?.id || this.groups.some((x) => x.id === g.id)) throw new TypeError(`Command ${this.name}: group id ${JSON.stringify(g?.id)} is empty or already declared`);
      this.groups.push({ id: g.id, title: g.title });
    }
    return this;
  }

  /** Whether `id` is one of this command's groups (Cobra's ContainsGroup). */
  containsGroup(id: string): boolean {
    return this.groups.some((g) => g.id === id);
  }

  /** Removes children. @returns this. */
  removeCommand(...cmds: Command[]): this {
    for (const c of cmds) {
      const i = this.children.indexOf(c);
      if (i >= 0) {
        this.children.splice(i, 1);
        c.parent = undefined;
      }
    }
    this._invalidate();
    return this;
  }

  /** @internal puts a lazy stub's loaded body in the stub's place among the children. */
  _replaceChild(stub: Command, loaded: Command): void {
    const i = this.children.indexOf(stub);
    if (i < 0) return;
    this.children[i] = loaded;
    loaded.parent = this;
    this._invalidate();
  }

  /** Children sorted by name (Cobra's listing order). */
  commands(): Command[] {
    return [...this.children].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** The child answering to `name` (its name or an alias), if any. */
  findChild(name: string): Command | undefined {
    return this.children.find((c) => c.name === name) ?? this.children.find((c) => c.aliases.includes(name));
  }

  /** The root of this command's tree. */
  root(): Command {
    let c: Command = this;
    while (c.parent) c = c.parent;
    return c;
  }

  /** Names from the root down to this command. */
  pathNames(): string[] {
    const names: string[] = [];
    for (let c: Command | undefined = this; c; c = c.parent) names.unshift(c.name);
    return names;
  }

  /** `tasks show`: the command path as typed. */
  commandPath(): string {
    return this.pathNames().join(' ');
  }

  /** Whether the command has a handler (a pure group has none). */
  runnable(): boolean {
    return typeof this.run === 'function';
  }

  /** Whether the command has children. */
  hasSubCommands(): boolean {
    return this.children.length > 0;
  }

  /** Sets an annotation. @returns this. */
  annotate(key: string, value: string): this {
    this.annotations[key] = value;
    return this;
  }

  /** Cobra's MarkFlagsMutuallyExclusive. @returns this. */
  markFlagsMutuallyExclusive(...names: string[]): this {
    this.mutuallyExclusive.push(names);
    return this;
  }

  /** Cobra's MarkFlagsRequiredTogether. @returns this. */
  markFlagsRequiredTogether(...names: string[]): this {
    this.requiredTogether.push(names);
    return this;
  }

  /** Cobra's MarkFlagsOneRequired. @returns this. */
  markFlagsOneRequired(...names: string[]): this {
    this.oneRequired.push(names);
    return this;
  }

  /** Adds a local flag after construction. @returns this. */
  addFlag(name: string, spec: FlagSpec, options: { persistent?: boolean } = {}): this {
    checkFlagDecl(this.name, name, spec);
    (options.persistent ? this.persistentFlags : this.localFlags)[name] = spec;
    this._invalidate();
    return this;
  }

  /** @internal appends a checked, frozen declaration (used by declarePrompt/declareResource only). */
  _declare(kind: 'prompt', decl: Readonly<PromptDecl>): void;
  _declare(kind: 'resource', decl: Readonly<ResourceDecl>): void;
  _declare(kind: 'prompt' | 'resource', decl: Readonly<PromptDecl> | Readonly<ResourceDecl>): void {
    if (kind === 'prompt') this._prompts = Object.freeze([...this._prompts, decl as Readonly<PromptDecl>]);
    else this._resources = Object.freeze([...this._resources, decl as Readonly<ResourceDecl>]);
  }

  /** @internal marks every derived cache stale (O(1): caches compare generations). */
  _invalidate(): void {
    generation += 1;
  }
}

let generation = 0;

/**
 * The tree-shape generation: bumped by every addCommand/removeCommand/addFlag anywhere, so caches
 * derived from declarations (keyed by it) never outlive a change, and building a tree of n commands
 * one addCommand at a time stays O(n).
 */
export function treeGeneration(): number {
  return generation;
}

/** @internal the cache record of a command for the current generation. */
export function cacheOf(cmd: Command): NonNullable<Command['_cache']> {
  if (!cmd._cache || cmd._cache.gen !== generation) cmd._cache = { gen: generation };
  return cmd._cache;
}

/** The context passed to `run(ctx)`. */
export interface RunContext<F extends FlagDecls = FlagDecls, A extends readonly ArgSpec[] = readonly ArgSpec[]> {
  /** Every flag value (own, inherited and injected), camelCase keys; unset flags without default are undefined. */
  flags: FlagValues<F> & Record<string, unknown>;
  /** Named positionals, camelCase keys. */
  args: ArgValues<A> & Record<string, string | string[] | number | number[] | undefined>;
  /** Positionals in order, as given. */
  argv: string[];
  /**
   * Cobra's ArgsLenAtDash: how many positionals came before `--` on the command line, or -1 when
   * `--` was not given (always -1 for MCP and `--args-json` calls, which have no command line).
   */
  argsLenAtDash: number;
  /** Whether a flag (long name) was given explicitly (pflag's Changed). */
  changed(flagName: string): boolean;
  /** The command being run. */
  command: Command;
  /** stdout of this invocation. In json mode, write nothing here: return the payload instead. */
  stdout: OutputStream;
  /** stderr of this invocation: logs and diagnostics. */
  stderr: OutputStream;
  /** stdin of this invocation (empty under MCP). */
  stdin: Readable;
  /** Whether stdin is a terminal a person can answer at. */
  stdinIsTTY: boolean;
  /** Environment of this invocation. */
  env: Record<string, string | undefined>;
  /** Aborted on SIGINT, on MCP cancellation or on server shutdown. */
  signal: AbortSignal;
  /** Detected output mode. */
  mode: Mode;
  /** `--dry-run` was given (false when a command's own `--dry-run` flag shadows the global one). */
  dryRun: boolean;
  /** `--idempotency-key`, or a fresh UUID v4 when none was given. */
  idempotencyKey: string;
  /** Whether the idempotency key was supplied by the caller (not generated). */
  idempotencyKeyGiven: boolean;
  /** The program's version for this run (the `version` option of execute, else resolveVersion). */
  readonly version: string;
  /** 32 lower-hex trace id of this invocation. */
  traceId: string;
  /** 16 lower-hex span id of this invocation (its parent is the caller's span when the run continues a trace). */
  spanId: string;
  /** This run's span as a W3C `traceparent` (`00-<traceId>-<spanId>-<flags>`). */
  readonly traceparent: string;
  /**
   * The environment for a child process this handler starts: {@link env} plus `extra`, with
   * `TRACEPARENT` (this run's span) and `TRACESTATE` (the caller's) set, so the child continues the
   * trace. Usage: `spawn('git', args, { env: ctx.childEnv() })`.
   */
  childEnv(extra?: Record<string, string | undefined>): Record<string, string>;
  /**
   * The structured logger of this run (pino, loaded on first use): JSON lines on stderr with
   * trace_id, span_id, command, program, version and the root's labels; see {@link Logger}.
   */
  readonly logger: Logger;
  /** Reports progress (MCP `notifications/progress` when the caller asked for it; a no-op otherwise). */
  progress(done: number, total?: number, message?: string): void;
  /** Writes one diagnostic line to stderr (never stdout); under MCP also a `notifications/message` (level info). */
  log(message: string): void;
  /** Adds a warning to the envelope's `meta.warnings` and writes it to stderr; under MCP also a `notifications/message` (level warning). */
  warn(message: string): void;
  /**
   * In a dry run returns `false` after recording `description` in `meta.would` (the side effect is
   * skipped); otherwise returns true. Usage: `if (ctx.guard('delete task 3')) deleteTask(3)`.
   */
  guard(description: string): boolean;
  /**
   * Runs `effect` unless this is a dry run; in a dry run records `description` in `meta.would` and
   * returns `rehearsal` (default undefined) instead. A function rehearsal (ax-go's `Perform`) is
   * called in the dry run and its result returned; if it throws or rejects, that error is the run's
   * error, so a dry run fails exactly where the real run would (a value that is itself a function
   * must therefore be wrapped: `() => fn`).
   */
  perform<T>(description: string, effect: () => T | Promise<T>, rehearsal?: T | (() => T | Promise<T>)): Promise<T | undefined>;
  /**
   * Asks for confirmation before a destructive step. Returns at once when the bypass flag
   * (`bypassFlag`, e.g. `'yes'`) is set. Under MCP, when the client declared the elicitation
   * capability, it asks the user through `elicitation/create` (a one-field form, `confirm: boolean`)
   * and returns if they accept with `confirm: true`. On a terminal (human mode) it asks on stderr and
   * reads one line; anything but y/yes declines. Anywhere else (pipes, CI, json mode, an MCP client
   * without elicitation, stateless HTTP) it never prompts. Every refusal — declined, cancelled or no
   * one to ask — throws `confirmation_required` whose fix names the bypass flag.
   */
  confirm(question: string, bypassFlag: string): Promise<void>;
  /**
   * Asks for a small form (MCP's restricted `requestedSchema`: flat string, number, integer, boolean,
   * enum and multi-select fields with defaults). Fields whose name is a long flag of this command
   * that was given on this call are taken from that flag; the rest are asked — under MCP through
   * `elicitation/create` when the client declared elicitation, on a terminal (human mode) one
   * field per line on stderr (empty = the default). Elsewhere nothing is asked: optional fields take
   * their defaults, and a missing required field throws `input_required` at once, whose fix names the
   * flags (or MCP properties) to pass. Answers are checked against the fields.
   * @returns the values by field name. @throws AxError `input_required`, `declined` (the user declined
   *   or cancelled), `validation_error` (an answer that does not fit); TypeError for a malformed schema.
   */
  elicit<T extends Record<string, unknown> = Record<string, string | number | boolean | string[]>>(schema: ElicitSchema, message: string): Promise<T>;
  /**
   * Asks the MCP client's language model (`sampling/createMessage`; a string is one user message,
   * `maxTokens` defaults to 1024). Only under MCP, when the client declared sampling.
   * @throws AxError `sampling_unavailable` anywhere else (the command line, a client without the
   *   capability, stateless HTTP), `declined` when the client refused, `timeout` when it did not answer.
   */
  sample(request: SampleRequest | string): Promise<SampleResult>;
  /**
   * Attaches a declared resource (`declareResource`, a static URI or one matching a template) to
   * the result. Its URI is listed in the envelope's `meta.attached` on every path; over MCP the
   * result also carries its content: an `image`/`audio` item for an image/audio resource with bytes,
   * else an embedded `resource` item (text, or a base64 blob for bytes).
   * @throws TypeError when no declared resource has that URI.
   */
  attach(uri: string): void;
  /** Builds an {@link AxError}: `throw ctx.fail('not_found', 'no task 9')`. */
  fail(kind: string, message: string, options?: AxErrorOptions): AxError;
  /** Property/flag spelling for messages: `--yes` on the CLI, `yes` under MCP. */
  flagLabel(flagName: string): string;
}

/** A command's handler result: a payload, nothing, or an (async) iterable of items for a stream. */
export type RunResult = unknown;
