/**
 * `ax-ts/build`: build a program made with ax-ts as it should ship (docs/shipping.md) — the API
 * behind the `ax-ts build` command. Needs the `esbuild` package at build time (an optional peer
 * dependency of ax-ts); its errors are AxErrors of kind `build_failed` (exit 1) or
 * `validation_error` (exit 2).
 */
export { buildProgram, type BuildOptions, type BuildResult } from './build.ts';
export { writeSchemaManifest, type ManifestResult } from './manifest.ts';
