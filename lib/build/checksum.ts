/**
 * The checksum of a code-cache payload (docs/shipping.md#the-code-cache), cheap at start-up: the
 * FNV-1a step `h = (h ^ w) * 16777619` over the payload's little-endian 32-bit words (the last one
 * zero-padded), then over its length in bytes; 32 bits. Each step is a bijection of `h`, so any
 * change confined to one word (a flipped bit, a torn byte) always changes the sum; other changes
 * go unseen with odds of 2^-32. It runs as a 93-byte WebAssembly function: about 0.35 ms for a
 * 240 KB payload, where loading `node:zlib` for its CRC-32 cost a built program about 2.5 ms of
 * start-up; where WebAssembly is unavailable (`--jitless`) the same sum is computed in JavaScript.
 * Compiled into every built program's entry: no dependency, no Node built-in.
 */

/** The offset basis and prime of 32-bit FNV-1a. */
const BASIS = 0x811c9dc5;
const PRIME = 0x01000193;

/**
 * `(func (param $at i32) (param $end i32) (result i32))`: the FNV step over the words of memory from
 * `$at` to `$end` (a multiple of 4 apart), starting from BASIS; exported as `h`, its memory as `m`.
 */
const MODULE =
  'AGFzbQEAAAABBwFgAn9/AX8DAgEABQMBAAEHCQIBaAAAAW0CAAo2ATQBAX9BxbvyiHghAgJAA0AgACABTw0BIAIgACgCAHNBk4OACG' +
  'whAiAAQQRqIQAMAAsLIAIL';

interface Instance {
  h: (at: number, end: number) => number;
  m: { buffer: ArrayBuffer; grow(pages: number): number };
}

/** What this module uses of the global WebAssembly (not in the `lib` the project compiles against). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}

let wasm: Instance | null | undefined;

/** The WebAssembly function, made on first use; null where WebAssembly cannot run. */
function instance(): Instance | null {
  if (wasm !== undefined) return wasm;
  try {
    const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
    wasm = api ? (new api.Instance(new api.Module(Buffer.from(MODULE, 'base64'))).exports as Instance) : null;
  } catch {
    wasm = null;
  }
  return wasm;
}

/** The sum in JavaScript (the same as the WebAssembly function's, then the length). */
export function checksumInJs(data: Uint8Array): number {
  let h = BASIS | 0;
  const n = data.length;
  for (let i = 0; i < n; i += 4) {
    const w = data[i]! | ((data[i + 1] ?? 0) << 8) | ((data[i + 2] ?? 0) << 16) | ((data[i + 3] ?? 0) << 24);
    h = Math.imul(h ^ w, PRIME);
  }
  return Math.imul(h ^ n, PRIME) >>> 0;
}

/** The checksum of `data` (see the module comment), an unsigned 32-bit integer. Never throws. */
export function checksum(data: Uint8Array): number {
  const w = instance();
  if (!w) return checksumInJs(data);
  const end = (data.length + 3) & ~3;
  try {
    const short = end - w.m.buffer.byteLength;
    if (short > 0) w.m.grow(Math.ceil(short / 65536));
  } catch {
    return checksumInJs(data); // no memory for it: the same sum, slower
  }
  const mem = new Uint8Array(w.m.buffer, 0, end);
  mem.set(data);
  mem.fill(0, data.length);
  return Math.imul(w.h(0, end) ^ data.length, PRIME) >>> 0;
}
