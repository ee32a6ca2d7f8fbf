/**
 * Ids of a run: W3C trace and span ids, idempotency keys (UUID v4), entity ids (UUID v7) — generation only (parsing a
 * trace context belongs elsewhere).
 *
 * All ids come from one pool of random bytes refilled 4 KiB at a time from the kernel's CSPRNG:
 * `/dev/urandom` read with `fs.readSync` where it exists (Linux, macOS, the BSDs), else the global
 * Web Crypto's `getRandomValues`. Both are the operating system's cryptographically secure source;
 * the file read avoids loading Web Crypto's internals, which cost ~4 ms of start-up (docs/performance.md), and
 * `node:crypto` (~1.5 ms). Same formats, same randomness as before.
 */
import { closeSync, openSync, readSync } from 'node:fs';

const POOL = 4096;
const pool = new Uint8Array(POOL);
let poolAt = POOL;
let urandom: number | undefined | null; // fd; null once it is known not to work

/** Refills the pool from the OS CSPRNG (the whole pool: a short read falls back to Web Crypto). */
function refill(): void {
  if (urandom === undefined) {
    try {
      urandom = openSync('/dev/urandom', 'r');
    } catch {
      urandom = null;
    }
  }
  if (urandom !== null) {
    try {
      if (readSync(urandom, pool, 0, POOL, null) === POOL) {
        poolAt = 0;
        return;
      }
    } catch {
      /* fall through to Web Crypto */
    }
    try {
      closeSync(urandom);
    } catch {
      /* already gone */
    }
    urandom = null;
  }
  globalThis.crypto.getRandomValues(pool);
  poolAt = 0;
}

/** `n` (≤ 4096) fresh random bytes; the returned view is valid until the next call. */
function take(n: number): number {
  if (poolAt + n > POOL) refill();
  const at = poolAt;
  poolAt += n;
  return at;
}

/** The pool as a Buffer (same memory): its `toString('hex', …)` makes an id in one native call, one flat string. */
const poolHex = Buffer.from(pool.buffer, pool.byteOffset, POOL);

function hex(n: number): string {
  const at = take(n);
  return poolHex.toString('hex', at, at + n);
}

/** A fresh W3C trace id: 32 lower-hex characters (128 random bits; never all zero in practice). */
export function newTraceId(): string {
  return hex(16);
}

/** A fresh span id: 16 lower-hex characters (64 random bits). */
export function newSpanId(): string {
  return hex(8);
}

/**
 * A fresh idempotency key: a UUID v4 in the RFC 9562 text form (`xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx`,
 * lower hex, V one of 8 9 a b), 122 random bits — what `crypto.randomUUID()` returns. Used when
 * `--idempotency-key` is absent or blank.
 */
export function newIdempotencyKey(): string {
  const at = take(16);
  const b = pool;
  b[at + 6] = (b[at + 6]! & 0x0f) | 0x40; // version 4
  b[at + 8] = (b[at + 8]! & 0x3f) | 0x80; // variant 10xx
  const h = poolHex.toString('hex', at, at + 16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The last v7 id's millisecond and 12-bit counter, so ids minted in one millisecond still sort in order. */
let v7Ms = 0;
let v7Seq = 0;

/**
 * A fresh entity id for a handler that mints ids (ax-go's `NewEntityID`): a UUID v7 in the RFC 9562
 * text form (`xxxxxxxx-xxxx-7xxx-Vxxx-xxxxxxxxxxxx`, https://www.rfc-editor.org/rfc/rfc9562#section-5.7):
 * 48 bits of Unix time in milliseconds, then 74 random bits, so ids sort by creation time. Within one
 * process the 12 bits after the version are a counter when the clock has not moved on (RFC 9562
 * §6.2 method 1), so ids minted in one millisecond sort in the order they were made too.
 */
export function newEntityId(): string {
  let ms = Date.now();
  const at = take(16);
  const b = pool;
  if (ms <= v7Ms) {
    ms = v7Ms; // a clock that went back keeps the order of the ids already given
    v7Seq += 1;
    if (v7Seq > 0xfff) {
      ms = v7Ms + 1; // counter exhausted: borrow the next millisecond
      v7Seq = 0;
    }
  } else v7Seq = ((b[at + 6]! & 0x07) << 8) | b[at + 7]!; // a random start in the lower half: the counter has room
  v7Ms = ms;
  for (let i = 5; i >= 0; i--) {
    b[at + i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  b[at + 6] = 0x70 | (v7Seq >> 8); // version 7, counter high bits
  b[at + 7] = v7Seq & 0xff;
  b[at + 8] = (b[at + 8]! & 0x3f) | 0x80; // variant 10xx
  const h = poolHex.toString('hex', at, at + 16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
