/**
 * Real published CLIs from the npm registry, pinned in test/corpus/package.json, served by
 * `ax-ts wrap` through their real bins with nothing edited (docs/frontends.md#ax-ts-wrap): a person's
 * invocations byte for byte as without ax-ts, `__schema --as=mcp` listing their real options, one
 * envelope or one error line in json mode, `--timeout` ending a program that never settles, and
 * the programs ax-ts cannot serve refused with a validation_error naming why. The corpus is installed
 * by `.ci/run` (`npm ci --prefix test/corpus`); without it this file skips, saying so in its titles.
 * The calls over MCP, a table over paths and eras, are corpus-mcp.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, TSX_LOADER } from '../helpers/mcp.ts';

const CORPUS = join(REPO, 'test/corpus');
const BIN = join(CORPUS, 'node_modules/.bin');
const AX = join(REPO, 'cmd/ax-ts/main.ts');
const installed = existsSync(join(BIN, 'markdownlint'));
const SKIP = installed ? '' : ' [SKIPPED: the corpus is not installed; run npm ci --prefix test/corpus]';

const dir = mkdtempSync(join(tmpdir(), 'ax-corpus-'));
const BAD_MD = join(dir, 'bad.md');
const CSS = join(dir, 'a.css');
const HTML = join(dir, 'a.html');
const TYPO = join(dir, 'typo.txt');
writeFileSync(BAD_MD, '#bad\n');
writeFileSync(TYPO, 'helo wrld\n');
writeFileSync(CSS, 'a {  color : red ; }\n');
writeFileSync(HTML, '<p>  hi   </p>\n');

/** One run: `node <bin> …` (a person's), or through `ax-ts wrap <bin> …`. */
function run(bin: string, args: string[], wrapped: boolean, env: Record<string, string> = {}) {
  const argv = wrapped ? ['--import', TSX_LOADER, AX, 'wrap', join(BIN, bin), ...args] : [join(BIN, bin), ...args];
  const r = spawnSync(process.execPath, argv, {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, AGENT_MODE: '', ...env },
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A corpus program: what it covers, and the words each check uses. */
interface Program {
  bin: string;
  covers: string;
  /** A person's invocations (help, a usage error, a real command), byte-identical through wrap. */
  person: string[][];
  /** Properties its MCP tool (`tool`, else the first) must list (its real options). */
  properties?: string[];
  tool?: string;
  /** A json-mode call: its words (and environment), the exit code, what it printed. */
  json?: { args: string[]; env?: Record<string, string>; exit: number; printed: string };
  /** A refusal of `__schema`: the validation_error's words. */
  refused?: string[];
}

const PROGRAMS: Program[] = [
  {
    bin: 'markdownlint',
    covers: 'commander 15 (a nested private copy), logic after parse(), a report printed then exit 1',
    person: [['--help'], ['--nope'], [BAD_MD]],
    properties: ['files', 'config', 'disable', 'fix'],
    json: { args: [BAD_MD, '--format', 'json'], exit: 1, printed: 'MD018/no-missing-space-atx' },
  },
  {
    bin: 'cleancss',
    covers: 'commander 7 (hoisted), logic after parse(), its own --format option (json mode by AGENT_MODE)',
    person: [['--help'], ['--nope'], [CSS], ['--format', 'beautify', CSS]],
    properties: ['operands', 'batch', 'format', 'output'],
    json: { args: [CSS], env: { AGENT_MODE: 'json' }, exit: 0, printed: 'a{color:red}' },
  },
  {
    bin: 'html-minifier-terser',
    covers: 'commander 10 (a nested private copy) with an action, process.exit(1) in that action',
    person: [['--help'], ['--nope'], ['--collapse-whitespace', HTML], [join(dir, 'missing.html')]],
    properties: ['files', 'collapse_whitespace', 'minify_css'],
    json: { args: ['--collapse-whitespace', HTML, '--format', 'json'], exit: 0, printed: '<p>hi</p>' },
  },
  {
    bin: 'concurrently',
    covers: 'yargs 18 (ESM), parse()-then-code, children that may never settle',
    person: [['--help'], ['echo hi']],
    properties: ['operands', 'kill_others', 'names'],
    json: { args: ['echo hi', '--format', 'json'], exit: 0, printed: '[0] hi' },
  },
  {
    bin: 'depcheck',
    covers: 'yargs 16 (CJS singleton, a nested copy), parse()-then-code, exit 255 with its report',
    person: [['--help'], [CORPUS, '--json']],
    properties: ['operands', 'json', 'ignores'],
    json: { args: [CORPUS, '--json', '--format', 'json'], exit: 255, printed: '"devDependencies"' },
  },
  {
    bin: 'json-server',
    covers: 'yargs 17 (CJS, a nested copy), a server that never settles',
    person: [['--help'], ['--version']],
    properties: ['operands', 'port', 'watch', 'read_only'],
  },
  {
    // it checks only files under its --root (the working directory by default)
    bin: 'cspell',
    covers:
      "commander 15 (the global program), default commands (lint at the root, link's list), an action's throw carrying exitCode",
    person: [['--help'], ['--nope'], [TYPO, '--root', dir, '--no-progress'], ['link']],
    tool: 'lint',
    properties: ['globs', 'root', 'no_progress', 'words_only'],
    json: { args: [TYPO, '--root', dir, '--no-progress', '--format', 'json'], exit: 1, printed: 'Unknown word (helo)' },
  },
  {
    bin: 'svgo',
    covers: 'commander 11 (a nested private copy) with an action: <INPUT> and --input collide after snake-casing',
    person: [['--help'], ['--version'], ['--nope']],
    refused: ['validation_error', '"INPUT"', '"input"'],
  },
  {
    bin: 'mocha',
    covers: 'neither commander nor yargs (its own parser)',
    person: [['--version']],
    refused: ['validation_error', 'neither a commander nor a yargs program'],
  },
];

describe.each(PROGRAMS)(`corpus: $bin ($covers)${SKIP}`, (p) => {
  it.skipIf(!installed)("a person's invocations are byte-identical with and without ax-ts wrap", () => {
    for (const args of p.person) expect(run(p.bin, args, true), args.join(' ')).toEqual(run(p.bin, args, false));
  });

  if (p.properties) {
    it.skipIf(!installed)('__schema --as=mcp lists its real options', () => {
      const r = run(p.bin, ['__schema', '--as=mcp'], true);
      expect(r.status, r.stderr).toBe(0);
      const tools = (JSON.parse(r.stdout) as { tools: { name: string; inputSchema: { properties: object } }[] }).tools;
      const tool = p.tool ? tools.find((t) => t.name === p.tool) : tools[0];
      expect(Object.keys(tool!.inputSchema.properties)).toEqual(expect.arrayContaining(p.properties!));
    });
  }

  if (p.json) {
    const j = p.json;
    it.skipIf(!installed)(
      'json mode: one envelope or one error line, what it printed on stderr, its exit status',
      () => {
        const r = run(p.bin, j.args, true, j.env);
        expect(r.status, r.stderr).toBe(j.exit);
        expect(r.stderr).toContain(j.printed);
        if (j.exit === 0) {
          expect(r.stdout.trim().split('\n')).toHaveLength(1);
          expect(JSON.parse(r.stdout)).toMatchObject({ data: null });
        } else {
          expect(r.stdout).toBe('');
          const line = r.stderr.trim().split('\n').at(-1)!;
          expect(JSON.parse(line)).toMatchObject({ error: { kind: 'command_failed', exit_code: j.exit } });
        }
      },
    );
  }

  if (p.refused) {
    it.skipIf(!installed)('__schema is refused: a validation_error naming why (exit 2)', () => {
      const r = run(p.bin, ['__schema', '--format', 'json'], true);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      for (const w of p.refused!) expect(r.stderr).toContain(w);
    });
  }
});

describe(`corpus: process.exit in an action${SKIP}`, () => {
  it.skipIf(!installed)('html-minifier-terser exiting 1 from its action: command_failed, its message kept', () => {
    const r = run('html-minifier-terser', [join(dir, 'missing.html'), '--format', 'json'], true);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines.slice(0, -1).join('\n')).toContain('Cannot read');
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ error: { kind: 'command_failed', exit_code: 1 } });
  });
});

describe(`corpus: --timeout ends a program that never settles, its process tree gone${SKIP}`, () => {
  it.skipIf(!installed)('concurrently running sleep: exit 3 (timeout) within the bound, no sleep left', () => {
    const marker = `${Date.now()}`.slice(-6);
    const started = Date.now();
    const r = run('concurrently', [`sleep 3${marker}`, '--format', 'json', '--timeout', '1s'], true);
    expect(r.status, r.stderr).toBe(3);
    expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: { kind: 'timeout' } });
    expect(Date.now() - started).toBeLessThan(10_000);
    const ps = spawnSync('pgrep', ['-f', `sleep 3${marker}`], { encoding: 'utf8' });
    expect(ps.stdout.trim()).toBe('');
  });

  it.skipIf(!installed)('json-server serving: exit 3 (timeout), the server ended', () => {
    const db = join(dir, 'db.json');
    writeFileSync(db, '{"posts":[]}');
    const r = run('json-server', [db, '--port', '0', '--format', 'json', '--timeout', '2s'], true);
    expect(r.status, r.stderr).toBe(3);
    expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: { kind: 'timeout' } });
  });
});
