/**
 * The JSON Schemas of the contract's lines (lib/contract/line-schemas.ts) hold for REAL output on
 * every path: the CLI process (json mode), `--args-json`, in-process `execute`, and the text of MCP
 * `tools/call` results over stdio, HTTP and stateless HTTP (real SDK clients against real server
 * processes), against the contract fixture (test/fixtures/contract-tree.ts, public API only). One
 * table of calls reaches every field the schemas describe — dry runs, replayed successes, streams
 * and failures, warnings, provenance, attached resources, meta.changed, a stop's error.next, every
 * optional field of the error — and
 * each path must, over the table, have written every property of each schema (so the schemas list
 * nothing the code never writes, and the closed schemas let through nothing they do not list).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_LINE_SCHEMA, STREAM_LINE_SCHEMA, SUCCESS_LINE_SCHEMA } from '../../lib/schema/index.ts';
import { buildContractCli } from '../fixtures/contract-tree.ts';
import { runScript } from '../helpers/spawn.ts';
import {
  httpPath,
  inProcessPath,
  minimalEnv,
  processPath,
  stdioPath,
  type Call,
  type Outcome,
  type Path,
} from '../helpers/paths.ts';

type Json = Record<string, any>;

const CONTRACT_CLI = fileURLToPath(new URL('../fixtures/contract-cli.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ax-line-schemas-'));
const ENV = { CONTRACT_LOG: join(dir, 'effects.log'), XDG_STATE_HOME: join(dir, 'state'), CONTRACT_LEVEL: '7' };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ajv = new Ajv2020({ allErrors: true, strict: true });
const checkSuccess = ajv.compile(SUCCESS_LINE_SCHEMA as object);
const checkStream = ajv.compile(STREAM_LINE_SCHEMA as object);
const checkError = ajv.compile(ERROR_LINE_SCHEMA as object);

/** Validates one parsed line; @returns Ajv's complaints, empty when it holds. */
function problems(check: typeof checkSuccess, line: unknown): string[] {
  return check(line) ? [] : check.errors!.map((e) => `${e.instancePath || '/'} ${e.message}`);
}

/** The keys seen on one path, per object of the lines (`meta`, `error`, `error meta`). */
interface Seen {
  meta: Set<string>;
  error: Set<string>;
  errorMeta: Set<string>;
}

/** One call of the table: its two spellings, whether it streams, and what it must end with. */
interface Row extends Call {
  /** Exit code expected. */
  code: number;
  /** The tool writes a stream (one line per item). */
  stream?: true;
  /** Only on paths that spell calls this way. */
  only?: Path['spelling'];
}

const row = (tool: string, argv: string[], json: Json, code = 0, extra: Partial<Row> = {}): Row => ({
  tool,
  argv: [...tool.split('_'), ...argv],
  json,
  code,
  ...extra,
});

/** The table, for one path (keys are unique per path, so a replay never crosses paths). */
function table(p: Path): Row[] {
  const k = (name: string) => `${p.name}-${name}`;
  return [
    row('read', [], {}),
    row('write', ['w1', '--dry-run'], { name: 'w1', dry_run: true }),
    row('write', ['w2', '--tag', 'a', '--idempotency-key', k('w2')], {
      name: 'w2',
      tag: ['a'],
      idempotency_key: k('w2'),
    }),
    row('write', ['w2', '--tag', 'a', '--idempotency-key', k('w2')], {
      name: 'w2',
      tag: ['a'],
      idempotency_key: k('w2'),
    }),
    row('queued', [], {}),
    row('sourced', [], {}),
    row('items', ['--count', '3'], { count: 3 }, 0, { stream: true }),
    row('items', ['--idempotency-key', k('s')], { idempotency_key: k('s') }, 0, { stream: true }),
    row('items', ['--idempotency-key', k('s')], { idempotency_key: k('s') }, 0, { stream: true }),
    row('gone', ['g1'], { id: 'g1' }, 5),
    row('gone', ['g2', '--idempotency-key', k('g2')], { id: 'g2', idempotency_key: k('g2') }, 5),
    row('gone', ['g2', '--idempotency-key', k('g2')], { id: 'g2', idempotency_key: k('g2') }, 5),
    row('flaky', ['f1'], { name: 'f1' }, 3),
    row('retry-after', ['--after', '2.5'], { after: 2.5 }, 3),
    row('lint', [], {}, 3),
    row('wrapped', [], {}, 4),
    row('settle', [k('s1')], { name: k('s1') }),
    row('pages', ['--limit', '2'], { limit: 2 }), // meta.pagination and meta.next (docs/contract.md#paging---limit---cursor)
    row('stop', [], {}, 2),
    row('write', ['w3', '--tga', 'x'], {}, 2, { only: 'argv' }),
    row('write', [], { nmae: 'w3' }, 2, { only: 'json' }),
  ];
}

/** Checks one outcome against the schemas and records the keys it wrote. */
function check(o: Outcome, r: Row, seen: Seen, where: string): void {
  expect(o.code, `${where}: ${JSON.stringify(o)}`).toBe(r.code);
  if (r.code === 0) {
    const lines = o.stdout.split('\n');
    expect(lines.pop(), `${where}: the output ends with a newline`).toBe('');
    expect(lines.length, where).toBe(r.stream ? 3 : 1);
    for (const text of lines) {
      const line = JSON.parse(text) as Json;
      expect(problems(r.stream ? checkStream : checkSuccess, line), `${where}: ${text}`).toEqual([]);
      for (const key of Object.keys(line.meta)) seen.meta.add(key);
    }
  } else {
    expect(o.stdout, where).toBe('');
    expect(problems(checkError, o.error), `${where}: ${JSON.stringify(o.error)}`).toEqual([]);
    for (const key of Object.keys(o.error!.error)) seen.error.add(key);
    for (const key of Object.keys(o.error!.meta)) seen.errorMeta.add(key);
  }
}

const paths: Path[] = [];
beforeAll(async () => {
  paths.push(
    processPath('cli', CONTRACT_CLI, ENV),
    processPath('args-json', CONTRACT_CLI, ENV),
    inProcessPath(buildContractCli, ENV),
    ...(await Promise.all([
      stdioPath(CONTRACT_CLI, ENV),
      httpPath(CONTRACT_CLI, ENV, false),
      httpPath(CONTRACT_CLI, ENV, true),
    ])),
  );
}, 120_000);
afterAll(() => Promise.all(paths.map((p) => p.close())));

const NAMES: Path['name'][] = ['cli', 'args-json', 'in-process', 'mcp-stdio', 'mcp-http', 'mcp-http-stateless'];
const keys = (schema: { properties: object }) => Object.keys(schema.properties).sort();

describe('real lines validate against the published schemas', () => {
  it('every schema is valid JSON Schema 2020-12 under Ajv strict mode', () => {
    for (const s of [SUCCESS_LINE_SCHEMA, STREAM_LINE_SCHEMA, ERROR_LINE_SCHEMA])
      expect(ajv.validateSchema(s as object), s.title).toBe(true);
  });

  it.each(NAMES)(
    'path %s: every success, stream and error line of the table holds, and together they write every field',
    async (name) => {
      const p = paths.find((x) => x.name === name)!;
      const seen: Seen = { meta: new Set(), error: new Set(), errorMeta: new Set() };
      for (const r of table(p)) {
        if (r.only && r.only !== p.spelling) continue;
        check(await p.call(r), r, seen, `${name} ${r.argv.join(' ')}`);
      }
      expect([...seen.meta].sort()).toEqual(keys(SUCCESS_LINE_SCHEMA.properties.meta));
      expect([...seen.error].sort()).toEqual(keys(ERROR_LINE_SCHEMA.properties.error));
      expect([...seen.errorMeta].sort()).toEqual(keys(ERROR_LINE_SCHEMA.properties.meta));
    },
    120_000,
  );

  it('the CLI-only success lines hold: --version and --explain in json mode', async () => {
    for (const argv of [['--version'], ['sourced', '--explain', 'level']]) {
      const r = await runScript(CONTRACT_CLI, argv, { ...minimalEnv(), ...ENV });
      expect(r.code, r.stderr).toBe(0);
      expect(problems(checkSuccess, JSON.parse(r.stdout)), argv.join(' ')).toEqual([]);
    }
  }, 60_000);

  it('the checks can fail: a line with an unknown meta field, a missing one or a wrong type is refused', () => {
    const outcome = { schema_version: '1.0.0', ok: true, exit_code: 0, duration_ms: 3 };
    const ids = { trace_id: 'a'.repeat(32), span_id: 'b'.repeat(16), idempotency_key: 'k' };
    const ok = { data: null, meta: { ...ids, ...outcome } };
    expect(problems(checkSuccess, ok)).toEqual([]);
    // the outcome is required, and a success says it succeeded
    expect(problems(checkSuccess, { data: null, meta: ids })).not.toEqual([]);
    expect(problems(checkSuccess, { ...ok, meta: { ...ok.meta, ok: false } })).not.toEqual([]);
    expect(problems(checkSuccess, { ...ok, meta: { ...ok.meta, exit_code: 1 } })).not.toEqual([]);
    expect(problems(checkSuccess, { ...ok, meta: { ...ok.meta, duration_ms: 1.5 } })).not.toEqual([]);
    expect(problems(checkSuccess, { ...ok, meta: { ...ok.meta, surprise: 1 } })).not.toEqual([]);
    expect(problems(checkSuccess, { data: 1, meta: { trace_id: 'a'.repeat(32) } })).not.toEqual([]);
    expect(problems(checkStream, { ...ok, meta: { ...ok.meta, dry_run: false } })).not.toEqual([]);
    const err = {
      error: { kind: 'x', message: 'm', exit_code: 2, retryable: false },
      meta: {
        trace_id: 'a'.repeat(32),
        tool: 't',
        version: '1',
        schema_version: '1.0.0',
        ok: false,
        exit_code: 2,
        duration_ms: 0,
      },
    };
    expect(problems(checkError, err)).toEqual([]);
    expect(problems(checkError, { ...err, meta: { ...err.meta, ok: true } })).not.toEqual([]);
    expect(problems(checkError, { ...err, meta: { ...err.meta, exit_code: 0 } })).not.toEqual([]);
    expect(problems(checkError, { ...err, error: { ...err.error, exit_code: 0 } })).not.toEqual([]);
    expect(problems(checkError, { ...err, meta: { ...err.meta, schema_version: '2.0.0' } })).not.toEqual([]);
  });
});
