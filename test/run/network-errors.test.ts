// What a handler throws when the network fails becomes network_error (docs/contract.md#network-failures),
// through the in-process `execute` path: the errno codes of a connection that failed (retryable), an
// untrusted server certificate (not retryable, the fix naming NODE_EXTRA_CA_CERTS), found on the
// error itself or down its cause chain as fetch() throws it; anything else stays internal_error.
import { describe, expect, it } from 'vitest';
import { Command, execute } from '../../lib/index.ts';

/** Runs a command whose handler throws `thrown` in json mode; @returns the exit code and the error line's error. */
async function failWith(thrown: unknown, env: Record<string, string> = {}) {
  const root = new Command({ use: 'netfx', version: '1.0.0' });
  root.addCommand(
    new Command({
      use: 'go',
      effects: 'read_only',
      run: () => {
        throw thrown;
      },
    }),
  );
  let err = '';
  const code = await execute(root, {
    args: ['go', '--format', 'json'],
    stdout: { write: () => true },
    stderr: { write: (s: string) => ((err += s), true) },
    env,
  });
  return { code, error: JSON.parse(err.trim().split('\n').at(-1)!).error as Record<string, any> };
}

/** An error as Node's net and dns modules make them. */
function errno(code: string, message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { code, ...extra });
}

describe('a network failure thrown by a handler is network_error', () => {
  it.each([
    ['ECONNREFUSED', { syscall: 'connect', address: '10.0.0.1', port: 443 }],
    ['ECONNRESET', { syscall: 'read' }],
    ['ETIMEDOUT', { syscall: 'connect' }],
    ['ENOTFOUND', { syscall: 'getaddrinfo', hostname: 'api.example' }],
    ['EAI_AGAIN', { syscall: 'getaddrinfo', hostname: 'api.example' }],
    ['EHOSTUNREACH', {}],
    ['ENETUNREACH', {}],
    ['UND_ERR_CONNECT_TIMEOUT', {}],
    ['UND_ERR_SOCKET', {}],
  ])('%s: exit 3, retryable, the code and the peer in context', async (code, extra) => {
    const r = await failWith(errno(code, `${code.toLowerCase()} happened`, extra));
    expect(r.code).toBe(3);
    expect(r.error).toMatchObject({
      kind: 'network_error',
      exit_code: 3,
      retryable: true,
      context: { code, ...extra },
    });
    expect(r.error.message).toBe(`${code.toLowerCase()} happened`);
  });

  it('fetch()’s TypeError: the cause’s code, and its words after "fetch failed"', async () => {
    const cause = errno('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1', { syscall: 'connect', port: 1 });
    const r = await failWith(new TypeError('fetch failed', { cause }));
    expect(r.error).toMatchObject({ kind: 'network_error', context: { code: 'ECONNREFUSED', port: 1 } });
    expect(r.error.message).toBe('fetch failed: connect ECONNREFUSED 127.0.0.1:1');
  });

  it('fetch()’s TypeError with a cause that has no code (a proxy’s 407 reads "Request was cancelled."): network_error, code fetch_failed', async () => {
    const r = await failWith(
      new TypeError('fetch failed', { cause: Object.assign(new Error('Request was cancelled.'), { code: 0 }) }),
    );
    expect(r.code).toBe(3);
    expect(r.error).toMatchObject({ kind: 'network_error', retryable: true, context: { code: 'fetch_failed' } });
    expect(r.error.message).toBe('fetch failed: Request was cancelled.');
  });

  it('an untrusted server certificate: network_error, not retryable, the fix names NODE_EXTRA_CA_CERTS', async () => {
    const cause = errno('SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in certificate chain');
    const r = await failWith(new TypeError('fetch failed', { cause }));
    expect(r.code).toBe(3);
    expect(r.error).toMatchObject({
      kind: 'network_error',
      retryable: false,
      context: { code: 'SELF_SIGNED_CERT_IN_CHAIN' },
    });
    expect(r.error.actionable_fix).toMatch(/NODE_EXTRA_CA_CERTS=/);
  });

  it('names the proxy of the run’s environment, its credentials hidden; an unparsable one is ***', async () => {
    const env = { HTTPS_PROXY: 'http://me:pw@proxy.corp:3128', http_proxy: 'not a url', no_proxy: '.corp' };
    const r = await failWith(errno('ECONNRESET', 'socket hang up'), env);
    expect(r.error.context.proxy).toEqual({
      HTTPS_PROXY: 'http://***@proxy.corp:3128',
      http_proxy: '***',
      no_proxy: '.corp',
    });
  });

  it('an error that quotes the proxy URL shows its credentials redacted, as written, %-decoded or as the Basic token', async () => {
    const url = 'http://me:pa%40ss@proxy.corp:3128';
    const basic = Buffer.from('me:pa@ss').toString('base64');
    const env = { HTTPS_PROXY: url };
    const net = await failWith(new Error(`could not reach ${url}`, { cause: errno('ECONNREFUSED', 'refused') }), env);
    expect(net.error.kind).toBe('network_error');
    expect(net.error.message).toBe('could not reach http://[redacted]@proxy.corp:3128: refused');
    const other = await failWith(new Error(`proxy said no to pa@ss (Proxy-Authorization: Basic ${basic})`), env);
    expect(other.error.kind).toBe('internal_error');
    expect(other.error.message).toBe('proxy said no to [redacted] (Proxy-Authorization: Basic [redacted])');
    // a bare user:password without a scheme, in a lowercase variable
    const bare = await failWith(new Error('cannot use me2:hunter2@proxy.corp:3128'), {
      https_proxy: 'me2:hunter2@proxy.corp:3128',
    });
    expect(bare.error.message).toBe('cannot use [redacted]@proxy.corp:3128');
  });

  it.each([
    ['EACCES (a file, not the network)', errno('EACCES', 'permission denied')],
    ['a code that is not a string', errno(42 as unknown as string, 'odd')],
    ['a plain Error', new Error('boom')],
    ['a TypeError of the handler’s own', new TypeError('x is not a function')],
  ])('%s stays internal_error', async (_what, thrown) => {
    expect((await failWith(thrown)).error.kind).toBe('internal_error');
  });
});
