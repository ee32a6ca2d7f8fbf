/**
 * `ax-ts/store`: where replayed retries are recorded — the file store (the default) and the Redis
 * store, and the interface a store of one's own implements. Pass a store as the `idempotencyStore`
 * option of `main`, `execute` or `mountMcpServer`. See docs/api.md, docs/contract.md (idempotency
 * keys and replayed retries) and docs/deploy.md (Redis).
 */
export { fileIdempotencyStore } from './file-store.ts';
export { redisIdempotencyStore } from './redis-store.ts';
export type { RedisIdempotencyStore, RedisIdempotencyStoreOptions } from './redis-store.ts';
export { scopeId } from './idempotency.ts';
export type { ClaimOptions, ClaimResult, IdempotencyStore, ReplayRecord, ReplayScope } from './idempotency.ts';
