/**
 * The code cache's checksum (lib/build/checksum.ts): the WebAssembly function and the JavaScript
 * fallback give the same sum for every length and content, and a flipped bit or a truncation
 * anywhere in a payload changes it (what makes a corrupt cache file compile from source instead).
 */
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transformSync } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checksum, checksumInJs } from '../../lib/build/checksum.ts';

const payload = randomBytes(240 * 1024 + 3);

describe('the code cache checksum', () => {
  it.each([0, 1, 2, 3, 4, 5, 7, 8, 63, 64, 65, 4096, 65536, 65537, 200_003])(
    'WebAssembly and JavaScript agree on %i bytes',
    (n) => {
      const data = payload.subarray(0, n);
      expect(checksum(data)).toBe(checksumInJs(data));
    },
  );

  it('gives the FNV-1a step over little-endian words, then the length', () => {
    // by hand: h = (0x811c9dc5 ^ 0x04030201) * 16777619; then (h ^ 5) * 16777619, 32 bits; then the
    // zero-padded second word 0x00000005
    let h = Math.imul(0x811c9dc5 ^ 0x04030201, 0x01000193);
    h = Math.imul(h ^ 0x05, 0x01000193);
    h = Math.imul(h ^ 5, 0x01000193) >>> 0;
    expect(checksum(Uint8Array.of(1, 2, 3, 4, 5))).toBe(h);
  });

  it('memory reused between sums: a shorter payload after a longer one is summed alone', () => {
    const long = checksum(payload);
    const short = payload.subarray(0, 10);
    expect(checksum(short)).toBe(checksumInJs(short));
    expect(checksum(payload)).toBe(long);
  });

  it.each([0, 1, 7, 8, 1000, 123_457, payload.length - 1])('a flipped bit at byte %i changes the sum', (at) => {
    const whole = checksum(payload);
    for (const bit of [0, 3, 7]) {
      const bad = Buffer.from(payload);
      bad[at]! ^= 1 << bit;
      expect(checksum(bad)).not.toBe(whole);
    }
  });

  it('a truncation, or zeros appended, changes the sum', () => {
    const whole = checksum(payload);
    for (const n of [1, 2, 3, 4, 1000]) expect(checksum(payload.subarray(0, payload.length - n))).not.toBe(whole);
    expect(checksum(Buffer.concat([payload, Buffer.alloc(1)]))).not.toBe(whole);
  });

  it('without WebAssembly (node --jitless) the sum is the same', () => {
    const data = payload.subarray(0, 5001);
    // as the entry of a built program has it: compiled to JavaScript (Node's type stripping itself needs WebAssembly)
    const source = readFileSync(fileURLToPath(new URL('../../lib/build/checksum.ts', import.meta.url)), 'utf8');
    const js = transformSync(source, { loader: 'ts', format: 'esm' }).code;
    const dir = mkdtempSync(join(tmpdir(), 'ax-sum-'));
    writeFileSync(join(dir, 'checksum.mjs'), js);
    const r = spawnSync(
      process.execPath,
      [
        '--jitless',
        '--input-type=module',
        '-e',
        `const { checksum } = await import('./checksum.mjs'); const b = Buffer.from(process.argv[1], 'base64'); console.log(typeof WebAssembly, checksum(b));`,
        data.toString('base64'),
      ],
      { encoding: 'utf8', cwd: dir },
    );
    rmSync(dir, { recursive: true, force: true });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe(`undefined ${checksumInJs(data)}`);
  });
});
