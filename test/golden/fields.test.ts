/**
 * Fields that vary (docs/config.md, part 5): a command declares its non-deterministic output fields,
 * `__schema --as=ax` lists them as `non_deterministic_fields` (ax-go's locators: the envelope's
 * meta ids plus data.<path>), and ax-ts/golden masks exactly those — a UUID the command did not
 * declare stays visible, so a changed payload id fails a golden.
 */
import { describe, expect, it } from 'vitest';
import { Command } from '../../lib/index.ts';
import { nonDeterministicFields } from '../../lib/schema/nondeterministic.ts';
import { goldenRun, maskVolatile, transcript } from '../../golden/index.ts';

function tree(): Command {
  const root = new Command({ use: 'inv' });
  root.addCommand(
    new Command({
      use: 'create',
      output: { nonDeterministic: ['id', 'created_at', 'lines.id'] },
      run: () => ({
        id: crypto.randomUUID(),
        created_at: new Date().toISOString(),
        sku: '3f2c1b1e-9d7a-4c1e-8f00-0123456789ab',
        lines: [
          { id: crypto.randomUUID(), n: 1 },
          { id: crypto.randomUUID(), n: 2 },
        ],
      }),
    }),
    new Command({ use: 'script', output: { kind: 'opaque' }, run: () => 'x\n' }),
    new Command({ use: 'grp', commands: [new Command({ use: 'leaf', run: () => null })] }),
  );
  return root;
}

describe('non_deterministic_fields', () => {
  it('lists the meta ids and the declared data paths, sorted; none for opaque output and groups', async () => {
    const root = tree();
    expect(nonDeterministicFields(root.findChild('create')!)).toEqual([
      'data.created_at',
      'data.id',
      'data.lines.id',
      'meta.duration_ms',
      'meta.idempotency_key',
      'meta.span_id',
      'meta.trace_id',
    ]);
    expect(nonDeterministicFields(root.findChild('script')!)).toEqual([]);
    const r = await goldenRun(tree, ['__schema', '--as=ax']);
    const doc = JSON.parse(r.stdout).data ?? JSON.parse(r.stdout);
    const byName = Object.fromEntries((doc.command.commands as any[]).map((c) => [c.name, c]));
    expect(byName.create.non_deterministic_fields).toEqual(nonDeterministicFields(root.findChild('create')!));
    expect(byName.script.non_deterministic_fields).toEqual([]);
    expect(byName.grp.non_deterministic_fields).toEqual([]); // on every command, as ax-go writes it
    expect(byName.grp.commands[0].non_deterministic_fields).toEqual([
      'meta.duration_ms',
      'meta.idempotency_key',
      'meta.span_id',
      'meta.trace_id',
    ]);
  });

  it('refuses malformed declarations (TypeError)', () => {
    for (const bad of [['data.id'], [''], ['a..b'], ['meta.x'], 'id']) {
      expect(() => new Command({ use: 'x', output: { nonDeterministic: bad as never } })).toThrow(TypeError);
    }
  });
});

describe('maskVolatile({fields}) masks exactly the declared fields', () => {
  it('two runs mask alike; the undeclared UUID stays; equal values share a number', async () => {
    const a = await goldenRun(tree, ['create']);
    const b = await goldenRun(tree, ['create']);
    expect(a.fields).toEqual(nonDeterministicFields(tree().findChild('create')!));
    const ma = maskVolatile(transcript(a), { fields: a.fields });
    expect(ma).toBe(maskVolatile(transcript(b), { fields: b.fields }));
    expect(JSON.parse(ma.split('\n')[3]!)).toEqual({
      data: {
        id: '<ID_1>',
        created_at: '<CREATED_AT_1>',
        sku: '3f2c1b1e-9d7a-4c1e-8f00-0123456789ab',
        lines: [
          { id: '<ID_2>', n: 1 },
          { id: '<ID_3>', n: 2 },
        ],
      },
      meta: {
        trace_id: '<TRACE_ID_1>',
        span_id: '<SPAN_ID_1>',
        idempotency_key: '<IDEMPOTENCY_KEY_1>',
        schema_version: '1.0.0',
        ok: true,
        exit_code: 0,
        duration_ms: '<DURATION_MS>', // never numbered: equal durations mean nothing
      },
    });
  });

  it('a changed undeclared id fails the comparison (the shape masks would have hidden it)', () => {
    const line = (sku: string) => `${JSON.stringify({ data: { sku }, meta: { trace_id: 'a'.repeat(32) } })}\n`;
    const x = line('3f2c1b1e-9d7a-4c1e-8f00-0123456789ab');
    const y = line('00000000-9d7a-4c1e-8f00-0123456789ab');
    expect(maskVolatile(x)).toBe(maskVolatile(y)); // the shape masks hide the change
    expect(maskVolatile(x, { fields: ['meta.trace_id'] })).not.toBe(maskVolatile(y, { fields: ['meta.trace_id'] }));
  });

  it('masks the error line trace id and the same value echoed elsewhere (a log line)', () => {
    const t = 'b'.repeat(32);
    const text = `{"level":"info","trace_id":"${t}","msg":"x"}\n{"error":{"kind":"k"},"meta":{"trace_id":"${t}"}}\n`;
    expect(maskVolatile(text, { fields: ['meta.trace_id'] })).toBe(
      '{"level":"info","trace_id":"<TRACE_ID_1>","msg":"x"}\n{"error":{"kind":"k"},"meta":{"trace_id":"<TRACE_ID_1>"}}\n',
    );
  });

  it('a spawned run gets fields only when given', async () => {
    const r = await goldenRun([process.execPath, '-e', 'process.stdout.write("{}\\n")'], [], {
      fields: ['meta.trace_id'],
    });
    expect(r.fields).toEqual(['meta.trace_id']);
    expect((await goldenRun([process.execPath, '-e', '0'], [])).fields).toBeUndefined();
  });
});
