/**
 * Native `Command` handlers that misbehave mean the same on every path (CLI, --args-json,
 * in-process, MCP stdio, HTTP stateful and stateless, progressive): a result JSON cannot encode is
 * `internal_error` naming it, never an envelope without `data` (docs/contract.md#success-envelope);
 * inside an object, JSON's own rule drops functions and Symbols. Real processes, real servers,
 * real SDK clients.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNativeCli } from '../fixtures/native-tree.ts';
import { rawStdio } from '../helpers/mcp.ts';
import { runScript } from '../helpers/spawn.ts';
import {
  httpPath,
  inProcessPath,
  PATH_NAMES,
  processPath,
  progressivePath,
  stdioPath,
  type Call,
  type Outcome,
  type Path,
  minimalEnv,
} from '../helpers/paths.ts';

type Json = Record<string, any>;
const NATIVE_CLI = fileURLToPath(new URL('../fixtures/native-cli.ts', import.meta.url));

/** A call of a command without positionals: `props` as CLI flags (argv given as is) and as properties. */
function call(tool: string, props: Json, argv?: string[]): Call {
  return {
    tool,
    argv: argv ?? [tool, ...Object.entries(props).flatMap(([k, v]) => [`--${k}`, String(v)])],
    json: props,
  };
}

function errorOf(o: Outcome, code: number, kind: string): Json {
  expect(o.code, JSON.stringify(o)).toBe(code);
  expect(o.stdout).toBe('');
  expect(o.error?.error.kind, JSON.stringify(o.error)).toBe(kind);
  return o.error!.error as Json;
}

const dataOf = (o: Outcome): unknown => {
  expect(o.code, JSON.stringify(o)).toBe(0);
  const line = JSON.parse(o.stdout.trim()) as Json;
  expect(Object.keys(line)).toEqual(['data', 'meta']);
  return line.data;
};

interface Rule {
  name: string;
  run(p: Path): Promise<void>;
}

const RULES: Rule[] = [
  {
    name: 'a handler that returns a function or a Symbol fails with internal_error naming it; the envelope never lacks data',
    run: async (p) => {
      const fn = errorOf(await p.call(call('returns', { what: 'fn' })), 1, 'internal_error');
      expect(fn.message).toContain("the handler's result is a function");
      const sym = errorOf(await p.call(call('returns', { what: 'symbol' })), 1, 'internal_error');
      expect(sym.message).toContain("the handler's result is a Symbol (Symbol(s))");
    },
  },
  {
    name: 'inside an object, a function, a Symbol or undefined member is left out (JSON.stringify)',
    run: async (p) => {
      expect(dataOf(await p.call(call('returns', { what: 'nested' })))).toEqual({ a: 1 });
      expect(dataOf(await p.call(call('returns', { what: 'undef' })))).toEqual({ a: 1 });
    },
  },
];

const paths: Path[] = [];
beforeAll(async () => {
  paths.push(
    processPath('cli', NATIVE_CLI, {}),
    processPath('args-json', NATIVE_CLI, {}),
    inProcessPath(buildNativeCli, {}),
    ...(await Promise.all([
      stdioPath(NATIVE_CLI, {}),
      httpPath(NATIVE_CLI, {}, false),
      httpPath(NATIVE_CLI, {}, true),
      progressivePath(NATIVE_CLI, {}),
    ])),
  );
}, 120_000);
afterAll(() => Promise.all(paths.map((p) => p.close())));

describe.each(PATH_NAMES)('path %s', (name) => {
  it.each(RULES.map((r) => [r.name, r] as const))(
    '%s',
    async (_n, rule) => {
      await rule.run(paths.find((p) => p.name === name)!);
    },
    60_000,
  );
});

/**
 * `1e309` parses to Infinity, which the SDK client and JSON.stringify would send as null: these
 * calls are written as raw JSON text, on --args-json and on the stdio server's pipe.
 */
describe('a number beyond a double (1e309, 1e400) as a value', () => {
  const expectNotFinite = (err: Json, property: string) => {
    expect(err).toMatchObject({
      kind: 'validation_error',
      exit_code: 2,
      context: { reason: 'invalid_property_value', property },
    });
    expect(err.message).toContain(`invalid value for ${property}: the number is not finite`);
    expect(err.message).toContain('1e309');
  };

  it('--args-json: invalid_property_value saying it is not finite, as other type errors', async () => {
    for (const n of ['1e309', '-1e400']) {
      const r = await runScript(NATIVE_CLI, ['limited', '--args-json', `{"limit":${n}}`], minimalEnv());
      expect(r.code, r.stderr).toBe(2);
      expectNotFinite((JSON.parse(r.stderr.trim().split('\n').pop()!) as Json).error, 'limit');
    }
  }, 60_000);

  it('MCP stdio: the same error as the tool result', async () => {
    const s = rawStdio(['mcp-server'], { cli: NATIVE_CLI });
    try {
      await s.init();
      s.write(
        '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"limited","arguments":{"limit":1e400}}}\n',
      );
      const r = (await s.response(7)).result as Json;
      expect(r.isError).toBe(true);
      expectNotFinite((JSON.parse(r.content[0].text as string) as Json).error, 'limit');
    } finally {
      s.kill();
    }
  }, 60_000);
});
