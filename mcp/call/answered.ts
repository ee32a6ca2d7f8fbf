/**
 * An answered 2026-07-28 round runs once (docs/security.md#what-requeststate-protects): the first
 * retry that echoes a `requestState` claims the state's nonce in the idempotency store (the file
 * store, Redis, or the author's: the store replayed retries use, so every replica shares it), runs,
 * and records its result; a repeat of that state gets the recorded result without running anything
 * again, and a repeat with other answers is refused (-32602, `request_state_used`). Without any
 * state directory the record is kept in this process's memory. Source: MCP 2026-07-28 "Multi
 * Round-Trip Requests" (basic/patterns/mrtr); the replay protocol in lib/store/replay.ts.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { AxError } from '../../lib/contract/errors.ts';
import { openGate, storeFor } from '../../lib/store/replay.ts';
import { DEFAULT_IDEMPOTENCY_WAIT_MS, type IdempotencyStore } from '../../lib/store/idempotency.ts';
import { rpcError } from '../base/eras.ts';
import { STATE_TTL_SECONDS } from './input-required.ts';
import type { McpModel, McpServerOptions } from './model.ts';

/** The state a call answers: its nonce (one per minted `requestState`) and a digest of the answers given. */
export interface Answering {
  nonce: string;
  answers: string;
}

/** Rounds answered in this process, when no store can be had: nonce → the answers and the first result. */
const inMemory = new Map<string, { answers: string; result: Promise<CallToolResult> }>();

/**
 * Runs `run` once for the answered state: the first call runs and records; a repeat gets the
 * first result. @throws a JSON-RPC -32602 (`request_state_used`) for a repeat with other answers;
 * AxError `idempotency_store_unavailable` or `idempotency_in_progress` when the record cannot be
 * kept or read (nothing runs).
 */
export async function runOnce(
  model: McpModel,
  options: McpServerOptions,
  tool: string,
  round: Answering,
  signal: AbortSignal,
  run: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const program = model.root.name;
  const env = options.env ?? process.env;
  const ttlMs = STATE_TTL_SECONDS * 1000; // the state is refused after this anyway
  let store: IdempotencyStore | undefined;
  try {
    store = await storeFor({ store: options.idempotencyStore, ttlMs, waitMs: 0 }, program, env, 'requestState');
  } catch (e) {
    if (!(e instanceof AxError && e.context?.reason === 'no_state_directory')) throw e;
  }
  if (!store) return runInMemory(round, ttlMs, run);
  let opened;
  try {
    opened = await openGate({
      scope: { program, command: `${program} ${tool} requestState`, key: round.nonce },
      fingerprint: round.answers,
      settings: { store, ttlMs, waitMs: DEFAULT_IDEMPOTENCY_WAIT_MS },
      env,
      signal,
      keyLabel: 'requestState',
      kinds: ['data'],
    });
  } catch (e) {
    if (e instanceof AxError && e.kind === 'idempotency_conflict') throw used();
    throw e;
  }
  if ('replay' in opened) return JSON.parse(opened.replay.data ?? 'null') as CallToolResult;
  let result: CallToolResult;
  try {
    result = await run();
  } catch (e) {
    await opened.gate.release(); // a protocol error: nothing was answered, the state may be retried
    throw e;
  }
  await opened.gate.complete({ exitCode: 0, kind: 'data', data: JSON.stringify(result) });
  return result;
}

async function runInMemory(
  round: Answering,
  ttlMs: number,
  run: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const seen = inMemory.get(round.nonce);
  if (seen) {
    if (seen.answers !== round.answers) throw used();
    return structuredClone(await seen.result);
  }
  const result = run();
  inMemory.set(round.nonce, { answers: round.answers, result });
  setTimeout(() => inMemory.delete(round.nonce), ttlMs).unref();
  result.catch(() => inMemory.delete(round.nonce)); // a protocol error: nothing was answered
  return structuredClone(await result);
}

function used(): Error {
  return rpcError(-32602, 'Invalid or expired requestState', { reason: 'request_state_used' });
}
