/**
 * The cap on a server's front-end calls running at once, each a process of its own
 * (docs/frontends.md#how-a-call-runs): at most `$AX_MCP_MAX_CALLS` (default
 * {@link DEFAULT_MAX_CALLS}); a call beyond it waits, in order, for a running call to end, and
 * waits no longer than its own signal — its `--timeout`, the client's cancellation — allows.
 */
import { AxError } from '../../lib/index.ts';

/** Environment variable: most front-end calls running at once in one process. */
export const MAX_CALLS_ENV = 'AX_MCP_MAX_CALLS';

/** The cap when the environment sets none. */
export const DEFAULT_MAX_CALLS = 16;

/**
 * The cap `env` sets, else {@link DEFAULT_MAX_CALLS}.
 * @throws AxError `validation_error` (reason `invalid_call_limit`) for a value that is not a positive integer.
 */
export function maxCalls(env: Record<string, string | undefined> = process.env): number {
  const v = env[MAX_CALLS_ENV];
  if (v === undefined || v.trim() === '') return DEFAULT_MAX_CALLS;
  if (!/^[1-9][0-9]{0,6}$/.test(v.trim())) {
    throw new AxError('validation_error', `${MAX_CALLS_ENV} must be a positive integer, got ${JSON.stringify(v)}`, {
      context: { reason: 'invalid_call_limit', variable: MAX_CALLS_ENV },
      fix: `Set ${MAX_CALLS_ENV} to how many calls may run at once (e.g. ${DEFAULT_MAX_CALLS}), or unset it.`,
    });
  }
  return Number(v.trim());
}

let running = 0;
/** The calls waiting for a slot, first come first served: each is handed a slot by the call that ends. */
const waiting: (() => void)[] = [];

/** Gives the slot of a call that ended to the first waiting call, else frees it. */
function release(): void {
  const next = waiting.shift();
  if (next) next();
  else running -= 1;
}

/**
 * Takes a slot for one call, waiting while {@link maxCalls} calls run. @returns its release (once
 * is enough; later calls do nothing). @throws the signal's reason when it aborts while the call
 * waits (the call never started: the answer its caller was given is that reason).
 */
export async function takeSlot(signal: AbortSignal): Promise<() => void> {
  if (signal.aborted) throw signal.reason;
  if (running < maxCalls()) running += 1;
  else {
    await new Promise<void>((resolve, reject) => {
      const go = () => {
        signal.removeEventListener('abort', quit);
        resolve();
      };
      const quit = () => {
        const i = waiting.indexOf(go);
        if (i >= 0) waiting.splice(i, 1);
        reject(signal.reason);
      };
      waiting.push(go);
      signal.addEventListener('abort', quit, { once: true });
    });
  }
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    release();
  };
}
