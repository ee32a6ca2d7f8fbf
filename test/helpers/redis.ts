/**
 * A real redis-server for the tests: the one `.ci/run` started (AX_REDIS_URL), else a private one on
 * a free port when the binary exists. Without either, tests skip with the reason in their titles —
 * unless AX_INFRA_REQUIRED=1 (set by .ci/run), where a missing Redis fails them instead.
 * `privateRedis()` always starts its own (for tests that stop or kill the server).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBinary, startRedisServer, type RedisServer } from '../infra/cluster.ts';

/** Why no Redis can be had here (undefined when one can, or when AX_INFRA_REQUIRED makes it a failure). */
export const redisMissing: string | undefined =
  process.env.AX_INFRA_REQUIRED || process.env.AX_REDIS_URL || findBinary('redis-server', 'AX_REDIS_SERVER')
    ? undefined
    : 'redis-server not installed (apt-get install redis-server)';

/** A Redis to use and how to let it go. */
export interface TestRedis {
  url: string;
  /** The private server, when this call started one. */
  server?: RedisServer;
  stop(): Promise<void>;
}

/** Starts a private redis-server in a temporary directory. @throws when it cannot. */
export async function privateRedis(): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'ax-redis-'));
  try {
    const server = await startRedisServer(dir);
    return {
      url: server.url,
      server,
      stop: async () => (await server.stop(), rmSync(dir, { recursive: true, force: true })),
    };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/** The shared CI Redis (AX_REDIS_URL) or a private one. */
export async function testRedis(): Promise<TestRedis> {
  if (process.env.AX_REDIS_URL) return { url: process.env.AX_REDIS_URL, stop: async () => {} };
  return privateRedis();
}

/** A prefix no other test run uses: keys of one run never meet another's on a shared server. */
export function runPrefix(label: string): string {
  return `ax-test:${label}:${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}:`;
}
