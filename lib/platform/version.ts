/**
 * Version resolution. Source: SPEC §2 (`resolveVersion`), ax-go version.go.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Versions that mean "no real version" (SPEC §2). */
export const PLACEHOLDER_VERSIONS: readonly string[] = ['', 'dev', 'unknown', '0.0.0-unknown'];

/** Whether a version string is missing or a placeholder. */
export function isPlaceholderVersion(v: string | undefined): boolean {
  return v === undefined || PLACEHOLDER_VERSIONS.includes(v.trim());
}

/**
 * Walks up from `start` (a file or directory) to the nearest package.json that has a usable
 * `version`, and returns it. Never throws: unreadable or malformed files are skipped.
 */
export function packageVersionFrom(start: string | undefined): string | undefined {
  if (!start) return undefined;
  let dir = resolve(start);
  if (existsSync(dir) && !dir.endsWith('/') && /\.[cm]?[jt]s$/.test(dir)) dir = dirname(dir);
  for (let i = 0; i < 64; i++) {
    const file = join(dir, 'package.json');
    try {
      if (existsSync(file)) {
        const v = (JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version;
        if (typeof v === 'string' && !isPlaceholderVersion(v)) return v;
      }
    } catch {
      /* skip unreadable package.json */
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}

/** Set by `ax-ts build` in a built program: the version embedded at build time (docs/shipping.md). */
declare const AX_PROGRAM_VERSION: string | undefined;

/** The version `ax-ts build` embedded in this program, if it is a built program with one. */
function builtVersion(): string | undefined {
  const v = typeof AX_PROGRAM_VERSION === 'string' ? AX_PROGRAM_VERSION : undefined;
  return isPlaceholderVersion(v) ? undefined : v!.trim();
}

/**
 * The program's version: `injected` when usable, else the version `ax-ts build` embedded in a
 * built program (no file is read), else the version of the package.json that owns `entry`
 * (default: the running script, `process.argv[1]`), else `0.0.0-unknown`.
 * @param injected e.g. from a build-time define; placeholders ("", dev, unknown, 0.0.0-unknown) are skipped.
 * @param entry a file of the program. The default, `process.argv[1]`, is wrong when the tree runs
 *   in-process under another program (a test runner, an embedding host): pass your own module's
 *   path there, e.g. `resolveVersion(undefined, fileURLToPath(import.meta.url))`.
 */
export function resolveVersion(injected?: string, entry: string | undefined = process.argv[1]): string {
  if (!isPlaceholderVersion(injected)) return injected!.trim();
  return builtVersion() ?? packageVersionFrom(entry) ?? '0.0.0-unknown';
}
