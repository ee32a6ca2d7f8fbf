/**
 * A fixture's side-effect log (one JSON line per state change a handler made), read back by the
 * table tests (test/helpers/contract-rules.ts, test/helpers/compose-paths.ts) to count what ran.
 */
import { existsSync, readFileSync } from 'node:fs';

/** Every entry of the log at `file` so far, in order; none when it does not exist yet. */
export function logEntries(file: string): Record<string, any>[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>);
}
