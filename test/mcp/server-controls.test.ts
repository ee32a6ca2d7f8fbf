/**
 * The run controls a server applies to every call (`mcp-server --strict --timeout …`,
 * docs/contract.md "Warnings and --strict", "Timeouts") are no tool inputs: a call they fail tells
 * the MCP client so in its fix — the server's setting, which the user changes — never "run without
 * strict" or "a longer timeout" as if the call could set them. On every path, with a client of each
 * era.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectEra,
  envelopeOf,
  PATHS_BY_ERAS,
  startHttp,
  type EraClient,
  type HttpFixture,
  type McpPath,
} from '../helpers/eras.ts';
import { REPO } from '../helpers/spawn.ts';

const CLI = join(REPO, 'test/fixtures/contract-cli.ts');
const CONTROLS = ['--strict', '--timeout', '300ms'];
const dir = mkdtempSync(join(tmpdir(), 'ax-server-controls-'));
const ENV = { CONTRACT_LOG: join(dir, 'log'), XDG_STATE_HOME: join(dir, 'state') };
const servers: Partial<Record<McpPath, HttpFixture>> = {};
const clients: EraClient[] = [];

beforeAll(async () => {
  const http = new Set(PATHS_BY_ERAS.map(([p]) => p).filter((p) => p !== 'stdio'));
  await Promise.all(
    [...http].map(
      async (p) =>
        (servers[p] = await startHttp(CLI, [...CONTROLS, ...(p === 'http-stateless' ? ['--stateless'] : [])], ENV)),
    ),
  );
}, 60_000);
afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await Promise.allSettled(Object.values(servers).map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

describe.each(PATHS_BY_ERAS)('%s, %s era', (path, era) => {
  it('a warning under the server’s --strict, and a call past its --timeout: the fix names the server’s setting', async () => {
    const c = await connectEra(era, path, {
      cli: CLI,
      url: servers[path]?.url,
      env: ENV,
      server: ['mcp-server', ...CONTROLS],
    });
    clients.push(c);
    const strict = envelopeOf(await c.callTool('warned', { name: `s-${path}-${era}` })).error;
    expect(strict).toMatchObject({ kind: 'warnings_as_errors', exit_code: 2 });
    expect(strict.message).toContain("under the server's --strict:");
    expect(strict.actionable_fix).toContain('ask the user to start it without --strict');
    expect(strict.actionable_fix).not.toMatch(/run without strict/);
    const slow = envelopeOf(await c.callTool('write', { name: `t-${path}-${era}`, delay_ms: 1500 })).error;
    expect(slow).toMatchObject({ kind: 'timeout', exit_code: 3, retryable: true });
    expect(slow.message).toContain("within the server's --timeout 300ms");
    expect(slow.actionable_fix).toMatch(
      /^Retry; if it needs longer, ask the user to start the server with a longer --timeout/,
    );
    expect(slow.actionable_fix).toContain('idempotency_key');
  }, 60_000);
});
