/**
 * Beyond one machine: three `--stateless` replicas of the conformance fixture behind a real nginx
 * (round robin), sharing state through a real redis-server (test/infra/cluster.ts; started by
 * `.ci/run`, or here when the binaries exist). Against the nginx address: the conformance suite
 * (the 2025 era's, and the 2026-07-28 requirement set),
 * 2,000 calls with unique ids from 16 concurrent SDK clients — every one answered with its own id —
 * and a retried call that lands on another replica (nginx's X-Upstream header says which answered):
 * it replays from the shared Redis idempotency store, with exactly one side effect; and a task
 * started through one replica, polled, answered and cancelled through another (its state in Redis).
 * Without nginx and redis-server the suite is skipped with the reason in its title, unless
 * AX_INFRA_REQUIRED=1 (set by .ci/run): then it fails.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createClient } from 'redis';
import { missingInfra, startCluster, type Cluster } from '../infra/cluster.ts';
import { readResponse } from '../fixtures/http-harness.ts';

const RUN = fileURLToPath(new URL('../conformance/run.mjs', import.meta.url));
const missing = process.env.AX_INFRA_REQUIRED ? undefined : missingInfra();
const title = missing
  ? `three stateless replicas behind nginx, with Redis (skipped: ${missing})`
  : 'three stateless replicas behind nginx, with Redis';

describe.skipIf(missing !== undefined)(title, () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ replicas: 3 });
  }, 120_000);
  afterAll(async () => cluster?.stop());

  it('the conformance suite 0.1.16 passes against the nginx address (stateless expected failures only)', () => {
    const run = spawnSync(process.execPath, [RUN, '--suite-version', '0.1.16', '--stateless', '--url', cluster.lbUrl], {
      encoding: 'utf8',
      timeout: 400_000,
    });
    const tail = `${run.stdout}\n${run.stderr}`.trim().split('\n').slice(-20).join('\n');
    expect(run.status, tail).toBe(0);
    expect(tail).toContain('conformance: 23 passed, 0 failed, 7 skipped');
  }, 420_000);

  it('the 2026-07-28 requirement set (conformance 0.2.0-alpha.12) passes against the nginx address (only the expected failures of a single server: retries and tasks reach any replica)', () => {
    const run = spawnSync(
      process.execPath,
      [RUN, '--suite-version', '0.2.0-alpha.12', '--requirements', '2026-07-28', '--url', cluster.lbUrl],
      { encoding: 'utf8', timeout: 400_000 },
    );
    const tail = `${run.stdout}\n${run.stderr}`.trim().split('\n').slice(-20).join('\n');
    expect(run.status, tail).toBe(0);
    expect(tail).toContain('conformance: 45 passed, 0 failed, 5 skipped');
  }, 420_000);

  it('a retry that lands on another replica replays: one side effect, the second answer marked meta.replayed', async () => {
    // every response's X-Upstream (nginx: the replica that answered), read through the SDK client's fetch
    const upstreams: string[] = [];
    const fetchSeeingUpstream: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (init?.method === 'POST') upstreams.push(res.headers.get('x-upstream') ?? '');
      return res;
    };
    const client = new Client({ name: 'replay-across', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(cluster.lbUrl), { fetch: fetchSeeingUpstream }));
    const counter = `across-${process.pid}-${Date.now().toString(36)}`;
    const call = async () => {
      const r = (await client.callTool({ name: 'bump', arguments: { counter, idempotency_key: `k-${counter}` } })) as {
        isError?: boolean;
        content: { text: string }[];
      };
      expect(r.isError, r.content[0]!.text).toBeFalsy();
      return {
        upstream: upstreams.at(-1)!,
        text: r.content[0]!.text,
        envelope: JSON.parse(r.content[0]!.text) as {
          data: { count: number; replica: string };
          meta: Record<string, unknown>;
        },
      };
    };
    const first = await call();
    expect(first.upstream).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(first.envelope.data.count).toBe(1);
    expect(first.envelope.meta.replayed).toBeUndefined();
    // retry until nginx sends the retry elsewhere (round robin: at once, or within a few tries)
    const retries = [];
    for (let i = 0; i < 20; i++) {
      const again = await call();
      retries.push(again);
      if (again.upstream !== first.upstream) break;
    }
    const elsewhere = retries.at(-1)!;
    expect(elsewhere.upstream, JSON.stringify(retries.map((r) => r.upstream))).not.toBe(first.upstream);
    for (const r of retries) {
      expect(r.envelope.meta).toMatchObject({ idempotency_key: `k-${counter}`, replayed: true });
      expect(r.text.slice(0, r.text.indexOf(',"meta":'))).toBe(first.text.slice(0, first.text.indexOf(',"meta":'))); // the first call's data, byte for byte
    }
    expect(elsewhere.envelope.data.replica).toBe(first.envelope.data.replica); // another replica answered with the first one's outcome
    await client.close();
    const redis = createClient({ url: cluster.redisUrl });
    await redis.connect();
    try {
      expect(await redis.get(`ax-test:bump:${counter}`)).toBe('1'); // one side effect in all
      // the outcome the other replica replayed is the record in Redis (each replica has a state directory of its own)
      const keys = await redis.keys('ax-ts:idempotency:conformance-cli:*');
      const records = (
        await Promise.all(
          keys.map(
            async (k) => JSON.parse((await redis.get(k)) ?? 'null') as { state: string; scope: { key: string } } | null,
          ),
        )
      ).filter((v) => v?.scope.key === `k-${counter}`);
      expect(records.map((r) => r!.state)).toEqual(['recorded']);
    } finally {
      redis.destroy();
    }
    process.stdout.write(
      `cluster: replay across replicas: first on ${first.upstream}, replayed on ${elsewhere.upstream} after ${retries.length} retr${retries.length === 1 ? 'y' : 'ies'}\n`,
    );
  }, 60_000);

  it('a task started through one replica is polled, answered and cancelled through another (state in Redis)', async () => {
    const [a, b] = cluster.replicaUrls as [string, string];
    let id = 1;
    const send = async (url: string, method: string, params: Record<string, unknown>) => {
      const name = (params.name ?? params.taskId) as string;
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': method,
          'mcp-name': name,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: id++,
          method,
          params: {
            ...params,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {
                elicitation: {},
                extensions: { 'io.modelcontextprotocol/tasks': {} },
              },
            },
          },
        }),
      });
      return ((await readResponse(res)).messages.at(-1) as { result: Record<string, any> }).result;
    };
    const poll = async (taskId: string, done: (r: Record<string, any>) => boolean) => {
      for (let i = 0; i < 100; i++) {
        const r = await send(b, 'tasks/get', { taskId });
        if (done(r)) return r;
        await new Promise((res) => setTimeout(res, 100));
      }
      throw new Error(`task ${taskId} did not settle`);
    };
    // asks a question on replica a; answered through b; a picks the answer up from Redis and finishes
    const asking = await send(a, 'tools/call', { name: 'confirm_delete', arguments: { filename: 'x.txt' } });
    expect(asking).toMatchObject({ resultType: 'task', status: 'working' });
    const open = await poll(asking.taskId, (r) => r.status === 'input_required');
    expect(Object.keys(open.inputRequests)).toEqual(['confirm']);
    await send(b, 'tasks/update', {
      taskId: asking.taskId,
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
    });
    const done = await poll(asking.taskId, (r) => r.status === 'completed');
    expect(JSON.parse(done.result.content[0].text).data).toEqual({ text: 'deleted x.txt' });
    // a long task on a, cancelled through b
    const long = await send(a, 'tools/call', { name: 'slow_compute', arguments: { seconds: 60 } });
    await send(b, 'tasks/cancel', { taskId: long.taskId });
    expect((await poll(long.taskId, (r) => r.status !== 'working')).status).toBe('cancelled');
  }, 60_000);

  it('2,000 calls with unique ids from 16 concurrent clients: all answered, none crossed, every replica used', async () => {
    const CLIENTS = 16;
    const PER = 125;
    const started = Date.now();
    const byReplica = new Map<string, number>();
    const answered = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        const client = new Client({ name: `load-${c}`, version: '1' });
        await client.connect(new StreamableHTTPClientTransport(new URL(cluster.lbUrl)));
        const wrong: string[] = [];
        let ok = 0;
        for (let i = 0; i < PER; i++) {
          const id = `c${c}-call${i}-${Math.random().toString(36).slice(2)}`;
          const r = await client.callTool({ name: 'echo', arguments: { id } });
          const data = (r.structuredContent ?? JSON.parse((r.content as { text: string }[])[0]!.text).data) as {
            id: string;
            replica: string;
          };
          if (r.isError || data.id !== id) wrong.push(`${id} → ${JSON.stringify(r)}`);
          else ok += 1;
          byReplica.set(data.replica, (byReplica.get(data.replica) ?? 0) + 1);
        }
        await client.close();
        return { ok, wrong };
      }),
    );
    const ms = Date.now() - started;
    const total = answered.reduce((n, a) => n + a.ok, 0);
    expect(answered.flatMap((a) => a.wrong)).toEqual([]);
    expect(total).toBe(CLIENTS * PER);
    expect([...byReplica.keys()].sort()).toEqual(['1', '2', '3']);
    process.stdout.write(
      `cluster: ${total} calls from ${CLIENTS} clients through nginx in ${ms} ms (${Math.round(total / (ms / 1000))}/s); per replica ${JSON.stringify(Object.fromEntries(byReplica))}\n`,
    );
  }, 300_000);
});
