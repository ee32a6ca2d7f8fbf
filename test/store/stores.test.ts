/**
 * The IdempotencyStore contract, ONE table run against both stores ax-ts ships: the default file
 * store (lib/store/file-store.ts) and the Redis store (lib/store/redis-store.ts) against a real
 * redis-server (test/helpers/redis.ts: the one .ci/run starts, else a private one; skipped without
 * redis-server unless AX_INFRA_REQUIRED=1). Claims are exclusive under concurrency (for Redis: from
 * several clients, as several replicas would be), records replay until their TTL, leases expire and
 * can be taken over, only the holder renews or releases, and another run's claim or record is never
 * overwritten; and, through `execute`, a retry waits for a run holding its key, then gets
 * idempotency_in_progress or the replay. Then what is particular to each: the file store's files and directory, Redis's keys,
 * values and expiries, and Redis that is down, stalled or misconfigured (a clear error, fast). The
 * cross-process races run in test/e2e/contract-paths.test.ts.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AxError } from '../../lib/index.ts';
import { CLAIM_LEASE_MS, DEFAULT_IDEMPOTENCY_TTL_MS } from '../../lib/store/idempotency.ts';
import { defaultIdempotencyDir } from '../../lib/store/file-store.ts';
import {
  fileIdempotencyStore,
  redisIdempotencyStore,
  scopeId,
  type IdempotencyStore,
  type RedisIdempotencyStore,
  type ReplayRecord,
  type ReplayScope,
} from '../../lib/store/index.ts';
import { buildContractCli } from '../fixtures/contract-tree.ts';
import { freePort } from '../infra/cluster.ts';
import { runCli } from '../helpers/run.ts';
import { privateRedis, redisMissing, runPrefix, testRedis, type TestRedis } from '../helpers/redis.ts';

const root = mkdtempSync(join(tmpdir(), 'ax-idem-store-'));
let redis: TestRedis | undefined;
const opened: RedisIdempotencyStore[] = [];
beforeAll(async () => {
  if (!redisMissing) redis = await testRedis();
}, 60_000);
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  await redis?.stop();
  rmSync(root, { recursive: true, force: true });
});

const scope = (key: string, command = 'app add'): ReplayScope => ({ program: 'app', command, key });
const record: ReplayRecord = { exitCode: 0, kind: 'data', data: '{"id":1}', recordedAt: 1 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Kind {
  name: string;
  skip?: string;
  /** A fresh, empty store; `peer()` is another handle on the same store (another process or replica). */
  fresh(): { store: IdempotencyStore; peer(): IdempotencyStore };
}
let n = 0;
const redisStore = (prefix: string) => {
  const s = redisIdempotencyStore({ url: redis!.url, prefix });
  opened.push(s);
  return s;
};
const KINDS: Kind[] = [
  {
    name: 'file',
    fresh: () => {
      const dir = join(root, `s${++n}`);
      return { store: fileIdempotencyStore(dir), peer: () => fileIdempotencyStore(dir) };
    },
  },
  {
    name: 'redis',
    skip: redisMissing,
    fresh: () => {
      const prefix = runPrefix(`store${++n}`);
      return { store: redisStore(prefix), peer: () => redisStore(prefix) };
    },
  },
];

describe.each(KINDS)('the IdempotencyStore contract: $name store', (kind) => {
  const test = kind.skip ? it.skip : it;
  const t = (name: string) => (kind.skip ? `${name} (skipped: ${kind.skip})` : name);

  test(
    t(
      'of 20 concurrent claims of one fresh key from 4 handles exactly one wins; the rest see it running with its fingerprint',
    ),
    async () => {
      const { store, peer } = kind.fresh();
      const handles = [store, peer(), peer(), peer()];
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => handles[i % 4]!.claim(scope('k'), 'fp', { leaseMs: 30_000 })),
      );
      expect(results.filter((r) => r.state === 'claimed')).toHaveLength(1);
      expect(
        results.filter((r) => r.state === 'running').every((r) => r.state === 'running' && r.fingerprint === 'fp'),
      ).toBe(true);
    },
  );

  test(
    t('complete records the outcome; a later claim (from another handle) gets it with the first fingerprint'),
    async () => {
      const { store, peer } = kind.fresh();
      const c = await store.claim(scope('k'), 'fp1', { leaseMs: 30_000 });
      if (c.state !== 'claimed') throw new Error('expected a claim');
      expect(await peer().claim(scope('k'), 'fp1', { leaseMs: 30_000 })).toEqual({
        state: 'running',
        fingerprint: 'fp1',
      });
      await store.complete(scope('k'), c.token, 'fp1', record, 60_000);
      expect(await peer().claim(scope('k'), 'fp2', { leaseMs: 30_000 })).toEqual({
        state: 'recorded',
        fingerprint: 'fp1',
        record,
      });
      const stream: ReplayRecord = {
        exitCode: 5,
        kind: 'error',
        error: { kind: 'gone', message: 'ü "quoted" \n', exit_code: 5 },
        recordedAt: 2,
      };
      const d = await store.claim(scope('k2'), 'fp', { leaseMs: 30_000 });
      if (d.state !== 'claimed') throw new Error('expected a claim');
      await store.complete(scope('k2'), d.token, 'fp', stream, 60_000);
      expect(await peer().claim(scope('k2'), 'fp', { leaseMs: 30_000 })).toEqual({
        state: 'recorded',
        fingerprint: 'fp',
        record: stream,
      });
    },
  );

  test(t('keys are scoped by program, command path and key (opaque: " k" is another key)'), async () => {
    const { store } = kind.fresh();
    const a = await store.claim(scope('k', 'app add'), 'fp', { leaseMs: 30_000 });
    const b = await store.claim(scope('k', 'app done'), 'fp', { leaseMs: 30_000 });
    const c = await store.claim({ program: 'other', command: 'app add', key: 'k' }, 'fp', { leaseMs: 30_000 });
    const d = await store.claim(scope(' k'), 'fp', { leaseMs: 30_000 });
    expect([a.state, b.state, c.state, d.state]).toEqual(['claimed', 'claimed', 'claimed', 'claimed']);
    expect(scopeId(scope('k'))).toBe('["app","app add","k"]');
  });

  test(
    t(
      'a record expires after its TTL; a claim whose holder died expires after its lease and is taken over; release frees the key at once',
    ),
    async () => {
      const { store, peer } = kind.fresh();
      const c = await store.claim(scope('ttl'), 'fp', { leaseMs: 30_000 });
      if (c.state !== 'claimed') throw new Error('expected a claim');
      await store.complete(scope('ttl'), c.token, 'fp', record, 400);
      expect((await store.claim(scope('ttl'), 'fp', { leaseMs: 30_000 })).state).toBe('recorded');
      await sleep(500);
      const dead = await store.claim(scope('ttl'), 'fp', { leaseMs: 400 });
      expect(dead.state).toBe('claimed');
      expect((await peer().claim(scope('ttl'), 'fp', { leaseMs: 30_000 })).state).toBe('running');
      await sleep(500); // the holder died: its lease ran out
      const taken = await peer().claim(scope('ttl'), 'fp', { leaseMs: 30_000 });
      expect(taken.state).toBe('claimed');
      if (taken.state !== 'claimed' || dead.state !== 'claimed') return;
      // the dead holder's token is lost: it renews, releases and records nothing over the new claim
      expect(await store.renew(scope('ttl'), dead.token, 30_000)).toBe(false);
      await store.release(scope('ttl'), dead.token);
      await store.complete(scope('ttl'), dead.token, 'fp', { ...record, data: '"late"' }, 60_000);
      expect((await store.claim(scope('ttl'), 'fp', { leaseMs: 30_000 })).state).toBe('running');
      await store.release(scope('ttl'), taken.token);
      expect((await store.claim(scope('ttl'), 'fp', { leaseMs: 30_000 })).state).toBe('claimed');
    },
  );

  test(
    t(
      'renew keeps a claim alive; a non-holder neither renews, releases nor overwrites; a lost token still records on a free key',
    ),
    async () => {
      const { store, peer } = kind.fresh();
      const first = await store.claim(scope('r'), 'fp', { leaseMs: 300 });
      if (first.state !== 'claimed') throw new Error('expected a claim');
      expect(await store.renew(scope('r'), first.token, 30_000)).toBe(true);
      await sleep(400);
      expect((await peer().claim(scope('r'), 'fp', { leaseMs: 30_000 })).state).toBe('running'); // renewed: still held
      expect(await peer().renew(scope('r'), 'not-the-token', 30_000)).toBe(false);
      await peer().release(scope('r'), 'not-the-token');
      await peer().complete(scope('r'), 'not-the-token', 'other', { ...record, data: '"forged"' }, 60_000);
      expect((await store.claim(scope('r'), 'fp', { leaseMs: 30_000 })).state).toBe('running');
      await store.complete(scope('r'), first.token, 'fp', record, 60_000);
      expect(await store.claim(scope('r'), 'x', { leaseMs: 30_000 })).toEqual({
        state: 'recorded',
        fingerprint: 'fp',
        record,
      });
      // a record is no claim: renew and release by its old holder change nothing
      expect(await store.renew(scope('r'), first.token, 30_000)).toBe(false);
      await store.release(scope('r'), first.token);
      expect((await store.claim(scope('r'), 'x', { leaseMs: 30_000 })).state).toBe('recorded');
      // a run whose claim expired unnoticed records its outcome when nobody took the key meanwhile
      const late = await store.claim(scope('late'), 'fp', { leaseMs: 40 });
      if (late.state !== 'claimed') throw new Error('expected a claim');
      await sleep(100);
      await store.complete(scope('late'), late.token, 'fp', record, 60_000);
      expect((await peer().claim(scope('late'), 'fp', { leaseMs: 30_000 })).state).toBe('recorded');
    },
  );
});

describe.each(KINDS)('a run that waits for another holding its key: $name store', (kind) => {
  const test = kind.skip ? it.skip : it;
  test(`waits up to idempotencyWaitMs, then idempotency_in_progress (exit 2, retryable); a patient retry replays the first outcome; one side effect${kind.skip ? ` (skipped: ${kind.skip})` : ''}`, async () => {
    const { store, peer } = kind.fresh();
    const log = join(root, `effects-${kind.name}-${++n}.log`);
    const argv = ['write', 'slow', '--delay-ms', '3000', '--idempotency-key', 'k-slow'];
    let firstDone = false;
    const first = runCli(buildContractCli(), argv, { env: { CONTRACT_LOG: log }, idempotencyStore: store }).finally(
      () => (firstDone = true),
    );
    await sleep(800); // the first run claims its key within milliseconds, then sleeps 3 s in its handler
    const impatient = await runCli(buildContractCli(), argv, {
      env: { CONTRACT_LOG: log },
      idempotencyStore: peer(),
      idempotencyWaitMs: 200,
    });
    expect(firstDone).toBe(false); // it gave up after its wait, before the first call ended: order, not a clock
    expect(impatient.code, impatient.stderr).toBe(2);
    expect(JSON.parse(impatient.stderr.trim().split('\n').at(-1)!).error).toMatchObject({
      kind: 'idempotency_in_progress',
      exit_code: 2,
      retryable: true,
    });
    const patient = await runCli(buildContractCli(), argv, { env: { CONTRACT_LOG: log }, idempotencyStore: peer() });
    const done = await first;
    expect([done.code, patient.code]).toEqual([0, 0]);
    expect(JSON.parse(patient.stdout).meta.replayed).toBe(true);
    expect(JSON.parse(patient.stdout).data).toEqual(JSON.parse(done.stdout).data);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(1);
  }, 30_000);
});

describe('file store specifics', () => {
  it('leaves no temporary or lock files behind; entries are private (0600 in a 0700 directory)', async () => {
    const dir = join(root, 'clean');
    const store = fileIdempotencyStore(dir);
    await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const c = await store.claim(scope(`k${i}`), 'fp', { leaseMs: 30_000 });
        if (c.state === 'claimed') await store.complete(scope(`k${i}`), c.token, 'fp', record, 60_000);
      }),
    );
    const names = readdirSync(dir);
    expect(names).toHaveLength(10);
    expect(names.every((x) => /^[0-9a-f]{64}\.json$/.test(x))).toBe(true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, names[0]!)).mode & 0o777).toBe(0o600);
  });

  it('the default directory: $XDG_STATE_HOME/<program>/idempotency, else ~/.local/state/…, else none', () => {
    expect(defaultIdempotencyDir('tasks', { XDG_STATE_HOME: '/s', HOME: '/h' })).toBe('/s/tasks/idempotency');
    expect(defaultIdempotencyDir('tasks', { XDG_STATE_HOME: 'relative', HOME: '/h' })).toBe(
      '/h/.local/state/tasks/idempotency',
    );
    expect(defaultIdempotencyDir('tasks', {})).toBeUndefined();
  });
});

/** The error an operation rejects with, and how long it took. */
async function failure(op: Promise<unknown>): Promise<{ e: AxError; ms: number }> {
  const t = Date.now();
  try {
    await op;
  } catch (e) {
    expect(e).toBeInstanceOf(AxError);
    return { e: e as AxError, ms: Date.now() - t };
  }
  throw new Error('expected the operation to fail');
}

describe.skipIf(redisMissing !== undefined)(
  redisMissing ? `Redis store specifics (skipped: ${redisMissing})` : 'Redis store specifics',
  () => {
    it('keys are <prefix><program>:<sha256 of scopeId>, values JSON; the lease and the TTL (24 h by default) are Redis expiries', async () => {
      const prefix = runPrefix('layout');
      const store = redisStore(prefix);
      const raw = createClient({ url: redis!.url });
      await raw.connect();
      try {
        const key = `${prefix}app:${createHash('sha256')
          .update(scopeId(scope('k')))
          .digest('hex')}`;
        const c = await store.claim(scope('k'), 'fp', { leaseMs: CLAIM_LEASE_MS });
        if (c.state !== 'claimed') throw new Error('expected a claim');
        expect(JSON.parse((await raw.get(key))!)).toEqual({
          v: 1,
          state: 'running',
          token: c.token,
          fingerprint: 'fp',
          scope: scope('k'),
        });
        const lease = await raw.pTTL(key);
        expect(lease).toBeGreaterThan(CLAIM_LEASE_MS - 5_000);
        expect(lease).toBeLessThanOrEqual(CLAIM_LEASE_MS);
        expect(await store.renew(scope('k'), c.token, 90_000)).toBe(true);
        expect(await raw.pTTL(key)).toBeGreaterThan(CLAIM_LEASE_MS);
        await store.complete(scope('k'), c.token, 'fp', record, DEFAULT_IDEMPOTENCY_TTL_MS);
        expect(JSON.parse((await raw.get(key))!)).toEqual({
          v: 1,
          state: 'recorded',
          fingerprint: 'fp',
          record,
          scope: scope('k'),
        });
        const ttl = await raw.pTTL(key);
        expect(ttl).toBeGreaterThan(DEFAULT_IDEMPOTENCY_TTL_MS - 60_000);
        expect(ttl).toBeLessThanOrEqual(DEFAULT_IDEMPOTENCY_TTL_MS);
        expect(await raw.keys(`${prefix}*`)).toEqual([key]);
        // a damaged or foreign value under our key counts as free, as in the file store
        await raw.set(key, 'not json');
        expect((await store.claim(scope('k'), 'fp', { leaseMs: 30_000 })).state).toBe('claimed');
        await store.release(scope('k'), 'not-the-token');
        expect(JSON.parse((await raw.get(key))!).state).toBe('running');
      } finally {
        raw.destroy();
      }
    });

    it('nothing listens: every operation rejects at once with idempotency_store_unavailable (retryable, a fix naming the server), no password in it', async () => {
      const port = await freePort(); // bound then released: nothing listens there
      const store = redisIdempotencyStore({ url: `redis://ops:s3cret-pass@127.0.0.1:${port}/2` });
      opened.push(store);
      for (const op of [
        store.claim(scope('k'), 'fp', { leaseMs: 30_000 }),
        store.renew(scope('k'), 't', 1),
        store.complete(scope('k'), 't', 'fp', record, 1),
        store.release(scope('k'), 't'),
      ]) {
        const { e, ms } = await failure(op);
        expect(ms).toBeLessThan(1_500);
        expect(e.kind).toBe('idempotency_store_unavailable');
        expect(e.exitCode).toBe(1);
        expect(e.retryable).toBe(true);
        expect(e.context).toEqual({ reason: 'store_unreachable', store: 'redis' });
        expect(e.message).toContain(`Redis at 127.0.0.1:${port}`);
        expect(e.fix).toMatch(/running and reachable/);
        expect(JSON.stringify(e.toJSON())).not.toMatch(/s3cret|ops:/);
      }
    });

    it('a server that stops answering: the operation fails within the command timeout, a new connection within connect + command timeouts; it works again once the server is back', async () => {
      const own = await privateRedis();
      try {
        const opts = { url: own.url, prefix: runPrefix('stall'), connectTimeoutMs: 300, commandTimeoutMs: 300 };
        const live = redisIdempotencyStore(opts);
        opened.push(live);
        expect((await live.claim(scope('a'), 'fp', { leaseMs: 30_000 })).state).toBe('claimed');
        own.server!.proc.kill('SIGSTOP');
        try {
          const stalled = await failure(live.claim(scope('b'), 'fp', { leaseMs: 30_000 }));
          expect(stalled.ms).toBeLessThan(1_500);
          expect(stalled.e.context).toMatchObject({ reason: 'store_unreachable' });
          expect(stalled.e.message).toMatch(/no reply within 300 ms/);
          const fresh = redisIdempotencyStore(opts);
          opened.push(fresh);
          const connecting = await failure(fresh.claim(scope('c'), 'fp', { leaseMs: 30_000 }));
          expect(connecting.ms).toBeLessThan(2_000);
          expect(connecting.e.context).toMatchObject({ reason: 'store_unreachable' });
        } finally {
          own.server!.proc.kill('SIGCONT');
        }
        expect((await live.claim(scope('a'), 'fp', { leaseMs: 30_000 })).state).toBe('running'); // reconnected: the first claim still holds
      } finally {
        await own.stop();
      }
    }, 30_000);

    it('a URL that is not redis:// or rediss://: the factory does not throw; operations reject (invalid_url, not retryable, a fix naming AX_IDEMPOTENCY_STORE)', async () => {
      for (const url of ['http://127.0.0.1:6379', 'not a url', '']) {
        const store = redisIdempotencyStore({ url });
        const { e } = await failure(store.claim(scope('k'), 'fp', { leaseMs: 30_000 }));
        expect(e).toMatchObject({
          kind: 'idempotency_store_unavailable',
          retryable: false,
          context: { reason: 'invalid_url', store: 'redis' },
        });
        expect(e.fix).toMatch(/AX_IDEMPOTENCY_STORE/);
      }
    });
  },
);
