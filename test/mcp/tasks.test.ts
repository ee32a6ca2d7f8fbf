/**
 * The Tasks extension on every MCP path (stdio, HTTP with sessions, HTTP --stateless), through raw
 * 2026-07-28 requests: a command declared `task` answers a client that declares the extension with
 * a task handle; tasks/get shows the question its run waits on, tasks/update answers it and the
 * task completes with the command's result; tasks/cancel aborts ctx.signal and the task ends
 * cancelled with nothing done; without the extension tasks/* is -32021 and the command runs as an
 * ordinary call; an unknown task id is -32602. (docs/mcp-server.md#tasks; the cross-replica case
 * is in test/e2e/cluster.test.ts.)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopeOf, PATHS, startHttp, type HttpFixture, type McpPath } from '../helpers/eras.ts';
import { rawStdio, REPO, type RawServer } from '../helpers/mcp.ts';
import { taskWire } from '../helpers/tasks-wire.ts';

const CLI = join(REPO, 'test/fixtures/ask-cli.ts');
const dir = mkdtempSync(join(tmpdir(), 'ax-tasks-'));
const ENV = { ASK_DIR: dir, XDG_STATE_HOME: join(dir, 'state') };
const jobs = (): string[] => {
  try {
    return readFileSync(join(dir, 'jobs'), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};
const servers: Partial<Record<McpPath, HttpFixture>> = {};
let stdio: RawServer;

beforeAll(async () => {
  stdio = rawStdio(['mcp-server'], { cli: CLI, env: ENV });
  [servers.http, servers['http-stateless']] = await Promise.all([
    startHttp(CLI, [], ENV),
    startHttp(CLI, ['--stateless'], ENV),
  ]);
}, 60_000);
afterAll(async () => {
  stdio.kill();
  await Promise.allSettled([stdio.exited, ...Object.values(servers).map((s) => s.stop())]);
  rmSync(dir, { recursive: true, force: true });
});

const { send, until } = taskWire(() => stdio, servers);

describe.each(PATHS)('%s: tasks', { timeout: 30_000 }, (path) => {
  it('a task handle at once; its question on tasks/get, answered by tasks/update; then the result', async () => {
    const created = (await send(path, 'tools/call', { name: 'job', arguments: { ms: 100 } })).result;
    expect(created).toMatchObject({
      resultType: 'task',
      status: 'working',
      taskId: expect.any(String),
      ttlMs: 3_600_000,
      pollIntervalMs: 250,
    });
    expect(created.requestState).toBeUndefined();
    const asking = await until(path, created.taskId, (r) => r.status === 'input_required');
    expect(asking).toMatchObject({
      resultType: 'complete',
      status: 'input_required',
      inputRequests: { confirm: { method: 'elicitation/create', params: { message: 'Start the job?' } } },
    });
    const before = jobs().length;
    const ack = await send(path, 'tasks/update', {
      taskId: created.taskId,
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
    });
    expect(ack.result).toMatchObject({ resultType: 'complete' });
    expect(ack.result.status).toBeUndefined();
    const done = await until(path, created.taskId, (r) => r.status === 'completed');
    expect(done.status).toBe('completed');
    expect(envelopeOf(done.result).data).toMatchObject({ done: true });
    expect(jobs().slice(before)).toEqual(['job done']);
  });

  it('tasks/cancel aborts the run: the task ends cancelled and the work was not done', async () => {
    const before = jobs().length;
    const created = (await send(path, 'tools/call', { name: 'job', arguments: { ms: 20_000, yes: true } })).result;
    await new Promise((r) => setTimeout(r, 300));
    const ack = (await send(path, 'tasks/cancel', { taskId: created.taskId })).result;
    expect(ack).toMatchObject({ resultType: 'complete' });
    expect(ack.status).toBeUndefined();
    const end = await until(path, created.taskId, (r) => ['completed', 'failed', 'cancelled'].includes(r.status));
    expect(end.status).toBe('cancelled');
    expect(end.result).toBeUndefined();
    expect(jobs().slice(before)).toEqual(['job cancelled']);
  });

  it('a declined question completes the task with confirmation_required, nothing done', async () => {
    const before = jobs().length;
    const created = (await send(path, 'tools/call', { name: 'job', arguments: {} })).result;
    await until(path, created.taskId, (r) => r.status === 'input_required');
    await send(path, 'tasks/update', { taskId: created.taskId, inputResponses: { confirm: { action: 'decline' } } });
    const end = await until(path, created.taskId, (r) => r.status === 'completed');
    expect(end.result.isError).toBe(true);
    expect(envelopeOf(end.result).error.kind).toBe('confirmation_required');
    expect(jobs().slice(before)).toEqual([]);
  });

  it('without the extension: tasks/* is -32021, and the command runs as an ordinary call', async () => {
    const r = await send(path, 'tasks/get', { taskId: 'any' }, {});
    expect(r.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });
    const call = await send(path, 'tools/call', { name: 'job', arguments: { ms: 10, yes: true } }, {});
    expect(call.result.resultType).toBe('complete');
    expect(envelopeOf(call.result).data).toMatchObject({ done: true });
  });

  it('an unknown task id is -32602', async () => {
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update'])
      expect((await send(path, method, { taskId: 'no-such-task' })).error).toMatchObject({ code: -32602 });
  });
});
