/**
 * "Did you mean" suggestions, as Cobra computes them: Levenshtein distance within 2
 * (SuggestionsMinimumDistance) or a prefix match, case-insensitive. Source: cobra command.go SuggestionsFor.
 */

/** Levenshtein edit distance between two strings (case-insensitive). */
export function levenshtein(a: string, b: string): number {
  a = a.toLowerCase();
  b = b.toLowerCase();
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * Candidates close to `typed`, best first (distance, then prefix matches before others, then name);
 * each at most once. A prefix match counts as at most `maxDistance`, and wins a tie, so `rem` puts
 * `remote` before `get` (two substitutions away).
 * @param maxDistance default 2, Cobra's default.
 */
export function suggestionsFor(typed: string, candidates: Iterable<string>, maxDistance = 2): string[] {
  const scored: { name: string; d: number; prefix: boolean }[] = [];
  const seen = new Set<string>();
  for (const c of candidates) {
    if (seen.has(c)) continue;
    seen.add(c);
    const d = levenshtein(typed, c);
    const prefix = typed.length > 0 && c.toLowerCase().startsWith(typed.toLowerCase());
    if (d <= maxDistance || prefix) scored.push({ name: c, d: prefix ? Math.min(d, maxDistance) : d, prefix });
  }
  return scored
    .sort((x, y) => x.d - y.d || Number(y.prefix) - Number(x.prefix) || (x.name < y.name ? -1 : 1))
    .map((s) => s.name);
}
