/**
 * The commander front end costs a person's invocation nothing: a plain run of a program with it
 * installed loads no module of ax-ts's runtime (lib/, mcp/); `__schema` and a json-mode call load
 * ax-ts but none of its heavy parts (the MCP SDK, express, ajv, pino), which only `mcp-server` needs.
 * The same holds for the built entry (dist/, `npm run build` first). Modules are recorded by a resolve hook (test/fixtures/record-imports.mjs), as in
 * test/arch/import-isolation.test.ts; a positive control proves it sees them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, TSX_LOADER } from '../helpers/mcp.ts';

const CLI = join(REPO, 'test/frontends/fixtures/notes-commander.ts');
const RECORD = join(REPO, 'test/fixtures/record-imports.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'ax-frontends-imports-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const HEAVY = ['@modelcontextprotocol', '/express/', '/ajv/', '/pino/'];
let seq = 0;

/** The module URLs one run of the fixture loaded, and its exit code. */
function loaded(args: string[], cli = CLI): { code: number | null; urls: string[] } {
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

describe('what the commander front end loads', () => {
  it.each([[['add', 'milk']], [['--help']], [['list', '-n', 'x']]])('a person’s run %j: nothing of ax-ts', (args) => {
    const r = loaded(['--ax', ...args]);
    expect(r.urls.some((u) => u.includes('/frontends/commander/index.ts'))).toBe(true);
    expect(r.urls.filter(ofAxRuntime)).toEqual([]);
  });

  it.each([[['__schema']], [['__schema', '--as=mcp']], [['add', 'milk', '--format', 'json']]])(
    '%j: ax-ts, none of its heavy parts',
    (args) => {
      const r = loaded(['--ax', ...args]);
      expect(r.code).toBe(0);
      expect(r.urls.some((u) => u.includes('/frontends/commander/bridge.ts'))).toBe(true);
      expect(r.urls.filter(heavy)).toEqual([]);
    },
  );

  it('positive control: --print-config of mcp-server is seen loading ax-ts’s mcp/', () => {
    const r = loaded(['--ax', 'mcp-server', '--print-config']);
    expect(r.code).toBe(0);
    expect(r.urls.some(ofAxRuntime)).toBe(true);
    expect(r.urls.some((u) => u.startsWith(`file://${REPO}/mcp/`))).toBe(true);
  });
});

describe('the built front end (dist/, as published)', () => {
  const DIST_CLI = join(REPO, 'test/frontends/fixtures/notes-dist.mjs');
  const ofDist = (u: string) => u.startsWith(`file://${REPO}/dist/`);

  it('a person’s run loads the entry and its two small chunks, nothing of core', () => {
    const r = loaded(['add', 'milk'], DIST_CLI);
    expect(r.code).toBe(0);
    const files = [...new Set(r.urls.filter(ofDist))];
    expect(files).toContain(`file://${REPO}/dist/frontends/commander/index.js`);
    expect(files.filter((u) => !u.endsWith('/frontends/commander/index.js'))).toHaveLength(2);
    expect(files.some((u) => u.endsWith('/core.js') || u.endsWith('/tools.js'))).toBe(false);
  });

  it('__schema --as=mcp through it: the tools, none of the heavy parts', () => {
    const r = loaded(['__schema', '--as=mcp'], DIST_CLI);
    expect(r.code).toBe(0);
    expect(r.urls.filter(heavy)).toEqual([]);
  });
});
