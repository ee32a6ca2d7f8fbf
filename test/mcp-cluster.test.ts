/**
 * Beyond one machine: three `--stateless` replicas of the conformance fixture behind a real nginx
 * (round robin), sharing state through a real redis-server (test/infra/cluster.ts; started by
 * `.ci/run`, or here when the binaries exist). Against the nginx address: the conformance suite, and
 * 2,000 calls with unique ids from 16 concurrent SDK clients — every one answered with its own id.
 * Without nginx and redis-server the suite is skipped with the reason in its title, unless
 * AX_INFRA_REQUIRED=1 (set by .ci/run): then it fails.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { missingInfra, startCluster, type Cluster } from './infra/cluster.ts';

const RUN = fileURLToPath(new URL('./conformance/run.mjs', import.meta.url));
const missing = process.env.AX_INFRA_REQUIRED ? undefined : missingInfra();
const title = missing ? `three stateless replicas behind nginx, with Redis (skipped: ${missing})` : 'three stateless replicas behind nginx, with Redis';

describe.skipIf(missing !== undefined)(title, () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ replicas: 3 });
  }, 120_000);
  afterAll(async () => cluster?.stop());

  it('the conformance suite 0.1.16 passes against the nginx address (stateless expected failures only)', () => {
    const run = spawnSync(process.execPath, [RUN, '--suite-version', '0.1.16', '--stateless', '--url', cluster.lbUrl], { encoding: 'utf8', timeout: 400_000 });
    const tail = `${run.stdout}\n${run.stderr}`.trim().split('\n').slice(-20).join('\n');
    expect(run.status, tail).toBe(0);
    expect(tail).toContain('conformance: 23 passed, 0 failed, 7 skipped');
  }, 420_000);

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
          const data = (r.structuredContent ?? JSON.parse((r.content as { text: string }[])[0]!.text).data) as { id: string; replica: string };
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
    process.stdout.write(`cluster: ${total} calls from ${CLIENTS} clients through nginx in ${ms} ms (${Math.round(total / (ms / 1000))}/s); per replica ${JSON.stringify(Object.fromEntries(byReplica))}\n`);
  }, 300_000);
});
