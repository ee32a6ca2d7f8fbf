/**
 * The heavy half of `ax-ts wrap`, loaded only when an invocation may ask for ax-ts: the program's
 * tree read (read.ts), shaped as a commander program (shim.ts), its declarations applied, and run as
 * the commander front end's twin, each call the bin itself in its own process
 * (docs/frontends.md#ax-ts-wrap).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Command as CommanderCommand } from 'commander';
import { AxError } from '../../lib/index.ts';
import { runAx } from '../commander/bridge.ts';
import { runTwinMain } from '../shared/bridge.ts';
import { asksForAxWords } from '../shared/route.ts';
import { applyDeclarationsFile, declarationsFile } from './declarations.ts';
import type { FoundBin, WrapInvocation } from './index.ts';
import { readTree } from './read.ts';
import { defaultCommand, shimOf } from './shim.ts';

/** The version in the package.json nearest the program's file (where yargs reads its own `--version`). */
function packageVersion(file: string): string | undefined {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const f = join(dir, 'package.json');
    if (!existsSync(f)) continue;
    try {
      const v = (JSON.parse(readFileSync(f, 'utf8')) as { version?: unknown }).version;
      return typeof v === 'string' ? v : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * What the program owns among the words that ask for ax-ts (as `asksForAx` of ax-ts/commander reads a
 * program; that entry is not imported here, so a front end's file stays its own in dist/).
 */
function ownWords(program: CommanderCommand) {
  const names = (c: CommanderCommand) => [c.name(), ...c.aliases()];
  return {
    commands: new Set(program.commands.flatMap(names)),
    ownsOption: (long: string, routing: readonly string[]) => {
      const seen = [program];
      for (const w of routing) {
        const next = seen.at(-1)!.commands.find((c) => names(c).includes(w));
        if (next) seen.push(next);
      }
      return seen.some((c) => c.options.some((o) => o.long === long));
    },
  };
}

/** ax-ts's command words: never read as the default command's operands. */
const AX_WORDS = new Set(['__schema', '__complete', '__completeNoDesc', 'mcp-server', 'completion']);

/** Reports `e` as ax-ts's contract does (an error line in json mode, else a message; its exit code). */
function refuse(name: string, e: unknown, words: readonly string[], env: Record<string, string | undefined>) {
  return runTwinMain(
    {
      name,
      build: () => {
        throw e;
      },
      ownsMcpServer: false,
    },
    words,
    env,
  );
}

/**
 * The words with the default command's name put first when no command word is given (commander's
 * `isDefault`): json mode then routes as a person's invocation does. Words after `--` are operands.
 */
export function routedToDefault(program: CommanderCommand, words: readonly string[]): readonly string[] {
  const name = defaultCommand(program);
  if (!name) return words;
  const end = words.indexOf('--');
  const routing = end < 0 ? words : words.slice(0, end);
  const commands = new Set(program.commands.flatMap((c) => [c.name(), ...c.aliases()]));
  if (routing.some((w) => commands.has(w) || AX_WORDS.has(w) || w === 'help')) return words;
  return [name, ...words];
}

/**
 * A yargs program's words: the positionals before `--` unless one of them starts with `-` (yargs
 * with `populate--` keeps what follows `--` out of its positionals; a value shaped like an option
 * stays after `--`, where no parser reads it as one).
 */
function yargsWords(words: readonly string[]): string[] {
  const end = words.indexOf('--');
  if (end < 0 || words.slice(end + 1).some((w) => w.startsWith('-'))) return [...words];
  return [...words.slice(0, end), ...words.slice(end + 1)];
}

/**
 * Serves one invocation of a wrapped bin that may ask for ax-ts. `passThrough` runs the bin itself
 * (an invocation whose words turn out to be the program's own). @returns the exit code.
 */
export async function serveWrapped(
  inv: WrapInvocation,
  bin: FoundBin | undefined,
  env: Record<string, string | undefined>,
  passThrough: () => Promise<undefined>,
): Promise<number | undefined> {
  // `__schema` and `mcp-server` are machine surfaces: on a pipe their refusals are the JSON error
  // line, as a native tree's are (a person's own words keep the program's mode rules)
  const machine = (inv.words[0] === '__schema' || inv.words[0] === 'mcp-server') && !process.stdout.isTTY;
  if (machine && (env.AGENT_MODE ?? '') === '') env = { ...env, AGENT_MODE: 'json' };
  if (!bin) {
    const e = new AxError(
      'validation_error',
      inv.bin === undefined
        ? 'ax-ts wrap needs the program to serve'
        : `no program ${JSON.stringify(inv.bin)}: not a file, nor in ./node_modules/.bin`,
      {
        context: {
          reason: inv.bin === undefined ? 'missing_bin' : 'bin_not_found',
          ...(inv.bin !== undefined ? { bin: inv.bin } : {}),
        },
        fix:
          'Give the path of the program, or the name of a bin installed in ./node_modules/.bin: ' +
          'ax-ts wrap <bin> __schema | mcp-server | <command…> --format json.',
      },
    );
    return refuse(inv.bin ?? 'ax-ts wrap', e, inv.words, env);
  }
  let program: CommanderCommand;
  let kind: string;
  try {
    const tree = await readTree({ file: bin.path, name: bin.name });
    kind = tree.kind;
    program = shimOf({ ...tree.root!, version: tree.root!.version ?? packageVersion(bin.real) }, bin.name);
    const file = declarationsFile(inv.declarations, bin.path, bin.real, bin.name);
    if (file) applyDeclarationsFile(program, file);
  } catch (e) {
    return refuse(bin.name, e, inv.words, env);
  }
  if (!asksForAxWords(ownWords(program), inv.words, env)) return passThrough();
  const words = routedToDefault(program, inv.words);
  return runAx(program, words, env, 'child', {
    entry: bin.path,
    ...(kind === 'yargs' ? { words: yargsWords } : {}),
  });
}
