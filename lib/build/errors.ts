/** The error kind of `ax-ts build` (docs/shipping.md#ax-ts-build). */
import { defineError } from '../contract/errors.ts';

/**
 * A program could not be built: a build-time dependency is missing (`context.reason`
 * `missing_dependency`, `context.package` names it), the bundler reported errors
 * (`bundle_failed`, `context.errors`), or the built program failed when run to precompute its
 * answers (`program_failed`). Exit 1.
 */
export const buildFailed = defineError({
  kind: 'build_failed',
  exitCode: 1,
  description:
    'ax-ts build could not build the program (context.reason: missing_dependency, bundle_failed or program_failed).',
});
