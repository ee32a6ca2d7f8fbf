/**
 * An {@link IdempotencyStore} in Redis, for replayed retries shared by several machines (stateless
 * `mcp-server` replicas behind a load balancer, a fleet of CLI hosts): a retry that lands on another
 * replica replays the first outcome. Built on the `redis` npm client, an optional dependency that is
 * imported (dynamically) only when the store is first used, so runs that do not use it never load it.
 *
 * One Redis string per key, `<prefix><program>:<sha256 of scopeId(scope)>`, holding a JSON entry:
 * a claim (`{"v":1,"state":"running","token",…}`, expiring after the lease) or a record
 * (`{"v":1,"state":"recorded","record",…}`, expiring after the TTL). Redis's own expiry is the clock,
 * so replicas need no synchronised time. Each operation is one atomic Lua script (claim, renew,
 * complete, release), so the semantics are the file store's (lib/store/file-store.ts) to the letter.
 *
 * Failure is bounded and fails closed: a server that refuses, stalls or is unreachable makes the
 * operation reject within `connectTimeoutMs` + `commandTimeoutMs` with an AxError
 * `idempotency_store_unavailable` (exit 1, retryable, with a fix); the runner then runs nothing
 * (claim) or keeps the result and warns that it was not recorded (complete). No URL, password or
 * key is ever logged; error messages name the server as `host:port` only.
 * Source: Redis SET PX / EVAL semantics (redis.io/commands), docs/contract.md#idempotency-keys-and-replayed-retries.
 */
import { AxError } from '../contract/errors.ts';
import {
  scopeId,
  type ClaimOptions,
  type ClaimResult,
  type IdempotencyStore,
  type ReplayRecord,
  type ReplayScope,
} from './idempotency.ts';

/** Options of {@link redisIdempotencyStore}. */
export interface RedisIdempotencyStoreOptions {
  /**
   * The server: `redis://[[user]:password@]host[:port][/db]`, or `rediss://…` for TLS (the `redis`
   * client's URL syntax). Only `host:port` ever appears in messages.
   */
  url: string;
  /** Prepended to every key, so several deployments can share one server. Default `ax-ts:idempotency:`. */
  prefix?: string;
  /** How long connecting (TCP, TLS and the handshake) may take before the operation fails, ms. Default 2000. */
  connectTimeoutMs?: number;
  /** How long one command may wait for its reply before the operation fails, ms. Default 2000. */
  commandTimeoutMs?: number;
}

/** A Redis-backed store; `close()` ends its connection (optional: an idle connection never keeps a process alive). */
export interface RedisIdempotencyStore extends IdempotencyStore {
  /** Closes the connection. A later operation connects again. Never rejects. */
  close(): Promise<void>;
}

/** The default key prefix. */
export const REDIS_KEY_PREFIX = 'ax-ts:idempotency:';

/** A document (putDocument): replaced as a whole, expiring after its TTL. */
const PUT_DOCUMENT = "redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1";
const GET_DOCUMENT = "return redis.call('GET', KEYS[1])";
const CONNECT_TIMEOUT_MS = 2000;
const COMMAND_TIMEOUT_MS = 2000;

/** What this module needs of a `redis` client (v4 and later). */
interface Client {
  readonly isReady: boolean;
  connect(): Promise<unknown>;
  sendCommand<T>(args: string[], options?: { timeout?: number }): Promise<T>;
  on(event: 'error', listener: (e: unknown) => void): unknown;
  ref(): void;
  unref(): void;
  destroy(): void;
}
/** What this module takes from the `redis` package. */
interface RedisModule {
  createClient(options: Record<string, unknown>): Client;
  /** The class of a server's error reply (WRONGPASS, NOSCRIPT, NOPERM …). */
  ErrorReply: abstract new (...args: never[]) => Error;
}

// Lua: the entry of KEYS[1] when it is one of ours (else nil: a damaged or foreign value counts as free).
const ENTRY = `local raw = redis.call('GET', KEYS[1])
local e = nil
if raw then
  local ok, d = pcall(cjson.decode, raw)
  if ok and type(d) == 'table' and d.v == 1 and (d.state == 'running' or d.state == 'recorded') then e = d end
end
`;
/** claim: ARGV = entry JSON, lease ms. Returns the live entry's JSON, or nil when this call claimed. */
const CLAIM = `${ENTRY}if e then return raw end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false`;
/** renew: ARGV = token, lease ms. 1 when the token holds the claim. */
const RENEW = `${ENTRY}if e and e.state == 'running' and e.token == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
return 0`;
/** complete: ARGV = token, record JSON, ttl ms. Never overwrites another run's live claim or record. */
const COMPLETE = `${ENTRY}if e and not (e.state == 'running' and e.token == ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`;
/** release: ARGV = token. Deletes the claim only for its holder. */
const RELEASE = `${ENTRY}if e and e.state == 'running' and e.token == ARGV[1] then redis.call('DEL', KEYS[1]) return 1 end
return 0`;

type Entry =
  | { v: 1; state: 'running'; token: string; fingerprint: string; scope: ReplayScope }
  | { v: 1; state: 'recorded'; fingerprint: string; record: ReplayRecord; scope: ReplayScope };

/** `host:port` of a URL, for messages (never the user, password or database). */
function where(url: URL): string {
  return `${url.hostname || '127.0.0.1'}:${url.port || '6379'}`;
}

/** A bounded, positive whole number of ms for PX / PEXPIRE. */
function ms(n: number): string {
  return String(Math.max(1, Math.min(Math.ceil(Number.isFinite(n) ? n : 1), 2 ** 47)));
}

function randomHex(n: number): string {
  return Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(n))).toString('hex');
}

const SETUP_FIX =
  'Set AX_IDEMPOTENCY_STORE (or the url option of redisIdempotencyStore) ' +
  'to a redis:// or rediss:// URL, or call without an idempotency key.';

function unusable(message: string, reason: string, fix: string, retryable: boolean, cause?: unknown): AxError {
  return new AxError('idempotency_store_unavailable', message, {
    cause,
    fix,
    retryable,
    ...(retryable ? { retryAfterSeconds: 1 } : {}),
    context: { reason, store: 'redis' },
  });
}

let loaded: Promise<RedisModule> | undefined;
/** The `redis` package, imported on first use. */
function loadRedis(): Promise<RedisModule> {
  loaded ??= import('redis').then(
    (m) => m as unknown as RedisModule,
    (e: unknown) => {
      loaded = undefined;
      throw unusable(
        'the Redis idempotency store needs the `redis` package, which is not installed',
        'redis_client_missing',
        'Install it beside ax-ts (npm install redis), or unset AX_IDEMPOTENCY_STORE to use the file store.',
        false,
        e,
      );
    },
  );
  return loaded;
}

/**
 * An {@link IdempotencyStore} in Redis, shared by every process and machine that points at the same
 * server and prefix. Semantics are those of {@link fileIdempotencyStore}: of concurrent claims of a
 * free key exactly one wins; a claim lives `leaseMs` unless its holder renews it; a record is kept
 * `ttlMs`; only the holder of a claim renews or releases it; a record or another run's claim is never
 * overwritten. Nothing connects until the first operation; the `redis` package is imported then.
 * The connection is shared by the store's operations, reopened after a failure, and never keeps the
 * process alive while idle.
 *
 * Never throws. A URL that is not `redis://` or `rediss://` makes every operation reject with AxError
 * `idempotency_store_unavailable` (`context.reason: "invalid_url"`, not retryable); a server that
 * cannot be reached or does not answer in time rejects with the same kind (`"store_unreachable"`,
 * retryable: nothing ran), within `connectTimeoutMs` + `commandTimeoutMs`.
 * @example main(root, { idempotencyStore: redisIdempotencyStore({ url: 'redis://10.0.0.5:6379/0' }) });
 */
export function redisIdempotencyStore(options: RedisIdempotencyStoreOptions): RedisIdempotencyStore {
  const prefix = options.prefix ?? REDIS_KEY_PREFIX;
  const connectTimeout = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const commandTimeout = options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS;
  let url: URL | undefined;
  let invalid: AxError | undefined;
  try {
    url = new URL(String(options.url));
    if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new Error('not redis');
  } catch {
    url = undefined;
    invalid = unusable(
      'the Redis idempotency store needs a redis:// or rediss:// URL',
      'invalid_url',
      SETUP_FIX,
      false,
    );
  }
  const server = url ? where(url) : '';
  let client: Client | undefined;
  let connecting: Promise<Client> | undefined;
  let busy = 0;

  const unreachable = (e: unknown) =>
    e instanceof AxError
      ? e
      : unusable(
          `Redis at ${server} did not answer: ${describe(e)}`,
          'store_unreachable',
          `Check that Redis at ${server} is running and reachable from this machine ` +
            `(AX_IDEMPOTENCY_STORE), then retry with the same key; nothing was run.`,
          true,
          e,
        );

  const connection = (): Promise<Client> => {
    if (client?.isReady) return Promise.resolve(client);
    connecting ??= (async () => {
      const { createClient } = await loadRedis();
      const c = createClient({
        url: url!.href,
        // one attempt per operation, bounded: a failure surfaces at once instead of queueing
        socket: { connectTimeout, reconnectStrategy: false },
        disableOfflineQueue: true,
        commandOptions: { timeout: commandTimeout }, // the handshake's commands (raw commands get it per call)
      });
      c.on('error', () => {}); // every failure reaches the caller through the rejected command
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          c.connect(),
          new Promise((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`no answer within ${connectTimeout + commandTimeout} ms of connecting`)),
              connectTimeout + commandTimeout,
            );
          }),
        ]);
      } catch (e) {
        c.destroy();
        throw unreachable(e);
      } finally {
        clearTimeout(timer);
      }
      if (client && client !== c) client.destroy();
      client = c;
      if (busy === 0) c.unref();
      return c;
    })().finally(() => (connecting = undefined));
    return connecting;
  };

  /** Runs one script; the connection is referenced only while a command is in flight. */
  const run = async <T>(script: string, key: string, args: string[]): Promise<T> => {
    if (invalid) throw invalid;
    busy++;
    client?.ref();
    try {
      const c = await connection();
      c.ref();
      let timer: NodeJS.Timeout | undefined;
      try {
        // our own deadline: the client's per-command timeout does not fire for a command already
        // written to a server that stopped answering (measured with redis 6.3 against a SIGSTOPped server)
        return await Promise.race([
          c.sendCommand<T>(['EVAL', script, '1', key, ...args], { timeout: commandTimeout }),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => {
              reject(new Error(`no reply within ${commandTimeout} ms`));
              if (client === c) client = undefined;
              c.destroy(); // a late reply must never be read as the answer to a later command
            }, commandTimeout);
          }),
        ]);
      } catch (e) {
        if (!c.isReady && client === c) client = undefined; // the connection broke: open a new one next time
        if (e instanceof (await loadRedis()).ErrorReply)
          throw unusable(
            `Redis at ${server} refused the command: ${e.message}`,
            'store_refused',
            `Check the Redis server at ${server} (it must run Lua ` +
              `scripts: Redis 2.6 or later, EVAL allowed for this user).`,
            false,
            e,
          );
        throw unreachable(e);
      } finally {
        clearTimeout(timer);
      }
    } finally {
      if (--busy === 0) client?.unref();
    }
  };

  const keyOf = async (scope: ReplayScope) => {
    const { createHash } = await import('node:crypto');
    return `${prefix}${scope.program}:${createHash('sha256').update(scopeId(scope)).digest('hex')}`;
  };

  const docKey = async (id: string) => {
    const { createHash } = await import('node:crypto');
    return `${prefix}doc:${createHash('sha256').update(id).digest('hex')}`;
  };

  return {
    async claim(scope: ReplayScope, fingerprint: string, claimOptions: ClaimOptions): Promise<ClaimResult> {
      const token = randomHex(16);
      const entry: Entry = { v: 1, state: 'running', token, fingerprint, scope };
      const seen = await run<string | null>(CLAIM, await keyOf(scope), [
        JSON.stringify(entry),
        ms(claimOptions.leaseMs),
      ]);
      if (seen === null || seen === undefined) return { state: 'claimed', token };
      const e = JSON.parse(seen) as Entry;
      return e.state === 'running'
        ? { state: 'running', fingerprint: e.fingerprint }
        : { state: 'recorded', fingerprint: e.fingerprint, record: e.record };
    },
    async putDocument(id: string, json: string, ttlMs: number): Promise<void> {
      await run(PUT_DOCUMENT, await docKey(id), [json, ms(ttlMs)]);
    },
    async getDocument(id: string): Promise<string | undefined> {
      return (await run<string | null>(GET_DOCUMENT, await docKey(id), [])) ?? undefined;
    },
    async renew(scope: ReplayScope, token: string, leaseMs: number): Promise<boolean> {
      return (await run<number>(RENEW, await keyOf(scope), [token, ms(leaseMs)])) === 1;
    },
    async complete(
      scope: ReplayScope,
      token: string,
      fingerprint: string,
      record: ReplayRecord,
      ttlMs: number,
    ): Promise<void> {
      const entry: Entry = { v: 1, state: 'recorded', fingerprint, record, scope };
      await run<number>(COMPLETE, await keyOf(scope), [token, JSON.stringify(entry), ms(ttlMs)]);
    },
    async release(scope: ReplayScope, token: string): Promise<void> {
      await run<number>(RELEASE, await keyOf(scope), [token]);
    },
    async close(): Promise<void> {
      const c = client;
      client = undefined;
      c?.destroy();
    },
  };
}

/** A short reason for a client error (its code or message), never the URL. */
function describe(e: unknown): string {
  const code = (e as { code?: unknown })?.code;
  const msg = e instanceof Error ? e.message : String(e);
  return typeof code === 'string' && !msg.includes(code) ? `${code}: ${msg}` : msg;
}

const stores = new Map<string, RedisIdempotencyStore>();

/**
 * @internal The store named by `AX_IDEMPOTENCY_STORE` (the environment route of replay.ts), one per
 * URL and process.
 */
export function redisStoreFromEnv(url: string): RedisIdempotencyStore {
  let s = stores.get(url);
  if (!s) stores.set(url, (s = redisIdempotencyStore({ url })));
  return s;
}
