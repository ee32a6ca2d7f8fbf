/**
 * Every process-wide patch lives in lib/platform/process-patches.ts (docs/architecture.md#io):
 * no other source file of lib/, mcp/ or frontends/ assigns to a stream's `write` or `end`, redefines
 * a property of `process` or re-syncs `node:child_process`'s exports. The check reads the sources as
 * text, and is proven on planted patches.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { codeLinesMatching, sourceLinesMatching } from '../helpers/layers.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const HOME = 'lib/platform/process-patches.ts';

/** The shapes of a process-wide patch: an assignment to a write/end, a redefined `process` property, an ESM re-sync. */
const PATCH = [
  /\.(write|end)\s*=(?!=)/,
  /defineProperty\(\s*process\b/,
  /syncBuiltinESMExports\s*\(/,
  /setGlobalProxyFromEnv\s*\(/,
  /\bprocess\.(stdout|stderr|stdin)\s*=(?!=)/,
];

/** The lines of `text` that match. */
const patches = (text: string) => codeLinesMatching(text, PATCH);

describe('process patches have one home', () => {
  it(`no file of lib/, mcp/ or frontends/ but ${HOME} patches the process`, () => {
    const found = sourceLinesMatching(repo, ['lib', 'mcp', 'frontends'], (f) => f === HOME, PATCH);
    expect(found).toEqual([]);
  });

  it('the home holds every kind of patch the check looks for', () => {
    const home = patches(readFileSync(join(repo, HOME), 'utf8')).join('\n');
    for (const re of PATCH.slice(0, 4)) expect(home).toMatch(re);
  });

  it.each([
    ['process.stdout.write = mine;'],
    ['  stream.end = () => true;'],
    ["Object.defineProperty(process, 'stdout', { get });"],
    ['syncBuiltinESMExports();'],
    ['http.setGlobalProxyFromEnv();'],
    ['process.stdin = Readable.from([]);'],
  ])('finds a planted patch: %s', (line) => {
    expect(patches(`const a = 1;\n${line}\n`)).toEqual([line]);
  });

  it('leaves comparisons and comments alone', () => {
    expect(patches('if (stream.write === ours) {}\n// process.stdout.write = x\n * stream.end = y\n')).toEqual([]);
  });
});
