/**
 * `ax-ts/config`: read and edit JSONC config files (JSON with comments and trailing commas), as
 * ax-go's `config` package does — a size cap, RFC 6902 patches applied as minimal text edits, and the
 * `config_*` error kinds. The parser loads on first use. See docs/api.md and docs/config.md.
 */
export { patchConfig, readConfig } from './config.ts';
export type { ConfigOptions } from './config.ts';
export { applyJsoncPatch } from './config-patch.ts';
export type { PatchOperation } from './config-patch.ts';
