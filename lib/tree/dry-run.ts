/**
 * Which commands offer a dry run, and the refusal of one asked of a command that does not
 * (docs/contract.md#dry-run-ctxguard-ctxperform-ctxconfirm). A dry run is offered only where it is
 * honest: by a command that declares `dryRun: true` (its handler rehearses with `ctx.guard`,
 * `ctx.perform` or `ctx.dryRun`), or by one declared read-only, which changes nothing either way.
 * Everywhere else `--dry-run` (`dry_run`) is refused with `dry_run_unsupported` before anything runs.
 */
import { AxError } from '../contract/errors.ts';
import { WRITES, type Capability, type Effects } from './output.ts';

/**
 * Whether a command's declaration says it changes nothing: `effects: 'read_only'`, or, with `effects`
 * undeclared, capability classes none of which changes state. The same rule as MCP's `readOnlyHint`
 * (docs/mcp-server.md#annotations). A command that declares no `dryRun` offers one exactly when this
 * holds: its dry run is trivially honest.
 */
export function declaredReadOnly(
  effects: Effects | undefined,
  capabilities: readonly Capability[] | undefined,
): boolean {
  if (effects !== undefined) return effects === 'read_only';
  return capabilities !== undefined && !capabilities.some((c) => WRITES.includes(c));
}

/** What {@link dryRunUnsupported} needs of the command. */
export interface DryRunRefused {
  /** The command's path (`tasks add`). */
  path: string;
}

/**
 * The refusal of a dry run asked of a command that offers none: `dry_run_unsupported` (exit 2, not
 * retryable), nothing run. The fix is in the caller's vocabulary: `--dry-run` on the command line
 * (`spelling: 'argv'`), the `dry_run` property over MCP and `--args-json` (`'values'`).
 */
export function dryRunUnsupported(cmd: DryRunRefused, spelling: 'argv' | 'values'): AxError {
  const asked = spelling === 'argv' ? '--dry-run' : 'dry_run';
  return new AxError(
    'dry_run_unsupported',
    `${cmd.path} cannot preview: it declares no dry run, so ${asked} is refused and nothing was run`,
    {
      context: { command: cmd.path, [spelling === 'argv' ? 'flag' : 'property']: asked },
      fix:
        spelling === 'argv'
          ? `Leave --dry-run out to carry the command out for real (only if that is ` +
            `what the user wants); run '${cmd.path} --help' to see what it changes.`
          : `Leave dry_run out to carry the call out for real (only if that is ` +
            `what the user wants); the tool's description says what it changes.`,
    },
  );
}
