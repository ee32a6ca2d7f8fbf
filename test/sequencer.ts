/**
 * The order vitest starts the test files in: longest first, so that the workers finish together
 * rather than one long file starting last and running alone (docs/architecture.md#tests). The
 * figures are vitest's own cache where this checkout has one (a second run), else
 * test/durations.json — each file's seconds in the last full run, written by
 * `node .ci/durations.mjs <log>` — and a file in neither counts as 10 s, larger ones first.
 */
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds per file of each part of the suite (`quick`: `npm test`; `rest`: `npm run test:rest`). */
const durations = JSON.parse(readFileSync(new URL('durations.json', import.meta.url), 'utf8')) as Record<
  string,
  Record<string, number>
>;

/** Each file's longer figure of the two parts (for `AX_TEST_SCOPE=all`). */
function longer(): Record<string, number> {
  const out = { ...durations.quick };
  for (const [k, v] of Object.entries(durations.rest ?? {})) out[k] = Math.max(out[k] ?? 0, v);
  return out;
}

/** The weight of a file the figures do not know, in seconds: as a long-ish one. */
const UNKNOWN = 10;

/** Longest known file first; a file the figures do not know as if it took {@link UNKNOWN} seconds. */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const scope = process.env.AX_TEST_SCOPE;
    // `all` runs both parts' files in one run: each file by the longer of its two figures
    const part = scope === 'rest' ? durations.rest! : scope === 'all' ? longer() : durations.quick!;
    const root = this.ctx.config.root;
    const weight = (f: TestSpecification): number => {
      const key = relative(root, f.moduleId).split(sep).join('/'); // the figures' keys use '/'
      const cached = this.ctx.cache.getFileTestResults(`${f.project.name}:${key}`);
      if (cached) return cached.duration / 1000;
      // a file the last full run did not have: after the long ones, larger first
      return part[key] ?? UNKNOWN + (this.ctx.cache.getFileStats(`${f.project.name}:${key}`)?.size ?? 0) / 1e9;
    };
    const w = new Map(files.map((f) => [f, weight(f)]));
    return [...files].sort((a, b) => w.get(b)! - w.get(a)!);
  }
}
