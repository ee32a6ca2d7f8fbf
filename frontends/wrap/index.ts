/**
 * `ax-ts wrap <bin> …` (docs/frontends.md#ax-ts-wrap): an installed commander or yargs program served
 * with nothing edited. A person's invocation runs the bin itself, untouched; an invocation that asks
 * for ax-ts (`__schema`, `mcp-server`, `--format`, `--args-json`, `AGENT_MODE`) reads the program's
 * tree once (read.ts) and runs it as the commander front end's twin, each call the bin in its own
 * process. Light until it knows ax-ts is asked: a person's run loads nothing of ax-ts's runtime.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { asksForAxWords } from '../shared/route.ts';

/** The words `ax-ts wrap` reads before the bin: its own options. */
export interface WrapInvocation {
  /** The bin as given (a path, or a name in ./node_modules/.bin). */
  bin: string | undefined;
  /** `--declarations <file>`. */
  declarations?: string;
  /** The program's words. */
  words: string[];
}

/** Splits `wrap`'s own words (`--declarations <file>`, before the bin) from the program's. */
export function wrapInvocation(args: readonly string[]): WrapInvocation {
  let declarations: string | undefined;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--declarations') declarations = args[++i];
    else if (a.startsWith('--declarations=')) declarations = a.slice('--declarations='.length);
    else break;
  }
  return { bin: args[i], words: args.slice(i + 1), ...(declarations !== undefined ? { declarations } : {}) };
}

/** A bin found: the path a person's shell would run (symlink kept: the program's argv[1]) and its real file. */
export interface FoundBin {
  path: string;
  real: string;
  name: string;
}

/** The bin a word names: a path (with a `/` or an existing file), else `./node_modules/.bin/<word>`. */
export function findBin(word: string, cwd = process.cwd()): FoundBin | undefined {
  const candidates =
    word.includes('/') || isAbsolute(word)
      ? [resolve(cwd, word)]
      : [join(cwd, 'node_modules/.bin', word), resolve(cwd, word)];
  for (const path of candidates) {
    if (!existsSync(path)) continue;
    const real = realpathSync(path);
    if (!statSync(real).isFile()) continue;
    return { path, real, name: basename(path).replace(/\.(c|m)?js$/, '') };
  }
  return undefined;
}

/** Words that may ask for ax-ts: only then is the tree read (the program may own some of them). */
const MAYBE_AX = /^(__schema|__complete|__completeNoDesc|mcp-server|completion|--format(=.*)?|--args-json(=.*)?)$/;

/**
 * Runs the bin itself with the words in this process, as Node runs a program's entry (`node <bin>`:
 * `process.argv[1]` the bin, the module run as the main one), so a person's invocation costs no
 * second Node start; the program then owns the process, its exit code included. @returns undefined.
 */
function passThrough(bin: FoundBin, words: readonly string[]): Promise<undefined> {
  process.argv.splice(1, process.argv.length - 1, bin.path, ...words);
  (createRequire(import.meta.url)('node:module') as { runMain(main?: string): void }).runMain(bin.path);
  return Promise.resolve(undefined);
}

/**
 * Runs `ax-ts wrap` with its words (after `wrap`). @returns the exit code of ax-ts's contract (a bin
 * not found, or a program that is neither commander nor yargs: `validation_error`, exit 2), or
 * undefined for a person's invocation: the bin then runs in this process and sets its own.
 */
export async function runWrap(
  args: readonly string[],
  env: Record<string, string | undefined> = process.env,
): Promise<number | undefined> {
  const inv = wrapInvocation(args);
  const bin = inv.bin === undefined ? undefined : findBin(inv.bin);
  const routing = inv.words.indexOf('--') < 0 ? inv.words : inv.words.slice(0, inv.words.indexOf('--'));
  const maybe =
    routing.some((w) => MAYBE_AX.test(w)) || asksForAxWords({ commands: new Set(), ownsOption: () => true }, [], env);
  if (bin && !maybe) return passThrough(bin, inv.words);
  const { serveWrapped } = await import('./serve.ts');
  return serveWrapped(inv, bin, env, () => passThrough(bin!, inv.words));
}
