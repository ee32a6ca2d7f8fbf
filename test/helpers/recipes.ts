/**
 * The shipping recipes of docs/shipping.md, read from the page itself so that the tests run exactly
 * what it says: each is a `sh` block after a `<!-- recipe: NAME [needs=TOOL,…] [node=node26]
 * [one-file|one-dir] -->` comment; every line but the last prepares the program, and the last starts
 * it with `--help`, which tells how to launch it. `runRecipe` runs one in a project directory with
 * the tools of test/helpers/runtimes.ts first on PATH.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { REPO } from './mcp.ts';
import { findTool, type Tool, toolPath } from './runtimes.ts';
import type { Launch } from './surfaces.ts';
import { QUIET_NPM } from './user-project.ts';

/** One recipe of docs/shipping.md. */
export interface Recipe {
  name: string;
  /** Tools it calls besides npm and Node. */
  needs: Tool[];
  /** The Node it needs, when not the one running the tests. */
  node?: Tool;
  /** What to copy alone into an empty directory before starting it: the program file, or its directory. */
  isolate?: 'one-file' | 'one-dir';
  /** The lines that prepare the program. */
  steps: string[];
  /** How the last line starts it: its words without `--help`. */
  launch: string[];
}

/** Every recipe of docs/shipping.md, in page order. */
export function recipes(): Recipe[] {
  const page = readFileSync(join(REPO, 'docs/shipping.md'), 'utf8');
  return [...page.matchAll(/<!-- recipe: (\S+)((?: [\w=,-]+)*) -->\n```sh\n([^]*?)\n```/g)].map((m) => {
    const attrs = m[2]!.trim().split(/\s+/).filter(Boolean);
    const value = (k: string) => attrs.find((a) => a.startsWith(`${k}=`))?.slice(k.length + 1);
    const lines = m[3]!.split('\n').filter((l) => l.trim() !== '');
    const last = lines.pop()!;
    if (!last.endsWith(' --help')) throw new Error(`recipe ${m[1]}: the last line must start the program with --help`);
    return {
      name: m[1]!,
      needs: (value('needs')?.split(',') ?? []) as Tool[],
      node: value('node') as Tool | undefined,
      isolate: attrs.includes('one-file') ? 'one-file' : attrs.includes('one-dir') ? 'one-dir' : undefined,
      steps: lines,
      launch: last.slice(0, -' --help'.length).trim().split(/\s+/),
    };
  });
}

/** What a recipe needs that is not here, for a skipped test's title; undefined when all is. */
export function recipeMissing(r: Recipe): string | undefined {
  const absent = [...r.needs, ...(r.node ? [r.node] : [])].filter((t) => findTool(t) === undefined);
  return absent.length ? `${absent.join(', ')} not found: set AX_RUNTIMES (.ci/run does)` : undefined;
}

/** The environment recipes run in: the tools first on PATH (`node` = `node`), npm quiet, `$AX_TS`… */
export function recipeEnv(work: string, node: string, vars: Record<string, string>): Record<string, string> {
  const bin = toolPath(join(work, '.bin'), node);
  return {
    ...(process.env as Record<string, string>),
    ...QUIET_NPM,
    PATH: `${bin}:${process.env.PATH ?? ''}`,
    ...vars,
  };
}

/**
 * Runs `r`'s preparing lines in `dir` (bash, `set -e`), then returns how to start the program: its
 * command resolved on the recipe's PATH, run from the project (yarn finds its hooks there), or for
 * one-file/one-dir recipes the program first copied alone into an empty directory and run there.
 */
export function runRecipe(r: Recipe, dir: string, env: Record<string, string>): Launch {
  execFileSync('bash', ['-ec', r.steps.join('\n')], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 600_000,
  });
  const [first, ...args] = r.launch as [string, ...string[]];
  // `out/bm` is the program itself; `node out/bm.cjs` names a runtime, then the program's file
  const programIsCommand = first.includes('/');
  let command = programIsCommand
    ? isAbsolute(first)
      ? first
      : join(dir, first)
    : execFileSync('bash', ['-c', `command -v ${first}`], { env, encoding: 'utf8' }).trim();
  const fileAt = programIsCommand ? -1 : args.findIndex((a) => a.includes('/') || /\.[cm]?js$/.test(a));
  if (fileAt >= 0) args[fileAt] = join(dir, args[fileAt]!);
  let cwd = dir;
  if (r.isolate) {
    const alone = mkdtempSync(join(dirname(dir), `${r.name}-alone-`)); // beside the project: removed with it
    cwd = alone;
    const program = fileAt >= 0 ? args[fileAt]! : command;
    const from = r.isolate === 'one-dir' ? dirname(program) : program;
    const to = join(alone, basename(from));
    cpSync(from, to, { recursive: statSync(from).isDirectory() });
    const moved = r.isolate === 'one-dir' ? join(to, basename(program)) : to;
    if (fileAt >= 0) args[fileAt] = moved;
    else command = moved;
  }
  return { command, args, env: { PATH: env.PATH! }, cwd };
}
