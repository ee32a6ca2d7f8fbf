/**
 * `--fields` (docs/contract.md#selecting-fields---fields) through the public entry `execute`: dotted
 * paths into objects, each element of a list and each item of a stream, the check against a declared
 * output schema before anything runs, the check against the data after the run without one, and the
 * refusal on opaque output; an author's own `--fields` shadows the injected one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Command } from '../../lib/index.ts';
import { runCli } from '../helpers/run.ts';

const OWNER = { type: 'object', properties: { name: { type: 'string' }, mail: { type: 'string' } } } as const;

function tree(ran: string[] = []): Command {
  const root = new Command({ use: 'app' });
  root.addCommand(
    new Command({
      use: 'get',
      effects: 'read_only',
      output: {
        schema: {
          type: 'object',
          properties: { id: { type: 'integer' }, owner: OWNER, extra: { type: 'object' } },
        },
      },
      run: () => {
        ran.push('get');
        return { id: 7, owner: { name: 'ann', mail: 'a@x' }, extra: { any: 1 } };
      },
    }),
    new Command({
      use: 'all',
      effects: 'read_only',
      run: () => [
        { id: 1, owner: { name: 'ann', mail: 'a@x' } },
        { id: 2, owner: { name: 'bob', mail: 'b@x' } },
      ],
    }),
    new Command({
      use: 'feed',
      effects: 'read_only',
      output: { kind: 'stream' },
      run: async function* () {
        yield { n: 1, at: 'x' };
        yield { n: 2, at: 'y' };
      },
    }),
    new Command({
      use: 'names',
      effects: 'read_only',
      output: { schema: { type: 'array', items: { type: 'string' } } },
      run: () => {
        ran.push('names');
        return ['a', 'b'];
      },
    }),
    new Command({
      use: 'count',
      effects: 'read_only',
      output: { schema: { type: 'integer' } },
      run: () => {
        ran.push('count');
        return 3;
      },
    }),
    new Command({
      use: 'raw',
      effects: 'read_only',
      output: { kind: 'opaque', mediaType: 'application/octet-stream' },
      run: () => new Uint8Array([1, 2]),
    }),
    new Command({
      use: 'own',
      effects: 'read_only',
      flags: { fields: { type: 'string', usage: 'my own' } },
      run: (ctx) => ({ got: ctx.flags.fields, id: 1 }),
    }),
  );
  return root;
}

const data = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l).data);

describe('--fields', () => {
  it('keeps dotted paths into objects, in each element of a list', async () => {
    const r = await runCli(tree(), ['all', '--fields', 'owner.name,id']);
    expect(r.code, r.stderr).toBe(0);
    expect(data(r.stdout)).toEqual([
      [
        { owner: { name: 'ann' }, id: 1 },
        { owner: { name: 'bob' }, id: 2 },
      ],
    ]);
  });

  it('applies to each item of a stream', async () => {
    const r = await runCli(tree(), ['feed', '--fields', 'n']);
    expect(data(r.stdout)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('with an output schema: an unknown field is refused before anything runs, naming the known ones', async () => {
    const ran: string[] = [];
    const r = await runCli(tree(ran), ['get', '--fields', 'owner.phone']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const e = JSON.parse(r.stderr.trimEnd().split('\n').at(-1)!).error;
    expect(e).toMatchObject({ kind: 'validation_error', context: { reason: 'unknown_field', field: 'owner.phone' } });
    expect(e.context.known).toEqual(['extra', 'id', 'owner', 'owner.mail', 'owner.name']);
    expect(e.context.ran).toBeUndefined();
    expect(ran).toEqual([]);
    // below a property whose schema names no properties, anything may be
    const ok = await runCli(tree(ran), ['get', '--fields', 'extra.any,owner.mail']);
    expect(data(ok.stdout)).toEqual([{ owner: { mail: 'a@x' }, extra: { any: 1 } }]);
    // below a property the schema types as a scalar, nothing is
    const scalar = await runCli(tree(ran), ['get', '--fields', 'id.x']);
    expect(scalar.code, scalar.stdout).toBe(2);
    const s = JSON.parse(scalar.stderr.trimEnd().split('\n').at(-1)!).error;
    expect(s.context).toMatchObject({ reason: 'unknown_field', field: 'id.x' });
    expect(ran).toEqual(['get']);
  });

  it('without one: the run is never failed after the fact; data stays whole and one warning names the unknown paths and the fields data has', async () => {
    const ran: string[] = [];
    const r = await runCli(tree(ran), ['all', '--fields', 'owner.phone,id,nope']);
    expect(r.code, r.stderr).toBe(0);
    const line = JSON.parse(r.stdout);
    expect(line.data).toEqual([
      { id: 1, owner: { name: 'ann', mail: 'a@x' } },
      { id: 2, owner: { name: 'bob', mail: 'b@x' } },
    ]);
    expect(line.meta.warnings).toEqual([
      {
        code: 'unknown_fields',
        message:
          '--fields: data of app all has no "owner.phone", "nope" (its fields: id, owner, owner.mail, owner.name); nothing was selected, data is whole',
      },
    ]);
    expect(r.stderr).toContain('nothing was selected, data is whole');
    // a stream: each item whole after the warning, given once
    const s = await runCli(tree(), ['feed', '--fields', 'n,gone']);
    expect(s.code, s.stderr).toBe(0);
    const lines = s.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.data)).toEqual([
      { n: 1, at: 'x' },
      { n: 2, at: 'y' },
    ]);
    expect(lines[1].meta.warnings).toHaveLength(1);
    // --strict: the warning is the failure, like any other; the command had run to its end
    const strict = await runCli(tree(ran), ['all', '--fields', 'nope', '--strict']);
    expect(strict.code).toBe(2);
    expect(strict.stdout).toBe('');
    const e = JSON.parse(strict.stderr.trimEnd().split('\n').at(-1)!).error;
    expect(e.kind).toBe('warnings_as_errors');
    expect(e.context).toMatchObject({ ran: true, warnings: [{ code: 'unknown_fields' }] });
    expect(e.actionable_fix).toMatch(/^The command ran to its end before the warning: what it did stands/);
  });

  it('--strict with an unknown field under a key: the identical retry replays the same failure, told as after a run that ran to its end', async () => {
    const state = mkdtempSync(join(tmpdir(), 'ax-fields-strict-'));
    try {
      const ran: string[] = [];
      const root = new Command({ use: 'app' });
      root.addCommand(
        new Command({
          use: 'put',
          effects: 'non_idempotent',
          run: () => {
            ran.push('put');
            return { id: 1 };
          },
        }),
      );
      const env = { XDG_STATE_HOME: state };
      const call = ['put', '--fields', 'nope', '--strict', '--idempotency-key', 'k1'];
      const first = await runCli(root, call, { env });
      const again = await runCli(root, call, { env });
      for (const r of [first, again]) {
        expect(r.code, r.stderr).toBe(2);
        const e = JSON.parse(r.stderr.trimEnd().split('\n').at(-1)!).error;
        expect(e.kind).toBe('warnings_as_errors');
        expect(e.actionable_fix).toMatch(/^The command ran to its end before the warning: what it did stands/);
      }
      expect(ran).toEqual(['put']);
      const shown = await runCli(root, ['put', '--fields', 'id', '--idempotency-key', 'k1'], { env });
      expect(JSON.parse(shown.stdout)).toMatchObject({ data: { id: 1 }, meta: { replayed: true } });
      expect(ran).toEqual(['put']);
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  });

  it('is refused before the run where the output schema types data as a scalar', async () => {
    const ran: string[] = [];
    const r = await runCli(tree(ran), ['count', '--fields', 'n']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const e = JSON.parse(r.stderr.trimEnd().split('\n').at(-1)!).error;
    expect(e).toMatchObject({
      kind: 'validation_error',
      message:
        'data of app count is a number; --fields selects fields of an object or of each item of a list of objects',
      actionable_fix: 'Leave out --fields.',
      context: { reason: 'fields_unsupported' },
    });
    expect(ran).toEqual([]);
  });

  it('is refused before the run where the output schema types data as a list of scalars', async () => {
    const ran: string[] = [];
    const r = await runCli(tree(ran), ['names', '--fields', 'a']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr.trimEnd().split('\n').at(-1)!).error).toMatchObject({
      message:
        'data of app names is a list of strings; --fields selects fields of an object or of each item of a list of objects',
      context: { reason: 'fields_unsupported' },
    });
    expect(ran).toEqual([]);
  });

  it('is refused on opaque output, and an author’s own --fields shadows it', async () => {
    const r = await runCli(tree(), ['raw', '--fields', 'a']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr.trimEnd()).error.context.reason).toBe('fields_unsupported');
    const own = await runCli(tree(), ['own', '--fields', 'whatever']);
    expect(data(own.stdout)).toEqual([{ got: 'whatever', id: 1 }]);
  });

  it('is no MCP input of an opaque command; the others have the fields property', async () => {
    const r = await runCli(tree(), ['__schema', '--as=mcp']);
    const tools = JSON.parse(r.stdout).tools as { name: string; inputSchema: { properties: object } }[];
    const props = (n: string) => Object.keys(tools.find((t) => t.name === n)!.inputSchema.properties);
    expect(props('get')).toContain('fields');
    expect(props('feed')).toContain('fields');
    expect(props('raw')).not.toContain('fields');
  });
});
