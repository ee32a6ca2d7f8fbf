// The proxy a program's environment names (docs/contract.md#proxies), through the CLI and over MCP:
// a handler's fetch() and node:http requests go through HTTPS_PROXY/HTTP_PROXY (credentials sent to
// the proxy, never shown), NO_PROXY and NODE_USE_ENV_PROXY=0 are honoured, a failed connection is a
// retryable network_error (exit 3) naming its code and the proxy with its credentials hidden, and
// doctor says who follows the variables. The proxy is a real one: absolute-form requests and
// CONNECT tunnels, to an origin server on this machine, each request noted.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, TSX_LOADER } from '../helpers/spawn.ts';
import { minimalEnv } from '../helpers/paths.ts';
import { connectEra, envelopeOf, PATHS_BY_ERAS, startHttp, type HttpFixture, type McpPath } from '../helpers/eras.ts';

const CLI = join(REPO, 'test/fixtures/fetch-cli.ts');
const COMMANDER = join(REPO, 'test/fixtures/fetch-commander.ts');
const node24 =
  typeof (process.getBuiltinModule('node:http') as { setGlobalProxyFromEnv?: unknown }).setGlobalProxyFromEnv ===
  'function';

let origin: Server;
let proxy: Server;
/** What the proxy was asked, in order: `CONNECT host:port <auth>` or `GET <absolute url> <auth>`. */
const seen: string[] = [];
const port = (s: Server) => (s.address() as AddressInfo).port;
const listen = (s: Server) => new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));

beforeAll(async () => {
  origin = createServer((req, res) => res.end(`origin saw ${req.headers.host}${req.url}`));
  proxy = createServer((req, res) => {
    seen.push(`GET ${req.url} ${req.headers['proxy-authorization'] ?? '-'}`);
    res.end(`proxy answered ${req.url}`);
  });
  proxy.on('connect', (req, socket, head) => {
    seen.push(`CONNECT ${req.url} ${req.headers['proxy-authorization'] ?? '-'}`);
    const up = connect(port(origin), '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      up.write(head);
      up.pipe(socket).pipe(up);
    });
    up.on('error', () => socket.destroy());
  });
  await Promise.all([listen(origin), listen(proxy)]);
});
afterAll(() => {
  origin.close();
  proxy.close();
});

/** Runs the fixture in json mode with `env` added (asynchronously: the proxy and origin are this process's). */
async function cli(args: string[], env: Record<string, string>, program = CLI) {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, program, ...args, '--format', 'json'], {
    cwd: REPO,
    env: { ...minimalEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const [code] = (await once(child, 'close')) as [number | null];
  const last = err.trim().split('\n').at(-1) ?? '';
  return {
    code,
    out: out ? JSON.parse(out) : undefined,
    err,
    line: last.startsWith('{') ? (JSON.parse(last).error as Record<string, any>) : undefined,
  };
}

const via = () => `http://alice:s3cret@127.0.0.1:${port(proxy)}`;
const ALICE = `Basic ${Buffer.from('alice:s3cret').toString('base64')}`;

describe.skipIf(!node24)('a handler’s requests follow the proxy the environment names (command line)', () => {
  it('fetch() goes through HTTP_PROXY (a CONNECT tunnel, with the credentials of its URL)', async () => {
    seen.length = 0;
    const r = await cli(['get', 'http://far.example/x'], { HTTP_PROXY: via() });
    expect(r.code, r.err).toBe(0);
    expect(r.out.data).toEqual({ status: 200, body: 'origin saw far.example/x' });
    expect(seen).toEqual([`CONNECT far.example:80 ${ALICE}`]);
  });

  it('node:http goes through http_proxy (lowercase) as an absolute-form request', async () => {
    seen.length = 0;
    const r = await cli(['request', 'http://far.example/y'], { http_proxy: via() });
    expect(r.code, r.err).toBe(0);
    expect(r.out.data).toEqual({ status: 200, body: 'proxy answered http://far.example/y' });
    expect(seen).toEqual([`GET http://far.example/y ${ALICE}`]);
  });

  it.each([
    ['NO_PROXY names the host', { NO_PROXY: '127.0.0.1' }],
    ['NODE_USE_ENV_PROXY=0 keeps the proxy off', { NODE_USE_ENV_PROXY: '0' }],
  ])('%s: the request goes straight to the origin', async (_why, extra) => {
    seen.length = 0;
    const r = await cli(['get', `http://127.0.0.1:${port(origin)}/z`], { HTTP_PROXY: via(), ...extra });
    expect(r.code, r.err).toBe(0);
    expect(r.out.data.body).toBe(`origin saw 127.0.0.1:${port(origin)}/z`);
    expect(seen).toEqual([]);
  });

  it('a proxy that refuses: network_error, exit 3, retryable, the code and the proxy named without its credentials', async () => {
    const r = await cli(['get', 'http://far.example/x'], {
      HTTPS_PROXY: 'http://bob:hunter2@127.0.0.1:1',
      HTTP_PROXY: 'http://bob:hunter2@127.0.0.1:1',
      NO_PROXY: 'localhost',
    });
    expect(r.code, r.err).toBe(3);
    expect(r.line).toMatchObject({
      kind: 'network_error',
      exit_code: 3,
      retryable: true,
      context: {
        code: 'ECONNREFUSED',
        proxy: { HTTPS_PROXY: 'http://***@127.0.0.1:1', HTTP_PROXY: 'http://***@127.0.0.1:1', NO_PROXY: 'localhost' },
      },
    });
    expect(r.line?.message).toMatch(/^fetch failed: connect ECONNREFUSED 127\.0\.0\.1:1$/);
    expect(r.line?.actionable_fix).toMatch(/HTTPS_PROXY/);
    expect(r.err).not.toContain('hunter2');
  });

  it('a proxy that wants credentials (407) it was not given: network_error, exit 3, the proxy named', async () => {
    const strict = createServer((_req, res) => res.writeHead(407, { 'proxy-authenticate': 'Basic' }).end());
    strict.on('connect', (_req, socket) =>
      socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n'),
    );
    await listen(strict);
    try {
      const r = await cli(['get', 'http://far.example/x'], { HTTP_PROXY: `http://127.0.0.1:${port(strict)}` });
      expect(r.code, r.err).toBe(3);
      expect(r.line).toMatchObject({
        kind: 'network_error',
        retryable: true,
        context: { code: 'fetch_failed', proxy: { HTTP_PROXY: `http://127.0.0.1:${port(strict)}` } },
      });
    } finally {
      strict.close();
    }
  });

  it('without a proxy, a refused connection is the same network_error, with no proxy in its context', async () => {
    const r = await cli(['request', 'http://127.0.0.1:1/'], {});
    expect(r.code, r.err).toBe(3);
    expect(r.line).toMatchObject({
      kind: 'network_error',
      retryable: true,
      context: { code: 'ECONNREFUSED', syscall: 'connect', port: 1 },
    });
    expect(r.line?.context.proxy).toBeUndefined();
  });

  it('a proxy URL without a scheme is an http:// one, as curl reads it: followed, its credentials hidden', async () => {
    seen.length = 0;
    const bare = `alice:s3cret@127.0.0.1:${port(proxy)}`;
    const r = await cli(['get', 'http://far.example/bare'], { HTTP_PROXY: bare });
    expect(r.code, r.err).toBe(0);
    expect(r.out.data.body).toBe('origin saw far.example/bare');
    expect(seen).toEqual([`CONNECT far.example:80 ${ALICE}`]);
    const down = await cli(['get', 'http://far.example/x'], { HTTP_PROXY: 'bob:hunter2@127.0.0.1:1' });
    expect(down.code, down.err).toBe(3);
    expect(down.line?.context.proxy).toEqual({ HTTP_PROXY: '***@127.0.0.1:1' });
    expect(down.err).not.toContain('hunter2');
  });

  it.each([
    ['a scheme Node cannot use', 'socks4://bob:hunter2@127.0.0.1:1'],
    ['a URL that does not parse', 'http://bob:hunter2@[::1'],
    ['a password with # in it, unescaped', 'http://bob:12#hunter2@127.0.0.1:1'],
  ])('%s: the proxy stays off (requests go straight), doctor says why, the password nowhere', async (_why, value) => {
    seen.length = 0;
    const r = await cli(['get', `http://127.0.0.1:${port(origin)}/direct`], { HTTP_PROXY: value });
    expect(r.code, r.err).toBe(0);
    expect(r.out.data.body).toBe(`origin saw 127.0.0.1:${port(origin)}/direct`);
    expect(seen).toEqual([]);
    const d = await cli(['doctor'], { HTTP_PROXY: value });
    expect(d.code, d.err).toBe(0);
    expect(d.out.data.proxy.followed_by).toBe('unsupported');
    expect(d.out.data.problems.join('\n')).toMatch(/HTTP_PROXY.*Node\.js cannot use it/);
    expect(JSON.stringify(d.out) + d.err + r.err).not.toContain('hunter2');
  });

  it('a front end’s action, run in a process of its own, follows the proxy too', async () => {
    seen.length = 0;
    const r = await cli(['get', 'http://far.example/cm'], { HTTP_PROXY: via() }, COMMANDER);
    expect(r.code, r.err).toBe(0);
    expect(r.out.data).toEqual({ status: 200, body: 'origin saw far.example/cm' });
    expect(seen).toEqual([`CONNECT far.example:80 ${ALICE}`]);
  });

  it('a proxy that wants credentials (407) is network_error fetch_failed from a front end’s action too', async () => {
    const strict = createServer((_req, res) => res.writeHead(407).end());
    strict.on('connect', (_req, socket) => socket.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n'));
    await listen(strict);
    try {
      const r = await cli(
        ['get', 'http://far.example/cm'],
        { HTTP_PROXY: `http://bob:hunter2@127.0.0.1:${port(strict)}` },
        COMMANDER,
      );
      expect(r.code, r.err).toBe(3);
      expect(r.line).toMatchObject({ kind: 'network_error', context: { code: 'fetch_failed' } });
      expect(r.err).not.toContain('hunter2');
    } finally {
      strict.close();
    }
  });

  it('doctor names the variables, credentials hidden, and who follows them', async () => {
    const r = await cli(['doctor'], { HTTPS_PROXY: via(), NO_PROXY: 'localhost' });
    expect(r.code, r.err).toBe(0);
    expect(r.out.data.proxy).toEqual({
      variables: { HTTPS_PROXY: `http://***@127.0.0.1:${port(proxy)}`, NO_PROXY: 'localhost' },
      followed_by: 'ax-ts',
    });
    expect((await cli(['doctor'], {})).out.data.proxy).toBeNull();
    expect((await cli(['doctor'], { HTTPS_PROXY: via(), NODE_USE_ENV_PROXY: '0' })).out.data.proxy.followed_by).toBe(
      'off',
    );
  });
});

describe.skipIf(!node24)(
  'over MCP: a tool’s requests follow the server’s proxy, and a refused one is network_error',
  () => {
    const servers = new Map<string, HttpFixture>();
    afterAll(async () => Promise.all([...servers.values()].map((s) => s.stop())));
    /** The server of a cell with `env` (one each: a server keeps its tunnel open for the next call). */
    async function url(path: McpPath, era: string, env: Record<string, string>): Promise<string | undefined> {
      if (path === 'stdio') return undefined;
      const key = `${path} ${era} ${JSON.stringify(env)}`;
      if (!servers.has(key))
        servers.set(key, await startHttp(CLI, path === 'http-stateless' ? ['--stateless'] : [], env));
      return servers.get(key)!.url;
    }

    it.each(PATHS_BY_ERAS)('%s, %s era', async (path, era) => {
      seen.length = 0;
      const good = { HTTP_PROXY: via() };
      const c = await connectEra(era, path, { cli: CLI, url: await url(path, era, good), env: good });
      try {
        const ok = await c.callTool('get', { url: 'http://far.example/mcp' });
        expect(ok.isError, JSON.stringify(ok)).toBeFalsy();
        expect(envelopeOf(ok).data).toEqual({ status: 200, body: 'origin saw far.example/mcp' });
        expect(seen).toEqual([`CONNECT far.example:80 ${ALICE}`]);
      } finally {
        await c.close();
      }
      const bad = { HTTP_PROXY: 'http://bob:hunter2@127.0.0.1:1' };
      const d = await connectEra(era, path, { cli: CLI, url: await url(path, era, bad), env: bad });
      try {
        const failed = await d.callTool('get', { url: 'http://far.example/mcp' });
        expect(failed.isError).toBe(true);
        expect(JSON.stringify(failed)).not.toContain('hunter2');
        expect(envelopeOf(failed).error).toMatchObject({
          kind: 'network_error',
          retryable: true,
          context: { code: 'ECONNREFUSED', proxy: { HTTP_PROXY: 'http://***@127.0.0.1:1' } },
        });
      } finally {
        await d.close();
      }
    });
  },
);
