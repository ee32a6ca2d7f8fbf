/**
 * The per-run state behind a handler's context (context.ts): what the runner decided before the run
 * (dry run, `--strict`, the idempotency key, the bound flags), the run's guarded stdout and stderr,
 * what the handler recorded (steps, would-do lines, attachments, `setChanged`), and whether the run
 * has ended. The runner reads it back as the run's {@link HandlerScope}.
 */
import type { RunChildren } from './children.ts';
import { LINE_OPEN, MID_LINE } from '../contract/envelope.ts';
import type { RunContext } from '../tree/command.ts';
import { putOutcome, WRITE_OUTCOME, type OutputStream, type Warning } from '../contract/envelope.ts';
import { flagLabel } from '../parse/validate.ts';
import type { Invocation } from '../parse/parse.ts';
import type { ResourceContent } from '../tree/declarations.ts';
import type { AskScope } from '../ask/ask.ts';
import type { RunProgress } from '../observe/progress.ts';
import type { RunEnv } from './run-env.ts';

/** What the runner decided before building a run's context. */
export interface RunDecisions {
  dryRun: boolean;
  /** `--strict`: a warning fails the run where it is raised. */
  strict: boolean;
  key: string;
  givenKey: string;
  flags: Record<string, unknown>;
}

/** A run's context and the state the runner reads back (see {@link createRunContext}). */
export interface HandlerScope {
  ctx: RunContext;
  /** The run's stdout and stderr, silent once the run is closed. */
  stdout: OutputStream;
  stderr: OutputStream;
  /** A flag's name as this invocation spells it (`--name` on the CLI, `name` over MCP). */
  label: (name: string) => string;
  /** What `ctx.guard`/`ctx.perform` skipped in a dry run, in order. */
  would: string[];
  /** The steps `ctx.step` recorded as done, in order. */
  steps: string[];
  /** What the handler said with `ctx.setChanged` (undefined: it said nothing). */
  changed: boolean | undefined;
  /** Resources `ctx.attach` attached, in order. */
  attachments: ResourceContent[];
  /** In a dry run: whether the handler (or a hook) read `ctx.dryRun` or called `ctx.guard`/`ctx.perform`. */
  dryRunChecked: boolean;
  /** The children `ctx.spawn` started, once it has (lib/run/children.ts). */
  children: RunChildren | undefined;
  /** The per-item outcomes `ctx.eachItem` has so far (lib/run/items.ts), once it has run: a stop reports them. */
  itemResults: readonly unknown[] | undefined;
  /** Ends the run: later writes, progress and log calls through the context do nothing. */
  close(): void;
}

/**
 * The key of a context's state. A global symbol: a bundled program carries lib more than once (its
 * main bundle and each heavy chunk, docs/shipping.md), and a context one copy built may be read by another.
 */
export const STATE = Symbol.for('ax-ts.run-context.state');

export type WithState = { [STATE]: RunState };

/** One run's stdout or stderr: writes pass through until the run is closed, then do nothing. */
export class GuardedStream implements OutputStream {
  readonly isTTY: boolean | undefined;
  constructor(
    private readonly target: OutputStream,
    private readonly state: { readonly closed: boolean },
  ) {
    this.isTTY = target.isTTY;
  }
  write(chunk: string | Uint8Array): unknown {
    return this.state.closed ? true : this.target.write(chunk);
  }
  [WRITE_OUTCOME](chunk: string | Uint8Array): unknown {
    return this.state.closed ? true : putOutcome(this.target, chunk);
  }
  [LINE_OPEN](): boolean {
    return this.target[LINE_OPEN]?.() ?? false;
  }
}

/**
 * The per-run state behind a context — what its lazily built members read — and the runner's
 * {@link HandlerScope} of the run. One class (docs/performance.md: one is built for every run and every MCP
 * call), so a run makes one object here and no closures until a member asks for one.
 */
export class RunState implements HandlerScope {
  /** Whether the run has ended (then writes, progress and log calls do nothing); read by its streams. */
  closed = false;
  readonly would: string[] = [];
  readonly steps: string[] = [];
  readonly attachments: ResourceContent[] = [];
  dryRunChecked = false;
  changed: boolean | undefined = undefined;
  /** The run's progress reports (made on the first). */
  progress: RunProgress | undefined = undefined;
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  /** The members built so far, by name (made on the first). */
  built: Record<string, unknown> | undefined = undefined;
  ask: AskScope | undefined = undefined;
  children: RunChildren | undefined = undefined;
  itemResults: readonly unknown[] | undefined = undefined;
  #label: ((name: string) => string) | undefined = undefined;
  ctx!: RunContext;

  constructor(
    readonly inv: Invocation,
    readonly env: RunEnv,
    readonly warnings: Warning[],
    readonly dryRun: boolean,
    readonly strict: boolean,
  ) {
    this.stdout = new GuardedStream(env.stdout, this);
    this.stderr = new GuardedStream(env.stderr, this);
  }

  /** A flag's name as this invocation spells it (made on first read, then the same function). */
  get label(): (name: string) => string {
    const inv = this.inv;
    return (this.#label ??= (n: string) => flagLabel(inv, n));
  }

  close(): void {
    this.progress?.erase();
    this.closed = true;
  }

  /**
   * Writes one line of the run's own on stderr (a drawn progress line erased first), on a line of
   * its own after a print that left one unfinished (lib/platform/process-patches.ts, patch 7).
   */
  line(text: string): void {
    this.progress?.erase();
    const env = this.env;
    const after = env.stderr[MID_LINE]?.() || env.stdout[MID_LINE]?.() ? '\n' : '';
    this.stderr.write(`${after}${text}\n`);
  }
}
