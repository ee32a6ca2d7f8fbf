/**
 * The effective flag set of a command: its local and persistent flags, its ancestors' persistent
 * flags (nearest wins; a local flag shadows an inherited one of the same name, as in Cobra) and the
 * flags ax-ts injects. Source: cobra's mergePersistentFlags; docs/contract.md#injected-flags.
 */
import type { Command } from './command.ts';
import type { Flag, FlagSpec } from './flags.ts';
import { resolvedView, type ResolvedFlags } from './resolved.ts';
import { PAGING_FLAGS, pagingClash, pagingFlagSpecs, pagingSettings } from './paging.ts';

/** Flags injected as persistent flags of the root unless the author declared the same name there. */
export const INJECTED_PERSISTENT: Record<string, FlagSpec> = {
  format: {
    type: 'string',
    default: '',
    usage: 'output format: json or text (json also: agent, machine; text also: human)',
  },
  'dry-run': { type: 'bool', usage: 'show what would change without changing anything' },
  'idempotency-key': { type: 'string', usage: 'key that makes a retried call safe (default: a fresh UUID v4)' },
  'args-json': {
    type: 'string',
    usage: "all arguments as one JSON object shaped like the command's inputSchema (see __schema --as=llms)",
  },
  yes: {
    type: 'bool',
    short: 'y',
    usage: "answer yes to the command's confirmation (only with the user's consent)",
  },
  strict: {
    type: 'bool',
    usage: 'fail (warnings_as_errors, exit 2) if the command warns; stdout stays empty',
  },
  explain: {
    type: 'string',
    usage: "print where a flag's value came from (flag > env > config > default) instead of running",
  },
  timeout: {
    type: 'duration',
    usage: 'stop the command after this long (timeout, exit 3), e.g. 30s',
  },
  fields: {
    type: 'stringSlice',
    usage: 'only these fields of data: dotted paths such as owner.name, in each item of a list',
  },
};

/** Names of the injected persistent flags. */
export const INJECTED_NAMES = Object.keys(INJECTED_PERSISTENT);

/** `--yes` where the author has a flag with the shorthand `-y`. */
const YES_WITHOUT_SHORT: FlagSpec = { ...INJECTED_PERSISTENT.yes!, short: undefined };

/**
 * Shared Flag records of the injected persistent flags (docs/performance.md): one per spec and `inherited`
 * value, so every command below the root holds the same four records instead of building its own
 * (and the schema walk's per-flag memo finds them). The `--idempotency-key` spec has one variant
 * per help text ({@link idempotencyKeyUsage}), shared the same way.
 */
const injectedFlags = new Map<FlagSpec, [Flag, Flag]>();
const keySpecs = new Map<string, FlagSpec>();

function injectedFlag(name: string, spec: FlagSpec, inherited: boolean): Flag {
  let pair = injectedFlags.get(spec);
  if (!pair)
    injectedFlags.set(
      spec,
      (pair = [
        { name, spec, persistent: true, inherited: false, builtin: true },
        { name, spec, persistent: true, inherited: true, builtin: true },
      ]),
    );
  return pair[inherited ? 1 : 0];
}

function keySpec(usage: string): FlagSpec {
  let spec = keySpecs.get(usage);
  if (!spec) keySpecs.set(usage, (spec = { ...INJECTED_PERSISTENT['idempotency-key']!, usage }));
  return spec;
}

/**
 * The persistent flags a child of `cmd` inherits: `cmd`'s own, then its ancestors' nearest first
 * (a name declared nearer wins), as records marked `inherited`. Cached per command until the tree
 * changes, so each level is collected once for all the commands below it instead of once per
 * command (docs/performance.md); the records are shared by every descendant.
 */
function inheritable(cmd: Command): readonly Flag[] {
  const view = resolvedView(cmd);
  if (view.inheritable) return view.inheritable;
  const own = Object.keys(cmd.persistentFlags);
  const above = cmd.parent ? inheritable(cmd.parent) : [];
  let out: Flag[];
  if (own.length === 0) out = above as Flag[];
  else {
    out = own.map((name) => ({
      name,
      spec: cmd.persistentFlags[name]!,
      persistent: true,
      inherited: true,
      builtin: false,
    }));
    for (const f of above) if (!Object.hasOwn(cmd.persistentFlags, f.name)) out.push(f);
  }
  view.inheritable = out;
  return out;
}

/**
 * The flags a command accepts, keyed by long name, in precedence order (own local, own persistent,
 * ancestors' persistent nearest first, injected). Cached on the command until the tree changes.
 * Records of inherited and injected flags are shared between commands: treat them as read-only.
 * @throws TypeError when two flags in the set share a shorthand (an author error, like Cobra's panic).
 */
export function flagsOf(cmd: Command): Map<string, Flag> {
  const view = resolvedView(cmd);
  if (view.flags) return view.flags;
  const out = new Map<string, Flag>();
  const add = (name: string, spec: FlagSpec, persistent: boolean, inherited: boolean, builtin: boolean) => {
    if (!out.has(name)) out.set(name, { name, spec, persistent, inherited, builtin });
  };
  for (const n in cmd.localFlags) add(n, cmd.localFlags[n]!, false, false, false);
  for (const n in cmd.persistentFlags) add(n, cmd.persistentFlags[n]!, true, false, false);
  if (cmd.parent) for (const f of inheritable(cmd.parent)) if (!out.has(f.name)) out.set(f.name, f);
  const root = cmd.root();
  for (const n of INJECTED_NAMES) {
    if (n in root.persistentFlags || n in root.localFlags || out.has(n)) continue;
    if (n === 'dry-run' && !cmd.dryRun) continue; // a command without a dry run (CommandConfigOf.dryRun)
    if (n === 'fields' && cmd.output?.noData) continue; // data is always null: no fields to select (OutputDecl.noData)
    // the key's help says, per command, whether a retry with it replays (only when the injected flag is in force here)
    // --yes keeps its -y unless a flag of the author's has that letter (as --help gives up -h)
    const spec =
      n === 'idempotency-key'
        ? keySpec(idempotencyKeyUsage(cmd, replaysByDeclaration(cmd)))
        : n === 'yes' && [...out.values()].some((f) => f.spec.short === 'y')
          ? YES_WITHOUT_SHORT
          : INJECTED_PERSISTENT[n]!;
    out.set(n, injectedFlag(n, spec, cmd !== root));
  }
  const paging = pagingSettings(cmd.output);
  if (paging) {
    // --limit and --cursor: local to a paged command (docs/contract.md#paging---limit---cursor); a
    // flag of the author's that it inherits under either name is a declaration error, as its own is
    const specs = pagingFlagSpecs(paging);
    for (const n of PAGING_FLAGS) {
      const prior = out.get(n);
      if (prior && !prior.builtin) throw pagingClash(cmd.commandPath(), `an inherited flag --${n}`);
      out.set(n, { name: n, spec: specs[n], persistent: false, inherited: false, builtin: true });
    }
  }
  const shorts = new Map<string, string>();
  for (const f of out.values()) {
    if (!f.spec.short) continue;
    const prior = shorts.get(f.spec.short);
    if (prior)
      throw new TypeError(
        `${cmd.commandPath()}: flags --${prior} and --${f.name} both use the shorthand -${f.spec.short}`,
      );
    shorts.set(f.spec.short, f.name);
  }
  if (!out.has('help'))
    add(
      'help',
      { type: 'bool', short: shorts.has('h') ? undefined : 'h', usage: `help for ${cmd.name}` },
      false,
      false,
      true,
    );
  if (cmd === root && !out.has('version')) {
    add(
      'version',
      { type: 'bool', short: shorts.has('v') ? undefined : 'v', usage: `version for ${cmd.name}` },
      false,
      false,
      true,
    );
  }
  view.flags = out;
  return out;
}

/**
 * Cobra's TraverseChildren (on when the root sets `traverseChildren`): the local flags of `cmd`'s
 * ancestors that its handler reads in `ctx.flags` — the nearest declaration of each name, left out
 * when a flag of `cmd`'s own set ({@link flagsOf}) has that name (it shadows the ancestor's). They
 * are not in {@link flagsOf}: after `cmd`'s word on the command line they are unknown flags, as in
 * Cobra; each is given between its command's word and the next command's. Each carries
 * `traversedFrom`. Empty without TraverseChildren. Cached like {@link flagsOf}.
 */
export function traversedFlags(cmd: Command): Map<string, Flag> {
  const view = resolvedView(cmd);
  if (view.traversed) return view.traversed;
  const out = new Map<string, Flag>();
  if (cmd.root().traverseChildren) {
    const own = flagsOf(cmd);
    for (let a = cmd.parent; a; a = a.parent) {
      for (const [name, spec] of Object.entries(a.localFlags)) {
        if (!own.has(name) && !out.has(name))
          out.set(name, {
            name,
            spec,
            persistent: false,
            inherited: true,
            builtin: false,
            traversedFrom: a.commandPath(),
          });
      }
    }
  }
  view.traversed = out;
  return out;
}

/**
 * Whether a caller-given `--idempotency-key` makes a retry of `cmd` replay the first outcome (docs/contract.md
 * "Replay"): the command runs, its `effects` is `non_idempotent` or undeclared, it has not opted out
 * with `replay: false`, and the injected `--idempotency-key` is in force (not shadowed by an author's
 * flag). Read-only and idempotent commands never record: a retry of them is safe without a key. The
 * one predicate help, the schemas, the inputSchema and the runner share.
 */
export function replays(cmd: Command): boolean {
  return replaysByDeclaration(cmd) && injectedInForce(cmd, 'idempotency-key');
}

function replaysByDeclaration(cmd: Command): boolean {
  return cmd.runnable() && cmd.replay !== false && cmd.effects !== 'read_only' && cmd.effects !== 'idempotent';
}

/** What `--idempotency-key` does on a command, in words for its help text and schema descriptions. */
function idempotencyKeyUsage(cmd: Command, replaying: boolean): string {
  return keyUsageFor(replaying, cmd.effects, cmd.runnable());
}

/**
 * The words of {@link idempotencyKeyUsage} from what they depend on: whether a retry replays, the
 * command's `effects` and whether it runs. The lean ax document writes these three instead of the
 * words (`replays`, `effects`, `runnable`), and its expansion (lib/schema/ax-expand.ts) puts them back.
 */
export function keyUsageFor(replaying: boolean, effects: string | undefined, runnable: boolean): string {
  if (replaying)
    return (
      'key that makes a retry safe: a retry with the same key and arguments ' +
      'replays the first outcome instead of running again (default: a fresh UUID v4)'
    );
  if (effects === 'read_only' || effects === 'idempotent') {
    return (
      `key echoed in meta.idempotency_key; this command ` +
      `is ${effects === 'read_only' ? 'read-only' : 'idempotent'}, so a retry ` +
      `is safe without it and nothing is replayed (default: a fresh UUID v4)`
    );
  }
  if (!runnable) {
    return (
      'on a command that replays, a retry with the same key and arguments ' +
      'gets the first outcome again; elsewhere it is only echoed in ' +
      "meta.idempotency_key (each command's help says which; default: a fresh UUID v4)"
    );
  }
  return (
    'key echoed in meta.idempotency_key; this command does not ' +
    'replay, so a retry with it runs again (default: a fresh UUID v4)'
  );
}

/** The flag a shorthand letter names in a command's set, if any. */
export function flagByShort(cmd: Command, letter: string): Flag | undefined {
  for (const f of flagsOf(cmd).values()) if (f.spec.short === letter) return f;
  return undefined;
}

/**
 * Whether the injected global flag `name` is in force for this command (not shadowed by an author's
 * flag of the same name). `--format` shadowed means the mode comes from AGENT_MODE or the TTY.
 */
export function injectedInForce(cmd: Command, name: string): boolean {
  return flagsOf(cmd).get(name)?.builtin === true;
}

/**
 * {@link flagsOf} with its in-force test, built once per command until the tree changes: what an
 * Invocation carries (lib/parse/parse.ts), so the run path reads the set instead of resolving it again.
 */
export function resolvedFlags(cmd: Command): ResolvedFlags {
  const view = resolvedView(cmd);
  if (view.resolved) return view.resolved;
  const all = flagsOf(cmd);
  return (view.resolved = { all, inForce: (name) => all.get(name)?.builtin === true });
}

/**
 * Local flags (own local + own persistent) then inherited, each sorted by name; hidden ones left out;
 * and, under TraverseChildren, the ancestors' local flags the command reads ({@link traversedFlags}),
 * sorted by name.
 */
export function visibleFlags(cmd: Command): { local: Flag[]; inherited: Flag[]; traversed: Flag[] } {
  const local: Flag[] = [];
  const inherited: Flag[] = [];
  for (const f of flagsOf(cmd).values()) if (!f.spec.hidden) (f.inherited ? inherited : local).push(f);
  const traversed: Flag[] = [];
  for (const f of traversedFlags(cmd).values()) if (!f.spec.hidden) traversed.push(f);
  return { local: local.sort(byName), inherited: inherited.sort(byName), traversed: traversed.sort(byName) };
}

const byName = (a: Flag, b: Flag) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Whether a `--dry-run` (`dry_run`) asked of `cmd` is refused as `dry_run_unsupported`
 * (lib/tree/dry-run.ts): the command offers no dry run and no flag of the author's takes the name
 * (an author's own `--dry-run` on the root replaces the injected one; elsewhere it is its own flag).
 */
export function refusesDryRun(cmd: Command): boolean {
  const root = cmd.root();
  return (
    !cmd.dryRun && !('dry-run' in root.persistentFlags || 'dry-run' in root.localFlags) && !flagsOf(cmd).has('dry-run')
  );
}
