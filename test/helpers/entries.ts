/**
 * The package's public entry points, read from package.json `exports` (the one list): each with its
 * import name (`ax-ts`, `ax-ts/mcp`, …), its built files and the source file they are built from
 * (`./dist/<x>.js` from `<x>.ts`, as .ci/build.mjs builds them).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One entry point of the package. */
export interface PublicEntry {
  /** The specifier a user imports: `ax-ts`, `ax-ts/mcp`, … */
  name: string;
  /** The source file, relative to the repository: `lib/index.ts`, `mcp/index.ts`, … */
  source: string;
  /** The built declaration and module files (`./dist/…`). */
  types: string;
  import: string;
}

/** Every entry point that package.json exports with `types` and `import` (not `./package.json`). */
export function publicEntries(repo: string): PublicEntry[] {
  const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, string | { types?: string; import?: string }>;
  };
  return Object.entries(pkg.exports).flatMap(([key, e]) => {
    if (typeof e !== 'object' || !e.types || !e.import) return [];
    return [
      {
        name: key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`,
        source: e.import.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts'),
        types: e.types,
        import: e.import,
      },
    ];
  });
}
