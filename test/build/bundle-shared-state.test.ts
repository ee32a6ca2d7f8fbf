/**
 * A bundled program carries lib more than once — its main bundle and each heavy chunk (the MCP
 * runtime, the HTTP stack, the --args-json validator: lib/build/plugins.ts) — and every copy reads the
 * same resolved views of the same Command objects (lib/tree/resolved.ts). The views must hold across
 * the copies: with a tree generation (or a registry) per copy, each copy's views looked stale to the other, and every MCP call rebuilt a command's flag set and
 * tool properties (docs/performance.md). Proved on a built fixture over stdio and HTTP, through the SDK client.
 * Requires `npm run build` (npm test runs it first).
 */
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { bundledFixture } from '../helpers/bundled.ts';
import { beforeAll, describe, expect, it } from 'vitest';

let entry: string;

beforeAll(async () => {
  ({ entry } = await bundledFixture('test/fixtures/cache-probe-cli.ts', 'probe', { prefix: 'ax-cache-probe-' }));
}, 120_000);

const env = () => ({ PATH: process.env.PATH ?? '', HOME: tmpdir() });

async function sameOnEachCall(client: Client, calls: number): Promise<boolean[]> {
  const seen: boolean[] = [];
  for (let i = 0; i < calls; i++) {
    const r = (await client.callTool({ name: 'same', arguments: {} })) as {
      content: { type: string; text?: string }[];
      isError?: boolean;
    };
    expect(r.isError, JSON.stringify(r)).toBeFalsy();
    seen.push((JSON.parse(r.content[0]!.text!) as { data: { same: boolean } }).data.same); // the envelope
  }
  return seen;
}

describe('bundle: the copies of lib share one tree generation', () => {
  it('stdio: a command keeps its cache record from one tools/call to the next', async () => {
    const client = new Client({ name: 'cache-probe', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [entry, 'mcp-server'],
        env: env(),
        stderr: 'ignore',
      }),
    );
    try {
      expect(await sameOnEachCall(client, 4)).toEqual([false, true, true, true]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('HTTP: the same, stateful', async () => {
    const proc = spawn(process.execPath, [entry, 'mcp-server', '--transport', 'http', '--addr', '127.0.0.1:0'], {
      env: env(),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = '';
        proc.stderr!.setEncoding('utf8');
        proc.stderr!.on('data', (c: string) => {
          err += c;
          const m = /listening on (http:\/\/\S+\/mcp)/.exec(err);
          if (m) resolve(m[1]!);
        });
        proc.once('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
      });
      const client = new Client({ name: 'cache-probe', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      try {
        expect(await sameOnEachCall(client, 4)).toEqual([false, true, true, true]);
      } finally {
        await client.close();
      }
    } finally {
      proc.kill('SIGTERM');
    }
  }, 60_000);
});
