/**
 * ctx.log / ctx.warn during a tool call become MCP `notifications/message` (level-filtered by
 * logging/setLevel), and completion/complete answers for declared prompts; plus the conformance
 * suite itself (@modelcontextprotocol/conformance 0.1.13) against the HTTP server.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectStdio, type StdioConnection } from '../helpers/mcp.ts';

const CLI = fileURLToPath(new URL('../conformance/cli.ts', import.meta.url));

describe('MCP logging and completion (stdio)', () => {
  let c: StdioConnection;
  beforeAll(async () => {
    c = await connectStdio(['mcp-server'], {}, CLI);
  }, 60_000);
  afterAll(async () => c?.close());

  it('advertises logging (always) and completions (prompts are declared)', () => {
    const caps = c.client.getServerCapabilities()!;
    expect(caps.logging).toEqual({});
    expect(caps.completions).toEqual({});
  });

  it('forwards ctx.log lines as notifications/message tied to the call, filtered by setLevel', async () => {
    const seen: { level: string; data: unknown; logger?: string }[] = [];
    c.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void seen.push(n.params as never));
    await c.client.setLoggingLevel('debug');
    const r = await c.client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    expect(r.isError).toBeFalsy();
    await new Promise((res) => setTimeout(res, 100));
    expect(seen.map((n) => n.data)).toEqual([
      'Tool execution started',
      'Tool processing data',
      'Tool execution completed',
    ]);
    expect(seen.every((n) => n.level === 'info' && n.logger === 'test_tool_with_logging')).toBe(true);
    seen.length = 0;
    await c.client.setLoggingLevel('warning');
    await c.client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    await new Promise((res) => setTimeout(res, 100));
    expect(seen).toEqual([]); // info lines are below the level
  });

  it('completion/complete answers for a declared prompt and refuses an unknown one', async () => {
    const r = await c.client.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'x' },
    });
    expect(r.completion.values).toEqual([]);
    await expect(
      c.client.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'a', value: '' } }),
    ).rejects.toThrow(/Unknown prompt/);
  });
});

describe('MCP conformance suite (HTTP)', () => {
  it('every applicable scenario passes; expected failures are only those a CLI bridge cannot serve', () => {
    const run = spawnSync(process.execPath, [fileURLToPath(new URL('../conformance/run.mjs', import.meta.url))], {
      encoding: 'utf8',
      timeout: 280_000,
    });
    const tail = `${run.stdout}\n${run.stderr}`.trim().split('\n').slice(-15).join('\n');
    expect(run.status, tail).toBe(0);
    expect(tail).toMatch(/conformance: \d+ passed, 0 failed/);
  }, 300_000);
});
