/**
 * A Node built-in module taken on first use, without a static import (each static import of one costs
 * every start: docs/performance.md). `process.getBuiltinModule` is Node ≥ 22.3: on an older Node
 * the feature that asked fails with a sentence naming the version, not a bare TypeError.
 */
import { AxError } from '../contract/errors.ts';

/** The Node version ax-ts needs (package.json `engines.node`). */
export const MIN_NODE = '22.12.0';

/**
 * `process.getBuiltinModule(id)`, typed.
 * @throws AxError `internal_error` when this Node has no `process.getBuiltinModule` (older than {@link MIN_NODE}).
 */
export function builtinModule<T extends keyof BuiltinModules>(id: T): BuiltinModules[T] {
  if (typeof process.getBuiltinModule !== 'function') {
    throw new AxError(
      'internal_error',
      `ax-ts needs Node.js ${MIN_NODE} or later to load ${id} on demand (process.getBuiltinModule); this is Node.js ${process.versions.node}`,
      {
        fix: `Upgrade Node.js to ${MIN_NODE} or later (the package's engines field).`,
      },
    );
  }
  return process.getBuiltinModule(id) as BuiltinModules[T];
}

/** The built-ins ax-ts takes on demand. */
interface BuiltinModules {
  'node:module': typeof import('node:module');
  'node:os': typeof import('node:os');
  'node:url': typeof import('node:url');
}
