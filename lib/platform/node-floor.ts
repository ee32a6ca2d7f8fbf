/**
 * The runtime floor: the Node version ax-ts needs (package.json `engines.node`) and the test of this
 * Node against it. Imports nothing, so a built program's small entry (lib/build/entry.ts) can ask
 * before anything else loads. Where a run refuses an older Node: builtin.ts `checkNodeFloor`.
 */

/** The Node version ax-ts needs (package.json `engines.node`). */
export const MIN_NODE = '22.12.0';

/**
 * Whether `version` (default this Node's) is below {@link MIN_NODE}: two integer parses, so the
 * check costs nothing measurable at start (docs/performance.md).
 */
export function belowNodeFloor(version: string = process.versions.node): boolean {
  const major = Number.parseInt(version, 10);
  const minor = Number.parseInt(version.slice(version.indexOf('.') + 1), 10);
  return major < 22 || (major === 22 && minor < 12);
}
