/**
 * Top-level await in the program's entry module, in a CommonJS bundle (docs/shipping.md#ax-ts-build).
 * `ax-ts build` writes CommonJS (its entry runs the bundle through a code cache, which has no ESM
 * loader), and esbuild refuses `await` at the top of a module in that format. Yet the entry a program
 * is told to write ends that way (`await withAx(program).parseAsync()`, docs/frontends.md). Nothing
 * imports a program's entry module, so nothing can observe when its evaluation ends: its import
 * declarations (hoisted by ESM anyway) stay at the top and the rest of its statements run in an
 * async function, started at once. A rejection ends the program as an unsettled top-level await's
 * does: the error printed, exit 1. Only the entry module is rewritten, and only when esbuild refuses
 * it; an entry that also exports names cannot be, and says so.
 */
import { readFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import type * as esbuild from 'esbuild';
import { buildFailed } from './errors.ts';

/** esbuild's loader for a source file's extension. */
function loaderOf(file: string): esbuild.Loader {
  const ext = extname(file).slice(1);
  if (ext === 'tsx' || ext === 'jsx') return ext;
  return /^[cm]?ts$/.test(ext) ? 'ts' : 'js';
}

/** Whether esbuild refused a module for its top-level await in CommonJS. */
function refusedForAwait(e: unknown): boolean {
  const errors = (e as { errors?: esbuild.Message[] }).errors ?? [];
  return errors.some((m) => /top-level await/i.test(m.text));
}

/**
 * The module as CommonJS can hold it: esbuild's own ESM output of it (one statement per line at the
 * top level, each import declaration on one line), its import declarations first, every other
 * statement inside an async function called at once.
 * @throws build_failed (`top_level_await_export`) when the module exports names.
 */
export function wrapTopLevelAwait(esm: string, file: string): string {
  const imports: string[] = [];
  const body: string[] = [];
  for (const line of esm.split('\n')) {
    if (line.startsWith('#!')) continue; // the build writes its own
    if (/^export\b/.test(line))
      throw buildFailed(
        `${file} uses top-level await and exports names, which a CommonJS bundle cannot hold together`,
        {
          fix:
            'Move the exported names into a module of their own and import them ' +
            'from the entry; keep the entry to the code that runs the program.',
          context: { reason: 'top_level_await_export', entry: file },
        },
      );
    (/^import\b[^(.]/.test(line) ? imports : body).push(line);
  }
  return `${imports.join('\n')}\n(async () => {\n${body.join('\n')}\n})();\n`;
}

/**
 * What the build should read for `entry` (an absolute path): the rewritten module when esbuild
 * refuses the file for a top-level await in CommonJS ({@link wrapTopLevelAwait}), else undefined (the
 * file as it is; any other error is the bundler's to report, with its location).
 * @throws build_failed (`top_level_await_export`) for an entry that awaits at its top and exports.
 */
export async function entryForCommonJs(es: typeof esbuild, entry: string): Promise<string | undefined> {
  if (!/\.[cm]?[jt]sx?$/.test(entry)) return undefined;
  const source = readFileSync(entry, 'utf8');
  const loader = loaderOf(entry);
  try {
    await es.transform(source, { loader, format: 'cjs', sourcefile: entry, logLevel: 'silent' });
    return undefined;
  } catch (e) {
    if (!refusedForAwait(e)) return undefined;
  }
  const esm = await es.transform(source, { loader, format: 'esm', sourcefile: entry, logLevel: 'silent' });
  return wrapTopLevelAwait(esm.code, entry);
}

/** An esbuild plugin that gives the build `contents` for the module at `entry` (an absolute path). */
export function entryPlugin(entry: string, contents: string | undefined): esbuild.Plugin {
  return {
    name: 'ax-ts-entry-await',
    setup(b) {
      if (contents === undefined) return;
      b.onLoad({ filter: /.*/ }, (a) =>
        resolve(a.path) === entry ? { contents, loader: 'js', resolveDir: dirname(entry) } : undefined,
      );
    },
  };
}
