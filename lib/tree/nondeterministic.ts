/**
 * Output fields whose values differ between runs (ids, times), as a command declares them
 * (`output.nonDeterministic`): the declaration check. The locator list `__schema` publishes
 * (`non_deterministic_fields`) is computed in lib/schema/nondeterministic.ts. A declared path is a
 * dotted path into the payload: `created_at`, `tasks.id` (array items are traversed transparently). Source: ax-go
 * internal/schema/nondeterministic.go (the `ax:"nondeterministic"` tag, the same locator form and
 * the same three `meta.*` ids on every envelope command).
 */
const PATH_RE = /^[^.\s]+(\.[^.\s]+)*$/;

/** @throws TypeError when a declared path is not a dotted path of non-empty names. */
export function checkNonDeterministic(cmd: string, paths: readonly string[] | undefined): void {
  if (paths === undefined) return;
  if (!Array.isArray(paths))
    throw new TypeError(`${cmd}: output.nonDeterministic must be an array of dotted paths into the payload`);
  for (const p of paths) {
    if (typeof p !== 'string' || !PATH_RE.test(p) || p.startsWith('data.') || p.startsWith('meta.')) {
      throw new TypeError(
        `${cmd}: output.nonDeterministic entry ${JSON.stringify(p)} must be a dotted ` +
          `path into the payload such as "id" or "tasks.created_at" (without "data.")`,
      );
    }
  }
}
