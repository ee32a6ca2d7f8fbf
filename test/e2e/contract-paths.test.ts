/**
 * The contract means the same on every path (docs/contract.md). ONE table of rules (dry runs, replayed
 * retries, exit codes, error classification, rehearsals, injected flags; the envelope's outcome
 * fields are rows of test/helpers/envelope-rules.ts, paging those of test/helpers/paging-rules.ts, in
 * the same table) runs through all seven
 * paths — the CLI process, `--args-json`, in-process `execute`, MCP stdio, MCP HTTP stateful and
 * stateless, MCP in progressive mode (each call through `call_read_only_tool`/`call_tool`) — against the fixture CLI test/fixtures/contract-tree.ts (public API only), with every
 * path sharing one state directory (the default file store) and one side-effect log. The rules that
 * touch the idempotency store run again, unchanged, with every path sharing one real redis-server
 * instead (test/helpers/redis.ts; skipped without redis-server unless AX_INFRA_REQUIRED=1): the
 * Redis store replays exactly as the file store does, reached by both routes — the environment
 * (AX_IDEMPOTENCY_STORE: cli, mcp-stdio, mcp-http-stateless) and the public option
 * (`idempotencyStore: redisIdempotencyStore(…)`: args-json, in-process, mcp-http, mcp-progressive).
 * Races, the preview server and the SIGINT rounds follow in test/e2e/contract-races.test.ts. The same
 * rules run over twins of the fixture written with other libraries in
 * test/e2e/contract-twins.test.ts (part of `npm run test:rest`: each front-end call is a process).
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { redisIdempotencyStore, type RedisIdempotencyStore } from '../../lib/store/index.ts';
import { buildContractCli } from '../fixtures/contract-tree.ts';
import { freePort } from '../infra/cluster.ts';
import {
  httpPath,
  inProcessPath,
  PATH_NAMES,
  processPath,
  progressivePath,
  stdioPath,
  type Path,
} from '../helpers/paths.ts';
import { redisMissing, testRedis, type TestRedis } from '../helpers/redis.ts';
import {
  CONTRACT_CLI,
  dataBytes,
  dir,
  effects,
  ENV,
  expectError,
  LOG,
  meta,
  RULES,
  writeCall,
  type Json,
} from '../helpers/contract-rules.ts';

type StoreName = 'file' | 'redis';
/** Each store's paths (MCP in progressive mode included). */
const paths: Record<StoreName, Path[]> = { file: [], redis: [] };
/** Keys on a shared Redis outlive a run: ids of this run never meet another's. */
const RUN = `${process.pid}-${Date.now().toString(36)}`;
let redis: TestRedis | undefined;
let inProcessStore: RedisIdempotencyStore | undefined;
beforeAll(async () => {
  paths.file.push(
    processPath('cli', CONTRACT_CLI, ENV),
    processPath('args-json', CONTRACT_CLI, ENV),
    inProcessPath(buildContractCli, ENV),
  );
  paths.file.push(
    ...(await Promise.all([
      stdioPath(CONTRACT_CLI, ENV),
      httpPath(CONTRACT_CLI, ENV, false),
      httpPath(CONTRACT_CLI, ENV, true),
      progressivePath(CONTRACT_CLI, ENV),
    ])),
  );
  if (redisMissing) return;
  redis = await testRedis();
  // no XDG_STATE_HOME: the file store is not in play (the process paths have no HOME either)
  const viaEnv = { CONTRACT_LOG: LOG, AX_IDEMPOTENCY_STORE: redis.url };
  const viaOption = { CONTRACT_LOG: LOG, CONTRACT_REDIS_URL: redis.url };
  inProcessStore = redisIdempotencyStore({ url: redis.url });
  paths.redis.push(
    processPath('cli', CONTRACT_CLI, viaEnv),
    processPath('args-json', CONTRACT_CLI, viaOption),
    inProcessPath(buildContractCli, { CONTRACT_LOG: LOG }, inProcessStore),
  );
  paths.redis.push(
    ...(await Promise.all([
      stdioPath(CONTRACT_CLI, viaEnv),
      httpPath(CONTRACT_CLI, viaOption, false),
      httpPath(CONTRACT_CLI, viaEnv, true),
      progressivePath(CONTRACT_CLI, viaOption),
    ])),
  );
}, 120_000);
afterAll(async () => {
  await Promise.all([...paths.file, ...paths.redis].map((p) => p.close()));
  await inProcessStore?.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const NAMES: readonly Path['name'][] = PATH_NAMES;
const STORES: { store: StoreName; skip?: string }[] = [{ store: 'file' }, { store: 'redis', skip: redisMissing }];
const pathOf = (store: StoreName, name: string) => paths[store].find((x) => x.name === name)!;
/** A call id unique to its store, path and rule (and, on Redis, to this run). */
const idOf = (store: StoreName, name: string, rule: number) =>
  store === 'file' ? `${name}-r${rule}` : `redis-${name}-r${rule}-${RUN}`;

describe.each(STORES)('$store store', ({ store, skip }) => {
  describe.each(NAMES)('path %s', (name) => {
    RULES.forEach((rule, i) => {
      if (store !== 'file' && !rule.store) return; // the rule does not touch the store: run once, on the file store
      (skip ? it.skip : it.concurrent)(
        skip ? `${rule.name} (skipped: ${skip})` : rule.name,
        async () => {
          const p = pathOf(store, name);
          if (rule.on && !rule.on(p)) return; // a rule that has no meaning on this path (e.g. __schema over MCP)
          await rule.run(p, idOf(store, name, i));
        },
        120_000,
      );
    });
  });
});

describe.each(STORES)('one $store store for every path', ({ store, skip }) => {
  (skip ? it.skip : it)(
    `a key used on the CLI replays over MCP (stdio and HTTP, stateful and stateless), --args-json and in-process, and back${skip ? ` (skipped: ${skip})` : ''}`,
    async () => {
      const name = store === 'file' ? 'shared' : `redis-shared-${RUN}`;
      const call = writeCall('write', name, { key: `k-${name}`, tags: ['x'] });
      const first = await pathOf(store, 'cli').call(call);
      expect(first.code, JSON.stringify(first)).toBe(0);
      for (const n of ['mcp-stdio', 'mcp-http', 'mcp-http-stateless', 'mcp-progressive', 'args-json', 'in-process']) {
        const p = pathOf(store, n);
        const again = await p.call(call);
        expect(again.code, `${n}: ${JSON.stringify(again)}`).toBe(0);
        expect(dataBytes(again.stdout), n).toBe(dataBytes(first.stdout));
        expect(meta(again).replayed, n).toBe(true);
      }
      expect(effects(name)).toHaveLength(1);
      if (store === 'redis') {
        // and the record is in Redis, under the documented key
        const raw = createClient({ url: redis!.url });
        await raw.connect();
        try {
          const keys = await raw.keys('ax-ts:idempotency:contractfx:*');
          const values = await Promise.all(keys.map(async (k) => JSON.parse((await raw.get(k)) ?? 'null') as Json));
          expect(values.filter((v) => v?.scope?.key === `k-${name}`)).toMatchObject([
            {
              v: 1,
              state: 'recorded',
              scope: { program: 'contractfx', command: 'contractfx write', key: `k-${name}` },
            },
          ]);
        } finally {
          raw.destroy();
        }
      }
    },
    60_000,
  );
});

describe('a key given but no usable store', () => {
  it('no state directory: idempotency_store_unavailable (exit 1) before anything runs', async () => {
    const noState = { CONTRACT_LOG: LOG }; // neither XDG_STATE_HOME nor HOME
    for (const p of [processPath('cli', CONTRACT_CLI, noState), inProcessPath(buildContractCli, noState)]) {
      const e = expectError(
        await p.call(writeCall('write', `nostore-${p.name}`, { key: 'k' })),
        1,
        'idempotency_store_unavailable',
      );
      expect(e.actionable_fix).toMatch(/XDG_STATE_HOME/);
      expect(effects(`nostore-${p.name}`)).toHaveLength(0);
      // without a key the same call runs: only the promise needs the store
      expect((await p.call(writeCall('write', `nostore-${p.name}`))).code).toBe(0);
    }
  }, 60_000);

  it('Redis not answering, by either route and on every kind of path: idempotency_store_unavailable (exit 1, retryable, a fix naming the server) before anything runs', async () => {
    const port = await freePort(); // nothing listens there
    const down = `redis://127.0.0.1:${port}`;
    const viaEnv = { CONTRACT_LOG: LOG, AX_IDEMPOTENCY_STORE: down };
    const viaOption = { CONTRACT_LOG: LOG, CONTRACT_REDIS_URL: down };
    const optionStore = redisIdempotencyStore({ url: down });
    const stdio = await stdioPath(CONTRACT_CLI, viaEnv);
    const http = await httpPath(CONTRACT_CLI, viaOption, true);
    try {
      for (const p of [
        processPath('cli', CONTRACT_CLI, viaEnv),
        processPath('args-json', CONTRACT_CLI, viaOption),
        inProcessPath(buildContractCli, { CONTRACT_LOG: LOG }, optionStore),
        stdio,
        http,
      ]) {
        const name = `redis-down-${p.name}`;
        const e = expectError(await p.call(writeCall('write', name, { key: 'k' })), 1, 'idempotency_store_unavailable');
        expect(e.retryable, p.name).toBe(true);
        expect(e.context, p.name).toMatchObject({ reason: 'store_unreachable', store: 'redis' });
        expect(e.actionable_fix, p.name).toContain(`Redis at 127.0.0.1:${port}`);
        expect(effects(name)).toHaveLength(0);
        expect((await p.call(writeCall('write', name))).code, p.name).toBe(0); // without a key it runs
      }
    } finally {
      await Promise.all([stdio.close(), http.close(), optionStore.close()]);
    }
  }, 90_000);
});
