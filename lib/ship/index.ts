/**
 * `ax-ts/build`: build a program made with ax-ts as it should ship (docs/shipping.md) — the API
 * behind the `ax-ts build` command. Needs the `esbuild` package at build time (an optional peer
 * dependency of ax-ts).
 */
export { buildProgram, type BuildOptions, type BuildResult } from './build.ts';
export { writeSchemaManifest, type ManifestResult } from './manifest.ts';
export { buildFailed } from './errors.ts';
export { HEAVY_MODULES, HEAVY_PACKAGES } from './plugins.ts';
