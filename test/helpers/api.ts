/**
 * What an entry point exports, by name and kind, read with the TypeScript compiler API from the
 * source files (types included, which no runtime `import()` can see). Used by
 * test/api/public-api.test.ts to pin the public API exactly.
 */
import ts from 'typescript';
import { join } from 'node:path';

/**
 * The kind of an exported name: `class`; `function` (anything callable, including an Args validator
 * constant); `object` (a value with functions on it, such as the `mcp` marks); `constant` (data: a
 * primitive, or an object or array without functions, such as `ExitCode` or a JSON Schema); `type`
 * (an interface or type alias).
 */
export type ApiKind = 'class' | 'function' | 'object' | 'constant' | 'type';

/** Every exported name of each entry, sorted, with its kind. */
export type Api = Record<string, Record<string, ApiKind>>;

const PRIMITIVE =
  ts.TypeFlags.StringLike |
  ts.TypeFlags.NumberLike |
  ts.TypeFlags.BooleanLike |
  ts.TypeFlags.BigIntLike |
  ts.TypeFlags.ESSymbolLike |
  ts.TypeFlags.Null |
  ts.TypeFlags.Undefined;

function kindOf(checker: ts.TypeChecker, symbol: ts.Symbol, at: ts.Node): ApiKind {
  const s = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  if (s.flags & ts.SymbolFlags.Class) return 'class';
  if (s.flags & ts.SymbolFlags.Function) return 'function';
  if (s.flags & ts.SymbolFlags.Variable) {
    const type = checker.getTypeOfSymbolAtLocation(s, at);
    if (type.flags & PRIMITIVE) return 'constant';
    if (type.getCallSignatures().length || type.getConstructSignatures().length) return 'function';
    const callable = checker
      .getPropertiesOfType(type)
      .some((p) => checker.getTypeOfSymbolAtLocation(p, at).getCallSignatures().length > 0);
    return callable && !checker.isArrayLikeType(type) ? 'object' : 'constant';
  }
  if (s.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) return 'type';
  throw new Error(`unclassified export ${symbol.name} (flags ${s.flags})`);
}

/**
 * The exported names and kinds of each entry file. @param entries entry name → absolute path of
 * its source file. @param repo the repository (its tsconfig.json gives the compiler options).
 */
export function exportedApi(entries: Record<string, string>, repo: string): Api {
  const config = ts.readConfigFile(join(repo, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, repo);
  const program = ts.createProgram(Object.values(entries), { ...options, noEmit: true });
  const checker = program.getTypeChecker();
  const api: Api = {};
  for (const [name, file] of Object.entries(entries)) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`${name}: no source file ${file}`);
    const module = checker.getSymbolAtLocation(source);
    const names: Record<string, ApiKind> = {};
    for (const sym of module ? checker.getExportsOfModule(module) : []) names[sym.name] = kindOf(checker, sym, source);
    api[name] = Object.fromEntries(Object.entries(names).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
  return api;
}

/** How `now` differs from `pinned`: names added, removed, or of another kind, as `entry: name (kind)` lines. */
export function apiChanges(pinned: Api, now: Api): { added: string[]; removed: string[]; changed: string[] } {
  const out = { added: [] as string[], removed: [] as string[], changed: [] as string[] };
  for (const entry of new Set([...Object.keys(pinned), ...Object.keys(now)])) {
    const a = pinned[entry] ?? {};
    const b = now[entry] ?? {};
    for (const [n, k] of Object.entries(b)) {
      if (!(n in a)) out.added.push(`${entry}: ${n} (${k})`);
      else if (a[n] !== k) out.changed.push(`${entry}: ${n} (${a[n]} → ${k})`);
    }
    for (const [n, k] of Object.entries(a)) if (!(n in b)) out.removed.push(`${entry}: ${n} (${k})`);
  }
  return out;
}
