/**
 * README's main job, `npm run demo`, as a user runs it: the demo script (an SDK client driving
 * `tasks mcp-server` over stdio, then the CLI walk) exits 0 and reports that every step behaved as
 * expected. It checks each step itself, so a contract change that breaks the demo fails here.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));

describe('npm run demo', () => {
  it('runs every MCP call and CLI step as expected, exit 0', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'cmd/tasks/demo.ts'], {
      cwd: repo,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, AGENT_MODE: '' },
    });
    expect(r.stdout).not.toContain('UNEXPECTED');
    expect(r.stdout).toContain('Every MCP call and CLI step behaved as expected.');
    expect(r.status).toBe(0);
  }, 150_000);
});
