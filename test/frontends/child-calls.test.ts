/**
 * Under `mcp-server`, each call of a front-ended program runs the program's own entry in a process of
 * its own (docs/frontends.md#how-a-call-runs): calls run concurrently, a call that never settles
 * ends at its timeout with its whole process tree, a late print stays in its own call, `process.exit`
 * in an action is `command_failed` with its exit code and what was printed, a client's cancellation
 * ends that call's process tree and no other, and every value arrives
 * as the value it is (never an option, help or another command). Real server processes, both eras'
 * SDK clients, stdio and HTTP, commander and yargs.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectEra, startHttp, type EraName, type McpPath } from '../helpers/eras.ts';
import { alive, isJsonRpc, rawStdio, REPO, tempDir, until } from '../helpers/mcp.ts';

const FRONT_ENDS = [
  ['commander', join(REPO, 'test/frontends/fixtures/calls-commander.ts')],
  ['yargs', join(REPO, 'test/frontends/fixtures/calls-yargs.ts')],
] as const;

/** The paths and eras each front end is served on here (a table row each). */
const SETUPS: [McpPath, EraName][] = [
  ['stdio', 'legacy'],
  ['http', 'modern'],
];

const dirs: { cleanup(): void }[] = [];
afterAll(() => dirs.forEach((d) => d.cleanup()));

/** A connected client of the fixture served with `flags`, and its stop. */
async function serve(cli: string, path: McpPath, era: EraName, env: Record<string, string>, flags: string[] = []) {
  if (path === 'stdio') {
    const client = await connectEra(era, path, { cli, env, server: ['mcp-server', ...flags] });
    return { client, stop: () => client.close() };
  }
  const http = await startHttp(cli, flags, env);
  const client = await connectEra(era, path, { cli, url: http.url });
  return {
    client,
    stop: async () => {
      await client.close();
      await http.stop();
    },
  };
}

/** Runs `fn` with a client of the fixture served with `flags`, then stops the server. */
async function withServer(
  cli: string,
  path: McpPath,
  era: EraName,
  env: Record<string, string>,
  fn: (client: Awaited<ReturnType<typeof serve>>['client']) => Promise<void>,
  flags: string[] = [],
): Promise<void> {
  const { client, stop } = await serve(cli, path, era, env, flags);
  try {
    await fn(client);
  } finally {
    await stop();
  }
}

/** The first text item's envelope, and the text items after it. */
function read(result: Record<string, any>): { envelope: Record<string, any>; printed: string } {
  const texts = (result.content as { type: string; text: string }[]).map((c) => c.text);
  return { envelope: JSON.parse(texts[0]!) as Record<string, any>, printed: texts.slice(1).join('') };
}

describe.each(FRONT_ENDS)('%s', (_name, cli) => {
  describe.each(SETUPS)('over %s, %s era', (path, era) => {
    it('8 calls in flight, one never settles: the other 7 answer; the stuck one ends at its timeout, its process tree gone', async () => {
      const dir = tempDir('ax-child-calls-');
      dirs.push(dir);
      const { client, stop } = await serve(cli, path, era, { PID_DIR: dir.path }, ['--timeout', '10s']);
      try {
        const order: string[] = [];
        const hang = client.callTool('hang').then((r) => (order.push('hang'), r));
        const quick = Array.from({ length: 7 }, (_, i) =>
          client.callTool('quick', { n: String(i) }).then((r) => (order.push(`quick ${i}`), r)),
        );
        const answers = await Promise.all(quick);
        const pids = answers.map((r, i) => {
          const { envelope } = read(r);
          expect(r.isError, JSON.stringify(r)).toBeFalsy();
          expect(envelope.data.n).toBe(String(i));
          return envelope.data.pid as number;
        });
        // each call ran in a process of its own
        expect(new Set(pids).size).toBe(7);
        const stuck = await hang;
        expect(order.at(-1)).toBe('hang');
        expect(stuck.isError).toBe(true);
        expect(read(stuck).envelope.error).toMatchObject({ kind: 'timeout' });
        const [child, grandchild] = readFileSync(join(dir.path, 'hang'), 'utf8').split(' ').map(Number);
        expect(await until(() => !alive(child!) && !alive(grandchild!), 5000)).toBe(true);
      } finally {
        await stop();
      }
    }, 60_000);

    it(
      "a print from a timer after the action returned is in that call's result, never the next call's",
      () =>
        withServer(cli, path, era, {}, async (client) => {
          const first = read(await client.callTool('late', { tag: 'A' }));
          const second = read(await client.callTool('late', { tag: 'B' }));
          expect(first.printed).toBe('now A\nlate A\n');
          expect(second.printed).toBe('now B\nlate B\n');
        }),
      60_000,
    );

    it(
      'process.exit(3) in an action: command_failed, exit_code 3, with what it printed',
      () =>
        withServer(cli, path, era, {}, async (client) => {
          const r = await client.callTool('leave');
          expect(r.isError).toBe(true);
          const { envelope, printed } = read(r);
          expect(envelope.error).toMatchObject({ kind: 'command_failed', exit_code: 3 });
          expect(printed).toBe('leaving\n');
        }),
      60_000,
    );
  });

  it(
    'every value arrives as the value it is: never an option, help, the version or another command',
    () =>
      withServer(cli, 'stdio', 'modern', {}, async (client) => {
        for (const value of ['-h', '--help', '--version', '--secret', '--', '', 'a=b', '--text=x']) {
          const r = await client.callTool('echo', { text: value });
          expect(r.isError, `${JSON.stringify(value)}: ${JSON.stringify(r)}`).toBeFalsy();
          expect(read(r).envelope.data, JSON.stringify(value)).toMatchObject({ text: value, secret: null });
        }
      }),
    60_000,
  );
});

describe.each(FRONT_ENDS)("%s: a client's cancellation", (_name, cli) => {
  it("ends that call's process tree, never another call", async () => {
    const dir = tempDir('ax-child-cancel-');
    dirs.push(dir);
    await withServer(cli, 'stdio', 'legacy', { PID_DIR: dir.path }, async (client) => {
      const stop = new AbortController();
      const legacy = client.client as LegacyClient;
      const hang = legacy
        .callTool({ name: 'hang', arguments: {} }, undefined, { signal: stop.signal, timeout: 60_000 })
        .catch((e: unknown) => e);
      expect(await until(() => existsSync(join(dir.path, 'hang')), 20_000)).toBe(true);
      const quick = client.callTool('quick', { n: '1' });
      stop.abort();
      await hang;
      const [child, grandchild] = readFileSync(join(dir.path, 'hang'), 'utf8').split(' ').map(Number);
      expect(await until(() => !alive(child!) && !alive(grandchild!), 5000)).toBe(true);
      const other = await quick;
      expect(other.isError).toBeFalsy();
      expect(read(other).envelope.data.n).toBe('1');
    });
  }, 60_000);
});

describe('commander: short-only options and positionals', () => {
  const cli = FRONT_ENDS[0][1];
  it(
    'a short-only option with an optional value and a positional take any value as the value',
    () =>
      withServer(cli, 'stdio', 'legacy', {}, async (client) => {
        for (const value of ['-h', '--help', '-V', '--secret', '--', 'a=b', 'echo', 'help']) {
          const r = await client.callTool('echo', { c: value, word: value });
          expect(r.isError, `${JSON.stringify(value)}: ${JSON.stringify(r)}`).toBeFalsy();
          expect(read(r).envelope.data, JSON.stringify(value)).toMatchObject({ c: value, word: value });
        }
      }),
    60_000,
  );
});

describe.each([
  ['commander', {}],
  ['yargs', { GREET_YARGS: '1' }],
] as const)('%s: work after a synchronous parse()', (_name, env) => {
  const cli = join(REPO, 'test/frontends/fixtures/greet-sync.ts');

  it('is served, and nothing reaches the stdio protocol stream outside JSON-RPC', async () => {
    const server = rawStdio(['mcp-server'], { cli, env });
    try {
      await server.init();
      const r = await server.request(2, 'tools/call', { name: 'greet', arguments: { name: 'bob' } });
      const content = (r.result as { content: { text: string }[] }).content;
      expect(JSON.parse(content[0]!.text)).toMatchObject({ data: null });
      expect(content[1]!.text).toBe('hello bob\n');
      for (const line of server.lines) expect(isJsonRpc(JSON.parse(line)), line).toBe(true);
      expect(server.stdoutBytes().toString('utf8').endsWith('\n')).toBe(true);
    } finally {
      server.kill();
    }
  }, 60_000);
});
