/**
 * The `non_deterministic_fields` of a command: locators (dotted paths from the envelope) of the
 * output values that differ between runs. Source: ax-go internal/schema/nondeterministic.go (the
 * same locator form and the same three `meta.*` ids on every envelope command).
 */
import type { Command } from '../tree/command.ts';

/**
 * The envelope's own ids, and the run's duration, non-deterministic on every command that prints an
 * envelope (ax-go's three ids, and ax-ts's additive `meta.duration_ms`). Sorted.
 */
export const ENVELOPE_NON_DETERMINISTIC = [
  'meta.duration_ms',
  'meta.idempotency_key',
  'meta.span_id',
  'meta.trace_id',
] as const;

/**
 * The error line's fields that differ between runs (`error_envelope.non_deterministic_fields`):
 * ax-go's trace id, and the duration. Sorted.
 */
export const ERROR_NON_DETERMINISTIC: string[] = ['meta.duration_ms', 'meta.trace_id'];

/**
 * The sorted, unique non-deterministic locators of a command's output: the envelope's `meta.*` ids
 * plus `data.<path>` for each declared path; empty for a group (it prints help) and for an `opaque`
 * output (no envelope; its bytes are the author's).
 */
export function nonDeterministicFields(cmd: Command): string[] {
  if (!cmd.runnable() || cmd.output?.kind === 'opaque') return [];
  const declared = cmd.output?.nonDeterministic;
  if (!declared?.length) return [...ENVELOPE_NON_DETERMINISTIC]; // already sorted
  const out = new Set<string>(ENVELOPE_NON_DETERMINISTIC);
  for (const p of declared) out.add(`data.${p}`);
  return [...out].sort();
}
