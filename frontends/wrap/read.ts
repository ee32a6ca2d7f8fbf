/**
 * Reading the command tree of a program `ax-ts wrap` serves (docs/frontends.md#ax-ts-wrap): the
 * program's own bin started once in a child with the preload (preload.ts), which writes the tree of
 * the root commander `Command` or yargs instance when the program parses, then exits before any
 * action runs. Nothing of the program is edited; nothing it would do after its parse happens.
 */
import { spawn } from 'node:child_process';
import { AxError } from '../../lib/index.ts';
import { PRELOAD_SOURCE, TREE_FD_ENV } from './preload.ts';

/** One option as the preload read it. */
export interface WrapOption {
  long?: string;
  short?: string;
  /** `bool` (no value), `value` (`<v>`), `optional` (`[v]`), `list` (`<v...>`), `count` (yargs `-vvv`). */
  kind: 'bool' | 'value' | 'optional' | 'list' | 'count';
  description: string;
  /** The default, when it is text (or a number or boolean, as text). */
  default?: string;
  choices?: string[];
  required?: boolean;
  hidden?: boolean;
  env?: string;
  /** commander's preset of an `[optional]` option given alone. */
  preset?: string;
  negate?: boolean;
  /** Taken by its own command only, not by the commands below it (a yargs `$0`'s own options). */
  local?: boolean;
}

/** One positional argument as the preload read it. */
export interface WrapArg {
  name: string;
  description?: string;
  required: boolean;
  variadic: boolean;
  choices?: string[];
}

/** One command as the preload read it. */
export interface WrapCommand {
  name: string;
  /** The library that read it (set on the root by {@link readTree}). */
  kind?: 'commander' | 'yargs';
  aliases: string[];
  description: string;
  summary?: string;
  hidden?: boolean;
  /** commander's `isDefault`, yargs' `$0`/`*` command: what runs when no command word is given. */
  isDefault?: boolean;
  /** It has an action (commander) or handler (yargs). */
  hasAction?: boolean;
  /** commander's executable subcommand (a separate program file). */
  executable?: boolean;
  version?: string;
  /** commander's version option's attribute name (`version`). */
  versionOption?: string;
  options: WrapOption[];
  args: WrapArg[];
  commands: WrapCommand[];
  /** yargs: the builder threw while it was read (its options are unknown). */
  unread?: string;
}

/** What the preload writes: the tree, or what it found instead. */
export interface WrapTree {
  /** `none`: the program exited without ever parsing with commander or yargs. */
  kind: 'commander' | 'yargs' | 'none';
  /** The argument-parsing packages the program loaded (preload.ts PARSERS). */
  found: string[];
  root?: WrapCommand;
  /** The exit status of a program that exited before it parsed. */
  exited?: number;
  /** yargs: reading its tree failed with this message. */
  error?: string;
}

/** Milliseconds a program may take to reach its parse before the read is given up. */
export const READ_BOUND_MS = 10_000;

/** The program a wrap serves: the JavaScript file its bin runs, and how to name it. */
export interface WrappedBin {
  /** The real file (symlinks followed). */
  file: string;
  /** The name a person types (the bin's name). */
  name: string;
}

function refused(bin: WrappedBin, message: string, reason: string, extra: Record<string, unknown> = {}): AxError {
  return new AxError('validation_error', message, {
    context: { reason, bin: bin.file, ...extra },
    fix:
      'ax-ts wrap serves programs built on commander or yargs that parse their command line when ' +
      'started; serve another program, or give this one an ax-ts front end in its code (docs/frontends.md).',
  });
}

/** The Node version whose `module.registerHooks` the preload needs (https://nodejs.org/api/module.html#moduleregisterhooksoptions). */
export const HOOKS_NODE = '22.15.0';

/**
 * The refusal of a Node without `module.registerHooks` (22.12–22.14: ax-ts's floor is lower), which
 * the preload needs to find the program's parser: checked here, as the child runs this same Node.
 */
function checkHooks(): void {
  const hooks = (process.getBuiltinModule('node:module') as { registerHooks?: unknown }).registerHooks;
  if (typeof hooks === 'function') return;
  throw new AxError(
    'internal_error',
    `ax-ts wrap needs Node.js ${HOOKS_NODE} or later (module.registerHooks) to read a program's commands; ` +
      `this is Node.js ${process.versions.node}`,
    {
      context: { reason: 'unsupported_node', node: process.versions.node, required: `>=${HOOKS_NODE}` },
      fix:
        `Upgrade Node.js to ${HOOKS_NODE} or later to use ax-ts wrap, or give the program an ax-ts ` +
        'front end in its code (withAx: docs/frontends.md), which this Node runs.',
    },
  );
}

/**
 * Starts the program with the preload and reads its tree. @throws AxError `validation_error` (exit 2)
 * when it exits before parsing (naming its exit status and the parsers it loaded), parses with
 * neither commander nor yargs, or does not parse within {@link READ_BOUND_MS}; `internal_error`
 * (reason `unsupported_node`, exit 1) on a Node without `module.registerHooks` (before 22.15).
 */
export function readTree(bin: WrappedBin, boundMs = READ_BOUND_MS): Promise<WrapTree> {
  try {
    checkHooks();
  } catch (e) {
    return Promise.reject(e);
  }
  const preload = `data:text/javascript,${encodeURIComponent(PRELOAD_SOURCE)}`;
  const child = spawn(process.execPath, ['--import', preload, bin.file], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    env: { ...process.env, [TREE_FD_ENV]: '3' },
    detached: true,
    windowsHide: true,
  });
  let line = '';
  let stderr = '';
  (child.stdio[3] as NodeJS.ReadableStream).on('data', (b: Buffer) => (line += b.toString('utf8')));
  child.stderr!.on('data', (b: Buffer) => (stderr = (stderr + b.toString('utf8')).slice(-2000)));
  return new Promise<WrapTree>((resolve, reject) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      reject(
        refused(
          bin,
          `${bin.name} did not parse its command line within ${boundMs / 1000} s of starting`,
          'never_parsed',
          {
            bound_ms: boundMs,
          },
        ),
      );
    }, boundMs);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(refused(bin, `could not start ${bin.name}: ${e.message}`, 'not_started'));
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      let tree: WrapTree | undefined;
      try {
        tree = JSON.parse(line.split('\n')[0] ?? '') as WrapTree;
      } catch {
        tree = undefined;
      }
      if (!tree) {
        const said = stderr.trim().split('\n').slice(-3).join(' / ');
        return reject(
          refused(
            bin,
            `${bin.name} exited with status ${code} before its tree could be read${said ? `: ${said}` : ''}`,
            'exited_early',
            {
              exit_code: code,
            },
          ),
        );
      }
      resolve(tree);
    });
  }).then((tree) => checked(bin, tree));
}

/** The tree, or the refusal of a program that is neither commander nor yargs (naming what it loaded). */
function checked(bin: WrappedBin, tree: WrapTree): WrapTree {
  if (tree.kind !== 'none' && tree.root) return { ...tree, root: { ...tree.root, kind: tree.kind } };
  if (tree.error) throw refused(bin, `${bin.name}'s yargs tree could not be read: ${tree.error}`, 'unreadable');
  const found = tree.found.filter((f) => f !== 'commander' && f !== 'yargs');
  const loaded = tree.found.length ? `it loaded ${tree.found.join(', ')}` : 'it loaded no known argument parser';
  const what = tree.found.some((f) => f === 'commander' || f === 'yargs')
    ? 'never parsed with its commander or yargs program'
    : 'is neither a commander nor a yargs program';
  throw refused(
    bin,
    `${bin.name} ${what} (${loaded}; it exited with status ${tree.exited ?? 0} before parsing)`,
    'not_commander_or_yargs',
    {
      found,
      loaded: tree.found,
      exit_code: tree.exited ?? 0,
    },
  );
}
