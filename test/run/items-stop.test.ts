// ctx.eachItem stopped by an interrupt (docs/contract.md#per-item-results-ctxeachitem): SIGINT or
// SIGTERM while an item runs ends the run as usual (130, 143), and its error line keeps the items
// done before the stop in context.results — a failed one with its fix and retryable — so the caller
// retries only the others. (--timeout on every command-line path: the contract table's
// "per-item results × --timeout" row; over MCP: the compose table's eachItem × timeout row.)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, TSX_LOADER } from '../helpers/spawn.ts';
import { minimalEnv } from '../helpers/paths.ts';
import { until } from '../helpers/mcp.ts';

const CLI = join(REPO, 'test/fixtures/contract-cli.ts');

describe.each([
  ['SIGINT', 130, 'interrupted'],
  ['SIGTERM', 143, 'interrupted'],
] as const)('ctx.eachItem stopped by %s', (signal, code, kind) => {
  it('reports the items done before the stop in context.results', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ax-items-'));
    const log = join(dir, 'effects.log');
    writeFileSync(log, '');
    const child = spawn(process.execPath, ['--import', TSX_LOADER, CLI, 'each', 'a', 'bad-b', 'slow-c', 'd'], {
      cwd: REPO,
      env: { ...minimalEnv(), AGENT_MODE: 'json', CONTRACT_LOG: log },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const closed = new Promise<number | null>((r) => child.on('close', r));
    // item a is logged; give bad-b its turn and slow-c its start
    expect(await until(() => readFileSync(log, 'utf8').includes('"a"'), 20_000)).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    child.kill(signal);
    expect(await closed, stderr).toBe(code);
    const e = JSON.parse(stderr.trimEnd().split('\n').at(-1)!).error;
    expect(e.kind).toBe(kind);
    expect(e.context.results).toEqual([
      { item: 'a', ok: true, data: { name: 'a', n: expect.any(Number) } },
      {
        item: 'bad-b',
        ok: false,
        error: { kind: 'fx_gone', message: 'bad-b is gone', retryable: false, actionable_fix: 'Leave bad-b out.' },
      },
    ]);
    expect(readFileSync(log, 'utf8')).not.toContain('"d"');
    // a retry runs every item again (a stop is not replayed): the fix says which are done
    expect(e.actionable_fix).toMatch(
      /^The items in context\.results with ok: true are done: retry with the others only\./,
    );
  }, 30_000);
});
