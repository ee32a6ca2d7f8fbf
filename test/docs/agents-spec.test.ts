/**
 * docs/agents-spec.md rates ax-ts against the CLI Agent Spec's 71 failure modes, each rating with
 * the test that proves it. This file keeps the page honest: every cited test file exists and holds
 * the cited title (a table's helper file is run by a test file that imports it), each mode has one
 * row, a ✓ cites a check, a ~ cites one or says it has none yet, the score is the spec's formula
 * over the ratings, and the gap table lists exactly the modes that are not ✓, as rated.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/spawn.ts';

const PAGE = readFileSync(join(REPO, 'docs/agents-spec.md'), 'utf8');

/** The matrix's 71 modes: §1–§74 without §36, §39 and §48, merged into §10, §3 and §2. */
const MODES = Array.from({ length: 74 }, (_, i) => i + 1).filter((n) => ![36, 39, 48].includes(n));

type Rating = '✓' | '~' | '✗';
interface Row {
  n: number;
  title: string;
  rating: string;
  why: string;
  check: string;
}

/** The cells of a Markdown table line (`\|` is a pipe inside a cell). */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, '|'));
}

/** The table lines of the section that starts at `heading`, up to the next `## `. */
function section(page: string, heading: string): string[] {
  const at = page.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`no section ${heading}`);
  const rest = page.slice(at + heading.length + 2);
  const end = rest.indexOf('\n## ');
  return (end < 0 ? rest : rest.slice(0, end)).split('\n').filter((l) => /^\| *\d+ *\|/.test(l));
}

function modeRows(page: string): Row[] {
  return section(page, '## The modes').map((l) => {
    const [n, title, rating, why, check] = cells(l);
    return { n: Number(n), title: title!, rating: rating!, why: why!, check: check! };
  });
}

/** Where a cited file is run from: itself, or the test files that import it. */
const TEST_FILES = (function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (name === 'node_modules') return [];
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.test.ts') ? [p] : [];
  });
})(join(REPO, 'test'));

const squeeze = (s: string) => s.replace(/\s+/g, ' ');

/** What is wrong with one row of the modes table; empty when nothing is. */
function problems(row: Row, repo = REPO): string[] {
  const out: string[] = [];
  const where = `§${row.n}`;
  if (!['✓', '~', '✗'].includes(row.rating))
    out.push(`${where}: rating ${JSON.stringify(row.rating)} is not ✓, ~ or ✗`);
  if (!row.why) out.push(`${where}: no why`);
  const cites = [...row.check.matchAll(/`(test\/[^`]+)` › "([^"]+)"/g)].map((m) => ({ file: m[1]!, title: m[2]! }));
  const rest = row.check.replace(/`(test\/[^`]+)` › "([^"]+)"/g, '').replace(/[;\s]/g, '');
  if (row.check === 'none') {
    if (row.rating === '✓') out.push(`${where}: ✓ without a check`);
    if (row.rating === '~' && !row.why.includes('no check yet'))
      out.push(`${where}: ~ without a check must say "no check yet"`);
  } else if (!cites.length || rest) {
    out.push(`${where}: the check is neither "none" nor citations of the form \`test/…\` › "title": ${row.check}`);
  }
  for (const { file, title } of cites) {
    const path = join(repo, file);
    if (!existsSync(path)) {
      out.push(`${where}: ${file} does not exist`);
      continue;
    }
    if (!squeeze(readFileSync(path, 'utf8')).includes(squeeze(title)))
      out.push(`${where}: ${file} has no test "${title}"`);
    if (!file.endsWith('.test.ts')) {
      const base = file.replace(/^test\//, '');
      const runners = TEST_FILES.filter((t) => readFileSync(t, 'utf8').includes(base.split('/').slice(-2).join('/')));
      if (!runners.length) out.push(`${where}: no test file imports ${file}`);
    }
  }
  return out;
}

/** The spec's coverage: (✓ + 0.5 × ~) / modes, in percent, one decimal. */
function coverage(rows: Row[]): { yes: number; part: number; no: number; pct: string } {
  const count = (r: Rating) => rows.filter((x) => x.rating === r).length;
  const yes = count('✓');
  const part = count('~');
  return { yes, part, no: count('✗'), pct: (((yes + 0.5 * part) / rows.length) * 100).toFixed(1) };
}

describe('docs/agents-spec.md', () => {
  const rows = modeRows(PAGE);

  it('has one row per failure mode of the matrix, 71 in all', () => {
    expect(rows.map((r) => r.n).sort((a, b) => a - b)).toEqual(MODES);
  });

  it('every row is rated, and every check it names is a test file that holds the named test', () => {
    expect(rows.flatMap((r) => problems(r))).toEqual([]);
  });

  it('the score line and the score table are the formula over the ratings', () => {
    const { yes, part, no, pct } = coverage(rows);
    expect(PAGE).toContain(`Score: (${yes} + 0.5 × ${part}) / ${rows.length} = ${pct}%`);
    expect(PAGE).toContain(`| ax-ts (this page) | ${yes} | ${part} | ${no} | **${pct}%** |`);
  });

  it('the gap table lists exactly the modes that are not ✓, with their ratings', () => {
    const gap = section(PAGE, '## The gap to 90%').map((l) => cells(l).slice(0, 2).join(' '));
    const open = rows.filter((r) => r.rating !== '✓').map((r) => `${r.n} ${r.rating}`);
    expect(gap.sort()).toEqual(open.sort());
  });

  it('the check fails a row that names a missing file, a missing test, no check for a ✓, or a bad citation', () => {
    const ok: Row = {
      n: 3,
      title: 't',
      rating: '✓',
      why: 'w',
      check: '`test/run/main.test.ts` › "SIGTERM interrupts too: exit 143, kind interrupted with exit_code 143"',
    };
    expect(problems(ok)).toEqual([]);
    expect(problems({ ...ok, check: '`test/run/nowhere.test.ts` › "SIGTERM interrupts too"' })[0]).toMatch(
      /does not exist/,
    );
    expect(problems({ ...ok, check: '`test/run/main.test.ts` › "a test nobody wrote"' })[0]).toMatch(/has no test/);
    expect(problems({ ...ok, check: 'none' })[0]).toMatch(/✓ without a check/);
    expect(problems({ ...ok, rating: '~', check: 'none' })[0]).toMatch(/no check yet/);
    expect(problems({ ...ok, rating: '~', why: 'w (no check yet)', check: 'none' })).toEqual([]);
    expect(problems({ ...ok, check: 'test/run/main.test.ts' })[0]).toMatch(/neither/);
    expect(problems({ ...ok, rating: '+' })[0]).toMatch(/not ✓, ~ or ✗/);
  });
});
