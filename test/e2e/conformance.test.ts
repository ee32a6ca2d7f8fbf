/**
 * The newest MCP conformance suite release (@modelcontextprotocol/conformance 0.1.16, run with a
 * Node 22 from the npm registry, see test/conformance/run.mjs) against the HTTP fixture, stateful and
 * stateless: every applicable scenario passes, the expected failures are only those listed with
 * their reasons, and the bridge writes nothing on stderr but its listening line. (The 0.1.13 run,
 * on the system's Node, is in mcp-logging.test.ts.)
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const RUN = fileURLToPath(new URL('../conformance/run.mjs', import.meta.url));

describe.each([
  ['stateful', [], 28, 2],
  ['stateless', ['--stateless'], 23, 7],
] as const)('MCP conformance suite 0.1.16 (HTTP, %s)', (_mode, flags, passed, skipped) => {
  it('passes every applicable scenario; the rest are the listed expected failures', () => {
    const run = spawnSync(process.execPath, [RUN, '--suite-version', '0.1.16', ...flags], {
      encoding: 'utf8',
      timeout: 400_000,
    });
    const tail = `${run.stdout}\n${run.stderr}`.trim().split('\n').slice(-25).join('\n');
    expect(run.status, tail).toBe(0);
    expect(tail).toContain(`conformance: ${passed} passed, 0 failed, ${skipped} skipped`);
    expect(tail).toContain('conformance: fixture stderr: 0 other line(s)');
  }, 420_000);
});
