/**
 * What a command's `run` receives: parsed and typed values, its own IO, signal and contract state.
 * Source: SPEC §2 (`run(ctx)`); the context object follows clipanion (IO by injection).
 */
import type { Readable } from 'node:stream';
import type { Command } from './command.ts';
import { AxError, type AxErrorOptions } from './errors.ts';
import type { FlagSpec, FlagType, FlagValueOf } from './flags.ts';
import type { ArgSpec } from './args.ts';

/** Where a command writes: anything with `write(string)`; `isTTY` tells whether a person is watching. */
export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

/** Output mode after detection: `json` for machines, `human` for people. */
export type Mode = 'json' | 'human';

/** Flag declarations of one command, keyed by long name. */
export type FlagDecls = Record<string, FlagSpec>;

/** `max-width` → `maxWidth`, at the type level. */
export type CamelCase<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;

type Always = 'bool' | 'count' | 'stringSlice' | 'stringArray' | 'intSlice';
type ValueOfSpec<S extends FlagSpec> = S['choices'] extends readonly (infer C)[]
  ? S['type'] extends 'string'
    ? C
    : FlagValueOf<S['type']>
  : FlagValueOf<S['type'] & FlagType>;
type Defined<S extends FlagSpec> = S['type'] extends Always ? true : S['required'] extends true ? true : S extends { default: unknown } ? true : false;

/** The typed `ctx.flags` object for a command's own declarations (camelCase keys). */
export type FlagValues<F extends FlagDecls> = string extends keyof F ? Record<string, unknown> : {
  -readonly [K in keyof F & string as CamelCase<K>]: Defined<F[K]> extends true ? ValueOfSpec<F[K]> : ValueOfSpec<F[K]> | undefined;
};

/** The value type of one positional: a number for `type: 'int' | 'float'`, else a string. */
type ArgType<D extends ArgSpec> = D['type'] extends 'int' | 'float' ? number : string;

/** The typed `ctx.args` object for named positionals (camelCase keys; variadic → string[]). */
export type ArgValues<A extends readonly ArgSpec[]> = number extends A['length'] ? Record<string, string | string[] | number | number[] | undefined> : {
  -readonly [D in A[number] as CamelCase<D['name']>]: D['variadic'] extends true
    ? ArgType<D>[]
    : D['required'] extends false
      ? ArgType<D> | undefined
      : ArgType<D>;
};

/** The context passed to `run(ctx)`. */
export interface RunContext<F extends FlagDecls = FlagDecls, A extends readonly ArgSpec[] = readonly ArgSpec[]> {
  /** Every flag value (own, inherited and injected), camelCase keys; unset flags without default are undefined. */
  flags: FlagValues<F> & Record<string, unknown>;
  /** Named positionals, camelCase keys. */
  args: ArgValues<A> & Record<string, string | string[] | number | number[] | undefined>;
  /** Positionals in order, as given. */
  argv: string[];
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
  /** 16 lower-hex span id of this invocation. */
  spanId: string;
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
   * Runs `effect` unless this is a dry run; in a dry run records `description` and returns `rehearsal`
   * (default undefined) instead.
   */
  perform<T>(description: string, effect: () => T | Promise<T>, rehearsal?: T): Promise<T | undefined>;
  /**
   * Asks for confirmation before a destructive step. Returns at once when the bypass flag
   * (`bypassFlag`, e.g. `'yes'`) is set. Without a terminal on stdin (pipes, CI, MCP) it never
   * prompts: it throws `confirmation_required` whose fix names the bypass flag. On a terminal it asks
   * on stderr and reads one line; anything but y/yes declines (throws `confirmation_required`).
   */
  confirm(question: string, bypassFlag: string): Promise<void>;
  /** Builds an {@link AxError}: `throw ctx.fail('not_found', 'no task 9')`. */
  fail(kind: string, message: string, options?: AxErrorOptions): AxError;
  /** Property/flag spelling for messages: `--yes` on the CLI, `yes` under MCP. */
  flagLabel(flagName: string): string;
}

/** A command's handler result: a payload, nothing, or an (async) iterable of items for a stream. */
export type RunResult = unknown;
