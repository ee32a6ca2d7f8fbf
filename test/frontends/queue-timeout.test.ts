/**
 * In the in-process mode (`withAx(…, { calls: 'in-process' })`), calls of a front-ended program run one at a time; with `mcp-server --timeout`, a call whose
 * deadline passes while it waits in the queue is answered `timeout` and never starts afterwards
 * (docs/frontends.md#how-a-call-runs): a client that retries it does the work once. Real server
 * processes (commander and yargs), real SDK client over stdio.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { connectStdio, envelopeOf, REPO, tempDir, type StdioConnection } from '../helpers/mcp.ts';

const FIXTURES = [
  ['commander', join(REPO, 'test/frontends/fixtures/queue-commander.ts')],
  ['yargs', join(REPO, 'test/frontends/fixtures/queue-yargs.ts')],
] as const;

describe.each(FIXTURES)('%s, in-process: a queued call past its --timeout', (_name, cli) => {
  let conn: StdioConnection | undefined;
  const dir = tempDir('ax-queue-');
  afterEach(async () => {
    await conn?.close();
  });
  afterAll(() => dir.cleanup());

  it('is answered timeout and its action never runs', async () => {
    const mark = join(dir.path, 'mark');
    conn = await connectStdio(
      ['mcp-server', '--timeout', '1s'],
      { SLOW_MS: '2500', MARK_FILE: mark, AX_CALLS: 'in-process' },
      cli,
    );
    const [slow, marked] = await Promise.all([
      conn.client.callTool({ name: 'slow', arguments: {} }),
      conn.client.callTool({ name: 'mark', arguments: {} }),
    ]);
    expect(slow.isError).toBe(true);
    expect(marked.isError).toBe(true);
    expect(envelopeOf(marked as { content?: unknown }).error).toMatchObject({ kind: 'timeout', retryable: true });
    // the slow action ends at ~2.5 s; the queued one would start then
    await sleep(3500);
    expect(existsSync(mark)).toBe(false);
    // the retry runs it once
    const again = await conn.client.callTool({ name: 'mark', arguments: {} });
    expect(again.isError).toBeFalsy();
    expect(existsSync(mark)).toBe(true);
  }, 30_000);
});
