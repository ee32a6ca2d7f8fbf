/**
 * esbuild, as `ax-ts build` drives it: loaded on demand (an optional peer dependency of ax-ts,
 * needed at build time only), its failures turned into `build_failed` errors.
 */
import type * as esbuild from 'esbuild';
import { buildFailed } from './errors.ts';

/** esbuild, or build_failed naming the package to install. */
export async function loadEsbuild(): Promise<typeof esbuild> {
  try {
    return await import('esbuild');
  } catch (e) {
    throw buildFailed(`ax-ts build needs the esbuild package, which could not be loaded: ${(e as Error).message}`, {
      fix: 'Install it next to ax-ts: npm install --save-dev esbuild',
      context: { reason: 'missing_dependency', package: 'esbuild' },
    });
  }
}

/** Runs one esbuild build; its errors become build_failed. */
export async function run(es: typeof esbuild, options: esbuild.BuildOptions): Promise<esbuild.BuildResult> {
  try {
    return await es.build({ ...options, logLevel: 'silent' });
  } catch (e) {
    const errors = ((e as { errors?: esbuild.Message[] }).errors ?? []).map(
      (m) => `${m.location ? `${m.location.file}:${m.location.line}: ` : ''}${m.text}`,
    );
    throw buildFailed(`the program could not be bundled: ${errors[0] ?? (e as Error).message}`, {
      fix: 'Fix the error in the program (or install the package it names), then build again.',
      context: { reason: 'bundle_failed', errors },
    });
  }
}
