/**
 * Version resolution, after ax-go's `ResolveVersion` (version.go): an injected version, else the
 * one the program was built with, else the nearest package.json, else the version-control revision
 * recorded at build time or, run from a Git checkout, the checkout's (`-dirty` when the work tree
 * has changes), else `0.0.0-unknown`. Never
 * throws, whatever the program is (tsc output, a bundle, a single executable):
 * docs/shipping.md#the-version.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { builtinModule } from './builtin.ts';
import { vcsRevision } from './revision.ts';

/** Versions that mean "no real version" (docs/contract.md). */
export const PLACEHOLDER_VERSIONS: readonly string[] = ['', 'dev', 'unknown', '0.0.0-unknown'];

/** Whether a version string is missing or a placeholder. */
export function isPlaceholderVersion(v: string | undefined): boolean {
  return v === undefined || PLACEHOLDER_VERSIONS.includes(v.trim());
}

/** A path given as a path or a `file:` URL (string or URL object); undefined for anything else. */
function pathOf(start: string | URL | undefined): string | undefined {
  if (start instanceof URL || (typeof start === 'string' && start.startsWith('file:'))) {
    try {
      return builtinModule('node:url').fileURLToPath(start);
    } catch {
      return undefined;
    }
  }
  return typeof start === 'string' && start !== '' ? start : undefined;
}

/**
 * Walks up from `start` (a file or directory, as a path or a `file:` URL) to the nearest
 * package.json that has a usable `version`, and returns it. Never throws: unreadable or malformed
 * files are skipped, and anything that is not a path or a `file:` URL gives undefined.
 */
export function packageVersionFrom(start: string | URL | undefined): string | undefined {
  const path = pathOf(start);
  if (path === undefined) return undefined;
  try {
    let dir = resolve(path);
    if (existsSync(dir) && !dir.endsWith('/') && /\.[cm]?[jt]sx?$/.test(dir)) dir = dirname(dir);
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
  } catch {
    /* a path the platform cannot resolve */
  }
  return undefined;
}

/**
 * Set by a build (`ax-ts build`, or a bundler's define: docs/shipping.md#the-version): the
 * program's version, embedded so that no file is read.
 */
declare const AX_PROGRAM_VERSION: string | undefined;
/** Set by `ax-ts build`: the version-control revision the program was built from (`<commit>[-dirty]`). */
declare const AX_PROGRAM_REVISION: string | undefined;

/** A build-time constant, if the program was built with a usable one. */
function embedded(read: () => unknown): string | undefined {
  let v: unknown;
  try {
    v = read();
  } catch {
    return undefined;
  }
  return typeof v === 'string' && !isPlaceholderVersion(v) ? v.trim() : undefined;
}

/**
 * The program's version, never empty and never a placeholder unless nothing better exists:
 * 1. `injected`, when usable (placeholders "", dev, unknown, 0.0.0-unknown are skipped);
 * 2. the version the program was built with (`ax-ts build`, or a bundler's
 *    `--define:AX_PROGRAM_VERSION='"1.2.3"'`; no file is read);
 * 3. the version of the package.json that owns `entry`;
 * 4. the version-control revision `ax-ts build` recorded (`<commit>`, `<commit>-dirty` when the
 *    work tree had uncommitted changes), as ax-go falls back to Go's `vcs.revision`;
 * 5. run from a Git checkout (tsc output, `tsx`, `node --experimental-strip-types`): the revision of
 *    the work tree `entry` is in, in the same form (git is run only when nothing above gave a version);
 * 6. `0.0.0-unknown`.
 * @param injected e.g. from your own build-time define.
 * @param entry a file of the program, as a path or a `file:` URL: pass `import.meta.url` (an ESM
 *   module's own URL; in a CommonJS bundle, where it is undefined, the default applies). The
 *   default, `process.argv[1]`, is the running script, which is wrong when the tree runs in-process
 *   under another program (a test runner, an embedding host).
 */
export function resolveVersion(injected?: string, entry: string | URL | undefined = process.argv[1]): string {
  if (typeof injected === 'string' && !isPlaceholderVersion(injected)) return injected.trim();
  return (
    embedded(() => (typeof AX_PROGRAM_VERSION === 'string' ? AX_PROGRAM_VERSION : undefined)) ??
    packageVersionFrom(entry) ??
    embedded(() => (typeof AX_PROGRAM_REVISION === 'string' ? AX_PROGRAM_REVISION : undefined)) ??
    checkoutRevision(entry) ??
    '0.0.0-unknown'
  );
}

/** The revision of the Git work tree a program file is in (a checkout run without a build), if any. */
function checkoutRevision(entry: string | URL | undefined): string | undefined {
  const path = pathOf(entry);
  if (path === undefined) return undefined;
  try {
    const dir = existsSync(path) && /\.[cm]?[jt]sx?$/.test(path) ? dirname(resolve(path)) : resolve(path);
    return existsSync(dir) ? vcsRevision(dir) : undefined;
  } catch {
    return undefined;
  }
}
