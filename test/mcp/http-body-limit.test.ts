/**
 * A body over `--max-body` is refused with a 413 the client can read even while it is still
 * writing: the server reads and discards the rest (nginx's lingering close) instead of resetting
 * the connection, within a bound of bytes and time. Raw sockets make the order deterministic: the
 * client reads the whole 413 first and only then writes the rest of its body. Table-driven over
 * every reader of a body: stateful without a session, stateful with one, stateless, and the
 * newer-revision probe. A client that hangs up mid-body is its own doing: not logged unless AX_DEBUG.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, postHeaders, rawInitialize, startServer, type RunningServer } from '../fixtures/http-harness.ts';

const MAX = 4 * 1024 * 1024; // the default --max-body
const LINGER_BYTES = 64 * 1024 * 1024; // mcp/http-guard.ts LINGER

afterAll(() => killAll());

/** What the client saw of one raw exchange. */
interface Exchange {
  status: number;
  body: string;
  /** Bytes of the request body the client wrote before the connection ended or failed. */
  written: number;
  /** How the connection ended: 'end' (the server's FIN after reading everything) or an error code. */
  ended: string;
  /** ms from the 413's arrival to the connection's end. */
  msAfterAnswer: number;
}

/** Opens a raw connection and sends the request head. */
function open(url: string, headers: Record<string, string>): Socket {
  const u = new URL(url);
  const s = connect({ host: u.hostname, port: Number(u.port) });
  const head = [
    `POST ${u.pathname} HTTP/1.1`,
    `host: ${u.host}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ].join('\r\n');
  s.write(head);
  return s;
}

/**
 * Sends `first` bytes of body, waits for the whole 413, then `then`: 'rest' writes the remaining
 * `total - first` bytes and ends; 'flood' writes until the connection fails; 'stall' writes nothing.
 */
function exchange(
  url: string,
  headers: Record<string, string>,
  first: number,
  total: number | 'chunked',
  then: 'rest' | 'flood' | 'stall',
): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const chunked = total === 'chunked';
    const s = open(url, {
      ...headers,
      ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(total) }),
    });
    const piece = Buffer.alloc(256 * 1024, 0x78);
    const frame = (b: Buffer): Buffer =>
      chunked ? Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')]) : b;
    let written = 0;
    let raw = Buffer.alloc(0);
    let answer: { status: number; body: string } | undefined;
    let answeredAt = 0;
    let settled = false;
    const finish = (ended: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(guard);
      s.destroy();
      if (!answer)
        return reject(
          new Error(
            `the connection ended (${ended}) before a full answer; got ${JSON.stringify(raw.toString('latin1').slice(0, 300))}`,
          ),
        );
      resolve({ ...answer, written, ended, msAfterAnswer: Date.now() - answeredAt });
    };
    const guard = setTimeout(() => finish('timeout'), 30_000);
    s.on('error', (e: NodeJS.ErrnoException) => finish(e.code ?? e.message));
    s.on('end', () => finish('end'));
    const writeUpTo = (limit: number, done: () => void): void => {
      while (written < limit && !settled) {
        const n = Math.min(piece.length, limit - written);
        written += n;
        if (!s.write(frame(piece.subarray(0, n)))) return void s.once('drain', () => writeUpTo(limit, done));
      }
      if (!settled) done();
    };
    s.on('data', (c: Buffer) => {
      if (answer) return;
      raw = Buffer.concat([raw, c]);
      const sep = raw.indexOf('\r\n\r\n');
      if (sep < 0) return;
      const head = raw.subarray(0, sep).toString('latin1');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? NaN);
      if (raw.length - sep - 4 < length) return;
      answer = { status: Number(head.split(' ')[1]), body: raw.subarray(sep + 4, sep + 4 + length).toString('utf8') };
      answeredAt = Date.now();
      if (then === 'rest') writeUpTo(total as number, () => (chunked ? s.end('0\r\n\r\n') : s.end()));
      if (then === 'flood') writeUpTo(Number.MAX_SAFE_INTEGER, () => {});
    });
    writeUpTo(first, () => {});
  });
}

/** Announces a 100 kB body, sends its first bytes, and closes the connection. */
async function hangUpMidBody(url: string, headers: Record<string, string>): Promise<void> {
  const s = open(url, { ...headers, 'content-length': '100000' });
  s.on('error', () => {});
  s.write('{"jsonrpc":"2.0",');
  await new Promise((r) => setTimeout(r, 100));
  s.destroy();
}

const PATHS: { name: string; stateless: boolean; headers: (url: string) => Promise<Record<string, string>> }[] = [
  { name: 'stateful, no session (initialize)', stateless: false, headers: async () => postHeaders() },
  {
    name: 'stateful, in a session',
    stateless: false,
    headers: async (url) => postHeaders({ 'mcp-session-id': (await rawInitialize(url)).sessionId! }),
  },
  { name: 'stateless', stateless: true, headers: async () => postHeaders() },
  {
    name: 'a newer revision’s probe',
    stateless: false,
    headers: async () => postHeaders({ 'mcp-protocol-version': '2099-01-01' }),
  },
];

describe('a body over --max-body', () => {
  let stateful: RunningServer;
  let stateless: RunningServer;
  const urlOf = (p: (typeof PATHS)[number]): string => (p.stateless ? stateless : stateful).url;
  beforeAll(async () => {
    [stateful, stateless] = await Promise.all([startServer(), startServer(['--stateless'])]);
  });
  afterAll(async () => {
    await Promise.all([stateful?.stop(), stateless?.stop()]);
  });

  it.each(PATHS)(
    '$name: the 413 arrives while the client still writes; the rest is read, then the server closes cleanly',
    async (p) => {
      const total = 20 * 1024 * 1024;
      const x = await exchange(urlOf(p), await p.headers(urlOf(p)), MAX + 1024 * 1024, total, 'rest');
      expect(x.status).toBe(413);
      const body = JSON.parse(x.body);
      expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
      expect(body.error.message).toMatch(/Payload Too Large.*4194304 bytes/);
      expect(x.written).toBe(total); // every byte went out: no EPIPE, no reset
      expect(x.ended).toBe('end');
    },
    40_000,
  );

  it.each(PATHS)(
    '$name: a client that never stops writing is cut after about LINGER.bytes more',
    async (p) => {
      const x = await exchange(urlOf(p), await p.headers(urlOf(p)), MAX + 1024 * 1024, 'chunked', 'flood');
      expect(x.status).toBe(413);
      expect(x.ended).not.toBe('timeout');
      expect(x.written).toBeGreaterThan(LINGER_BYTES);
      expect(x.written).toBeLessThan(MAX + LINGER_BYTES + 32 * 1024 * 1024); // slack: socket buffers on both sides
    },
    40_000,
  );

  it('every path: a client that stalls after the 413 is cut after LINGER.ms (run side by side)', async () => {
    const all = await Promise.all(
      PATHS.map(async (p) => exchange(urlOf(p), await p.headers(urlOf(p)), MAX + 1024 * 1024, 'chunked', 'stall')),
    );
    for (const [i, x] of all.entries()) {
      expect(x.status, PATHS[i]!.name).toBe(413);
      expect(x.ended, PATHS[i]!.name).not.toBe('timeout');
      expect(x.msAfterAnswer, PATHS[i]!.name).toBeGreaterThan(4_000);
    }
  }, 40_000);

  it.each(PATHS)('$name: the server still answers afterwards', async (p) => {
    const r = await fetch(urlOf(p), {
      method: 'POST',
      headers: await p.headers(urlOf(p)),
      body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'ping' }),
    });
    expect([200, 400]).toContain(r.status); // 400: the probe's -32022
    await r.text();
  });

  it.each(PATHS)('$name: a client that hangs up mid-body is not logged as a server failure', async (p) => {
    await hangUpMidBody(urlOf(p), await p.headers(urlOf(p)));
    await new Promise((r) => setTimeout(r, 300));
    expect(stateful.stderr() + stateless.stderr()).not.toMatch(/request failed/);
  });

  it('with AX_DEBUG=1 the hang-up is logged, naming it', async () => {
    const debug = await startServer(['--stateless'], { env: { AX_DEBUG: '1' } });
    try {
      await hangUpMidBody(debug.url, postHeaders());
      const until = Date.now() + 5_000;
      while (!/request failed/.test(debug.stderr()) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(debug.stderr()).toMatch(/mcp-server: request failed: the client went away before the request body ended/);
    } finally {
      await debug.stop();
    }
  });

  it('no refusal was logged as a server failure', () => {
    expect(stateful.stderr() + stateless.stderr()).not.toMatch(/request failed|Error/);
  });
});
