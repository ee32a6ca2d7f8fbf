/**
 * The `meta` of a run's success envelopes, and the honesty of its dry run
 * (docs/contract.md#success-envelope, docs/contract.md#dry-run-ctxguard-ctxperform-ctxconfirm):
 * `meta.dry_run: true` is written only over a dry run the command can vouch for — one of a
 * read-only command, or one whose handler (or a hook) read `ctx.dryRun` or called `ctx.guard` /
 * `ctx.perform`. A declared dry run whose handler did neither may have changed things: its envelope
 * says so with the warning `dry_run_unchecked` instead of `meta.dry_run`.
 */
import { successOutcome, type SuccessMeta, type Warning } from '../contract/envelope.ts';
import type { FlagProvenance } from '../config/provenance.ts';
import type { Command } from '../tree/command.ts';
import { declaredReadOnly } from '../tree/dry-run.ts';
import type { HandlerScope } from './run-state.ts';
import type { RunEnv } from './run-env.ts';

/** The meta every success envelope of a run starts from: its ids, and its outcome as of now. */
export function baseMeta(env: RunEnv, key: string): SuccessMeta {
  return { trace_id: env.traceId, span_id: env.spanId, idempotency_key: key, ...successOutcome(env.trace.startedAt) };
}

/** Whether a dry run of `cmd` can be vouched for as it stands (see the module's comment). */
export function dryRunVouched(cmd: Command, scope: HandlerScope): boolean {
  return scope.dryRunChecked || declaredReadOnly(cmd.effects, cmd.capabilities);
}

/**
 * The warning `dry_run_unchecked` when a dry run's handler has ended without checking it (see the
 * module's comment), through `ctx.warn`: on stderr, in `meta.warnings`, and a failure under `--strict`.
 */
export function checkDryRun(dryRun: boolean, cmd: Command, scope: HandlerScope): void {
  if (dryRun && !dryRunVouched(cmd, scope))
    scope.ctx.warn(
      `${cmd.commandPath()} was asked for a dry run, but its handler never read ctx.dryRun nor ` +
        `called ctx.guard or ctx.perform: it may have changed things (meta.dry_run is left out)`,
      { code: 'dry_run_unchecked' },
    );
}

/** The meta of a run's success envelope(s), as the run stands when it is written. */
export function successMeta(
  env: RunEnv,
  key: string,
  scope: HandlerScope,
  warnings: Warning[],
  dryRun: boolean,
  provenance: Record<string, FlagProvenance> | undefined,
  cmd: Command,
): SuccessMeta {
  const m = baseMeta(env, key);
  const vouched = dryRun && dryRunVouched(cmd, scope);
  if (scope.attachments.length) m.attached = scope.attachments.map((a) => a.uri);
  if (vouched) m.dry_run = true;
  if (warnings.length) m.warnings = warnings.map((w) => ({ ...w }));
  if (scope.changed !== undefined) m.changed = vouched ? false : scope.changed;
  if (scope.would.length) m.would = [...scope.would];
  if (provenance) m.provenance = provenance;
  return m;
}
