/**
 * The tree-shape generation: one counter per process, bumped by every change to any command tree
 * (`addCommand`, `removeCommand`, `addFlag`, a flag group, a lazy command loading, TraverseChildren),
 * so what is derived from declarations (resolved.ts, keyed by it) never outlives a change, and
 * building a tree of n commands one `addCommand` at a time stays O(n).
 *
 * Shared through a global symbol by every copy of this module, because a bundled program carries
 * more than one — its main bundle and each heavy chunk (the MCP runtime, the --args-json validator:
 * docs/shipping.md) — and all of them share the views of the same Command objects (resolved.ts).
 * With a counter per copy, each copy's views looked stale to the other, and every MCP call rebuilt a
 * command's flag set, tool properties and more, twice (docs/performance.md).
 */
const TREE = ((globalThis as Record<symbol, unknown>)[Symbol.for('ax-ts.tree-generation')] ??= { generation: 0 }) as {
  generation: number;
};

/** The current tree generation. */
export function treeGeneration(): number {
  return TREE.generation;
}

/** Marks everything derived from any tree stale (O(1): the views compare generations). */
export function bumpTreeGeneration(): void {
  TREE.generation += 1;
}
