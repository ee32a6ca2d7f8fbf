/**
 * Run ids (lib/contract/ids.ts, docs/performance.md): W3C trace and span ids and UUID v4 idempotency keys, now
 * drawn from a pool fed by /dev/urandom — same formats and randomness as Web Crypto gave.
 */
import { describe, expect, it } from 'vitest';
import { newEntityId, newIdempotencyKey, newTraceId } from '../../lib/contract/ids.ts';
import { newSpanId } from '../../lib/contract/ids.ts';

describe('ids', () => {
  it('trace ids are 32 lower-hex, span ids 16, keys RFC 9562 UUID v4', () => {
    for (let i = 0; i < 2000; i++) {
      expect(newTraceId()).toMatch(/^[0-9a-f]{32}$/);
      expect(newSpanId()).toMatch(/^[0-9a-f]{16}$/);
      expect(newIdempotencyKey()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('never repeat across pool refills (10,000 of each, several 4 KiB refills)', () => {
    for (const gen of [newTraceId, newSpanId, newIdempotencyKey]) {
      const seen = new Set<string>();
      for (let i = 0; i < 10_000; i++) seen.add(gen());
      expect(seen.size).toBe(10_000);
    }
  });

  it('every hex digit is about equally likely at every position (no stuck bits)', () => {
    const n = 4000;
    const counts = Array.from({ length: 32 }, () => new Map<string, number>());
    for (let i = 0; i < n; i++) [...newTraceId()].forEach((ch, p) => counts[p]!.set(ch, (counts[p]!.get(ch) ?? 0) + 1));
    for (const m of counts) {
      expect(m.size).toBe(16);
      // expected 250 each; a fair source stays far inside these bounds (≈ 8 standard deviations)
      for (const c of m.values()) expect(c).toBeGreaterThan(130);
      for (const c of m.values()) expect(c).toBeLessThan(370);
    }
  });
});

describe('newEntityId (UUID v7, ax-ts)', () => {
  it('is an RFC 9562 UUID v7 whose first 48 bits are the Unix time in milliseconds', () => {
    const before = Date.now();
    const id = newEntityId();
    const after = Date.now();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const ms = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(after + 1);
  });

  it('ids minted one after another are unique and sort in the order they were made', () => {
    const ids = Array.from({ length: 20_000 }, () => newEntityId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('is exported by ax-ts for handlers that mint ids', async () => {
    const api = await import('../../lib/index.ts');
    expect(api.newEntityId()).toMatch(/^[0-9a-f-]{14}7/);
  });
});
