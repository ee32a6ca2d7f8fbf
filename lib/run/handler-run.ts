/**
 * One handler run as an object (handler.ts runs it): what the runner decides before calling the
 * handler — the bound flags, the dry run, `--strict`, the idempotency key and whether a retry with it
 * replays, the context and the hooks — and what a run produces, {@link RunOutcome}.
 */
import type { ErrorEnvelope, SuccessMeta, Warning } from '../contract/envelope.ts';
import { successMeta } from './run-meta.ts';
import type { FlagProvenance } from '../config/provenance.ts';
import type { Command } from '../tree/command.ts';
import type { AxError, NextStep } from '../contract/errors.ts';
import type { PageRequest } from '../tree/paging.ts';
import { nextPageStep, pageOf, pageRequestOf, type Pagination } from './paging.ts';
import type { ReplayRecord } from '../store/idempotency.ts';
import { replays } from '../tree/flagset.ts';
import type { Invocation } from '../parse/parse.ts';
import { strictFailure } from './failures.ts';
import type { ReplayGate } from '../store/replay.ts';
import { flagValues } from '../parse/validate.ts';
import type { ResourceContent } from '../tree/declarations.ts';
import { hooksOf } from './hooks.ts';
import { createRunContext } from './context.ts';
import type { HandlerScope } from './run-state.ts';
import type { RunEnv } from './run-env.ts';

/** What a run produced, for callers that need more than the exit code (the MCP bridge). */
export interface RunOutcome {
  exitCode: number;
  /** The payload (success, non-stream). */
  payload?: unknown;
  /** Items written (stream). */
  items?: unknown[];
  /** Whether the command produced a stream. */
  stream?: boolean;
  /** The failure, when exitCode ≠ 0. */
  error?: AxError;
  /** The error line's object, when the failure was reported in json mode. */
  envelope?: ErrorEnvelope;
  /** Whether help text was printed instead of running. */
  help?: boolean;
  /** Declared resources the handler attached (`ctx.attach`), in order, read for their URIs. */
  attachments?: ResourceContent[];
  /** `meta.pagination` of a paged command's answer (the payload is the page). */
  pagination?: Pagination;
}

/**
 * The replay state of a run that gave an idempotency key to a command that replays: the gate that
 * holds the key, and the handler's own promise (after an interrupt, a late success is still recorded).
 */
export interface Replay {
  gate?: ReplayGate;
  running?: Promise<unknown>;
}

export type Hooks = ReturnType<typeof hooksOf>;

/**
 * One handler run: what the runner decided before calling the handler — the bound flags, the dry
 * run, the idempotency key, the context, the replay state and the hooks — in one object whose
 * methods the steps share (docs/performance.md: a run builds this and the context, and no closures).
 */
export class HandlerRun {
  readonly cmd: Command;
  readonly flags: Record<string, unknown>;
  readonly dryRun: boolean;
  /** The run's idempotency key: the given one, else a fresh UUID. */
  readonly key: string;
  /** The key as given (opaque), or '' when none was given (or a blank one). */
  readonly givenKey: string;
  readonly scope: HandlerScope;
  readonly replay: Replay | undefined;
  readonly hooks: Hooks;
  /** `--strict`: any warning fails the run (`warnings_as_errors`) before its output is written. */
  readonly strict: boolean;
  /** The page asked of a paged command (`output.paging`), else undefined. */
  readonly page: PageRequest | undefined;
  /** What the answer's meta says of its page, once the page is cut (or read from a replayed record). */
  paged?: { pagination: Pagination; next?: NextStep };

  constructor(
    readonly inv: Invocation,
    readonly env: RunEnv,
    readonly warnings: Warning[],
    readonly provenance: Record<string, FlagProvenance> | undefined,
  ) {
    const cmd = (this.cmd = inv.command);
    const flags = (this.flags = flagValues(inv));
    const inForce = inv.resolved.inForce;
    const dryRun = (this.dryRun = inForce('dry-run') && flags.dryRun === true);
    const rawKey = inForce('idempotency-key') && typeof flags.idempotencyKey === 'string' ? flags.idempotencyKey : '';
    const givenKey = (this.givenKey = rawKey.trim() === '' ? '' : rawKey); // opaque: kept as given; blank means none
    this.key = givenKey || env.newKey();
    this.strict = inForce('strict') && flags.strict === true;
    this.scope = createRunContext(inv, env, warnings, this);
    this.replay = givenKey !== '' && !dryRun && replays(cmd) ? {} : undefined;
    this.hooks = hooksOf(cmd);
    this.page = pageRequestOf(inv);
  }

  /** A paged command's page of `result` (lib/run/paging.ts), noted for the answer's meta. */
  cutPage(result: unknown): unknown[] {
    const { items, pagination } = pageOf(this.cmd, result, this.page!);
    this.setPagination(pagination);
    return items;
  }

  /** The replay record of a document answer: its data, and a paged command's `meta.pagination` (the same page). */
  dataRecord(data: unknown): Omit<ReplayRecord, 'recordedAt'> {
    return {
      exitCode: 0,
      kind: 'data',
      data: JSON.stringify(data === undefined ? null : data),
      ...(this.paged ? { pagination: { ...this.paged.pagination } } : {}),
    };
  }

  /** Notes the answer's page: its `meta.pagination`, and the step to the next page when there is one. */
  setPagination(pagination: Pagination): void {
    const { env } = this;
    const next =
      pagination.next_cursor === null
        ? undefined
        : nextPageStep(this.inv, env.root.name, pagination.next_cursor, env.toolBase, env.toolVia);
    this.paged = { pagination, ...(next ? { next } : {}) };
  }

  /** Under `--strict`, the failure the warnings so far make (`ran`: the handler has run), if any. */
  strictFailure(ran: boolean): void {
    if (this.strict && this.warnings.length) throw strictFailure(this.warnings, ran, this.scope.label);
  }

  /** The meta of this run's success envelope(s), as the run stands when it is written. */
  meta(): SuccessMeta {
    const meta = successMeta(this.env, this.key, this.scope, this.warnings, this.dryRun, this.provenance, this.cmd);
    if (this.paged) {
      meta.pagination = this.paged.pagination;
      if (this.paged.next) meta.next = [this.paged.next];
    }
    return meta;
  }
}
