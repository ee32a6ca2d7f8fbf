/**
 * `output.paging` (docs/contract.md#paging---limit---cursor) through the public entries `new Command`
 * and `execute`: the declaration's checks (a bad paging, a stream, a non-list schema, an author's
 * own or inherited `--limit`/`--cursor`), the default page size, the human footer on stderr, a
 * dry run paged like a run, a handler's bad page, and `__schema` describing paging once.
 */
import { describe, expect, it } from 'vitest';
import { Command } from '../../lib/index.ts';
import { AX_DOCUMENT_SCHEMA } from '../../lib/schema/index.ts';
import { runCli } from '../helpers/run.ts';
import { Ajv2020 } from 'ajv/dist/2020.js';

const ITEMS = Array.from({ length: 60 }, (_, i) => ({ n: i + 1 }));

function tree(paging: unknown = true, run: () => unknown = () => ITEMS): Command {
  const root = new Command({ use: 'app' });
  root.addCommand(
    new Command({ use: 'list', effects: 'read_only', output: { paging: paging as true }, run }),
    new Command({ use: 'show', effects: 'read_only', run: () => ({ n: 1 }) }),
  );
  return root;
}

const json = (o: { stdout: string }) => JSON.parse(o.stdout) as { data: any; meta: any };

describe('the declaration', () => {
  it.each([
    [{ defaultLimit: 0 }, /defaultLimit must be a whole number/],
    [{ maxLimit: 2.5 }, /maxLimit must be a whole number/],
    [{ defaultLimit: 9, maxLimit: 3 }, /defaultLimit \(9\) is above maxLimit \(3\)/],
    [{ size: 3 }, /has no option "size"/],
    ['yes', /must be true or \{defaultLimit\?, maxLimit\?\}/],
  ])('output.paging %j is a TypeError', (paging, message) => {
    expect(() => new Command({ use: 'list', output: { paging: paging as unknown as true }, run: () => [] })).toThrow(
      message,
    );
  });

  it('paging is for a list answered at once: not a stream, not opaque, not a schema of an object', () => {
    expect(() => new Command({ use: 'l', output: { kind: 'stream', paging: true }, run: () => [] })).toThrow(
      /an output of kind stream cannot be paged/,
    );
    expect(() => new Command({ use: 'l', output: { kind: 'opaque', paging: true }, run: () => '' })).toThrow(
      /an output of kind opaque cannot be paged/,
    );
    expect(
      () => new Command({ use: 'l', output: { schema: { type: 'object' }, paging: true }, run: () => [] }),
    ).toThrow(/output.schema must describe the list/);
  });

  it("an author's own --limit or --cursor, a positional named so, or an inherited one is a declaration error naming it", async () => {
    const own = { flags: { limit: { type: 'int' as const } } };
    expect(() => new Command({ use: 'l', ...own, output: { paging: true }, run: () => [] })).toThrow(
      /injects --limit and --cursor, and the command has a flag --limit of its own/,
    );
    expect(() => new Command({ use: 'l <cursor>', output: { paging: true }, run: () => [] })).toThrow(
      /a positional named cursor/,
    );
    const root = new Command({ use: 'app', persistentFlags: { cursor: { type: 'string' } } });
    root.addCommand(new Command({ use: 'l', output: { paging: true }, run: () => [] }));
    // inherited: known once the tree is whole, refused on its first use, as a clash of shorthands is
    const o = await runCli(root, ['l', '--format', 'json']);
    expect(o.code).toBe(1);
    expect(JSON.parse(o.stderr).error.message).toMatch(/has an inherited flag --cursor; rename it/);
  });
});

describe('a run', () => {
  it('the built-in default is 50 per page; only the paged command has --limit', async () => {
    const o = await runCli(tree(), ['list', '--format', 'json']);
    expect(json(o).data).toHaveLength(50);
    expect(json(o).meta.pagination).toMatchObject({ total: 60, returned: 50, has_more: true });
    const e = await runCli(tree(), ['show', '--limit', '2', '--format', 'json']);
    expect(e.code).toBe(2);
    expect(e.stderr).toContain('unknown flag: --limit');
  });

  it('human mode: the page on stdout, and a footer on stderr naming the next page when there is one', async () => {
    const o = await runCli(tree({ defaultLimit: 10 }), ['list', '--format', 'text']);
    expect(o.stdout.trim().split('\n')).toHaveLength(11); // header + 10 rows
    expect(o.stderr).toMatch(/^Showing 10 of 60 items; next page: app list --format text --cursor=\S+\n$/);
    const cursor = /--cursor=(\S+)/.exec(o.stderr)![1]!;
    const last = await runCli(tree({ defaultLimit: 10 }), [
      'list',
      '--format',
      'text',
      '--limit',
      '50',
      `--cursor=${cursor}`,
    ]);
    expect(last.stdout).toContain('60');
    expect(last.stderr).toBe(''); // the last page: nothing more to fetch
  });

  it('a dry run of a read-only paged command is paged the same', async () => {
    const o = await runCli(tree({ defaultLimit: 5 }), ['list', '--dry-run', '--format', 'json']);
    expect(json(o).data.map((x: { n: number }) => x.n)).toEqual([1, 2, 3, 4, 5]);
    expect(json(o).meta).toMatchObject({ dry_run: true, pagination: { returned: 5, has_more: true } });
  });

  it("a handler's next of null or '' (how paged APIs say it) is the last page, as when left out", async () => {
    for (const next of [null, '']) {
      const t = tree(true, () => []);
      t.commands()[0]!.run = (ctx) => ctx.page!.reply([1, 2], { next, total: 2 });
      const o = await runCli(t, ['list', '--format', 'json']);
      expect(o.code, o.stderr).toBe(0);
      expect(json(o).meta.pagination).toMatchObject({ returned: 2, has_more: false, next_cursor: null });
      expect(json(o).meta.next).toBeUndefined();
    }
  });

  it("a handler's page longer than the limit, or a result that is no list, is the author's error (internal_error, exit 1)", async () => {
    const long = tree(true, () => [1, 2, 3]);
    const cmd = long.commands()[0]!;
    cmd.run = (ctx) => ctx.page!.reply([1, 2, 3]);
    const o = await runCli(long, ['list', '--limit', '2', '--format', 'json']);
    expect(o.code).toBe(1);
    expect(o.stderr).toContain('ctx.page.reply got 3 items for a limit of 2');
    const obj = await runCli(
      tree(true, () => ({ n: 1 })),
      ['list', '--format', 'json'],
    );
    expect(obj.code).toBe(1);
    expect(obj.stderr).toContain('run must return the list');
  });
});

describe('__schema', () => {
  it('the ax document says paging once at its root, each paged command its limits, and no --limit/--cursor in flags; valid against AX_DOCUMENT_SCHEMA', async () => {
    const o = await runCli(tree({ defaultLimit: 10, maxLimit: 100 }), ['__schema', '--format', 'json']);
    const doc = JSON.parse(o.stdout);
    const ajv = new Ajv2020({ strict: false });
    expect(ajv.validate(AX_DOCUMENT_SCHEMA as object, doc), JSON.stringify(ajv.errors)).toBe(true);
    expect(doc.paging).toContain('--limit');
    const list = doc.command.commands.find((c: { name: string }) => c.name === 'list');
    expect(list.output).toMatchObject({ paging: { default_limit: 10, max_limit: 100 } });
    expect((list.flags ?? []).map((f: { name: string }) => f.name)).not.toContain('limit');
    // a tree that does not page says nothing of it
    const plain = new Command({ use: 'app' });
    plain.addCommand(new Command({ use: 'show', run: () => 1 }));
    expect(JSON.parse((await runCli(plain, ['__schema', '--format', 'json'])).stdout).paging).toBeUndefined();
  });

  it('SKILL.md names the paged commands once, and how to fetch the next page; a tree that does not page says nothing', async () => {
    const skill = (await runCli(tree(), ['__schema', '--as=skill'])).stdout;
    expect(skill).toContain('- `app list` answer one page (`--limit <n>`)');
    const plain = new Command({ use: 'app' });
    plain.addCommand(new Command({ use: 'show', run: () => 1 }));
    expect((await runCli(plain, ['__schema', '--as=skill'])).stdout).not.toContain('meta.pagination');
  });

  it('clispec names the injected flags and where the next cursor is', async () => {
    const o = await runCli(tree(), ['__schema', '--as=clispec', '--format', 'json']);
    const doc = JSON.parse(o.stdout);
    const list = JSON.stringify(doc).includes('meta.pagination.next_cursor');
    expect(list).toBe(true);
  });
});
