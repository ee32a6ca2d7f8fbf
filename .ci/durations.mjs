#!/usr/bin/env node
/**
 * Writes test/durations.json from the log of a `.ci/run`: for each part of the suite (`quick`, what
 * `npm test` runs; `rest`, what `npm run test:rest` runs), the seconds each test file took there.
 * test/sequencer.ts starts the longest files first, so that the three workers end together instead
 * of one long file starting last (a clean clone has no vitest cache to order by).
 *
 *   node .ci/durations.mjs ci.log
 */
import { readFileSync, writeFileSync } from 'node:fs';

const log = process.argv[2];
if (!log) {
  console.error('usage: node .ci/durations.mjs <log of .ci/run>');
  process.exit(2);
}
const lines = readFileSync(log, 'utf8')
  .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '')
  .split('\n');
const parts = { quick: {}, rest: {} };
let part = 'quick';
for (const line of lines) {
  if (/^> \S+ test:rest$/.test(line.trim())) part = 'rest';
  // vitest's default reporter: " ✓ test/x.test.ts (12 tests | 3 skipped) 4567ms"
  const m = /^ +[✓❯×] (test\/\S+\.test\.ts) \(.*\) (\d+)ms\s*$/.exec(line);
  if (m) parts[part][m[1]] = Math.round(Number(m[2]) / 100) / 10;
}
const sorted = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
const out = { quick: sorted(parts.quick), rest: sorted(parts.rest) };
if (!Object.keys(out.quick).length) {
  console.error(`${log}: no vitest file lines found`);
  process.exit(1);
}
writeFileSync(new URL('../test/durations.json', import.meta.url), `${JSON.stringify(out, null, 2)}\n`);
console.log(
  `test/durations.json: ${Object.keys(out.quick).length} quick files, ${Object.keys(out.rest).length} rest files`,
);
