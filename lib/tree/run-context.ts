/**
 * The shape of `ctx`, the run context a `run` handler and the run hooks receive. It takes the command
 * type as a parameter (`Cmd`) so this module needs nothing from command.ts (no type-import circle);
 * command.ts instantiates it as {@link RunContext}. Source: docs/contract.md; Cobra passes `cmd, args`, ax-ts
 * one context object.
 */
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { AxError, AxErrorOptions } from '../contract/errors.ts';
import type { OutputStream } from '../contract/envelope.ts';
import type { Mode } from '../contract/mode.ts';
import type { ArgSpec } from './args.ts';
import type { ArgValues, FlagDecls, FlagValues } from './values.ts';
import type { Logger } from './logging.ts';
import type { PageRequest } from './paging.ts';
import type { ActionRequired, AskOptions, ElicitSchema, Root, SampleRequest, SampleResult } from './interaction.ts';
/** The answer of `ctx.eachItem` when every item succeeded: each item's outcome, in order. */
export interface ItemResults<T = unknown, R = unknown> {
  results: { item: T; ok: true; data: R }[];
}

/** The context passed to `run(ctx)`, for a command type `Cmd` (see `RunContext` in command.ts). */
export interface RunContextOf<Cmd, F extends FlagDecls = FlagDecls, A extends readonly ArgSpec[] = readonly ArgSpec[]> {
  /**
   * Every flag value (own, inherited and injected; under the root's `traverseChildren` also the
   * ancestors' local flags the command reads), camelCase keys; unset flags without default are undefined.
   */
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
  command: Cmd;
  /** stdout of this invocation. In json mode, write nothing here: return the payload instead. */
  stdout: OutputStream;
  /** stderr of this invocation: logs and diagnostics. */
  stderr: OutputStream;
  /** stdin of this invocation (empty under MCP). */
  stdin: Readable;
  /** Whether stdin is a terminal (a pseudo-terminal too: see {@link interactive} for whether anyone answers). */
  stdinIsTTY: boolean;
  /**
   * The AI agent running the program, read from the environment (docs/contract.md "Agents and
   * prompts"): `AI_AGENT`'s or `AGENT`'s value, else the agent whose own variable is set
   * (`claude-code`, `cursor`, `codex`, `gemini-cli`, `opencode`, `goose`, `copilot`, `augment`,
   * `replit`); undefined when none is. A UX hint, never a trust boundary.
   */
  readonly agent: string | undefined;
  /**
   * Whether a person can answer a prompt: a terminal on stdin and stdout, no `CI` and no agent
   * variable ({@link agent}) — or `FORCE_TTY=1`, which says yes whatever the rest says. Always false
   * under MCP. `ctx.confirm` and `ctx.elicit` ask on the terminal only when this is true and the
   * mode is human; otherwise they stop with the next steps at once, never waiting for input.
   */
  readonly interactive: boolean;
  /** Environment of this invocation. */
  env: Record<string, string | undefined>;
  /** Aborted on SIGINT, on MCP cancellation or on server shutdown. */
  signal: AbortSignal;
  /** Detected output mode. */
  mode: Mode;
  /** `--dry-run` was given (false when a command's own `--dry-run` flag shadows the global one). */
  dryRun: boolean;
  /**
   * The page a call of a paged command asks for (`output.paging`: `limit`, `offset`, the handler's
   * own `cursor`, and `reply` to answer one page itself); undefined on a command that does not page.
   * docs/contract.md#paging---limit---cursor.
   */
  readonly page: PageRequest | undefined;
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
   * Starts a child process the run owns: Node's `spawn(command, args, options)` (the environment
   * {@link childEnv} by default), in a process group of its own. When the run ends — its handler
   * returns or fails, `--timeout` passes, SIGINT or SIGTERM interrupts it — the child's group and
   * every process below it get SIGTERM, and SIGKILL one second later if still running, before the
   * run's outcome is written: nothing the handler started outlives the run, on the command line as
   * under `mcp-server` (docs/contract.md#child-processes-ctxspawn). Await its end with
   * `once(child, 'exit')` (`node:events`).
   * @throws TypeError when `command` is not a non-empty string or `args` not a list of strings.
   */
  spawn(command: string, args?: readonly string[], options?: SpawnOptions): ChildProcess;
  /**
   * The structured logger of this run (pino, loaded on first use): JSON lines on stderr with
   * trace_id, span_id, command, program, version and the root's labels; see {@link Logger}.
   */
  readonly logger: Logger;
  /**
   * Reports progress: MCP `notifications/progress` when the caller asked for it, `onProgress` of
   * execute, and for a person on a terminal (human mode, stderr a terminal, no agent or CI) a line
   * on stderr redrawn in place (never in json mode). `done` must rise: a report whose `done` is not
   * above the last one is dropped (MCP requires increasing progress). `total` is optional.
   */
  progress(done: number, total?: number, message?: string): void;
  /** Writes one diagnostic line to stderr (never stdout); under MCP also a `notifications/message` (level info). */
  log(message: string): void;
  /**
   * Records a step of the run as done: `ctx.step(name)` once it is, or `await ctx.step(name, work)`,
   * which runs `work` and records `name` when it resolves (returning its result; a step that throws
   * is not recorded). If the run then fails — its own error, a stop, `--timeout`, an interrupt — the
   * error's `context.completed_steps` lists the steps done, in order, so the caller knows what had
   * changed before the failure (docs/contract.md#partial-failure-ctxstep). In a dry run `work` does
   * not run: `name` goes to `meta.would` and the step resolves to undefined (`ctx.perform` gives a
   * rehearsal value).
   * @throws TypeError when `name` is not a non-empty string, or `work` not a function.
   */
  step(name: string): void;
  step<T>(name: string, work: () => T | Promise<T>): Promise<T>;
  /**
   * Answers per item (a variadic command: `rm <ids...>`): runs `work` on each item in turn and
   * resolves to `{results}`, one `{item, ok: true, data}` per item, for the handler to return. When
   * some items fail (their error is caught, and the next item still runs), it throws instead, once
   * every item has run: `partial_failure` (exit 23), whose `context.results` lists every item's
   * outcome in order — `{item, ok: false, error: {kind, message}}` for a failed one — with
   * `context.succeeded` and `context.failed` counts (docs/contract.md#per-item-results-ctxeachitem).
   * An abort of `ctx.signal` (SIGINT, `--timeout`) stops before the next item.
   * @throws TypeError when `items` is not an array or `work` not a function.
   */
  eachItem<T, R>(items: readonly T[], work: (item: T, index: number) => R | Promise<R>): Promise<ItemResults<T, R>>;
  /**
   * Adds a warning `{code, message}` to the envelope's `meta.warnings` (ax-go's shape) and writes the
   * message to stderr; under MCP also a `notifications/message` (level warning). `code` is a stable
   * name (`^[a-z][a-z0-9_]*$`, default `warning`). With `--strict` it throws the run's failure
   * `warnings_as_errors` (exit 2, nothing on stdout) right there, so the handler stops at its
   * warning. @throws TypeError for a code that does not match; AxError `warnings_as_errors` under `--strict`.
   */
  warn(message: string, options?: { code?: string }): void;
  /**
   * Says whether this run changed anything, written as `meta.changed` (the last call wins; absent
   * when never called). Meant for idempotent commands, whose retry is safe: `setChanged(false)` when
   * the state already was as asked. In a dry run `meta.changed` is false whatever is said.
   * @throws TypeError when `changed` is not a boolean.
   */
  setChanged(changed: boolean): void;
  /**
   * A stop: the run cannot go on before something else happens (a login, a choice), and has changed
   * nothing. It stops the run where it is called, throwing the AxError — kind `action_required`
   * (exit 2) with `context.reason` and runnable `next[]` steps (program name in front, the caller's
   * `--format` carried; over MCP the tool call); `throw ctx.actionRequired({…})` reads the same.
   * Human mode prints the reason and each step with its description.
   * @throws AxError `action_required`, always; TypeError for a malformed stop.
   */
  actionRequired(stop: ActionRequired): never;
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
  perform<T>(
    description: string,
    effect: () => T | Promise<T>,
    rehearsal?: T | (() => T | Promise<T>),
  ): Promise<T | undefined>;
  /**
   * Asks for confirmation before a destructive step (ax-go's Confirm: approved, blocked or prompt
   * required). Returns at once when the bypass flag is set: `bypassFlag`, else the command's
   * `confirmationFlag`, else the global `--yes`. Under MCP, when the client declared the elicitation
   * capability, it asks the user through `elicitation/create` (a one-field form, `confirm: boolean`)
   * and returns if they accept with `confirm: true`. When the run is {@link interactive} and in human
   * mode it asks on stderr and reads one line; anything but y/yes declines. Anywhere else (pipes,
   * json mode, an agent, CI, an MCP client without elicitation, stateless HTTP) it never prompts.
   * Every refusal throws `confirmation_required` (exit 2) whose `context.outcome` is `blocked` (the
   * user said no) or `prompt_required` (nobody could be asked; `next` is then the same call with the
   * bypass flag, to run only with the user's consent). A 2026-07-28 MCP client is asked through the
   * call's result (`input_required`): the call stops there, changing nothing, and runs again from the
   * start with the answer (docs/mcp-server.md#2026-07-28-input_required-results).
   */
  confirm(question: string, bypassFlag?: string, options?: AskOptions): Promise<void>;
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
  elicit<T extends Record<string, unknown> = Record<string, string | number | boolean | string[]>>(
    schema: ElicitSchema,
    message: string,
    options?: AskOptions,
  ): Promise<T>;
  /**
   * Asks the MCP client's language model (`sampling/createMessage`; a string is one user message,
   * `maxTokens` defaults to 1024). Only under MCP, when the client declared sampling.
   * @throws AxError `sampling_unavailable` anywhere else (the command line, a client without the
   *   capability, stateless HTTP), `declined` when the client refused, `timeout` when it did not answer.
   */
  sample(request: SampleRequest | string, options?: AskOptions): Promise<SampleResult>;
  /**
   * The MCP client's roots (`roots/list`: the directories or files it lets the server work in),
   * when the client declared the `roots` capability; an empty list anywhere else (the command line,
   * a client without it, stateless HTTP) — roots are advice, never required.
   * @throws AxError `declined` when the client refused, `timeout` when it did not answer.
   */
  roots(options?: AskOptions): Promise<Root[]>;
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
