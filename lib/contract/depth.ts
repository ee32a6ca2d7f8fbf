/**
 * How deep input may nest. A value nested thousands of levels deep parses (`JSON.parse` copes) but
 * cannot be encoded again (`JSON.stringify`, `structuredClone` overflow the stack), so every input
 * path refuses it up front as a `validation_error` instead of failing later as an internal error.
 */

/** Most levels of arrays/objects an input value may nest (a top-level object counts as 1). */
export const MAX_INPUT_DEPTH = 256;

/**
 * Whether `value` nests deeper than `max` levels of arrays and objects. Iterative (never overflows
 * the stack itself) and stops at the first path that is too deep.
 */
export function nestsDeeperThan(value: unknown, max: number = MAX_INPUT_DEPTH): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (max >= 1 && !Array.isArray(value)) {
    // the common case, an object of scalars (MCP arguments): nothing to walk, nothing built
    let nested = false;
    for (const k in value) {
      if (!Object.hasOwn(value, k)) continue;
      const child = (value as Record<string, unknown>)[k];
      if (child !== null && typeof child === 'object') {
        nested = true;
        break;
      }
    }
    if (!nested) return false;
  }
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v as object))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}
