/**
 * Fuzzing declarePrompt / declareResource: thousands of random declarations —
 * wrong types, `null`, functions, symbols, arrays, nested junk, unknown fields, near-valid names,
 * URIs with stray `%` and braces, lone surrogates. Each one is either accepted, and then projected by
 * `__schema` without error, or refused with an AxError `invalid_schema_declaration` (exit 2) whose
 * context names a field and a known reason. Never a raw TypeError, DOMException or anything else.
 * Deterministic: a seeded PRNG, so a failure names the seed and index that reproduce it.
 */
import { describe, expect, it } from 'vitest';
import { AxError, Command, declarePrompt, declareResource } from '../../lib/index.ts';
import { mcpDocument } from '../../lib/schema/walk.ts';
import { axDocument } from '../../lib/schema/ax.ts';

/** mulberry32: a small seeded PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PROMPT_REASONS = new Set([
  'invalid_type',
  'unknown_field',
  'required',
  'invalid_charset',
  'duplicate',
  'invalid_utf8',
  'too_long',
  'undeclared_placeholder',
]);
const RESOURCE_REASONS = new Set([
  'invalid_type',
  'unknown_field',
  'required',
  'too_long',
  'invalid_utf8',
  'invalid_character',
  'invalid_percent_encoding',
  'invalid_template',
  'not_absolute',
  'invalid_uri',
  'duplicate',
]);

function gen(seed: number) {
  const r = prng(seed);
  const int = (n: number) => Math.floor(r() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const PIECES = [
    'a',
    'Z',
    '0',
    '_',
    '.',
    '-',
    ' ',
    '%',
    '%2',
    '%zz',
    '%41',
    '{',
    '}',
    '{{',
    '}}',
    '{x}',
    '{{x}}',
    '{{ x }}',
    ':',
    '//',
    '/',
    '?',
    '#',
    'é',
    '😀',
    '\ud800',
    '\udc00',
    '\u0000',
    '\n',
    '\t',
    '\u007f',
    'yourcli://',
    'urn:a:',
    'http://[::1',
    'constructor',
    'toString',
    '__proto__',
  ];
  const str = (): string => {
    let s = '';
    for (let i = int(6); i >= 0; i--) s += pick(PIECES);
    return s;
  };
  const scalar = (): unknown =>
    pick<() => unknown>([
      () => str(),
      () => '',
      () => int(1000) - 500,
      () => r(),
      () => NaN,
      () => null,
      () => undefined,
      () => r() < 0.5,
      () => () => 'fn',
      () => Symbol('s'),
      () => BigInt(int(99)),
      () => new Date(0),
      () => new Map(),
    ])();
  const value = (depth = 0): unknown => {
    const k = r();
    if (depth < 2 && k < 0.12) return Array.from({ length: int(3) }, () => value(depth + 1));
    if (depth < 2 && k < 0.2)
      return Object.fromEntries(
        Array.from({ length: int(3) }, () => [pick(['name', 'x', 'template', 'required']), value(depth + 1)]),
      );
    return scalar();
  };
  /** A near-valid or junk field value: often the right type, often not. */
  const nameish = () => (r() < 0.6 ? pick(['triage', 'a.b-c_1', 'constructor', 'toString', 'x', 'Issue']) : value());
  const argument = (): unknown =>
    r() < 0.1
      ? value()
      : {
          ...(r() < 0.9 ? { name: nameish() } : {}),
          ...(r() < 0.3 ? { title: r() < 0.7 ? str() : value() } : {}),
          ...(r() < 0.3 ? { description: r() < 0.7 ? str() : value() } : {}),
          ...(r() < 0.3 ? { required: r() < 0.7 ? r() < 0.5 : value() } : {}),
          ...(r() < 0.05 ? { [pick(['desc', 'default', 'type'])]: value() } : {}),
        };
  const prompt = (): unknown =>
    r() < 0.05
      ? value()
      : {
          ...(r() < 0.9 ? { name: nameish() } : {}),
          ...(r() < 0.3 ? { title: r() < 0.7 ? str() : value() } : {}),
          ...(r() < 0.3 ? { description: r() < 0.7 ? str() : value() } : {}),
          ...(r() < 0.6 ? { arguments: r() < 0.8 ? Array.from({ length: int(4) }, argument) : value() } : {}),
          ...(r() < 0.9
            ? {
                template:
                  r() < 0.7
                    ? pick(['Triage {{x}}', 'hello', '{{ literal }}', '{{toString}}', '']) + (r() < 0.5 ? str() : '')
                    : value(),
              }
            : {}),
          ...(r() < 0.05 ? { [pick(['desc', 'args', 'content'])]: value() } : {}),
        };
  const uriish = () =>
    r() < 0.7
      ? pick(['yourcli://docs/', 'urn:yourcli:', 'a+b://x/', 'http://[::1', 'docs/', '']) +
        (r() < 0.7 ? str() : pick(['{id}', '{a}/{b}', '%41', '%4', '{', 'x']))
      : value();
  const resource = (): unknown =>
    r() < 0.05
      ? value()
      : {
          ...(r() < 0.6 ? { uri: uriish() } : {}),
          ...(r() < 0.4 ? { uriTemplate: uriish() } : {}),
          ...(r() < 0.9 ? { name: r() < 0.8 ? pick(['doc', 'logs', '']) + (r() < 0.3 ? str() : '') : value() } : {}),
          ...(r() < 0.3 ? { title: r() < 0.7 ? str() : value() } : {}),
          ...(r() < 0.3 ? { description: r() < 0.7 ? str() : value() } : {}),
          ...(r() < 0.3
            ? {
                mimeType:
                  r() < 0.7 ? pick(['text/plain', 'text/markdown; charset=utf-8']) + (r() < 0.3 ? str() : '') : value(),
              }
            : {}),
          ...(r() < 0.3 ? { content: r() < 0.7 ? str() : value() } : {}),
          ...(r() < 0.05 ? { [pick(['url', 'mime', 'text'])]: value() } : {}),
        };
  return { prompt, resource };
}

/** The outcome of one declaration: accepted, or the (field, reason) of the refusal; anything else fails the test. */
function outcome(declare: () => void, reasons: Set<string>, where: string): 'accepted' | 'refused' {
  try {
    declare();
    return 'accepted';
  } catch (e) {
    if (!(e instanceof AxError))
      throw new Error(
        `${where}: threw ${(e as Error)?.constructor?.name ?? typeof e} (${String((e as Error)?.message ?? e)}), not an AxError`,
      );
    expect(e.kind, where).toBe('invalid_schema_declaration');
    expect(e.exitCode, where).toBe(2);
    const ctx = e.context as { field?: unknown; reason?: unknown };
    expect(typeof ctx.field, where).toBe('string');
    expect(reasons.has(String(ctx.reason)), `${where}: reason ${String(ctx.reason)}`).toBe(true);
    expect(typeof e.fix, where).toBe('string');
    JSON.stringify(e.toJSON()); // the error line itself must serialise
    return 'refused';
  }
}

describe('declarePrompt / declareResource fuzzing', () => {
  const N = 4000;

  it(`${N} random prompts: accepted (and projected) or refused with invalid_schema_declaration, never a raw error`, () => {
    const counts = { accepted: 0, refused: 0 };
    for (let i = 0; i < N; i++) {
      const { prompt } = gen(1000 + i);
      const root = new Command({ use: 'yourcli' });
      const p = prompt();
      const o = outcome(() => declarePrompt(root, p as never), PROMPT_REASONS, `prompt seed ${1000 + i}`);
      counts[o]++;
      if (o === 'accepted') {
        const doc = mcpDocument(root) as { prompts: { name: string; template: string }[] };
        expect(doc.prompts).toHaveLength(1);
        expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
        axDocument(root, '1.0.0');
      }
    }
    // the generator reaches both outcomes often enough to mean something
    expect(counts.accepted).toBeGreaterThan(N / 50);
    expect(counts.refused).toBeGreaterThan(N / 2);
  });

  it(`${N} random resources: accepted (and projected; the URI parses, every % is an escape) or refused, never a raw error`, () => {
    const counts = { accepted: 0, refused: 0 };
    for (let i = 0; i < N; i++) {
      const { resource } = gen(9000 + i);
      const root = new Command({ use: 'yourcli' });
      const res = resource();
      const o = outcome(() => declareResource(root, res as never), RESOURCE_REASONS, `resource seed ${9000 + i}`);
      counts[o]++;
      if (o === 'accepted') {
        const d = root.resources[0]!;
        const uri = (d.uri || d.uriTemplate)!;
        expect(uri, `seed ${9000 + i}`).not.toMatch(/%(?![0-9A-Fa-f]{2})/);
        expect(() => new URL(uri.replace(/\{[A-Za-z0-9_]+\}/g, 'x'))).not.toThrow();
        const doc = mcpDocument(root) as { resources: unknown[]; resourceTemplates: unknown[] };
        expect(doc.resources.length + doc.resourceTemplates.length).toBe(1);
        expect(JSON.stringify(doc)).not.toContain('"content"');
      }
    }
    expect(counts.accepted).toBeGreaterThan(N / 50);
    expect(counts.refused).toBeGreaterThan(N / 4);
  });

  it('each wrong type in each field gets invalid_type, naming the field', () => {
    const junk: [string, unknown][] = [
      ['null', null],
      ['a number', 7],
      ['a function', () => 1],
      ['a symbol', Symbol('x')],
      ['an array', ['a']],
      ['an object', { a: 1 }],
      ['a bigint', 1n],
    ];
    for (const [label, v] of junk) {
      for (const field of ['name', 'title', 'description', 'template']) {
        const p: Record<string, unknown> = { name: 'p', template: 't', [field]: v };
        try {
          declarePrompt(new Command({ use: 'x' }), p as never);
          throw new Error(`accepted ${label} as ${field}`);
        } catch (e) {
          expect(e, `${label} as ${field}`).toBeInstanceOf(AxError);
          expect((e as AxError).context, `${label} as ${field}`).toEqual({ field, reason: 'invalid_type' });
        }
      }
      for (const field of ['uri', 'name', 'title', 'description', 'mimeType', 'content']) {
        const res: Record<string, unknown> = { uri: 'yourcli://x', name: 'r', [field]: v };
        try {
          declareResource(new Command({ use: 'x' }), res as never);
          throw new Error(`accepted ${label} as ${field}`);
        } catch (e) {
          expect(e, `${label} as ${field}`).toBeInstanceOf(AxError);
          expect((e as AxError).context, `${label} as ${field}`).toEqual({ field, reason: 'invalid_type' });
        }
      }
    }
    for (const v of [null, undefined, 5, 'x', () => 1, Symbol('s'), []]) {
      expect(() => declarePrompt(new Command({ use: 'x' }), v as never)).toThrow(AxError);
      expect(() => declareResource(new Command({ use: 'x' }), v as never)).toThrow(AxError);
    }
  });
});
