/**
 * The contract table's rows for paging (docs/contract.md#paging---limit---cursor): a paged command's
 * answer is one page with `meta.pagination`, its `meta.next[0]` fetches the next page run verbatim,
 * a bad limit or cursor is a `validation_error` before anything runs, `--fields` selects in each item
 * of the page, and a replayed page is the same page. Part of {@link RULES} (contract-rules.ts), run
 * by test/e2e/contract-paths.test.ts and test/e2e/contract-twins.test.ts. The fixture's paged
 * commands: test/fixtures/contract-pages.ts.
 */
import { expect } from 'vitest';
import { dataBytes, effects, expectError, meta, runStep, type Json, type Rule } from './contract-rules.ts';
import type { Call } from './paths.ts';

/** `pages` with `props` as flags and as properties. */
function pages(props: Json = {}): Call {
  const argv = [
    'pages',
    ...Object.entries(props).flatMap(([k, v]) => [`--${k}`, Array.isArray(v) ? v.join(',') : String(v)]),
  ];
  return { tool: 'pages', argv, json: props };
}

/** `feed <name>` with `props` as flags and as properties (`idempotency_key` as --idempotency-key). */
function feed(name: string, props: Json = {}): Call {
  const flag = (k: string) => `--${k.replace(/_/g, '-')}`;
  return {
    tool: 'feed',
    argv: ['feed', name, ...Object.entries(props).flatMap(([k, v]) => [flag(k), String(v)])],
    json: { name, ...props },
  };
}

const ns = (o: { stdout: string }) => (JSON.parse(o.stdout).data as Json[]).map((x) => x.n as number);

/** A page's meta.next step, which must be there (`has_more`). */
function nextOf(o: { stdout: string }): Json {
  const next = meta(o as never).next as Json[] | undefined;
  expect(next, 'a page with more after it names its next step').toHaveLength(1);
  return next![0]!;
}

export const PAGING_RULES: Rule[] = [
  {
    name: 'paging: a paged answer is one page with meta.pagination, and meta.next[0] run verbatim fetches the next page until has_more is false',
    run: async (p) => {
      const first = await p.call(pages());
      expect(first.code, JSON.stringify(first)).toBe(0);
      expect(ns(first)).toEqual([1, 2, 3]);
      const m = meta(first);
      expect(m.pagination).toMatchObject({ total: 7, returned: 3, truncated: true, has_more: true });
      expect(typeof m.pagination.next_cursor).toBe('string');
      const step = nextOf(first);
      if (p.mcp) expect(JSON.stringify(step.arguments)).toContain(m.pagination.next_cursor);
      else expect(step.argv.join(' ')).toContain(m.pagination.next_cursor);
      const second = await runStep(p, step);
      expect(second.code, JSON.stringify(second)).toBe(0);
      expect(ns(second)).toEqual([4, 5, 6]);
      const last = await runStep(p, nextOf(second));
      expect(ns(last)).toEqual([7]);
      expect(meta(last).pagination).toEqual({
        total: 7,
        returned: 1,
        truncated: true,
        has_more: false,
        next_cursor: null,
      });
      expect(meta(last).next).toBeUndefined();
      // the caller's own limit is kept by the step
      const two = await p.call(pages({ limit: 5 }));
      expect(ns(two)).toEqual([1, 2, 3, 4, 5]);
      expect(ns(await runStep(p, nextOf(two)))).toEqual([6, 7]);
    },
  },
  {
    name: "paging: the next step drops only the caller's own --cursor words, as the parse read them: a flag whose value reads like one (--tag --cursor=x, -t --cursor=x, --tag --cursor) keeps it, and the step run verbatim reaches the next page",
    run: async (p) => {
      const tags = (o: { stdout: string }) => (JSON.parse(o.stdout).data as Json[]).map((x) => x.tag);
      const cases: { argv: string[]; json: Json; first: number[]; second: number[] }[] = [
        { argv: ['pages', '--tag', '--cursor=x'], json: { tag: '--cursor=x' }, first: [1, 2, 3], second: [4, 5, 6] },
        { argv: ['pages', '-t', '--cursor=x'], json: { tag: '--cursor=x' }, first: [1, 2, 3], second: [4, 5, 6] },
        {
          argv: ['pages', '--tag', '--cursor', '--limit', '2'],
          json: { tag: '--cursor', limit: 2 },
          first: [1, 2],
          second: [3, 4],
        },
      ];
      for (const c of cases) {
        const tag = c.json.tag as string;
        const first = await p.call({ tool: 'pages', argv: c.argv, json: c.json });
        expect(first.code, JSON.stringify(first)).toBe(0);
        expect(ns(first)).toEqual(c.first);
        expect(tags(first)).toEqual(c.first.map(() => tag));
        const second = await runStep(p, nextOf(first));
        expect(second.code, JSON.stringify(second)).toBe(0);
        expect(ns(second), JSON.stringify(nextOf(first))).toEqual(c.second);
        expect(tags(second)).toEqual(c.second.map(() => tag));
      }
      // the caller's own cursor in two words (`--cursor <c>`) is dropped, the flag after it kept
      const cursor = meta(await p.call(pages())).pagination.next_cursor as string;
      const second = await p.call({
        tool: 'pages',
        argv: ['pages', '--cursor', cursor, '--tag', 'y'],
        json: { cursor, tag: 'y' },
      });
      expect(ns(second), JSON.stringify(second)).toEqual([4, 5, 6]);
      const last = await runStep(p, nextOf(second));
      expect(ns(last), JSON.stringify(nextOf(second))).toEqual([7]);
      expect(tags(last)).toEqual(['y']);
    },
  },
  {
    name: "paging: --limit outside 1..max and a cursor that is not this command's (garbled, or another command's) are validation_error exit 2 before anything runs, never a first page",
    run: async (p, id) => {
      const label = (n: string) => (p.spelling === 'argv' ? `--${n}` : n);
      for (const limit of [0, -1, 6]) {
        const e = expectError(await p.call(pages({ limit })), 2, 'validation_error');
        expect(e.context).toMatchObject({ reason: 'bad_limit', min: 1, max: 5, flag: label('limit') });
        expect(e.message).toContain('1 to 5');
      }
      const feedPage = await p.call(feed(id));
      const foreign = meta(feedPage).pagination.next_cursor as string;
      const before = effects(id).length;
      for (const cursor of ['garbage', `${foreign.slice(0, -1)}x`, foreign]) {
        const e = expectError(await p.call(pages({ cursor })), 2, 'validation_error');
        expect(e.context).toMatchObject({ reason: 'bad_cursor', flag: label('cursor') });
      }
      // a garbled cursor of feed's own: refused before its handler logs anything
      expectError(await p.call(feed(id, { cursor: `${foreign}x` })), 2, 'validation_error');
      expect(effects(id)).toHaveLength(before);
    },
  },
  {
    name: 'paging × --fields: the selection applies to each item of the page, and the next step keeps it',
    run: async (p) => {
      const o = await p.call(pages({ fields: ['name'] }));
      expect(o.code, JSON.stringify(o)).toBe(0);
      expect(JSON.parse(o.stdout).data).toEqual([{ name: 'ant' }, { name: 'bee' }, { name: 'cat' }]);
      const next = await runStep(p, nextOf(o));
      expect(JSON.parse(next.stdout).data).toEqual([{ name: 'dog' }, { name: 'eel' }, { name: 'fox' }]);
    },
  },
  {
    store: true,
    name: 'paging × replay: a handler that pages itself (ctx.page.reply); a retry with the key replays the same page with its meta.pagination; the next page is another call',
    run: async (p, id) => {
      const key = `k-${id}`;
      const first = await p.call(feed(id, { idempotency_key: key }));
      expect(first.code, JSON.stringify(first)).toBe(0);
      expect(JSON.parse(first.stdout).data).toEqual([
        { i: 0, name: id },
        { i: 1, name: id },
      ]);
      const again = await p.call(feed(id, { idempotency_key: key }));
      expect(dataBytes(again.stdout)).toBe(dataBytes(first.stdout));
      expect(meta(again).replayed).toBe(true);
      expect(meta(again).pagination).toEqual(meta(first).pagination);
      expect(effects(id)).toHaveLength(1);
      // a blank cursor is no cursor: the first page, the same arguments, so the retry replays
      const blank = await p.call(feed(id, { idempotency_key: key, cursor: '' }));
      expect(blank.code, JSON.stringify(blank)).toBe(0);
      expect(meta(blank).replayed).toBe(true);
      expect(effects(id)).toHaveLength(1);
      // the same key with another cursor is other arguments: refused, not replayed as page one
      const cursor = meta(first).pagination.next_cursor as string;
      expectError(await p.call(feed(id, { idempotency_key: key, cursor })), 2, 'idempotency_conflict');
      // the next step is a fresh call (no key): page two, from the handler's own cursor
      const second = await runStep(p, nextOf(first));
      expect(second.code, JSON.stringify(second)).toBe(0);
      expect(JSON.parse(second.stdout).data.map((x: Json) => x.i)).toEqual([2, 3]);
      expect(meta(second).idempotency_key).not.toBe(key);
      expect(effects(id)).toHaveLength(2);
    },
  },
];
