/**
 * The default IdempotencyStore (lib/run/file-store.ts) through its public interface: claims are
 * exclusive under concurrency, records replay until their TTL, leases expire, releases free the
 * key, and another run's claim or record is never overwritten. The cross-process races run in
 * test/contract-paths.test.ts, against real processes.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultIdempotencyDir, fileIdempotencyStore, scopeId, type ReplayRecord, type ReplayScope } from '../lib/index.ts';

const root = mkdtempSync(join(tmpdir(), 'ax-idem-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => fileIdempotencyStore(join(root, `s${++n}`));
const scope = (key: string, command = 'app add'): ReplayScope => ({ program: 'app', command, key });
const record: ReplayRecord = { exitCode: 0, kind: 'data', data: '{"id":1}', recordedAt: 1 };

describe('file idempotency store', () => {
  it('of 20 concurrent claims of one fresh key exactly one wins; the rest see it running', async () => {
    const store = fresh();
    const results = await Promise.all(Array.from({ length: 20 }, () => store.claim(scope('k'), 'fp', { leaseMs: 30_000 })));
    expect(results.filter((r) => r.state === 'claimed')).toHaveLength(1);
    expect(results.filter((r) => r.state === 'running').every((r) => r.state === 'running' && r.fingerprint === 'fp')).toBe(true);
  });

  it('complete records the outcome; a later claim gets it with the first fingerprint', async () => {
    const store = fresh();
    const c = await store.claim(scope('k'), 'fp1', { leaseMs: 30_000 });
    if (c.state !== 'claimed') throw new Error('expected a claim');
    await store.complete(scope('k'), c.token, 'fp1', record, 60_000);
    expect(await store.claim(scope('k'), 'fp2', { leaseMs: 30_000 })).toEqual({ state: 'recorded', fingerprint: 'fp1', record });
  });

  it('keys are scoped by program, command path and key', async () => {
    const store = fresh();
    const a = await store.claim(scope('k', 'app add'), 'fp', { leaseMs: 30_000 });
    const b = await store.claim(scope('k', 'app done'), 'fp', { leaseMs: 30_000 });
    const c = await store.claim({ program: 'other', command: 'app add', key: 'k' }, 'fp', { leaseMs: 30_000 });
    const d = await store.claim(scope(' k'), 'fp', { leaseMs: 30_000 }); // opaque: " k" is another key
    expect([a.state, b.state, c.state, d.state]).toEqual(['claimed', 'claimed', 'claimed', 'claimed']);
    expect(scopeId(scope('k'))).toBe('["app","app add","k"]');
  });

  it('a record expires after its TTL, a claim after its lease; release frees the key at once', async () => {
    const store = fresh();
    const c = await store.claim(scope('ttl'), 'fp', { leaseMs: 30_000 });
    if (c.state !== 'claimed') throw new Error('expected a claim');
    await store.complete(scope('ttl'), c.token, 'fp', record, 30);
    await new Promise((r) => setTimeout(r, 60));
    expect((await store.claim(scope('ttl'), 'fp', { leaseMs: 30 })).state).toBe('claimed');
    await new Promise((r) => setTimeout(r, 60)); // the holder died: its lease ran out
    const taken = await store.claim(scope('ttl'), 'fp', { leaseMs: 30_000 });
    expect(taken.state).toBe('claimed');
    if (taken.state !== 'claimed') return;
    await store.release(scope('ttl'), taken.token);
    expect((await store.claim(scope('ttl'), 'fp', { leaseMs: 30_000 })).state).toBe('claimed');
  });

  it('renew keeps a claim alive; a lost token neither renews, releases nor overwrites another run', async () => {
    const store = fresh();
    const first = await store.claim(scope('r'), 'fp', { leaseMs: 40 });
    if (first.state !== 'claimed') throw new Error('expected a claim');
    expect(await store.renew(scope('r'), first.token, 30_000)).toBe(true);
    await new Promise((r) => setTimeout(r, 60));
    expect((await store.claim(scope('r'), 'fp', { leaseMs: 30_000 })).state).toBe('running'); // renewed: still held
    expect(await store.renew(scope('r'), 'not-the-token', 30_000)).toBe(false);
    await store.release(scope('r'), 'not-the-token');
    await store.complete(scope('r'), 'not-the-token', 'other', { ...record, data: '"forged"' }, 60_000);
    expect((await store.claim(scope('r'), 'fp', { leaseMs: 30_000 })).state).toBe('running');
    await store.complete(scope('r'), first.token, 'fp', record, 60_000);
    expect(await store.claim(scope('r'), 'x', { leaseMs: 30_000 })).toEqual({ state: 'recorded', fingerprint: 'fp', record });
  });

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
    expect(defaultIdempotencyDir('tasks', { XDG_STATE_HOME: 'relative', HOME: '/h' })).toBe('/h/.local/state/tasks/idempotency');
    expect(defaultIdempotencyDir('tasks', {})).toBeUndefined();
  });
});
