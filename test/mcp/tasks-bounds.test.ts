/**
 * The Tasks extension stays bounded and honest (docs/mcp-server.md#tasks), on every MCP path
 * through raw 2026-07-28 requests and the real SDK client: the era's tools/list has no `execution`
 * (the era deleted it) and a task runs all the same; a tasks/cancel after the run ended, or one the
 * run outlives within the abort grace, keeps `completed` and its result; running tasks are capped per caller and per server process, refused
 * with -32000 (`task_limit`) and nothing started; one poller serves every running task; a task id
 * of another form is -32602 before anything is read; a bad limit is refused at start; expired task
 * documents leave the file store.
 */
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileIdempotencyStore } from '../../lib/store/index.ts';
import { connectEra, envelopeOf, PATHS, startHttp, type HttpFixture, type McpPath } from '../helpers/eras.ts';
import { rawStdio, REPO, type RawServer } from '../helpers/mcp.ts';
import { TSX_LOADER } from '../helpers/spawn.ts';
import { taskWire } from '../helpers/tasks-wire.ts';

const CLI = join(REPO, 'test/fixtures/tasks-bounds-cli.ts');
const dir = mkdtempSync(join(tmpdir(), 'ax-tasks-bounds-'));
// a caller may run 2 tasks; the server process 3 (and, on the server below, 1)
const ENV = { XDG_STATE_HOME: join(dir, 'state'), AX_MCP_MAX_TASKS: '3', AX_MCP_MAX_TASKS_PER_CALLER: '2' };
const servers: Partial<Record<McpPath, HttpFixture>> = {};
let stdio: RawServer;
let single: RawServer;
const wire = taskWire(() => stdio, servers);
const singleWire = taskWire(() => single, {});

beforeAll(async () => {
  stdio = rawStdio(['mcp-server'], { cli: CLI, env: ENV });
  single = rawStdio(['mcp-server'], { cli: CLI, env: { ...ENV, AX_MCP_MAX_TASKS: '1' } });
  [servers.http, servers['http-stateless']] = await Promise.all([
    startHttp(CLI, [], ENV),
    startHttp(CLI, ['--stateless'], ENV),
  ]);
}, 60_000);
afterAll(async () => {
  stdio.kill();
  single.kill();
  await Promise.allSettled([stdio.exited, single.exited, ...Object.values(servers).map((s) => s.stop())]);
  rmSync(dir, { recursive: true, force: true });
});

const TERMINAL = ['completed', 'failed', 'cancelled'];

describe.each(PATHS)('%s: tasks stay bounded and honest', { timeout: 30_000 }, (path) => {
  const { send, until } = wire;
  const hold = async () => (await send(path, 'tools/call', { name: 'hold', arguments: {} })) as Record<string, any>;
  const cancel = async (taskId: string) => {
    await send(path, 'tasks/cancel', { taskId });
    return until(path, taskId, (r) => TERMINAL.includes(r.status));
  };

  it('tools/list of the era has no execution (deleted vocabulary), and the tool still runs as a task', async () => {
    const { tools } = (await send(path, 'tools/list', {})).result as { tools: Record<string, unknown>[] };
    const entry = tools.find((t) => t.name === 'quick')!;
    expect(entry).toBeDefined();
    expect(entry.execution).toBeUndefined();
    const created = (await send(path, 'tools/call', { name: 'quick', arguments: {} })).result;
    expect(created.resultType).toBe('task');
  });

  it('a tasks/cancel after the run ended keeps completed, with its result', async () => {
    const created = (await send(path, 'tools/call', { name: 'quick', arguments: {} })).result;
    const done = await until(path, created.taskId, (r) => r.status === 'completed');
    expect(envelopeOf(done.result).data).toEqual({ done: 1 });
    expect((await send(path, 'tasks/cancel', { taskId: created.taskId })).result).toMatchObject({
      resultType: 'complete',
    });
    await new Promise((r) => setTimeout(r, 600)); // past two polls
    const after = (await send(path, 'tasks/get', { taskId: created.taskId })).result;
    expect(after.status).toBe('completed');
    expect(envelopeOf(after.result).data).toEqual({ done: 1 });
  });

  it('a tasks/cancel the run outlives: its result arrives within the grace and stands (completed, not cancelled)', async () => {
    const created = (await send(path, 'tools/call', { name: 'stubborn', arguments: {} })).result;
    await new Promise((r) => setTimeout(r, 100));
    await send(path, 'tasks/cancel', { taskId: created.taskId });
    const end = await until(path, created.taskId, (r) => TERMINAL.includes(r.status));
    expect(end.status).toBe('completed');
    expect(envelopeOf(end.result).data).toEqual({ finished: true });
  });

  it('a caller past its limit is refused (-32000, task_limit), nothing started; a finished task frees its place', async () => {
    const a = (await hold()).result;
    const b = (await hold()).result;
    expect([a.resultType, b.resultType]).toEqual(['task', 'task']);
    const refused = await hold();
    expect(refused.error).toMatchObject({
      code: -32000,
      data: { reason: 'task_limit', scope: 'caller', limit: 2, variable: 'AX_MCP_MAX_TASKS_PER_CALLER' },
    });
    expect(refused.error.message).toContain('tasks/cancel');
    // an ordinary call is not a task: it still runs
    const plain = await send(path, 'tools/call', { name: 'timers', arguments: {} });
    expect(plain.result.isError).toBeFalsy();
    expect((await cancel(a.taskId)).status).toBe('cancelled');
    const c = (await hold()).result;
    expect(c.resultType).toBe('task');
    await Promise.all([cancel(b.taskId), cancel(c.taskId)]);
  });

  it('one poller for every running task: the timers of the process do not grow with the tasks', async () => {
    const timers = async () => envelopeOf((await send(path, 'tools/call', { name: 'timers', arguments: {} })).result);
    const a = (await hold()).result;
    const one = (await timers()).data.timers as number;
    const b = (await hold()).result;
    const two = (await timers()).data.timers as number;
    expect(two - one).toBe(0);
    await Promise.all([cancel(a.taskId), cancel(b.taskId)]);
  });

  it('a task id of another form is -32602 invalid_task_id, on every tasks/* method; an unknown UUID is unknown', async () => {
    for (const taskId of [
      '../../../../etc/passwd',
      'x'.repeat(5000),
      'no-such-task',
      '5C0F0000-0000-4000-8000-000000000000',
    ])
      for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update']) {
        const e = (await send(path, method, { taskId })).error;
        expect(e).toMatchObject({ code: -32602, data: { reason: 'invalid_task_id' } });
        expect(e.message.length).toBeLessThan(200);
      }
    const unknown = (await send(path, 'tasks/get', { taskId: '5c0f0000-0000-4000-8000-000000000000' })).error;
    expect(unknown).toMatchObject({ code: -32602 });
    expect(unknown.message).toContain('Unknown task');
  });
});

describe('the per-server limit', () => {
  it('a server process past its limit refuses any caller (-32000, scope server)', async () => {
    const { send, until } = singleWire;
    const a = (await send('stdio', 'tools/call', { name: 'hold', arguments: {} })).result;
    expect(a.resultType).toBe('task');
    const refused = (await send('stdio', 'tools/call', { name: 'hold', arguments: {} })).error;
    expect(refused).toMatchObject({ code: -32000, data: { reason: 'task_limit', scope: 'server', limit: 1 } });
    await send('stdio', 'tasks/cancel', { taskId: a.taskId });
    expect((await until('stdio', a.taskId, (r) => TERMINAL.includes(r.status))).status).toBe('cancelled');
  }, 30_000);
});

describe('the real SDK client', () => {
  it('lists the tools of a 2026-07-28 server without execution, and their schemas intact', async () => {
    const c = await connectEra('modern', 'stdio', { cli: CLI, env: ENV });
    try {
      const { tools } = await (c.client as ModernClient).listTools();
      expect(tools.map((t) => t.name)).toEqual(['hold', 'quick', 'stubborn', 'timers']);
      for (const t of tools) expect((t as Record<string, unknown>).execution).toBeUndefined();
    } finally {
      await c.close();
    }
  }, 30_000);
});

describe('a bad task limit is refused at start', () => {
  it.each(['0', '-1', 'lots', '1.5'])(
    'AX_MCP_MAX_TASKS=%s: exit 2, one error naming the variable',
    (v) => {
      const r = spawnSync(process.execPath, ['--import', TSX_LOADER, CLI, 'mcp-server'], {
        cwd: REPO,
        encoding: 'utf8',
        input: '',
        timeout: 20_000,
        env: { ...process.env, ...ENV, AX_MCP_MAX_TASKS: v },
      });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('AX_MCP_MAX_TASKS must be a positive integer');
    },
    30_000,
  );
});

describe('expired task documents leave the file store', () => {
  it('an expired document is removed when read, and by the sweep of the next write', async () => {
    const store = join(dir, 'docs');
    const docs = () => (existsSync(store) ? readdirSync(store).filter((n) => n.endsWith('.doc')) : []);
    const first = fileIdempotencyStore(store);
    // a second of life: the sweep the first write starts runs long before they expire, even under
    // load (with 1 ms they could expire before it, and it took one of them: a timing race)
    await first.putDocument!('a', '"A"', 1000);
    await first.putDocument!('b', '"B"', 1000);
    expect(docs()).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await first.getDocument!('a')).toBeUndefined();
    expect(docs()).toHaveLength(1);
    // a store's first write sweeps what expired
    await fileIdempotencyStore(store).putDocument!('c', '"C"', 60_000);
    await expect.poll(docs).toHaveLength(1);
    expect(await first.getDocument!('c')).toBe('"C"');
  });
});
