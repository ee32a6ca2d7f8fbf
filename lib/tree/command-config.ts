/**
 * The declaration a `Command` is built from: {@link CommandConfigOf} and {@link ConfigFileDecl}. The
 * types that mention the command or its run context take them as parameters (`Cmd`, `Ctx`, `AnyCtx`)
 * so this module needs nothing from command.ts (no type-import circle); command.ts instantiates it as
 * `CommandConfig`. Source: spf13/cobra command.go (the Command struct's fields); docs/cobra-differences.md.
 */
import type { ArgSpec, ArgsValidator } from './args.ts';
import type { FlagDecls } from './values.ts';
import type { Completer } from './flags.ts';
import type { LoggingDecl } from './logging.ts';
import type { Capability, Effects, OutputDecl } from './output.ts';
import type { RunHooks } from './hooks.ts';
import type { RunResultOf } from './output-type.ts';
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

/**
 * The declaration a `Command` is built from (with Cobra's run hooks, see {@link RunHooks}), for a
 * command type `Cmd`, the run context `Ctx` of its handler and hooks, and `AnyCtx`, the untyped run
 * context a renderer gets (see `CommandConfig` in command.ts).
 */
export interface CommandConfigOf<
  Cmd,
  Ctx,
  AnyCtx,
  F extends FlagDecls = FlagDecls,
  P extends FlagDecls = FlagDecls,
  A extends readonly ArgSpec[] = readonly ArgSpec[],
  O extends OutputDecl = OutputDecl,
> extends RunHooks<Ctx> {
  /** Usage line; its first word is the name: `'show <id>'`, `'add <title...>'`. */
  use: string;
  /** One-line summary (help listings, tool descriptions). */
  short?: string;
  /** Long description (help, schema). */
  long?: string;
  /** Example invocations, one per line, each beginning with the full command (`tasks add milk`). */
  example?: string;
  /**
   * Text the first `example` line that runs this command reads on stdin, for a command that reads
   * its input there: `__schema --as=clispec` gives it as the example's `stdin`, so a checker runs the
   * example as it is used (docs/clispec.md#examples).
   */
  exampleStdin?: string;
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
  /**
   * Cobra's ValidArgsFunction: completes this command's positionals dynamically (after its
   * subcommand names, when it has some; not when `validArgs` or the positional's own `choices` or
   * `completer` answer). It gets the partial word and `{args, commandPath}` — `args`, the positionals
   * already given — and returns plain values (filtered by the partial) or Cobra's
   * `{completions, directive}`, taken as given (see `Completer` in flags.ts). MCP
   * `completion/complete` for a prompt argument or resource-template variable of the command asks it too.
   */
  validArgsFunction?: Completer;
  /** Groups of flags of which at most one may be given. */
  mutuallyExclusive?: string[][];
  /** Groups of flags that must be given together or not at all. */
  requiredTogether?: string[][];
  /** Groups of flags of which at least one must be given. */
  oneRequired?: string[][];
  /** What re-running does. Undeclared: clients assume destructive. */
  effects?: Effects;
  /**
   * ax-go's capability classes: what the command touches (`read-only`, `create`, `mutate`,
   * `delete`, `external-network`, `admin`; see {@link Capability}). They set the MCP annotations
   * effects leave open: `openWorldHint` (true only with `external-network`), `destructiveHint`
   * (true with `mutate`, `delete` or `admin`, false with `create` alone) and `readOnlyHint`.
   * Undeclared: no classes (clients assume an open world). Checked against `effects`.
   */
  capabilities?: readonly Capability[];
  /**
   * Whether the command may destroy or overwrite data (MCP `destructiveHint`). Default: true for
   * `non_idempotent`, false otherwise. Set false for a command that only adds (a create).
   */
  destructive?: boolean;
  /**
   * Whether a retry with the same `--idempotency-key` and arguments replays the first outcome
   * (docs/contract.md#idempotency-keys-and-replayed-retries). Default: true for `non_idempotent`
   * and undeclared `effects`; read-only and
   * idempotent commands never record. Set false to opt out (the key is then only echoed in `meta`).
   */
  replay?: boolean;
  /**
   * Output declaration. A literal `schema` here also types what `run` may return (a `const`
   * schema → its payload type; see {@link RunResultOf}); every schema is checked at run time.
   */
  output?: O;
  /**
   * The command may run long: over MCP, a 2026-07-28 client that declares the tasks extension
   * (`io.modelcontextprotocol/tasks`) gets a task handle at once and polls `tasks/get` for its
   * progress, questions and result, instead of holding the call open (the tool's
   * `execution.taskSupport`). `'optional'`: a client without the extension gets the result as
   * usual; `'required'`: it gets the revision's -32021 error, and nothing runs. Unset: never a task.
   * No effect on the command line. See docs/mcp-server.md#tasks.
   */
  task?: 'optional' | 'required';
  /** Flag (long name) that bypasses this command's confirmation prompt (clispec `confirmation_bypass_arg`). */
  confirmationFlag?: string;
  /**
   * Whether the command offers a dry run (the injected `--dry-run`, `dry_run` over MCP). Declare
   * `true` when the handler rehearses: it changes things only through `ctx.guard` / `ctx.perform`,
   * or checks `ctx.dryRun` itself (a run that does neither gets the warning `dry_run_unchecked`
   * instead of `meta.dry_run`). Default: true for a command declared read-only (`effects:
   * 'read_only'`, or capability classes that only read), whose dry run is trivially honest; false
   * for every other. Without a dry run `--dry-run` is not among its flags: not in its help, its
   * inputSchema or `__schema`; given anyway it is refused (`dry_run_unsupported`, exit 2) and nothing
   * runs, and a preview server (`mcp-server --dry-run`) refuses its tool (`dry_run_unavailable`).
   * Its subcommands declare their own. See docs/contract.md#dry-run-ctxguard-ctxperform-ctxconfirm.
   */
  dryRun?: boolean;
  /**
   * The command shuts something down when signalled (a server): after SIGINT or SIGTERM its handler
   * gets `SHUTDOWN_BUDGET_MS` (3 s) instead of the usual 1 s to settle. Default false. (For every
   * command, a result that arrives within its grace stands; docs/contract.md "Signals".)
   */
  finishOnSigterm?: boolean;
  /**
   * Handler; absent = a pure group that prints its help. What it returns must fit `output.schema`
   * (checked at run time on every path: a misfit is the author's `internal_error`).
   */
  run?: (ctx: Ctx) => RunResultOf<O>;
  /** Human-mode renderer of the payload. */
  render?: (data: unknown, ctx: AnyCtx) => string | void;
  /** Version of the program (root only); else resolved by `resolveVersion`. */
  version?: string;
  /**
   * Root only: the npm package the program is published as (`mycli`, `@acme/mycli`). Its AGENTS.md
   * then says how to install it without a prompt, `npm install --global <package>@<version>`
   * (docs/skill.md#install-and-verify). Undeclared, no install command is written: none is guessed.
   */
  package?: string;
  /**
   * Root only: the command that signs in again, as the words after the program's name
   * (`['auth', 'login']`). An `auth_expired` error (a credential that expired) then carries it as
   * `next[0]`, in the caller's vocabulary (docs/contract.md#an-expired-credential-auth_expired).
   */
  login?: readonly string[];
  /** Root only: the level and labels of `ctx.logger` (see {@link LoggingDecl}). */
  logging?: LoggingDecl;
  /** Root only: the config file that flags with a `config` key read (see {@link ConfigFileDecl}). */
  config?: ConfigFileDecl;
  /**
   * Root only: the most characters a `__schema` answer may have before it is a summary (each
   * command's path, one line and how to drill in; docs/schema.md#budgets-and-summaries). Default
   * 32,000 (about 8,000 tokens); 0: no budget. `__schema --budget` overrides it for one call.
   */
  schemaBudget?: number;
  /** Children, added with {@link Command.addCommand}. */
  commands?: Cmd[];
  /**
   * Makes this command a lazy stub (docs/performance.md): its body — flags, handler, children, the whole
   * subtree — comes from `load`, called only when a run selects the command, `help` or completion
   * descends into it, or a walk of the whole tree needs it (`__schema`, `mcp-server`; see
   * {@link loadTree}). Until then help listings and completion show the stub's `use`, `short`,
   * `aliases`, `hidden` and `deprecated`, so declare those here exactly as the loaded command has
   * them (a loaded command with another name, short text or aliases is refused at load:
   * `internal_error`). A stub declares nothing else (a TypeError otherwise). Typical:
   * `load: () => import('./deploy.ts')` with `export default new Command({ use: 'deploy', … })`.
   */
  load?: () => Cmd | { default: Cmd } | Promise<Cmd | { default: Cmd }>;
  /** Cobra's GroupID: the id of one of the parent's {@link CommandGroup}s this command is listed under in help. */
  groupId?: string;
  /**
   * Cobra's TraverseChildren, read on the root only (as Cobra does): the flags between one command
   * word and the next are parsed by the command before them, so `root --verbose child --int 3`
   * gives `--verbose`, a local flag of `root`, to `root`. The running command's handler reads an
   * ancestor's local flag in `ctx.flags` (and `ctx.changed`) like its own, unless a flag of the same
   * name nearer to it shadows it; on the command line such a flag goes after its own command's word
   * and before the next one (after the child's word it is an unknown flag, as in Cobra). Over MCP and
   * `--args-json`, where no words have a place, it is a property of the child's inputSchema. Without
   * it (the default) a parent's local flags are not accepted by its children, only persistent ones.
   */
  traverseChildren?: boolean;
  /**
   * Cobra's DisableFlagParsing: every word after the command is a positional (`--help` included);
   * it takes no flags from the command line, and over MCP its inputs are its positionals only.
   */
  disableFlagParsing?: boolean;
  /**
   * Cobra's SetHelpFunc: the whole help text of this command and (unless they set their own) its
   * descendants. Default: {@link helpText}.
   */
  helpFunc?: (cmd: Cmd) => string;
  /** Cobra's SetUsageFunc: the usage part of the help text (from `Usage:` on), inherited like helpFunc. */
  usageFunc?: (cmd: Cmd) => string;
  /**
   * Cobra's SetVersionTemplate, as a function (root only): the `--version` text in human mode.
   * Default: Cobra's `<name> version <version>\n`.
   */
  versionTemplate?: (info: { name: string; version: string; command: Cmd }) => string;
}
