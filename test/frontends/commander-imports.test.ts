/**
 * A front end costs a person's invocation nothing: a plain run of a program with ax-ts/commander or
 * ax-ts/yargs installed loads no module of ax-ts's runtime (lib/, mcp/); `__schema` and a json-mode
 * call load ax-ts but none of its heavy parts (the MCP SDK, express, ajv, pino), which only
 * `mcp-server` needs. The same holds for the built entries (dist/, `npm run build` first). Modules
 * are recorded by a resolve hook (test/fixtures/record-imports.mjs), as in
 * test/arch/import-isolation.test.ts; a positive control proves it sees them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, TSX_LOADER } from '../helpers/mcp.ts';

const RECORD = join(REPO, 'test/fixtures/record-imports.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'ax-frontends-imports-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const HEAVY = ['@modelcontextprotocol', '/express/', '/ajv/', '/pino/'];
let seq = 0;

/** The module URLs one run of a fixture loaded, and its exit code. */
function loaded(cli: string, args: string[]): { code: number | null; urls: string[] } {
  const log = join(tmp, `run-${seq++}.log`);
  const r = spawnSync(process.execPath, ['--import', TSX_LOADER, '--import', RECORD, cli, ...args], {
    cwd: REPO,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: tmp, AX_IMPORT_LOG: log },
  });
  return { code: r.status, urls: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

const ofAxRuntime = (u: string) => u.startsWith(`file://${REPO}/lib/`) || u.startsWith(`file://${REPO}/mcp/`);
const heavy = (u: string) => HEAVY.some((h) => u.includes(h));

/** Each front end: its fixture (source and built), a person's runs, and runs that ask for ax-ts. */
const FRONT_ENDS = [
  {
    name: 'commander',
    cli: 'test/frontends/fixtures/notes-commander.ts',
    dist: 'test/frontends/fixtures/notes-dist.mjs',
    person: [['add', 'milk'], ['--help'], ['list', '-n', 'x']],
    asking: [['__schema'], ['__schema', '--as=mcp'], ['add', 'milk', '--format', 'json']],
    built: ['add', 'milk'],
  },
  {
    name: 'yargs',
    cli: 'test/frontends/fixtures/bm-yargs.ts',
    dist: 'test/frontends/fixtures/bm-dist.mjs',
    person: [['link', 'add', 'u', '-t', 'T'], ['--help'], ['link', 'add', 'u', '-t', 'T', '--rating', 'x']],
    asking: [['__schema'], ['__schema', '--as=mcp'], ['link', 'rm', 'u', '--format', 'json']],
    built: ['add', 'https://a.example'],
  },
];

describe.each(FRONT_ENDS)('what the $name front end loads', (fe) => {
  const cli = join(REPO, fe.cli);

  it.each(fe.person.map((a) => [a]))('a person’s run %j: nothing of ax-ts', (args) => {
    const r = loaded(cli, ['--ax', ...args]);
    expect(r.urls.some((u) => u.includes(`/frontends/${fe.name}/index.ts`))).toBe(true);
    expect(r.urls.filter(ofAxRuntime)).toEqual([]);
  });

  it.each(fe.asking.map((a) => [a]))('%j: ax-ts, none of its heavy parts', (args) => {
    const r = loaded(cli, ['--ax', ...args]);
    expect(r.code).toBe(0);
    expect(r.urls.some((u) => u.includes(`/frontends/${fe.name}/bridge.ts`))).toBe(true);
    expect(r.urls.filter(heavy)).toEqual([]);
  });

  it('positive control: --print-config of mcp-server is seen loading ax-ts’s mcp/', () => {
    const r = loaded(cli, ['--ax', 'mcp-server', '--print-config']);
    expect(r.code).toBe(0);
    expect(r.urls.some(ofAxRuntime)).toBe(true);
    expect(r.urls.some((u) => u.startsWith(`file://${REPO}/mcp/`))).toBe(true);
  });

  describe('the built front end (dist/, as published)', () => {
    const dist = join(REPO, fe.dist);
    const ofDist = (u: string) => u.startsWith(`file://${REPO}/dist/`);

    // the call's report (shared/child-report.ts) is its own chunk: the serving side imports its marker too
    it('a person’s run loads the entry and its five small chunks (its own, the routing it shares with ax-ts/wrap, the end of an ax-ts invocation, the call report, esbuild’s helpers), nothing of core', () => {
      const r = loaded(dist, fe.built);
      expect(r.code).toBe(0);
      const files = [...new Set(r.urls.filter(ofDist))];
      expect(files).toContain(`file://${REPO}/dist/frontends/${fe.name}/index.js`);
      expect(files.filter((u) => !u.endsWith(`/frontends/${fe.name}/index.js`))).toHaveLength(5);
      expect(files.some((u) => u.endsWith('/core.js') || u.endsWith('/tools.js'))).toBe(false);
    });

    it('__schema --as=mcp through it: the tools, none of the heavy parts', () => {
      const r = loaded(dist, ['__schema', '--as=mcp']);
      expect(r.code).toBe(0);
      expect(r.urls.filter(heavy)).toEqual([]);
    });
  });
});
