/**
 * Ids of a run: W3C trace and span ids, idempotency keys (UUID v4).
 */
/** A fresh W3C trace id: 32 lower-hex characters. */
export function newTraceId(): string {
  return hex(16);
}

/**
 * `n` random bytes as lower hex, from the global Web Crypto (no `node:crypto` import: loading that
 * module costs ~2 ms of start-up for hkdf/keys this never uses).
 */
function hex(n: number): string {
  if (poolAt + n > pool.length) {
    globalThis.crypto.getRandomValues(pool); // one system call per 4 KiB of ids, not one per id
    poolAt = 0;
  }
  let s = '';
  for (let i = poolAt; i < poolAt + n; i++) s += HEX[pool[i]!]!;
  poolAt += n;
  return s;
}
const pool = new Uint8Array(4096);
let poolAt = pool.length;
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** A fresh span id: 16 lower-hex characters. */
export function newSpanId(): string {
  return hex(8);
}

/** A fresh idempotency key: a UUID v4 (used when `--idempotency-key` is absent or empty). */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

