/**
 * commander's own test suite run with the ax-ts front end installed on every program it builds
 * (docs/frontends.md#commanders-own-test-suite). The suite is commander's tests/ folder, read from
 * a checkout of github.com/tj/commander.js named by AX_COMMANDER_SUITE (it is not published on the
 * npm registry, the only network a clean checkout's CI reaches, and ax-ts does not carry a copy):
 * without it, these tests are skipped and say why. The folder is copied under node_modules/.cache
 * beside a stand-in for commander's entry (standin.ts: commander with `withAx` on every
 * `new Command()`, `program` and `createCommand()`), and runs with node's own test runner, as
 * commander runs it, in one process (`--test-isolation=none`), tsx loaded in it and in every
 * process the suite spawns (NODE_OPTIONS) so the front end's TypeScript loads there too.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO, TSX_LOADER } from '../../helpers/mcp.ts';
import { writeStandIn } from './standin.ts';

const HERE = join(REPO, 'test/ports/commander');
/** A checkout of commander.js (its tests/ folder is what runs), e.g. at the v15.0.0 tag. */
const SOURCE = process.env.AX_COMMANDER_SUITE;
const SUITE = join(REPO, 'node_modules/.cache/ax-commander-suite');
const WHY_SKIPPED = 'AX_COMMANDER_SUITE names no commander.js checkout with a tests/ folder';
const runs = SOURCE !== undefined && existsSync(join(SOURCE, 'tests'));

/**
 * Tests of commander's suite that fail with the front end installed, by full name (describe names
 * and the test's, joined by a space), each with why; docs/frontends.md lists the same names. They
 * run and must fail: one that passes again must leave this list (and the page).
 */
const DIFFERENCES: readonly { name: string; reason: string }[] = [];

/** One finished test or suite, as reporter.mjs writes it. */
interface Result {
  name: string;
  file: string;
  suite: boolean;
  passed: boolean;
  skipped: boolean;
  error?: string;
}

/** The environment of a run: a person's (no AGENT_MODE), this Node first on PATH, tsx everywhere. */
function suiteEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'AGENT_MODE') env[k] = v;
  env.PATH = [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter);
  env.NODE_OPTIONS = `--import ${TSX_LOADER}`;
  return env;
}

function runNode(args: string[]) {
  const r = spawnSync(process.execPath, args, { cwd: SUITE, encoding: 'utf8', env: suiteEnv() });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let results: Result[] = [];
let exitCode: number | null = null;

beforeAll(() => {
  if (!runs) return;
  rmSync(SUITE, { recursive: true, force: true });
  cpSync(join(SOURCE!, 'tests'), join(SUITE, 'tests'), { recursive: true });
  writeStandIn(SUITE, join(REPO, 'frontends/commander/index.ts'));
  const r = runNode([
    '--test',
    '--test-isolation=none',
    `--test-reporter=${join(HERE, 'reporter.mjs')}`,
    'tests/**/*.test.*',
  ]);
  exitCode = r.code;
  results = r.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Result);
}, 180_000);

describe.skipIf(!runs)(
  `commander's suite with withAx on every program${runs ? '' : ` (skipped: ${WHY_SKIPPED})`}`,
  () => {
    it('the harness installs the front end: a program the suite builds answers __schema', () => {
      const script = [
        "import { program } from './index.js';",
        "program.name('pm').command('install <name>').description('install a package').action(() => {});",
        "await program.parseAsync(['__schema'], { from: 'user' });",
      ].join('\n');
      const r = runNode(['--input-type=module', '-e', script]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('install a package');
    });

    it('every test file of the suite ran', () => {
      const files = readdirSync(join(SUITE, 'tests')).filter((f) => /\.test\.[cm]?js$/.test(f));
      const ran = new Set(results.map((r) => r.file.split(/[\\/]/).pop()));
      expect(files.filter((f) => !ran.has(f))).toEqual([]);
      expect(results.filter((r) => !r.suite).length).toBeGreaterThan(1000);
    });

    it('every test passes, but for the differences listed with their reason', () => {
      const listed = new Set(DIFFERENCES.map((d) => d.name));
      const failed = results.filter((r) => !r.passed && !r.suite && !listed.has(r.name));
      expect(failed.map((r) => `${r.name}: ${r.error ?? ''}`)).toEqual([]);
      const suites = results.filter((r) => !r.passed && r.suite && !DIFFERENCES.some((d) => d.name.startsWith(r.name)));
      expect(suites.map((r) => `${r.name}: ${r.error ?? ''}`)).toEqual([]);
      if (DIFFERENCES.length === 0) expect(exitCode).toBe(0);
    });

    it('each listed difference still fails (a test that passes again leaves the list)', () => {
      for (const d of DIFFERENCES) {
        const r = results.find((x) => x.name === d.name);
        expect(r, d.name).toBeDefined();
        expect(r?.passed, d.name).toBe(false);
      }
    });

    it('docs/frontends.md lists exactly these differences', () => {
      const page = readFileSync(join(REPO, 'docs/frontends.md'), 'utf8');
      const section = page.split("## commander's own test suite")[1]?.split('\n## ')[0] ?? '';
      expect(section).not.toBe('');
      const named = [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
      expect(named).toEqual(DIFFERENCES.map((d) => d.name));
    });
  },
);
