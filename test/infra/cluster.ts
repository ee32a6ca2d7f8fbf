/**
 * Real infrastructure for the "beyond one machine" tests: a redis-server, N stateless replicas of the
 * conformance fixture (`mcp-server --transport http --stateless`, given that Redis's URL as
 * AX_IDEMPOTENCY_STORE, the shared idempotency store, and as AX_REDIS_URL), and nginx in front of them (round robin, config generated per run with the replicas'
 * ports, every port picked free). Started by `.ci/run` (through cluster-cli.ts, which exports
 * AX_LB_URL, AX_REDIS_URL and AX_REPLICA_URLS) or, when those are not set, by the tests themselves
 * when the binaries exist. Which binaries: $AX_REDIS_SERVER / $AX_NGINX, else `redis-server` and
 * `nginx` on PATH or in /usr/sbin and /usr/bin.
 */
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = join(REPO, 'test/conformance/cli.ts');
const TSX_LOADER = join(REPO, 'node_modules/tsx/dist/loader.mjs');

/** A running cluster (or the one `.ci/run` started). */
export interface Cluster {
  /** `http://127.0.0.1:PORT/mcp` on nginx. */
  lbUrl: string;
  /** `redis://127.0.0.1:PORT`. */
  redisUrl: string;
  /** Each replica's own `/mcp` URL. */
  replicaUrls: string[];
  /** Stops what this call started (nothing when the cluster came from the environment). */
  stop(): Promise<void>;
}

/** Absolute path of a binary: the env override, else PATH, else the Debian locations; undefined if none. */
export function findBinary(name: string, envVar: string): string | undefined {
  const given = process.env[envVar];
  if (given) return given;
  const dirs = [
    ...(process.env.PATH ?? '').split(delimiter),
    '/usr/sbin',
    '/usr/bin',
    '/usr/local/sbin',
    '/usr/local/bin',
  ];
  for (const d of dirs) if (d && existsSync(join(d, name))) return join(d, name);
  return undefined;
}

/** Why the cluster cannot run here (a binary missing), or undefined when it can. */
export function missingInfra(): string | undefined {
  if (process.env.AX_LB_URL && process.env.AX_REDIS_URL) return undefined;
  const missing = [
    ['redis-server', 'AX_REDIS_SERVER'],
    ['nginx', 'AX_NGINX'],
  ]
    .filter(([n, e]) => !findBinary(n!, e!))
    .map(([n]) => n);
  return missing.length
    ? `${missing.join(' and ')} not installed (apt-get install nginx redis-server, or set AX_REDIS_SERVER/AX_NGINX)`
    : undefined;
}

/** A free loopback port (bound then released; the caller binds it at once). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

function waitFor(
  proc: ChildProcess,
  stream: 'stdout' | 'stderr',
  re: RegExp,
  what: string,
  ms = 30_000,
): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const t = setTimeout(() => reject(new Error(`${what} did not start within ${ms} ms: ${seen}`)), ms);
    proc[stream]!.setEncoding('utf8').on('data', (c: string) => {
      seen += c;
      const m = re.exec(seen);
      if (m) {
        clearTimeout(t);
        resolve(m);
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(t);
      reject(new Error(`${what} exited (${code}) before it was ready: ${seen}`));
    });
  });
}

async function untilConnects(port: number, ms = 10_000): Promise<void> {
  const { connect } = await import('node:net');
  const end = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((r) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), r(true)));
      s.once('error', () => r(false));
    });
    if (ok) return;
    if (Date.now() > end) throw new Error(`nothing listens on 127.0.0.1:${port} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A private redis-server on a free loopback port, nothing persisted (its files in `dir`). */
export interface RedisServer {
  url: string;
  port: number;
  proc: ChildProcess;
  /** Stops it (SIGTERM, then SIGKILL after 3 s). */
  stop(): Promise<void>;
}

/** Starts redis-server on a free port. @throws when the binary is missing or it does not start. */
export async function startRedisServer(dir: string): Promise<RedisServer> {
  const bin = findBinary('redis-server', 'AX_REDIS_SERVER');
  if (!bin) throw new Error('redis-server not installed (apt-get install redis-server, or set AX_REDIS_SERVER)');
  const port = await freePort();
  const proc = spawn(
    bin,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await waitFor(proc, 'stdout', /Ready to accept connections/, 'redis-server');
  return { url: `redis://127.0.0.1:${port}`, port, proc, stop: () => stopProcess(proc) };
}

function stopProcess(p: ChildProcess): Promise<void> {
  return new Promise<void>((r) => {
    if (p.exitCode !== null || p.signalCode !== null) return r();
    const t = setTimeout(() => p.kill('SIGKILL'), 3000);
    p.once('exit', () => (clearTimeout(t), r()));
    p.kill('SIGCONT'); // a test may have stopped it
    p.kill('SIGTERM');
  });
}

/** The nginx configuration: round robin over the replicas, SSE unbuffered, the upstream named in a header. */
export function nginxConfig(dir: string, listen: number, upstreams: number[]): string {
  return `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream mcp {
${upstreams.map((p) => `    server 127.0.0.1:${p};`).join('\n')}
    keepalive 32;
    # shorter than Node's keep-alive (5 s): nginx must never reuse a connection the replica is closing (a 502)
    keepalive_timeout 4s;
  }
  server {
    listen 127.0.0.1:${listen};
    client_max_body_size 4m;
    location /mcp {
      proxy_pass http://mcp;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_buffering off;
      proxy_cache off;
      proxy_read_timeout 300s;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

/**
 * Starts (or adopts, from AX_LB_URL / AX_REDIS_URL / AX_REPLICA_URLS) redis-server, `replicas`
 * stateless replicas and nginx. @throws when a binary is missing or a part does not start.
 */
export async function startCluster(options: { replicas?: number; env?: NodeJS.ProcessEnv } = {}): Promise<Cluster> {
  if (process.env.AX_LB_URL && process.env.AX_REDIS_URL) {
    return {
      lbUrl: process.env.AX_LB_URL,
      redisUrl: process.env.AX_REDIS_URL,
      replicaUrls: (process.env.AX_REPLICA_URLS ?? '').split(',').filter(Boolean),
      stop: async () => {},
    };
  }
  const why = missingInfra();
  if (why) throw new Error(`cannot start the cluster: ${why}`);
  const n = options.replicas ?? 3;
  const dir = mkdtempSync(join(tmpdir(), 'ax-cluster-'));
  const procs: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(procs.map(stopProcess));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // redis-server on a free port, nothing persisted
    let redisUrl = process.env.AX_REDIS_URL;
    if (!redisUrl) {
      const redis = await startRedisServer(dir);
      procs.push(redis.proc);
      redisUrl = redis.url;
    }
    // the replicas: the conformance fixture, stateless, sharing the Redis idempotency store (the
    // environment route: AX_IDEMPOTENCY_STORE), a side-effect counter in the same Redis, and the key
    // that signs a 2026-07-28 requestState (AX_MCP_STATE_KEY), so a retry may land on any replica
    const stateKey = randomBytes(32).toString('base64url');
    const replicaUrls: string[] = [];
    const ports: number[] = [];
    for (let i = 0; i < n; i++) {
      const p = spawn(
        process.execPath,
        ['--import', TSX_LOADER, FIXTURE, 'mcp-server', '--transport', 'http', '--stateless', '--addr', '127.0.0.1:0'],
        {
          cwd: REPO,
          // a state directory each, as on separate machines: only Redis is shared
          env: {
            ...process.env,
            ...options.env,
            AX_REDIS_URL: redisUrl,
            AX_IDEMPOTENCY_STORE: redisUrl,
            AX_MCP_STATE_KEY: stateKey,
            AX_REPLICA: String(i + 1),
            XDG_STATE_HOME: join(dir, `replica-${i + 1}-state`),
          },
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      procs.push(p);
      const m = await waitFor(p, 'stderr', /listening on (http:\/\/127\.0\.0\.1:(\d+)\/mcp)/, `replica ${i + 1}`);
      replicaUrls.push(m[1]!);
      ports.push(Number(m[2]));
    }
    // nginx in front, config generated for these ports
    const listen = await freePort();
    // as root, nginx's workers run as an unprivileged user: they must reach the temp folders
    chmodSync(dir, 0o755);
    for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
      mkdirSync(join(dir, d), { recursive: true, mode: 0o777 });
    writeFileSync(join(dir, 'nginx.conf'), nginxConfig(dir, listen, ports));
    const nginx = spawn(
      findBinary('nginx', 'AX_NGINX')!,
      ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    procs.push(nginx);
    let nginxErr = '';
    nginx.stderr!.setEncoding('utf8').on('data', (c: string) => (nginxErr += c));
    await untilConnects(listen).catch((e: Error) => {
      throw new Error(`${e.message}; nginx: ${nginxErr}`);
    });
    return { lbUrl: `http://127.0.0.1:${listen}/mcp`, redisUrl, replicaUrls, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
