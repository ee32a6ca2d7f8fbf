/**
 * `__schema` (both shapes) and ordinary command runs must not load the MCP SDK, express or ajv
 * (docs/performance.md: `__schema` is fast and reads the tree only; the server stack is loaded lazily
 * by `mcp-server`). Each scenario runs in a child process with a module resolve hook
 * (test/fixtures/record-imports.mjs) that records every resolved URL; CommonJS modules are also
 * read back from require.cache. A positive control proves the recorder sees those packages.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'ax-import-isolation-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const FORBIDDEN = ['@modelcontextprotocol', '/express/', '/ajv/'];

interface Outcome {
  code: number;
  out: number;
  err: string;
  cjs: string[];
  urls: string[];
}

let seq = 0;
/** Runs one scenario of test/fixtures/import-isolation-run.ts in a fresh Node process. */
function scenario(name: string): Promise<Outcome> {
  const log = join(tmp, `${name}-${seq++}.log`);
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        join(fixtures, 'record-imports.mjs'),
        join(fixtures, 'import-isolation-run.ts'),
        name,
      ],
      { cwd: repo, env: { ...process.env, AX_IMPORT_LOG: log, NODE_OPTIONS: '' }, timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`scenario ${name} failed: ${error.message}\n${stderr}`));
        const line = stdout.trim().split('\n').at(-1)!;
        const parsed = JSON.parse(line) as Omit<Outcome, 'urls'>;
        const urls = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
        resolve({ ...parsed, urls });
      },
    );
  });
}

const offending = (o: Outcome) =>
  [...o.urls, ...o.cjs].filter((u) => FORBIDDEN.some((f) => u.replace(/\\/g, '/').includes(f)));

describe.concurrent('import isolation: no SDK, express or ajv outside mcp-server', () => {
  it('the recorder works: it sees lib/index.ts, and the control scenario catches all three packages', async () => {
    const control = await scenario('control');
    expect(control.code).toBe(0);
    expect(control.urls.some((u) => u.endsWith('/lib/index.ts'))).toBe(true);
    const bad = offending(control);
    for (const f of FORBIDDEN)
      expect(
        bad.some((u) => u.includes(f)),
        `control should load ${f}`,
      ).toBe(true);
  }, 60_000);

  it.each([
    ['schema-mcp', '__schema --as=mcp'],
    ['schema-ax', '__schema --as=ax'],
    ['schema-default', '__schema'],
    ['command', 'an ordinary command (success)'],
    ['command-error', 'an ordinary command (validation error)'],
    ['help', '--help'],
  ])(
    '%s (%s) loads none of them',
    async (name) => {
      const o = await scenario(name);
      expect(o.urls.length).toBeGreaterThan(5);
      expect(o.urls.some((u) => u.endsWith('/lib/index.ts'))).toBe(true);
      expect(offending(o)).toEqual([]);
      expect(o.out + o.err.length).toBeGreaterThan(0);
      expect(o.code).toBe(name === 'command-error' ? 2 : 0);
    },
    60_000,
  );

  it.each(['demo-schema-mcp', 'demo-schema-ax'])(
    'the demo CLI: %s loads none of them',
    async (name) => {
      const o = await scenario(name);
      expect(o.code).toBe(0);
      expect(o.urls.some((u) => u.includes('/cmd/tasks/cli.ts'))).toBe(true);
      expect(offending(o)).toEqual([]);
    },
    60_000,
  );
});

/**
 * The observability and config libraries (docs/config.md) and the Redis client (the shared idempotency
 * store): loaded only by the feature that uses them.
 */
const OBSERVE: Record<string, string> = {
  pino: '/node_modules/pino/',
  otel: '/node_modules/@opentelemetry/',
  jsonc: '/node_modules/jsonc-parser/',
  redis: '/node_modules/@redis/',
};
const loadedLibs = (o: Outcome) =>
  Object.entries(OBSERVE)
    .filter(([, f]) => [...o.urls, ...o.cjs].some((u) => u.replace(/\\/g, '/').includes(f)))
    .map(([k]) => k);

describe.concurrent(
  'import isolation: pino, OpenTelemetry, jsonc-parser and the Redis client load only when used',
  () => {
    it.each([
      ['schema-ax', []],
      ['command', []],
      ['command-error', []],
      ['help', []],
      ['traced-no-export', []],
      ['demo-schema-ax', []],
      ['logger', ['pino']],
      ['otel', ['otel']],
      ['config', ['jsonc']],
      ['replay-file', []],
      ['replay-redis', ['redis']],
    ])(
      '%s loads %j',
      async (name, expected) => {
        const o = await scenario(name);
        expect(o.code).toBe(name === 'command-error' ? 2 : 0);
        expect(loadedLibs(o)).toEqual(expected);
      },
      60_000,
    );
  },
);
