/**
 * The runtime floor enforced (node-floor.ts), and a Node built-in module taken on first use,
 * without a static import (each static import of one costs every start: docs/performance.md).
 * `process.getBuiltinModule` is Node ≥ 22.3: on an older Node the feature that asked fails with a
 * sentence naming the version, not a bare TypeError.
 */
import { AxError } from '../contract/errors.ts';
import { belowNodeFloor, MIN_NODE } from './node-floor.ts';

export { MIN_NODE };

/**
 * The runtime floor (package.json `engines`), enforced where a run starts: on an older Node some
 * paths hang rather than fail (an aborted signal a stdio tool call waits on is never answered on
 * Node 20), so the run ends at once with one error line naming the Node it needs, exit 1.
 * @throws AxError `internal_error` (reason `unsupported_node`) on a Node below {@link MIN_NODE}.
 */
export function checkNodeFloor(version: string = process.versions.node): void {
  if (!belowNodeFloor(version)) return;
  throw new AxError(
    'internal_error',
    `this program needs Node.js ${MIN_NODE} or later and this is Node.js ${version}: upgrade Node.js to run it`,
    { context: { reason: 'unsupported_node', node: version, required: `>=${MIN_NODE}` } },
  );
}

/**
 * `process.getBuiltinModule(id)`, typed.
 * @throws AxError `internal_error` when this Node has no `process.getBuiltinModule` (older than {@link MIN_NODE}).
 */
export function builtinModule<T extends keyof BuiltinModules>(id: T): BuiltinModules[T] {
  if (typeof process.getBuiltinModule !== 'function') {
    throw new AxError(
      'internal_error',
      `ax-ts needs Node.js ${MIN_NODE} or later to load ${id} on demand ` +
        `(process.getBuiltinModule); this is Node.js ${process.versions.node}`,
      {
        fix: `Upgrade Node.js to ${MIN_NODE} or later (the package's engines field).`,
      },
    );
  }
  return process.getBuiltinModule(id) as BuiltinModules[T];
}

/** The built-ins ax-ts takes on demand. */
interface BuiltinModules {
  'node:child_process': typeof import('node:child_process');
  'node:fs/promises': typeof import('node:fs/promises');
  'node:module': typeof import('node:module');
  'node:os': typeof import('node:os');
  'node:url': typeof import('node:url');
}
