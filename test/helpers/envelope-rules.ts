/**
 * The contract table's rows for the envelope's outcome fields (docs/contract.md#success-envelope,
 * docs/contract.md#errors): every line says `schema_version`, `ok`, `exit_code` and `duration_ms` in
 * its `meta`, and every error line its `retryable`, on every path; and `--fields`
 * (docs/contract.md#selecting-fields---fields). Part of {@link RULES}
 * (contract-rules.ts), run by test/e2e/contract-paths.test.ts and test/e2e/contract-twins.test.ts.
 */
import { expect } from 'vitest';
import { dataBytes, effects, expectError, meta, writeCall, type Json, type Rule } from './contract-rules.ts';
import type { Outcome } from './paths.ts';

/** The outcome fields of a success line's meta: version, ok, exit code 0, a whole-millisecond duration. */
function expectSuccessOutcome(o: Outcome): Json {
  expect(o.code, JSON.stringify(o)).toBe(0);
  const m = meta(o);
  expect(m).toMatchObject({ schema_version: '1.0.0', ok: true, exit_code: 0 });
  expect(Number.isInteger(m.duration_ms) && m.duration_ms >= 0, `duration_ms ${m.duration_ms}`).toBe(true);
  return m;
}

/** The outcome fields of an error line's meta: ok false, the error's exit code, a duration; and `retryable`. */
function expectErrorOutcome(o: Outcome, code: number, kind: string, retryable: boolean): void {
  const e = expectError(o, code, kind);
  expect(e.retryable, `${kind} retryable`).toBe(retryable);
  const m = o.error!.meta as Json;
  expect(m).toMatchObject({ schema_version: '1.0.0', ok: false, exit_code: code });
  expect(Number.isInteger(m.duration_ms) && m.duration_ms >= 0, `duration_ms ${m.duration_ms}`).toBe(true);
}

export const ENVELOPE_RULES: Rule[] = [
  {
    store: true,
    name: 'every outcome is in the envelope: meta.schema_version, ok, exit_code and an integer duration_ms on success, replayed and error lines; retryable on every error line, from the catalogue',
    run: async (p, id) => {
      const first = await p.call(writeCall('write', id, { key: `k-${id}` }));
      expectSuccessOutcome(first);
      expectSuccessOutcome(await p.call({ tool: 'read', argv: ['read'], json: {} }));
      // a replay is this call's: ok and exit code of the recorded outcome, a duration of its own
      const again = await p.call(writeCall('write', id, { key: `k-${id}` }));
      expect(expectSuccessOutcome(again).replayed).toBe(true);
      expect(dataBytes(again.stdout)).toBe(dataBytes(first.stdout));
      // the handler's errors: an author's kind (not retryable), a built-in retryable one
      expectErrorOutcome(await p.call({ tool: 'gone', argv: ['gone', id], json: { id } }), 5, 'fx_gone', false);
      expectErrorOutcome(
        await p.call({ tool: 'flaky', argv: ['flaky', id], json: { name: id } }),
        3,
        'network_error',
        true,
      );
      // refused before anything ran: a missing argument (a missing property)
      expectErrorOutcome(await p.call({ tool: 'gone', argv: ['gone'], json: {} }), 2, 'validation_error', false);
    },
  },
];

/** `write <name>` with `--fields` (the `fields` property), and a key when given. */
function writeFields(id: string, fields: string[], key?: string) {
  const c = writeCall('write', id, key === undefined ? {} : { key });
  return { ...c, argv: [...c.argv, '--fields', fields.join(',')], json: { ...c.json, fields } };
}

ENVELOPE_RULES.push({
  store: true,
  name: '--fields (the fields property) selects fields of data; without an output schema an unknown one keeps data whole with one unknown_fields warning (exit 0); a replay shows its own selection of the first outcome',
  run: async (p, id) => {
    const o = await p.call(writeFields(id, ['name', 'n']));
    expect(o.code, JSON.stringify(o)).toBe(0);
    expect(Object.keys(JSON.parse(o.stdout).data)).toEqual(['name', 'n']);
    // `read`'s fields are the program's own (the native fixture's {key, given}, a twin's {read})
    const plain = await p.call({ tool: 'read', argv: ['read'], json: {} });
    const known = Object.keys(JSON.parse(plain.stdout).data as Record<string, unknown>).sort();
    const r = await p.call({ tool: 'read', argv: ['read', '--fields', known[0]!], json: { fields: [known[0]] } });
    expect(Object.keys(JSON.parse(r.stdout).data)).toEqual([known[0]]);
    // no schema says read's fields: the run is not failed after the fact; data whole, and a warning says so
    const u = await p.call({ tool: 'read', argv: ['read', '--fields', 'nope'], json: { fields: ['nope'] } });
    expect(u.code, JSON.stringify(u)).toBe(0);
    expect(Object.keys(JSON.parse(u.stdout).data as Record<string, unknown>).sort()).toEqual(known);
    const label = p.spelling === 'argv' ? '--fields' : 'fields';
    const warnings = meta(u).warnings as { code: string; message: string }[];
    expect(warnings.map((w) => w.code)).toEqual(['unknown_fields']);
    expect(warnings[0]!.message).toMatch(
      new RegExp(
        `^${label}: data of \\S+ read has no "nope" \\(its fields: ${known.join(', ')}\\); nothing was selected, data is whole$`,
      ),
    );
    // replay × fields: the first outcome's data, shown with this call's selection; nothing runs again
    const first = await p.call(writeFields(`${id}-k`, ['name'], `k-${id}`));
    const again = await p.call(writeFields(`${id}-k`, ['n', 'nonce'], `k-${id}`));
    expect(JSON.parse(first.stdout).data).toEqual({ name: `${id}-k` });
    expect(meta(again).replayed).toBe(true);
    expect(JSON.parse(again.stdout).data).toEqual({ n: expect.any(Number), nonce: expect.any(String) });
    expect(effects(`${id}-k`)).toHaveLength(1);
  },
});
