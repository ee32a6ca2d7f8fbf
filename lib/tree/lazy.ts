/**
 * Lazy subtrees (docs/performance.md): a command declared with `load` is a stub — its `use`, `short`,
 * `aliases`, `hidden` and `deprecated` are all that help listings and completion of its parent
 * need — whose body (flags, handler, children: the whole subtree) is loaded only when a run selects
 * it, `help` or completion descends into it, or a walk of the whole tree needs it (`__schema`,
 * `mcp-server`). Loading replaces the stub in its parent by the loaded command; a loaded command
 * that disagrees with its stub (another name, other short text or aliases) is refused, so what the
 * listings said stays true, and the marks set on the stub (annotations such as MCP exclusion or a
 * tool name, its group) hold for the loaded command.
 */
import { AxError, toAxError } from '../contract/errors.ts';
import { Command } from './command.ts';

/** Whether `cmd` is a stub whose body has not been loaded yet. */
export function isUnloaded(cmd: Command): boolean {
  return cmd.load !== undefined && cmd._loaded === undefined;
}

function drift(stub: Command, what: string, fix: string): AxError {
  return new AxError('internal_error', `the lazily loaded command ${JSON.stringify(stub.commandPath())} ${what}`, {
    fix,
    context: { command: stub.commandPath() },
  });
}

/**
 * The Command in what a loader returned: itself, or a module's default export (once or twice
 * wrapped, as bundlers' interop does).
 */
function unwrap(m: unknown): unknown {
  for (let i = 0; i < 3 && !(m instanceof Command) && m !== null && typeof m === 'object' && 'default' in m; i++)
    m = (m as { default: unknown }).default;
  return m;
}

/**
 * Loads a stub's body once (concurrent callers share the load) and puts it in the stub's place.
 * @returns the loaded command (the stub itself when it has no `load`, or its body once loaded).
 * @throws AxError `internal_error` when the loader fails or returns something that is not a
 *   Command agreeing with the stub (same name; same short text and aliases, or none).
 */
export function loadCommand(stub: Command): Promise<Command> {
  if (!stub.load) return Promise.resolve(stub);
  if (stub._loaded) return Promise.resolve(stub._loaded);
  stub._loading ??= (async () => {
    let got: unknown;
    try {
      got = unwrap(await stub.load!());
    } catch (e) {
      throw new AxError(
        'internal_error',
        `cannot load the command ${JSON.stringify(stub.commandPath())}: ${e instanceof Error ? e.message : String(e)}`,
        {
          cause: e,
          fix: 'This is a bug in the program (its lazy command module failed to load); report it with the trace_id.',
        },
      );
    }
    if (!(got instanceof Command))
      throw drift(
        stub,
        'did not load a Command',
        'Make the module export the command (export default new Command({…})) or return it from load.',
      );
    if (got.name !== stub.name)
      throw drift(
        stub,
        `loaded a command named ${JSON.stringify(got.name)}`,
        'Declare the stub with the same name as the command its module exports.',
      );
    if (got.short && got.short !== stub.short)
      throw drift(
        stub,
        `has the short text ${JSON.stringify(got.short)}, but its listing says ${JSON.stringify(stub.short)}`,
        'Give the stub and the loaded command the same short text (or leave the loaded one empty).',
      );
    if (got.aliases.length && got.aliases.join(' ') !== stub.aliases.join(' '))
      throw drift(
        stub,
        `answers to the aliases ${got.aliases.join(', ')}, but its stub to ${stub.aliases.join(', ') || 'none'}`,
        'Declare the same aliases on the stub.',
      );
    got.short = stub.short;
    got.aliases = [...stub.aliases];
    got.hidden ||= stub.hidden;
    got.deprecated ??= stub.deprecated;
    got.groupId ??= stub.groupId;
    // the marks put on the stub (MCP exclusion, a tool name, any annotation) hold for what it loads:
    // they were set where the command is declared, and the listings already followed them
    for (const [k, v] of Object.entries(stub.annotations)) got.annotate(k, v);
    const parent = stub.parent;
    if (parent) parent._replaceChild(stub, got);
    stub._loaded = got;
    return got;
  })();
  return stub._loading;
}

/** Loads every lazy subtree of `root`, nested ones too (what `__schema` and `mcp-server` walk). */
export async function loadTree(root: Command): Promise<void> {
  let level: Command[] = [root];
  while (level.length) {
    const loaded = await Promise.all(level.map((c) => loadCommand(c)));
    level = loaded.flatMap((c) => c.commands());
  }
}

/** A lazy stub whose loader failed in {@link loadTreeSettled}: it stays a stub, its subtree unknown. */
export interface LoadFailure {
  /** The stub, still in its parent (a group with nothing below it, as far as any walk can tell). */
  command: Command;
  /** Why: the `internal_error` its load threw. */
  error: AxError;
}

/**
 * Loads every lazy subtree of `root` that loads, as {@link loadTree} does, without stopping at one
 * that fails: a stub whose loader throws (or returns a command that disagrees with it) stays in
 * place, unloaded, and is reported; the rest of the tree is loaded. What a long-lived server uses
 * (`mcp-server` serves every healthy command and answers calls into a broken subtree with its load
 * error) where a one-shot walk such as `__schema` fails whole.
 * @returns the failures, one per broken stub, in the order they were met (breadth first).
 */
export async function loadTreeSettled(root: Command): Promise<LoadFailure[]> {
  const failures: LoadFailure[] = [];
  let level: Command[] = [root];
  while (level.length) {
    const loaded = await Promise.all(
      level.map(async (c) => {
        try {
          return await loadCommand(c);
        } catch (e) {
          failures.push({ command: c, error: toAxError(e) });
          return undefined;
        }
      }),
    );
    level = loaded.flatMap((c) => (c ? c.commands() : []));
  }
  return failures;
}
