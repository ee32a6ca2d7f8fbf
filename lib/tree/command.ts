/**
 * The command tree: {@link Command}, with Cobra's fields and pflag-style local and persistent flags.
 * A tree is a declaration only; parse state lives in each invocation (see parse.ts), so one tree can
 * run many times, concurrently. Source: spf13/cobra command.go; docs/cobra-differences.md.
 *
 * The declaration's fields are in command-config.ts and the run context's in run-context.ts; both take the
 * command type as a parameter, so neither imports this module (no type-import circle, test/arch/layers.test.ts)
 * and `CommandConfig` / `RunContext` here instantiate them. The constructor's checks are command-checks.ts's;
 * a change to the tree bumps its generation (generation.ts), which renews what each command resolves to (resolved.ts).
 *
 * Layer `lib/tree/`: the declarations — `Command`, flag and positional specs with their Args validators,
 * the typed `ctx` values, prompt/resource declarations and the MCP marks. It knows only declarations and
 * may import only `lib/contract/`.
 */
import { argsFromUse, DeclaredArgs, type ArgSpec, type ArgsValidator } from './args.ts';
import type { FlagDecls } from './values.ts';
import type { Completer, FlagSpec } from './flags.ts';
import type { PromptDecl, ResourceDecl } from './declarations.ts';
import type { LoggingDecl } from './logging.ts';
import type { Capability, Effects, OutputDecl } from './output.ts';
import { declaredReadOnly } from './dry-run.ts';
import type { CommandGroup, RunHook } from './hooks.ts';
import type { CommandConfigOf, ConfigFileDecl } from './command-config.ts';
import type { RunContextOf } from './run-context.ts';
import { checkDeclaration, checkFlag, checkOptions } from './command-checks.ts';
import { bumpTreeGeneration, treeGeneration } from './generation.ts';
import { childNamed } from './builtin.ts';

export type { CommandGroup, RunHook, RunHooks } from './hooks.ts';
export type { Capability, Effects, OutputDecl } from './output.ts';
export type { ConfigFileDecl } from './command-config.ts';

/** A `run` handler: returns the payload, nothing, or an (async) iterable of stream items. */
export type RunFn<F extends FlagDecls = FlagDecls, A extends readonly ArgSpec[] = readonly ArgSpec[]> = (
  ctx: RunContext<F, A>,
) => unknown;

/** Renders a payload (or one stream item) as text for human mode. Return a string or write to ctx.stdout. */
export type RenderFn = (data: unknown, ctx: RunContext) => string | void;

/** The declaration a {@link Command} is built from: {@link CommandConfigOf} with {@link RunHooks}. */
export type CommandConfig<
  F extends FlagDecls = FlagDecls,
  P extends FlagDecls = FlagDecls,
  A extends readonly ArgSpec[] = readonly ArgSpec[],
  O extends OutputDecl = OutputDecl,
> = CommandConfigOf<Command, RunContext<F & P, A>, RunContext, F, P, A, O>;

/** Loads a lazy command's body: the Command, or a module whose default export is it. */
export type CommandLoader = () =>
  | Command<any, any, any>
  | { default: Command<any, any, any> }
  | Promise<Command<any, any, any> | { default: Command<any, any, any> }>;

/**
 * One node of the command tree. Build it from a {@link CommandConfig}; add children with
 * {@link Command.addCommand}. Everything is declaration; nothing here holds parse state.
 *
 * @throws TypeError from the constructor when `use` is empty or argument declarations are inconsistent.
 */
export class Command<
  const F extends FlagDecls = {},
  const P extends FlagDecls = {},
  const A extends readonly ArgSpec[] = readonly ArgSpec[],
  O extends OutputDecl = OutputDecl,
> {
  /** Usage line. */
  readonly use: string;
  /** First word of `use`. */
  readonly name: string;
  short: string;
  long: string;
  example: string;
  /** What the first example line that runs this command reads on stdin (clispec's `example.stdin`). */
  exampleStdin: string | undefined;
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
  /** Cobra's ValidArgsFunction (see {@link CommandConfigOf.validArgsFunction}). */
  validArgsFunction?: Completer;
  readonly mutuallyExclusive: string[][];
  readonly requiredTogether: string[][];
  readonly oneRequired: string[][];
  effects?: Effects;
  /** ax-go's capability classes (see {@link CommandConfigOf.capabilities}). */
  capabilities?: readonly Capability[];
  destructive?: boolean;
  /** `false`: a retry with the same key runs again (see {@link CommandConfig.replay}). */
  replay?: boolean;
  /** Runs as an MCP task for a client that declares the extension (see {@link CommandConfig.task}). */
  task?: 'optional' | 'required';
  output?: OutputDecl;
  confirmationFlag?: string;
  /** Whether the command offers a dry run (the injected `--dry-run`; see {@link CommandConfigOf.dryRun}). */
  readonly dryRun: boolean;
  finishOnSigterm: boolean;
  run?: RunFn<any, any>;
  render?: RenderFn;
  version?: string;
  package?: string;
  login?: readonly string[];
  logging?: LoggingDecl;
  config?: ConfigFileDecl;
  /** Root only: the `__schema` budget (see {@link CommandConfigOf.schemaBudget}). */
  schemaBudget?: number;
  /** Cobra's run hooks (see {@link RunHooks}). */
  persistentPreRun?: RunHook<RunContext<any, any>>;
  preRun?: RunHook<RunContext<any, any>>;
  postRun?: RunHook<RunContext<any, any>>;
  persistentPostRun?: RunHook<RunContext<any, any>>;
  enableTraverseRunHooks: boolean;
  groupId?: string;
  disableFlagParsing: boolean;
  private _traverseChildren = false;
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
  /** {@link commandPath} as of a tree generation (the rest of what a command resolves to: resolved.ts). */
  #path?: { generation: number; path: string };

  constructor(config: CommandConfig<F, P, A, O>) {
    checkOptions(config);
    const use = config.use?.trim();
    if (!use) throw new TypeError('Command: use must be a non-empty usage line such as "get <id>"');
    this.use = use;
    this.name = use.split(/\s+/)[0]!;
    this.short = config.short ?? '';
    this.long = config.long ?? '';
    this.example = config.example ?? '';
    this.exampleStdin = config.exampleStdin;
    this.aliases = config.aliases ?? [];
    this.hidden = config.hidden ?? false;
    this.deprecated = config.deprecated;
    this.annotations = { ...config.annotations };
    this.localFlags = { ...config.flags };
    this.persistentFlags = { ...config.persistentFlags };
    this.args = config.args ? [...config.args] : argsFromUse(use);
    checkDeclaration(this.name, config, this.args);
    this._validateArgs = config.validateArgs;
    this.validArgs = config.validArgs;
    this.validArgsFunction = config.validArgsFunction;
    this.mutuallyExclusive = config.mutuallyExclusive ?? [];
    this.requiredTogether = config.requiredTogether ?? [];
    this.oneRequired = config.oneRequired ?? [];
    this.effects = config.effects;
    this.capabilities = config.capabilities ? Object.freeze([...config.capabilities]) : undefined;
    this.destructive = config.destructive;
    this.replay = config.replay;
    this.task = config.task;
    this.output = config.output;
    this.confirmationFlag = config.confirmationFlag;
    this.dryRun = config.dryRun ?? declaredReadOnly(config.effects, config.capabilities);
    this.finishOnSigterm = config.finishOnSigterm ?? false;
    this.run = config.run as RunFn<any, any> | undefined;
    this.render = config.render;
    ({ version: this.version, package: this.package, login: this.login } = config);
    this.logging = config.logging;
    this.config = config.config;
    this.schemaBudget = config.schemaBudget;
    this.persistentPreRun = config.persistentPreRun as RunHook<RunContext<any, any>> | undefined;
    this.preRun = config.preRun as RunHook<RunContext<any, any>> | undefined;
    this.postRun = config.postRun as RunHook<RunContext<any, any>> | undefined;
    this.persistentPostRun = config.persistentPostRun as RunHook<RunContext<any, any>> | undefined;
    this.enableTraverseRunHooks = config.enableTraverseRunHooks ?? false;
    this.groupId = config.groupId;
    this.disableFlagParsing = config.disableFlagParsing ?? false;
    this._traverseChildren = config.traverseChildren ?? false;
    this.helpFunc = config.helpFunc;
    this.usageFunc = config.usageFunc;
    this.versionTemplate = config.versionTemplate;
    if (config.load !== undefined) this.load = config.load;
    if (config.commands) this.addCommand(...config.commands);
  }

  /** Cobra's TraverseChildren, read on the root; setting it refreshes the derived flag sets. */
  get traverseChildren(): boolean {
    return this._traverseChildren;
  }

  set traverseChildren(on: boolean) {
    this._traverseChildren = on;
    this._invalidate();
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

  /**
   * Adds children. A command has one place in one tree: one that already has a parent (this one or
   * another; `removeCommand` first to move it) is refused, as is this command's own ancestor.
   * @returns this, for chaining. @throws TypeError naming both command paths.
   */
  addCommand(...cmds: Command[]): this {
    for (const c of cmds) {
      if (c === this) throw new TypeError(`Command ${this.name}: cannot add a command to itself`);
      // one command, one place in one tree: its path, flags and tool name depend on its parent
      if (c.parent)
        throw new TypeError(
          `Command ${JSON.stringify(c.commandPath())} is already a child of ${JSON.stringify(c.parent.commandPath())}; ` +
            `it cannot also be added under ${JSON.stringify(this.commandPath())} (build a second Command for it)`,
        );
      for (let up: Command | undefined = this; up; up = up.parent)
        if (up === c)
          throw new TypeError(
            `Command ${JSON.stringify(c.commandPath())} cannot be added under its own descendant ${JSON.stringify(this.commandPath())}`,
          );
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
      if (!g?.id || this.groups.some((x) => x.id === g.id))
        throw new TypeError(`Command ${this.name}: group id ${JSON.stringify(g?.id)} is empty or already declared`);
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

  /** The child answering to `name` (its name or an alias), if any; the author's before ax-ts's (builtin.ts). */
  findChild(name: string): Command | undefined {
    return childNamed(this.children, name);
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
    // per tree generation: every run and MCP call asks again
    const generation = treeGeneration();
    if (this.#path?.generation !== generation) this.#path = { generation, path: this.pathNames().join(' ') };
    return this.#path.path;
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
    this._invalidate();
    return this;
  }

  /** Cobra's MarkFlagsRequiredTogether. @returns this. */
  markFlagsRequiredTogether(...names: string[]): this {
    this.requiredTogether.push(names);
    this._invalidate();
    return this;
  }

  /** Cobra's MarkFlagsOneRequired. @returns this. */
  markFlagsOneRequired(...names: string[]): this {
    this.oneRequired.push(names);
    this._invalidate();
    return this;
  }

  /** Adds a local flag after construction. @returns this. */
  addFlag(name: string, spec: FlagSpec, options: { persistent?: boolean } = {}): this {
    checkFlag(this.name, name, spec);
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

  /** @internal marks every derived view stale (O(1): views compare generations; resolved.ts). */
  _invalidate(): void {
    bumpTreeGeneration();
  }
}

/** The context passed to `run(ctx)`; its fields are documented in {@link RunContextOf}. */
export interface RunContext<
  F extends FlagDecls = FlagDecls,
  A extends readonly ArgSpec[] = readonly ArgSpec[],
> extends RunContextOf<Command, F, A> {}

/** A command's handler result: a payload, nothing, or an (async) iterable of items for a stream. */
export type RunResult = unknown;
