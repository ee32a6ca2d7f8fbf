/**
 * Features met two by two (docs/contract.md, docs/mcp-server.md): ONE table whose rows are the pairs
 * of thirteen features — a replay key, a dry run, `--strict`, `--timeout`, a confirmation, an
 * `actionRequired` stop, printed output and a stream (what a call does), and a task, progressive
 * discovery, a lazy subtree, a front end and a mounted subtree (where it runs) — and whose columns
 * are the paths (the CLI, `--args-json`, in-process `execute`, MCP over stdio, HTTP and stateless
 * HTTP) with, over MCP, the two protocol eras (test/helpers/eras.ts: `npm test` runs one era per MCP
 * path, `npm run test:rest` the other). Each cell asserts the rule where the two meet, or is skipped
 * with why it cannot apply. Paging (`output.paging`) meets a replay key, `--fields`, `--strict`, a
 * confirmation, `--timeout` and a lazy subtree in rows of its own on every column. Beside it, test/e2e/contract-paths.test.ts runs each rule on its own.
 * Fixture: test/fixtures/compose-tree.ts (and its commander twin, compose-commander.ts).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  closeAll,
  columnName,
  dir,
  effects,
  runner,
  type Call,
  type Column,
  type Runner,
  type Where,
} from '../helpers/compose-paths.ts';
import { PATHS_BY_ERAS } from '../helpers/eras.ts';
import type { Outcome } from '../helpers/paths.ts';

type Json = Record<string, any>;

const WHAT = ['key', 'dry_run', 'strict', 'timeout', 'confirm', 'stop', 'printed', 'stream'] as const;
const WHERE = ['task', 'progressive', 'lazy', 'front_end', 'mounted'] as const;
type What = (typeof WHAT)[number];
type WhereFeature = (typeof WHERE)[number];
type Feature = What | WhereFeature;
const FEATURES: readonly Feature[] = [...WHAT, ...WHERE];

const COLUMNS: Column[] = [
  { path: 'cli' },
  { path: 'args-json' },
  { path: 'in-process' },
  ...PATHS_BY_ERAS.map(([path, era]): Column => ({ path, era })),
];

let serial = 0;
const idOf = (col: Column, a: Feature, b: Feature) => `${a}-${b}-${columnName(col).replace(/\W+/g, '-')}-${serial++}`;

function expectError(o: Outcome, code: number, kind: string): Json {
  expect(o.code, JSON.stringify(o)).toBe(code);
  expect(o.error?.error.kind, JSON.stringify(o)).toBe(kind);
  if (o.isError !== undefined) expect(o.isError).toBe(true);
  return o.error!.error as Json;
}
const envelope = (o: Outcome): Json => {
  expect(o.code, JSON.stringify(o)).toBe(0);
  return JSON.parse(o.stdout.trimEnd().split('\n')[0]!) as Json;
};
/** What the command printed itself: stderr on the command line, a text item of its own over MCP. */
function printed(r: Runner, o: Outcome): string {
  return r.mcp ? (o.texts ?? []).slice(1).join('\n') : (o.stderr ?? '');
}
/** The stream's items: JSON lines on stdout, or over MCP the text items that are envelopes. */
function items(r: Runner, o: Outcome): number[] {
  const lines = r.mcp ? (o.texts ?? []).flatMap((t) => t.split('\n')) : o.stdout.split('\n');
  return lines.flatMap((l) => {
    try {
      const e = JSON.parse(l) as Json;
      return typeof e?.data?.i === 'number' ? [e.data.i as number] : [];
    } catch {
      return [];
    }
  });
}
const keyed = (k: string) => effects('items').filter((e) => e.key === k);

/** A call, with the command line's `--strict`/`--timeout` for the rules that need them. */
const c = (cmd: string, name: string | undefined, props: Json = {}, o: Partial<Call> = {}): Call => ({
  cmd,
  name,
  props,
  ...o,
});

/** Runs a stop's first next step twice when `twice`: runs once, then (under a key) replays. */
async function stepRuns(r: Runner, e: Json, id: string, opts: { replays?: boolean; dryRun?: boolean } = {}) {
  const step = (e.next as Json[])[0]!;
  const ran = await r.step(step);
  const env = envelope(ran);
  if (opts.dryRun) {
    expect(env.meta.dry_run, JSON.stringify(env)).toBe(true);
    expect(effects(id)).toHaveLength(0);
    return;
  }
  expect(effects(id)).toHaveLength(1);
  if (opts.replays) {
    const again = envelope(await r.step(step));
    expect(again.data).toEqual(env.data);
    expect(again.meta.replayed).toBe(true);
    expect(effects(id)).toHaveLength(1);
  }
}

/** A "what" feature on its own, at a place: the rule each pair with a "where" feature keeps. */
const SOLO: Record<What, (r: Runner, id: string) => Promise<void>> = {
  key: async (r, id) => {
    const call = c('write', id, { idempotency_key: `k-${id}` });
    const first = envelope(await r.call(call));
    const again = envelope(await r.call(call));
    expect(again.data).toEqual(first.data);
    expect(again.meta.replayed).toBe(true);
    expect(effects(id)).toHaveLength(1);
  },
  dry_run: async (r, id) => {
    const env = envelope(await r.call(c('write', id, { dry_run: true })));
    expect(env.meta).toMatchObject({ dry_run: true, would: [`log ${id}`] });
    expect(effects(id)).toHaveLength(0);
  },
  strict: async (r, id) => {
    const e = expectError(await r.call(c('write', id, { warn: true }, { strict: true })), 2, 'warnings_as_errors');
    expect(e.context.warnings[0].code).toBe('heads_up');
    expect(effects(id)).toHaveLength(0);
  },
  timeout: async (r, id) => {
    const delay = r.frontEnd ? '20000' : 20_000; // commander options are text
    const e = expectError(await r.call(c('write', id, { delay_ms: delay }, { timeout: true })), 3, 'timeout');
    expect(e.retryable).toBe(true);
    expect(effects(id)).toHaveLength(0);
  },
  confirm: async (r, id) => {
    const e = expectError(await r.call(c('remove', id)), 2, 'confirmation_required');
    expect(effects(id)).toHaveLength(0);
    await stepRuns(r, e, id);
  },
  stop: async (r, id) => {
    const e = expectError(await r.call(c('gated', id)), 2, 'action_required');
    expect(e.context.reason).toBe('not_ready');
    expect(effects(id)).toHaveLength(0);
    await stepRuns(r, e, id);
  },
  printed: async (r, id) => {
    const o = await r.call(c('write', id, { print: true }));
    expect(envelope(o).data.name).toBe(id);
    if (!r.mcp) expect(o.stdout.trimEnd().split('\n')).toHaveLength(1); // stdout: the envelope only
    expect(printed(r, o)).toContain(`printed by ${id}`);
  },
  stream: async (r) => {
    expect(items(r, await r.call(c('items', undefined, { count: 3 })))).toEqual([1, 2, 3]);
  },
};

/** Two "what" features met in one call: the rule where they meet. */
const PAIRS: Partial<Record<string, (r: Runner, id: string) => Promise<void>>> = {
  'key dry_run': async (r, id) => {
    const k = `k-${id}`;
    expect(envelope(await r.call(c('write', id, { dry_run: true, idempotency_key: k }))).meta.dry_run).toBe(true);
    const ran = envelope(await r.call(c('write', id, { idempotency_key: k })));
    expect(ran.meta.replayed).toBeUndefined(); // the rehearsal recorded nothing
    expect(envelope(await r.call(c('write', id, { idempotency_key: k }))).meta.replayed).toBe(true);
    expect(effects(id)).toHaveLength(1);
  },
  'key strict': async (r, id) => {
    const k = `k-${id}`;
    expectError(
      await r.call(c('write', id, { warn: true, idempotency_key: k }, { strict: true })),
      2,
      'warnings_as_errors',
    );
    const ran = envelope(await r.call(c('write', id, { idempotency_key: k }, { strict: true })));
    expect(ran.meta.replayed).toBeUndefined(); // the refusal was not recorded
    expect(effects(id)).toHaveLength(1);
  },
  'key timeout': async (r, id) => {
    const k = `k-${id}`;
    expectError(
      await r.call(c('write', id, { delay_ms: 20_000, idempotency_key: k }, { timeout: true })),
      3,
      'timeout',
    );
    const ran = envelope(await r.call(c('write', id, { idempotency_key: k }, { timeout: true })));
    expect(ran.meta.replayed).toBeUndefined(); // a timeout is retryable: not recorded
    expect(envelope(await r.call(c('write', id, { idempotency_key: k }, { timeout: true }))).meta.replayed).toBe(true);
    expect(effects(id)).toHaveLength(1);
  },
  'key confirm': async (r, id) => {
    const e = expectError(await r.call(c('remove', id, { idempotency_key: `k-${id}` })), 2, 'confirmation_required');
    await stepRuns(r, e, id, { replays: true });
  },
  'key stop': async (r, id) => {
    const e = expectError(await r.call(c('gated', id, { idempotency_key: `k-${id}` })), 2, 'action_required');
    await stepRuns(r, e, id, { replays: true });
  },
  'key printed': async (r, id) => {
    const call = c('write', id, { print: true, idempotency_key: `k-${id}` });
    const first = await r.call(call);
    expect(printed(r, first)).toContain(`printed by ${id}`);
    const again = await r.call(call);
    expect(envelope(again).data).toEqual(envelope(first).data);
    expect(envelope(again).meta.replayed).toBe(true);
    expect(printed(r, again)).not.toContain(`printed by ${id}`); // the handler did not run again
    expect(effects(id)).toHaveLength(1);
  },
  'key stream': async (r, id) => {
    const call = c('items', undefined, { count: 3, idempotency_key: `k-${id}` });
    expect(items(r, await r.call(call))).toEqual([1, 2, 3]);
    expect(items(r, await r.call(call))).toEqual([1, 2, 3]);
    expect(keyed(`k-${id}`)).toHaveLength(1);
  },
  'dry_run strict': async (r, id) => {
    expectError(await r.call(c('write', id, { dry_run: true, warn: true }, { strict: true })), 2, 'warnings_as_errors');
    expect(effects(id)).toHaveLength(0);
  },
  'dry_run timeout': async (r, id) => {
    expectError(await r.call(c('write', id, { dry_run: true, delay_ms: 20_000 }, { timeout: true })), 3, 'timeout');
    expect(effects(id)).toHaveLength(0);
  },
  'dry_run confirm': async (r, id) => {
    const e = expectError(await r.call(c('remove', id, { dry_run: true })), 2, 'confirmation_required');
    await stepRuns(r, e, id, { dryRun: true }); // its step is the same call confirmed: still a rehearsal
  },
  'dry_run stop': async (r, id) => {
    const e = expectError(await r.call(c('gated', id, { dry_run: true })), 2, 'action_required');
    await stepRuns(r, e, id, { dryRun: true }); // the author's step keeps the rehearsal
  },
  'dry_run printed': async (r, id) => {
    const o = await r.call(c('write', id, { dry_run: true, print: true }));
    expect(envelope(o).meta.dry_run).toBe(true);
    expect(printed(r, o)).toContain(`printed by ${id}`);
    expect(effects(id)).toHaveLength(0);
  },
  'dry_run stream': async (r, id) => {
    const o = await r.call(c('items', undefined, { count: 2, dry_run: true, idempotency_key: `k-${id}` }));
    expect(items(r, o)).toEqual([1, 2]);
    expect(keyed(`k-${id}`)).toHaveLength(0);
  },
  'strict timeout': async (r, id) => {
    expectError(await r.call(c('write', id, { delay_ms: 20_000 }, { strict: true, timeout: true })), 3, 'timeout');
  },
  'strict confirm': async (r, id) => {
    expectError(await r.call(c('remove', id, {}, { strict: true })), 2, 'confirmation_required');
    expect(effects(id)).toHaveLength(0);
  },
  'strict stop': async (r, id) => {
    expectError(await r.call(c('gated', id, {}, { strict: true })), 2, 'action_required');
  },
  'strict printed': async (r, id) => {
    const o = await r.call(c('write', id, { warn: true, print: true }, { strict: true }));
    expectError(o, 2, 'warnings_as_errors');
    expect(printed(r, o)).toContain(`printed by ${id}`);
  },
  'strict stream': async (r) => {
    expect(items(r, await r.call(c('items', undefined, { count: 2 }, { strict: true })))).toEqual([1, 2]);
    // held under --strict, the items before a failure that is no warning are still delivered
    const o = await r.call(c('items', undefined, { count: 5, delay_ms: 2_000 }, { strict: true, timeout: true }));
    expectError(o, 3, 'timeout');
    expect(items(r, o), JSON.stringify(o)).toEqual([1, 2]);
  },
  'timeout confirm': async (r, id) => {
    expectError(await r.call(c('remove', id, {}, { timeout: true })), 2, 'confirmation_required');
  },
  'timeout stop': async (r, id) => {
    expectError(await r.call(c('gated', id, {}, { timeout: true })), 2, 'action_required');
  },
  'timeout printed': async (r, id) => {
    const o = await r.call(c('write', id, { print: true, delay_ms: 20_000 }, { timeout: true }));
    expectError(o, 3, 'timeout');
    expect(printed(r, o)).toContain(`printed by ${id}`);
  },
  'timeout stream': async (r) => {
    const o = await r.call(c('items', undefined, { count: 5, delay_ms: 2_000 }, { timeout: true }));
    expectError(o, 3, 'timeout');
    expect(items(r, o), JSON.stringify(o)).toEqual([1, 2]); // what came before the deadline is delivered
  },
  'confirm printed': async (r, id) => {
    const o = await r.call(c('remove', id, { print: true }));
    expectError(o, 2, 'confirmation_required');
    expect(printed(r, o)).toContain(`printed by ${id}`);
  },
  'confirm stream': async (r, id) => {
    const k = `k-${id}`;
    const e = expectError(
      await r.call(c('items', undefined, { ask: true, idempotency_key: k })),
      2,
      'confirmation_required',
    );
    expect(keyed(k)).toHaveLength(0);
    expect(items(r, await r.step((e.next as Json[])[0]!))).toEqual([1, 2, 3]);
    expect(keyed(k)).toHaveLength(1);
  },
  'stop printed': async (r, id) => {
    const o = await r.call(c('gated', id, { print: true }));
    expectError(o, 2, 'action_required');
    expect(printed(r, o)).toContain(`printed by ${id}`);
  },
  'stop stream': async (r) => {
    const e = expectError(await r.call(c('items', undefined, { stop: true })), 2, 'action_required');
    expect(items(r, await r.step((e.next as Json[])[0]!))).toEqual([1, 2, 3]);
  },
  'printed stream': async (r) => {
    const o = await r.call(c('items', undefined, { count: 2, print: true }));
    expect(items(r, o)).toEqual([1, 2]);
    expect(printed(r, o)).toContain('printed before item 2');
  },
};

/** Why a pair cannot meet (whatever the column), or undefined. */
const PAIR_NA: Partial<Record<string, string>> = {
  'confirm stop':
    'one call ends at its first stop: ctx.confirm and ctx.actionRequired each end the run, so a call meets one of them (each with a key: key × confirm, key × stop)',
  'lazy front_end': "a front end reads the program's tree whole at start: a commander program has no lazy subtrees",
  'front_end mounted': "a front end serves a program from its root: mcp-server is a word of the program's root",
};

const FRONT_END_NO = 'a commander action gets no run context and its commands declare no dry run (docs/frontends.md)';
/** Why a feature cannot apply on a column, or undefined. */
function featureNa(f: Feature, col: Column): string | undefined {
  const mcp = col.era !== undefined;
  switch (f) {
    case 'task':
      if (!mcp) return 'a task is how an MCP request asks to run (the Tasks extension)';
      return col.era === 'legacy' ? "the Tasks extension is 2026-07-28's: a 2025-era request makes no task" : undefined;
    case 'progressive':
      return mcp ? undefined : 'progressive discovery is how an MCP server lists its tools';
    case 'mounted':
      return mcp
        ? undefined
        : 'a mounted server is an MCP path: on the command line `grp write` is an ordinary command';
    case 'front_end':
      return col.path === 'in-process'
        ? "execute() runs a native tree; a commander program reaches ax-ts only through withAx's parse"
        : undefined;
    case 'printed':
      return col.path === 'in-process'
        ? "execute() returns the run's own output: a handler's console.log writes to the host process's stdout, not the run's"
        : undefined;
    case 'key':
    case 'dry_run':
    case 'strict':
    case 'timeout':
    case 'confirm':
    case 'stop':
    case 'stream':
    case 'lazy':
      return undefined; // on every path and era
  }
}
/** Why a "what" feature cannot run over the front end (commander cannot say it). */
const FRONT_END_NA: Partial<Record<What, string>> = {
  dry_run: FRONT_END_NO,
  strict: `its warning is ctx.warn: ${FRONT_END_NO}`,
  confirm: `its gate is ctx.confirm: ${FRONT_END_NO}`,
  stop: `its stop is ctx.actionRequired: ${FRONT_END_NO}`,
  stream: 'a commander action returns one value: it cannot stream',
};
const TASK_NA: Partial<Record<Feature, string>> = {
  front_end: "a front end's commands declare no task (each call is the program's own process)",
};

const isWhat = (f: Feature): f is What => (WHAT as readonly string[]).includes(f);

/** The cell of pair (a, b) on a column: its rule, or why it does not apply. */
function cell(a: Feature, b: Feature, col: Column): { na: string } | { run: (id: string) => Promise<void> } {
  const na = PAIR_NA[`${a} ${b}`] ?? featureNa(a, col) ?? featureNa(b, col);
  if (na) return { na };
  const where: Where = {};
  for (const f of [a, b])
    if (f === 'task') where.task = true;
    else if (f === 'progressive') where.progressive = true;
    else if (f === 'lazy') where.lazy = true;
    else if (f === 'front_end') where.frontEnd = true;
    else if (f === 'mounted') where.mounted = true;
  if (where.frontEnd) {
    const what = [a, b].find(isWhat);
    const reason = (what && FRONT_END_NA[what]) ?? (where.task ? TASK_NA.front_end : undefined);
    if (reason) return { na: reason };
  }
  const r = runner(col, where);
  if (isWhat(a) && isWhat(b)) return { run: (id) => PAIRS[`${a} ${b}`]!(r, id) };
  const what = [a, b].find(isWhat) ?? 'key'; // two places: a replayed call there
  return { run: (id) => SOLO[what](r, id) };
}

const ROWS: [Feature, Feature][] = FEATURES.flatMap((a, i) =>
  FEATURES.slice(i + 1).map((b): [Feature, Feature] => [a, b]),
);

afterAll(async () => {
  await closeAll();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

it('the table has every pair of the thirteen features once, and a rule for every pair of what a call does', () => {
  expect(ROWS).toHaveLength(78);
  for (const [a, b] of ROWS)
    if (isWhat(a) && isWhat(b)) expect(PAIRS[`${a} ${b}`] ?? PAIR_NA[`${a} ${b}`], `${a} × ${b}`).toBeDefined();
  for (const k of [...Object.keys(PAIRS), ...Object.keys(PAIR_NA)])
    expect(
      ROWS.some(([a, b]) => `${a} ${b}` === k),
      k,
    ).toBe(true);
});

describe.concurrent(
  'a confirmation whose flag is no property (ctx.confirm on a command that declares no confirmationFlag)',
  () => {
    for (const col of COLUMNS) {
      it(
        columnName(col),
        async () => {
          const r = runner(col, {});
          const id = idOf(col, 'confirm', 'confirm');
          const e = expectError(await r.call(c('sweep', id)), 2, 'confirmation_required');
          expect(effects(id)).toHaveLength(0);
          if (col.path === 'cli' || col.path === 'in-process') {
            expect(e.next[0].argv).toContain('--yes'); // the global --yes, a flag of every command line
            await stepRuns(r, e, id);
          } else {
            // no argument gives it: no next step, and a fix that does not promise one
            expect(e.next, JSON.stringify(e)).toBeUndefined();
            expect(e.actionable_fix).toMatch(/not a property of the tool/);
            expect(e.context.bypass_flag).toBe('--yes');
            expectError(await r.call(c('sweep', id, { yes: true })), 2, 'validation_error'); // the fix was right
          }
        },
        60_000,
      );
    }
  },
);

/**
 * The rows of paging met with a replay key, --fields, --strict, a confirmation, a stop (--timeout)
 * and a lazy subtree (docs/contract.md#paging---limit---cursor). Each row's runner: the root, or
 * under `lz` ({@link PAGING_WHERE}).
 */
const PAGING: Record<string, (r: Runner, id: string) => Promise<void>> = {
  'paging × key: a retry with the key is the same page and meta.pagination; the next page is another call': async (
    r,
    id,
  ) => {
    const call = c('pages', id, { idempotency_key: `k-${id}` });
    const first = envelope(await r.call(call));
    expect(first.data.map((x: Json) => x.i)).toEqual([0, 1]);
    const again = envelope(await r.call(call));
    expect(again.data).toEqual(first.data);
    expect(again.meta).toMatchObject({ replayed: true, pagination: first.meta.pagination });
    expect(effects(id)).toHaveLength(1);
    const next = envelope(await r.step(first.meta.next[0]));
    expect(next.data.map((x: Json) => x.i)).toEqual([2, 3]);
    expect(next.meta.replayed).toBeUndefined();
    expect(effects(id)).toHaveLength(2);
  },
  'paging × fields: the selection is of each item of the page, and the next step keeps it': async (r, id) => {
    const first = envelope(await r.call(c('pages', id, { fields: ['i'] })));
    expect(first.data).toEqual([{ i: 0 }, { i: 1 }]);
    expect(first.meta.pagination).toMatchObject({ total: 5, returned: 2, has_more: true });
    const next = envelope(await r.step(first.meta.next[0]));
    expect(next.data).toEqual([{ i: 2 }, { i: 3 }]);
  },
  'paging × strict: a warning fails the paged call (nothing on stdout); without one the page and its pagination arrive':
    async (r, id) => {
      expectError(await r.call(c('pages', id, { warn: true }, { strict: true })), 2, 'warnings_as_errors');
      expect(effects(id)).toHaveLength(0);
      const ok = envelope(await r.call(c('pages', id, { limit: 5 }, { strict: true })));
      expect(ok.meta.pagination).toEqual({
        total: 5,
        returned: 5,
        truncated: false,
        has_more: false,
        next_cursor: null,
      });
      expect(ok.meta.next).toBeUndefined();
    },
  'paging × confirm: ctx.confirm stops the paged call before it runs; its step, confirmed, is page one, whose next step keeps the confirmation':
    async (r, id) => {
      const e = expectError(await r.call(c('pages', id, { ask: true })), 2, 'confirmation_required');
      expect(effects(id)).toHaveLength(0);
      const first = envelope(await r.step((e.next as Json[])[0]!));
      expect(first.data.map((x: Json) => x.i)).toEqual([0, 1]);
      expect(effects(id)).toHaveLength(1);
      const next = envelope(await r.step(first.meta.next[0]));
      expect(next.data.map((x: Json) => x.i)).toEqual([2, 3]);
      expect(effects(id)).toHaveLength(2);
    },
  'paging × timeout: a paged call stopped by --timeout is a retryable timeout with no page; under the same --timeout the pages and their next step arrive':
    async (r, id) => {
      const o = await r.call(c('pages', id, { delay_ms: 20_000 }, { timeout: true }));
      const e = expectError(o, 3, 'timeout');
      expect(e.retryable).toBe(true);
      if (!r.mcp) expect(o.stdout).toBe('');
      expect(effects(id)).toHaveLength(0);
      const first = envelope(await r.call(c('pages', id, {}, { timeout: true })));
      expect(first.meta.pagination).toMatchObject({ total: 5, returned: 2, has_more: true });
      const next = envelope(await r.step(first.meta.next[0]));
      expect(next.data.map((x: Json) => x.i)).toEqual([2, 3]);
    },
  'paging × lazy: a paged command in a lazily loaded group pages, and its next step names it where it is': async (
    r,
    id,
  ) => {
    const first = envelope(await r.call(c('pages', id)));
    expect(first.data.map((x: Json) => x.i)).toEqual([0, 1]);
    const step = first.meta.next[0] as Json;
    if (r.mcp) expect(step.tool).toBe('lz_pages');
    else expect((step.argv as string[]).slice(1, 3)).toEqual(['lz', 'pages']);
    const next = envelope(await r.step(step));
    expect(next.data.map((x: Json) => x.i)).toEqual([2, 3]);
    expect(effects(id)).toHaveLength(2);
  },
};
/** Where a paging row runs: under `lz` for the lazy row, else at the root. */
const PAGING_WHERE = (row: string): Where => (row.startsWith('paging × lazy') ? { lazy: true } : {});

describe.concurrent.each(Object.keys(PAGING))('%s', (row) => {
  for (const col of COLUMNS)
    it(columnName(col), () => PAGING[row]!(runner(col, PAGING_WHERE(row)), idOf(col, 'key', 'key')), 60_000);
});

// every cell is independent (its own ids and keys): rows run concurrently too
describe.concurrent.each(ROWS.map(([a, b]) => [`${a} × ${b}`, a, b] as const))('%s', (_row, a, b) => {
  for (const col of COLUMNS) {
    const got = cell(a, b, col);
    if ('na' in got) it.skip(`${columnName(col)} (not applicable: ${got.na})`, () => {});
    else it(columnName(col), () => got.run(idOf(col, a, b)), 60_000);
  }
});

/** A secret in a file beside the log, for `keyed --token @file` (the value over MCP). */
function secretFile(id: string): { file: string; secret: string } {
  const secret = `s3cr3t-${id}-${Math.random().toString(36).slice(2)}`;
  const file = join(dir, `token-${id}`);
  writeFileSync(file, secret);
  return { file, secret };
}
/** Every text a call produced, for a search. */
const allText = (o: Outcome): string =>
  [o.stdout, o.stderr ?? '', JSON.stringify(o.error ?? {}), ...(o.texts ?? [])].join('\n');
/** The stream's lines as envelopes (JSON lines on stdout, or over MCP the text items that are). */
function lines(r: Runner, o: Outcome): Json[] {
  const raw = r.mcp ? (o.texts ?? []).flatMap((t) => t.split('\n')) : o.stdout.split('\n');
  return raw.flatMap((l) => {
    try {
      const e = JSON.parse(l) as Json;
      return e && typeof e === 'object' && 'data' in e ? [e] : [];
    } catch {
      return [];
    }
  });
}

/**
 * Three features beside the thirteen — `--fields` (the `fields` property), a secret flag and
 * `ctx.eachItem` — met with the ones they touch most: each row on every column, or skipped with why.
 * (Over MCP --strict and --timeout 3s are the server's presets: see test/helpers/compose-paths.ts.)
 */
const MORE: Record<
  string,
  { where?: Where; na?: (col: Column) => string | undefined; run: (r: Runner, id: string) => Promise<void> }
> = {
  'fields × strict': {
    run: async (r, id) => {
      expect(envelope(await r.call(c('write', id, { fields: ['name'] }, { strict: true }))).data).toEqual({ name: id });
      // no schema says write's fields: under --strict the unknown_fields warning fails the run, after it ran
      const e = expectError(
        await r.call(c('write', `${id}-x`, { fields: ['nope'] }, { strict: true })),
        2,
        'warnings_as_errors',
      );
      expect(e.context).toMatchObject({ ran: true, warnings: [{ code: 'unknown_fields' }] });
      expect(e.actionable_fix).toMatch(/^The command ran to its end before the warning: what it did stands/);
      expect(effects(`${id}-x`)).toHaveLength(1);
    },
  },
  'fields × stream': {
    run: async (r) => {
      const ok = lines(r, await r.call(c('items', undefined, { count: 3, fields: ['i'] })));
      expect(ok.map((l) => l.data)).toEqual([{ i: 1 }, { i: 2 }, { i: 3 }]);
      const o = await r.call(c('items', undefined, { count: 3, fields: ['nope'] }));
      if (r.mcp) {
        // the server's --strict: the warning fails the stream, and the held items stay withheld
        expect(expectError(o, 2, 'warnings_as_errors').context.warnings[0].code).toBe('unknown_fields');
        expect(lines(r, o)).toEqual([]);
      } else {
        // each item whole, the warning given once (on the first item that lacks the path, and after)
        const got = lines(r, o);
        expect(got.map((l) => l.data)).toEqual([{ i: 1 }, { i: 2 }, { i: 3 }]);
        for (const l of got) expect(l.meta.warnings.map((w: Json) => w.code)).toEqual(['unknown_fields']);
      }
    },
  },
  'fields × task': {
    where: { task: true },
    na: (col) => featureNa('task', col),
    run: async (r, id) => {
      const o = await r.call(c('write', id, { fields: ['name'] }));
      expect(envelope(o).data).toEqual({ name: id });
      expect(effects(id)).toHaveLength(1);
    },
  },
  'fields × progressive': {
    where: { progressive: true },
    na: (col) => featureNa('progressive', col),
    run: async (r, id) => {
      expect(envelope(await r.call(c('write', id, { fields: ['name'] }))).data).toEqual({ name: id });
    },
  },
  'secret × timeout': {
    run: async (r, id) => {
      const { file, secret } = secretFile(id);
      const o = await r.call(
        c('keyed', id, { token: r.mcp ? secret : `@${file}`, delay_ms: 20_000 }, { timeout: true }),
      );
      expect(expectError(o, 3, 'timeout').retryable).toBe(true);
      expect(allText(o)).not.toContain(secret);
      expect(effects(id)).toHaveLength(0);
    },
  },
  'secret × task': {
    where: { task: true },
    na: (col) => featureNa('task', col),
    run: async (r, id) => {
      const { secret } = secretFile(id);
      const o = await r.call(c('keyed', id, { token: secret }));
      expect(envelope(o).data).toEqual({ name: id, token_length: secret.length });
      expect(allText(o)).not.toContain(secret);
    },
  },
  'eachItem × timeout': {
    run: async (r, id) => {
      const names = [`${id}-a`, `bad-${id}`, `slow-${id}`, `${id}-d`];
      const line = !r.mcp && r.column.path !== 'args-json';
      const o = await r.call(
        c('each', undefined, line ? {} : { names }, { timeout: true, ...(line ? { args: names } : {}) }),
      );
      const e = expectError(o, 3, 'timeout');
      expect(e.context.results).toEqual([
        { item: names[0], ok: true, data: { name: names[0] } },
        {
          item: names[1],
          ok: false,
          error: {
            kind: 'network_error',
            message: `${names[1]} is gone`,
            retryable: true,
            actionable_fix: `Leave ${names[1]} out.`,
          },
        },
      ]);
      expect(effects(names[3])).toHaveLength(0);
    },
  },
  'strict × stream, a handler that catches its warning and then fails': {
    run: async (r) => {
      const o = await r.call(c('items', undefined, { count: 3, catch_warn: true }, { strict: true }));
      const e = expectError(o, 2, 'warnings_as_errors');
      expect(e.context).toMatchObject({
        warnings: [{ code: 'stale_item', message: 'item 1 is stale' }],
        then: { kind: 'network_error', message: 'the feed went away after item 1' },
      });
      expect(e.actionable_fix).toMatch(/^The command went on after its warning and then failed \(context\.then\)/);
      expect(items(r, o)).toEqual([]); // held under --strict, withheld
    },
  },
};

describe.concurrent.each(Object.entries(MORE))('%s', (_row, { where, na, run }) => {
  for (const col of COLUMNS) {
    const why = na?.(col);
    if (why) it.skip(`${columnName(col)} (not applicable: ${why})`, () => {});
    else it(columnName(col), () => run(runner(col, where ?? {}), idOf(col, 'strict', 'stream')), 60_000);
  }
});
