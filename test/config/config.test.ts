/**
 * Config files (docs/config.md, part 3): readConfig reads JSONC under a size cap; patchConfig applies
 * RFC 6902 patches keeping every comment and all formatting outside the edited values byte for
 * byte, writes atomically and keeps the file's mode; config_* errors are in the catalogue (exit 2).
 * On the real file system, through the public API.
 */
import {
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
  lstatSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AxError, errorCatalogue } from '../../lib/index.ts';
import { applyJsoncPatch, patchConfig, readConfig } from '../../lib/config/index.ts';
import { DEFAULT_CONFIG_MAX_BYTES } from '../../lib/config/config.ts';

const dir = mkdtempSync(join(tmpdir(), 'ax-config-'));
let n = 0;
function file(text: string, mode = 0o640): string {
  const p = join(dir, `c${n++}.jsonc`);
  writeFileSync(p, text);
  chmodSync(p, mode);
  return p;
}

const SAMPLE = `// service config
{
    /* the listener */
    "server": {
        "host": "127.0.0.1", // loopback only
        "port": 8080,
    },

    // feature flags, in order
    "features": ["a", "b"],
    "name": "svc", /* trailing */
}
`;

async function failure(p: Promise<unknown>): Promise<AxError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(AxError);
    return e as AxError;
  }
  throw new Error('expected a failure');
}

describe('readConfig', () => {
  it('reads comments and trailing commas', async () => {
    expect(await readConfig(file(SAMPLE))).toEqual({
      server: { host: '127.0.0.1', port: 8080 },
      features: ['a', 'b'],
      name: 'svc',
    });
  });

  it('refuses a file over the cap (1 MiB default, configurable) with config_too_large, exit 2', async () => {
    expect(DEFAULT_CONFIG_MAX_BYTES).toBe(1048576);
    const big = file(`{"a":"${'x'.repeat(DEFAULT_CONFIG_MAX_BYTES)}"}`);
    const e = await failure(readConfig(big));
    expect(e.kind).toBe('config_too_large');
    expect(e.exitCode).toBe(2);
    expect(e.context).toMatchObject({ max_bytes: DEFAULT_CONFIG_MAX_BYTES });
    const small = file('{"a": 1}');
    expect((await failure(readConfig(small, { maxBytes: 5 }))).kind).toBe('config_too_large');
    expect(await readConfig(small, { maxBytes: 8 })).toEqual({ a: 1 });
    expect((await failure(readConfig(small, { maxBytes: 0 }))).kind).toBe('validation_error');
  });

  it('invalid JSONC and a missing file are config_invalid with line and column', async () => {
    const e = await failure(readConfig(file('{\n  "a": 1\n  "b": 2\n}')));
    expect(e.kind).toBe('config_invalid');
    expect(e.exitCode).toBe(2);
    expect(e.context).toMatchObject({ line: 3, column: 3, error: 'CommaExpected' });
    const missing = await failure(readConfig(join(dir, 'nope.jsonc')));
    expect(missing.kind).toBe('config_invalid');
    expect(missing.context).toMatchObject({ reason: 'not_found' });
    expect((await failure(readConfig(dir))).kind).toBe('config_invalid');
  });

  it('a "__proto__" key is an own property, never the prototype, at any depth (readConfig and patchConfig)', async () => {
    const text = '{"a": 1, // c\n "__proto__": {"isAdmin": true}, "list": [{"__proto__": {"x": 2}}],}';
    for (const read of [() => readConfig(file(text)), () => patchConfig(file(text), [])]) {
      const cfg = (await read()) as Record<string, any>;
      expect(Object.getPrototypeOf(cfg)).toBe(Object.prototype);
      expect(cfg.isAdmin).toBeUndefined();
      expect(Object.keys(cfg)).toEqual(['a', '__proto__', 'list']);
      expect(Object.getOwnPropertyDescriptor(cfg, '__proto__')?.value).toEqual({ isAdmin: true });
      expect(cfg.list[0].x).toBeUndefined();
      expect(JSON.stringify(cfg)).toBe(JSON.stringify(JSON.parse(text.replace(' // c', '').replace(',}', '}'))));
    }
  });

  it('the kinds are in the catalogue with exit code 2', () => {
    const kinds = Object.fromEntries(errorCatalogue().map((k) => [k.kind, k.exitCode]));
    expect(kinds).toMatchObject({ config_invalid: 2, config_too_large: 2, config_patch_invalid: 2 });
  });
});

describe('patchConfig keeps comments and formatting byte for byte', () => {
  it('replace: only the value changes', async () => {
    const p = file(SAMPLE);
    const value = await patchConfig(p, [{ op: 'replace', path: '/server/port', value: 9090 }]);
    expect(readFileSync(p, 'utf8')).toBe(SAMPLE.replace('"port": 8080', '"port": 9090'));
    expect(value).toMatchObject({ server: { port: 9090 } });
  });

  it('add to an object and to an array (index and "-"), in the file indentation', async () => {
    const p = file(SAMPLE);
    await patchConfig(p, [
      { op: 'add', path: '/features/-', value: 'c' },
      { op: 'add', path: '/features/0', value: 'z' },
      { op: 'add', path: '/server/tls', value: true },
    ]);
    const text = readFileSync(p, 'utf8');
    for (const comment of [
      '// service config',
      '/* the listener */',
      '// loopback only',
      '// feature flags, in order',
      '/* trailing */',
    ])
      expect(text).toContain(comment);
    expect(await readConfig(p)).toEqual({
      server: { host: '127.0.0.1', port: 8080, tls: true },
      features: ['z', 'a', 'b', 'c'],
      name: 'svc',
    });
    expect(text).toMatch(/\n {8}"tls": true/);
  });

  it('remove, move, copy and test', async () => {
    const p = file(SAMPLE);
    await patchConfig(
      p,
      JSON.stringify([
        { op: 'test', path: '/name', value: 'svc' },
        { op: 'copy', from: '/server/host', path: '/bind' },
        { op: 'move', from: '/name', path: '/title' },
        { op: 'remove', path: '/features/1' },
      ]),
    );
    expect(await readConfig(p)).toEqual({
      server: { host: '127.0.0.1', port: 8080 },
      features: ['a'],
      bind: '127.0.0.1',
      title: 'svc',
    });
    const text = readFileSync(p, 'utf8');
    expect(
      text.startsWith(
        '// service config\n{\n    /* the listener */\n    "server": {\n        "host": "127.0.0.1", // loopback only\n        "port": 8080,\n    },',
      ),
    ).toBe(true);
  });

  it('a no-op patch leaves the bytes untouched; CRLF files stay CRLF', async () => {
    const p = file(SAMPLE);
    await patchConfig(p, [{ op: 'test', path: '/server/port', value: 8080 }]);
    expect(readFileSync(p, 'utf8')).toBe(SAMPLE);
    const crlf = SAMPLE.replace(/\n/g, '\r\n');
    const q = file(crlf);
    await patchConfig(q, [{ op: 'add', path: '/extra', value: 1 }]);
    const out = readFileSync(q, 'utf8');
    expect(out.replace(/\r\n/g, '')).not.toContain('\n');
    expect(out).toContain('// feature flags, in order\r\n');
  });

  it('a member added beside one written on one line with a comment leaves that line alone; removing it restores the file', async () => {
    const text =
      '// servers\n{\n  "servers": {\n    "other": { "command": "x" } // keep me\n  },\n  "last": 1 /* end */\n}\n';
    const p = file(text);
    await patchConfig(p, [{ op: 'add', path: '/servers/mine', value: { command: 'y', args: ['a'] } }]);
    expect(readFileSync(p, 'utf8')).toBe(
      '// servers\n{\n  "servers": {\n    "other": { "command": "x" }, // keep me\n    "mine": {\n      "command": "y",\n      "args": [\n        "a"\n      ]\n    }\n  },\n  "last": 1 /* end */\n}\n',
    );
    await patchConfig(p, [{ op: 'remove', path: '/servers/mine' }]);
    expect(readFileSync(p, 'utf8')).toBe(text);
    // an empty object gets its first member on a line of its own; a last member's removal takes the comma before it
    const q = file('{\n  "a": {},\n  "b": 2, // two\n  "c": 3\n}\n');
    await patchConfig(q, [
      { op: 'add', path: '/a/x', value: 1 },
      { op: 'remove', path: '/c' },
    ]);
    expect(readFileSync(q, 'utf8')).toBe('{\n  "a": {\n    "x": 1\n  },\n  "b": 2 // two\n}\n');
  });

  it('keeps the mode, replaces atomically (no temporary file left) and follows a symlink', async () => {
    const p = file(SAMPLE, 0o600);
    await patchConfig(p, [{ op: 'replace', path: '/name', value: 'x' }]);
    expect(statSync(p).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const link = join(dir, `link${n++}.jsonc`);
    symlinkSync(p, link);
    await patchConfig(link, [{ op: 'replace', path: '/name', value: 'y' }]);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(await readConfig(p)).toMatchObject({ name: 'y' });
  });
});

describe('bad patches: config_patch_invalid, exit 2, the file untouched', () => {
  it.each([
    ['not an array', { op: 'add' }, 'not_an_array'],
    ['not JSON', '[{', 'not_json'],
    ['unknown op', [{ op: 'merge', path: '/a' }], 'unknown_op'],
    ['bad pointer', [{ op: 'replace', path: 'server', value: 1 }], 'invalid_pointer'],
    ['missing target', [{ op: 'replace', path: '/nope', value: 1 }], 'path_not_found'],
    ['missing parent', [{ op: 'add', path: '/a/b/c', value: 1 }], 'path_not_found'],
    ['array index past the end', [{ op: 'add', path: '/features/9', value: 1 }], 'path_not_found'],
    [
      'failed test after a good op',
      [
        { op: 'replace', path: '/name', value: 'q' },
        { op: 'test', path: '/name', value: 'svc' },
      ],
      'test_failed',
    ],
    ['missing value', [{ op: 'add', path: '/x' }], 'missing_value'],
    ['move into itself', [{ op: 'move', from: '/server', path: '/server/inner' }], 'invalid_move'],
  ])('%s', async (_n, patch, reason) => {
    const p = file(SAMPLE);
    const e = await failure(patchConfig(p, patch as never));
    expect(e.kind).toBe('config_patch_invalid');
    expect(e.exitCode).toBe(2);
    expect(e.context).toMatchObject({ reason });
    expect(readFileSync(p, 'utf8')).toBe(SAMPLE);
  });

  it('patching an invalid file is config_invalid; applyJsoncPatch is the same edit on text', async () => {
    const p = file('{ "a": ');
    expect((await failure(patchConfig(p, []))).kind).toBe('config_invalid');
    expect(applyJsoncPatch('{\n  // keep\n  "a": 1\n}', [{ op: 'replace', path: '/a', value: 2 }])).toBe(
      '{\n  // keep\n  "a": 2\n}',
    );
  });
});
