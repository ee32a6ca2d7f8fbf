/**
 * What a command's declarations resolve to — its flag set, the flags its children inherit, its
 * inputSchema properties — derived once per tree shape and held in one typed {@link ResolvedView}
 * per command. Any change to a tree (`addCommand`, `removeCommand`, `addFlag`, a flag group, a lazy
 * command loading, TraverseChildren) bumps the tree generation (generation.ts), and the next reader
 * gets a fresh view: a command added after a first parse is seen. The views live beside the tree,
 * not on it: a Command stays a declaration (docs/architecture.md#lib-layer-by-layer).
 *
 * The registry is one per process, behind a global symbol like the generation counter, because a
 * bundled program carries more than one copy of lib (its main bundle and each heavy chunk:
 * docs/shipping.md) and all of them must share one view of the same Command (docs/performance.md).
 */
import type { ArgSpec } from './args.ts';
import type { Command } from './command.ts';
import type { Flag } from './flags.ts';
import { treeGeneration } from './generation.ts';

/** One inputSchema property and what it binds to: exactly one of `flag` or `arg`. */
export interface ToolProperty {
  /** snake_case property name. */
  property: string;
  flag?: Flag;
  arg?: ArgSpec;
  /** Position of `arg` among the declared positionals. */
  argIndex?: number;
}

/**
 * A command's resolved flag set, as an invocation carries it: every flag it accepts and which of the
 * injected flags are in force. Built once per command per tree generation; read-only.
 */
export interface ResolvedFlags {
  /** Every flag the command accepts, by long name, in precedence order (flagset.ts `flagsOf`). */
  readonly all: ReadonlyMap<string, Flag>;
  /**
   * Whether the injected global flag `name` is in force (not shadowed by an author's flag of the
   * same name): `flagset.ts`'s `injectedInForce`, answered from {@link all}.
   */
  inForce(name: string): boolean;
}

/**
 * The derived data of one command for one tree generation. Each field is filled by the module that
 * owns its rule, the first time it is asked, and read from here until the tree changes.
 */
export class ResolvedView {
  /** The tree generation it was derived in. */
  readonly generation: number;
  /** The flag set (flagset.ts `flagsOf`). */
  flags?: Map<string, Flag>;
  /** {@link flags} with its in-force test, as an Invocation carries it (flagset.ts `resolvedFlags`). */
  resolved?: ResolvedFlags;
  /** The ancestors' local flags read under TraverseChildren (flagset.ts `traversedFlags`). */
  traversed?: Map<string, Flag>;
  /** The persistent flags this command's children inherit (flagset.ts). */
  inheritable?: readonly Flag[];
  /** The names of the required flags, in flag-set order (lib/parse/validate.ts). */
  required?: readonly string[];
  /** The flags that declare an env var or a config key (lib/config/provenance.ts `sourcedFlags`). */
  sourced?: readonly Flag[];
  /** The flags declared `secret: true` (secret.ts `secretFlags`). */
  secrets?: readonly Flag[];
  /** The inputSchema properties (properties.ts `toolProperties`). */
  properties?: ToolProperty[];
  /** {@link properties} by property name (properties.ts `toolPropertyIndex`). */
  propertyIndex?: ReadonlyMap<string, ToolProperty>;
  /** {@link properties} that are flags, by long flag name (properties.ts `mcpVocabulary`). */
  vocabulary?: ReadonlyMap<string, ToolProperty>;

  constructor(generation: number) {
    this.generation = generation;
  }
}

const VIEWS = ((globalThis as Record<symbol, unknown>)[Symbol.for('ax-ts.resolved-views')] ??=
  new WeakMap()) as WeakMap<Command, ResolvedView>;

/** The resolved view of `cmd` for the current tree generation (a fresh, empty one after any tree change). */
export function resolvedView(cmd: Command): ResolvedView {
  const generation = treeGeneration();
  let view = VIEWS.get(cmd);
  if (view === undefined || view.generation !== generation) VIEWS.set(cmd, (view = new ResolvedView(generation)));
  return view;
}
