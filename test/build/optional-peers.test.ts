/**
 * The optional peer dependencies missing (docs/shipping.md#installs, docs/observability.md): bm
 * (test/bench/projects/bm) installed from `npm pack` with neither the OpenTelemetry SDK nor the
 * `redis` package, run as tsc output and as `ax-ts build` output (which builds without them). With
 * an OTLP endpoint set, a successful run writes its ordinary stdout and exit code and one
 * ctx.logger-shaped warn line naming the package and what to install; a failed run's error line
 * stays the last line of stderr; `mcp-server` says it once at start and serves. A Redis
 * idempotency store fails with `idempotency_store_unavailable` (`redis_client_missing`). Needs
 * `npm run build` first (npm test does it).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/mcp.ts';
import { npmBm, packTarball, QUIET_NPM } from '../helpers/user-project.ts';

const tmp = mkdtempSync(join(tmpdir(), 'ax-peers-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const dir = join(tmp, 'bm');
const ENDPOINT = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }; // nothing listens: never reached
const ESBUILD = (
  JSON.parse(readFileSync(join(REPO, 'node_modules/esbuild/package.json'), 'utf8')) as { version: string }
).version;

beforeAll(() => {
  npmBm(dir, packTarball(tmp), [`esbuild@${ESBUILD}`]);
  execFileSync(
    process.execPath,
    [join(dir, 'node_modules/ax-ts/dist/cmd/ax-ts/main.js'), 'build', 'src/main.ts', '--name', 'bm'],
    {
      cwd: dir,
      env: { ...process.env, ...QUIET_NPM },
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 300_000,
    },
  );
}, 600_000);

const ways = [
  ['tsc output', 'dist/main.js'],
  ['ax-ts build output', 'dist/bin/bm.js'],
] as const;

describe('without the optional peers', () => {
  it('the install has neither the OpenTelemetry SDK nor redis', () => {
    for (const p of ['@opentelemetry/api', '@opentelemetry/sdk-trace-base', 'redis'])
      expect(existsSync(join(dir, 'node_modules', p)), p).toBe(false);
  });

  for (const [way, file] of ways) {
    const run = (words: string[], env: Record<string, string> = {}) => {
      const home = mkdtempSync(join(tmp, 'home-'));
      return spawnSync(process.execPath, [join(dir, file), ...words], {
        cwd: home,
        env: { PATH: process.env.PATH ?? '', HOME: home, BM_STORE: join(home, 'bm.json'), ...env },
        encoding: 'utf8',
        timeout: 60_000,
      });
    };

    it(`${way}: a run with an OTLP endpoint has its stdout and exit code, and one warn line naming the SDK`, () => {
      const words = ['link', 'add', 'https://example.org/a'];
      const plain = run(words);
      const traced = run(words, ENDPOINT);
      expect(traced.status, traced.stderr).toBe(0);
      expect(JSON.parse(traced.stdout).data).toEqual(JSON.parse(plain.stdout).data);
      const lines = traced.stderr.trim().split('\n');
      const strip = (text: string) => text.replace(/"(time|trace_id|span_id)":"[^"]*"/g, '');
      expect(strip(lines.slice(0, -1).join('\n')), "the run's own lines, unchanged").toBe(strip(plain.stderr.trim()));
      const warn = JSON.parse(lines.at(-1)!) as Record<string, string>;
      expect(warn).toMatchObject({
        level: 'warn',
        program: 'bm',
        command: 'bm link add',
        package: '@opentelemetry/api',
      });
      expect(warn.fix).toContain('npm install @opentelemetry/api @opentelemetry/sdk-trace-base');
      expect(traced.stderr.match(/"level":"warn"/g)).toHaveLength(1);
    });

    it(`${way}: a failed run's error line stays the last line of stderr`, () => {
      const r = run(['link', 'rm', '7', '--yes'], ENDPOINT);
      expect(r.status).toBe(5);
      expect(r.stderr).not.toContain('"level":"warn"');
      expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: { kind: 'link_not_found' } });
    });

    it(`${way}: a Redis idempotency store fails with redis_client_missing`, () => {
      const r = run(['link', 'add', 'https://example.org/b', '--idempotency-key', 'k1'], {
        AX_IDEMPOTENCY_STORE: 'redis://127.0.0.1:9',
      });
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!)).toMatchObject({
        error: { kind: 'idempotency_store_unavailable', context: { reason: 'redis_client_missing', store: 'redis' } },
      });
    });

    it(`${way}: mcp-server says it once at start, and serves`, async () => {
      const home = mkdtempSync(join(tmp, 'home-'));
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [join(dir, file), 'mcp-server'],
        env: { PATH: process.env.PATH ?? '', HOME: home, BM_STORE: join(home, 'bm.json'), ...ENDPOINT },
        cwd: home,
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
      const client = new Client({ name: 'ax-peers', version: '1.0.0' });
      await client.connect(transport);
      try {
        const r = (await client.callTool({ name: 'link_list', arguments: {} })) as { isError?: boolean };
        expect(r.isError).toBeFalsy();
        await expect.poll(() => stderr, { timeout: 10_000 }).toContain('the OpenTelemetry SDK is not installed');
        expect(stderr.match(/the OpenTelemetry SDK is not installed/g)).toHaveLength(1);
      } finally {
        await client.close();
      }
    }, 60_000);
  }
});
