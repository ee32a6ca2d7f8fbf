/**
 * Writing a run's output: a chunk with backpressure, stream detection, one stream item in human mode,
 * and the replay of a recorded outcome (byte for byte, `meta.replayed: true`). Used by run.ts.
 */
import type { Command, RunContext } from '../tree/command.ts';
import { putOutcome, type OutputStream, type SuccessMeta } from '../contract/envelope.ts';
import type { Mode } from '../contract/mode.ts';
import type { ReplayRecord } from '../store/idempotency.ts';
import { renderDefault } from './render.ts';
import { visible } from '../contract/envelope.ts';

/**
 * Writes `text`, waiting for `drain` when the stream asks for it.
 * @returns a promise of the drain, or undefined when the stream took the text at once (the common
 *   case: no promise is made — docs/performance.md, one fewer per MCP call).
 */
export function write(s: OutputStream, text: string | Uint8Array): Promise<void> | undefined {
  return text.length === 0 ? undefined : drained(s, s.write(text));
}

/**
 * Writes `text` as the run's outcome — written once no handler code runs: the envelope or rendering
 * of a document result, an opaque result, help and version text, the error line — through the
 * stream's {@link WRITE_OUTCOME} when it has one (`main()`'s real stdout and stderr write it on the
 * descriptor), waiting for `drain` like {@link write}.
 */
export function writeOutcome(s: OutputStream, text: string | Uint8Array): Promise<void> | undefined {
  return text.length === 0 ? undefined : drained(s, putOutcome(s, text));
}

/** The drain a write asked for (`false` from a stream that emits `drain`), else undefined. */
function drained(s: OutputStream, ok: unknown): Promise<void> | undefined {
  const ev = s as unknown as { once?: (e: string, cb: () => void) => unknown };
  if (ok === false && typeof ev.once === 'function') return new Promise<void>((r) => ev.once!('drain', r));
  return undefined;
}

/** Whether a handler's result is a stream (an iterator or async iterable, not an array). */
export function isStream(v: unknown): v is AsyncIterable<unknown> | Iterable<unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  if (Symbol.asyncIterator in v) return true;
  return Symbol.iterator in v && typeof (v as { next?: unknown }).next === 'function';
}

/** An iterable as an async iterable. */
export async function* toAsync<T>(it: Iterable<T>): AsyncIterable<T> {
  yield* it;
}

/** One stream item in human mode: the command's `render`, else a string as it is (escaped) or JSON. */
export function renderItem(cmd: Command, item: unknown, ctx: RunContext): string {
  if (cmd.render) {
    const t = cmd.render(item, ctx);
    return typeof t === 'string' ? (t.endsWith('\n') ? t : `${t}\n`) : '';
  }
  return typeof item === 'string' ? `${visible(item)}\n` : `${JSON.stringify(item)}\n`;
}

/** Where a replay writes. */
export interface ReplayTarget {
  mode: Mode;
  stdout: OutputStream;
  stderr: OutputStream;
}

/**
 * Writes a recorded success again: in json mode the recorded `data` (or each item, or the opaque
 * text) byte for byte with this run's `meta` plus `replayed: true`; in human mode the same values
 * rendered, and a note on stderr. `select` (--fields) shows only the fields this call asked for.
 * @returns the values for the run's outcome.
 */
export async function writeReplayed(
  rec: ReplayRecord,
  cmd: Command,
  ctx: RunContext,
  out: ReplayTarget,
  meta: () => SuccessMeta,
  select?: (data: unknown) => unknown,
): Promise<{ payload?: unknown; items?: unknown[]; stream?: boolean }> {
  // the recorded data as it is, or (--fields) this call's selection of it; selected before the meta
  // is made, so a warning of the selection is in it
  const shown = (text: string) => (select ? JSON.stringify(select(JSON.parse(text))) : text);
  if (out.mode === 'human')
    out.stderr.write(
      'Replayed: a call with this idempotency key and these arguments already ran; this is its outcome.\n',
    );
  if (rec.kind === 'opaque') {
    await writeOutcome(out.stdout, rec.text ?? '');
    return {};
  }
  if (rec.kind === 'stream') {
    const items = (rec.items ?? []).map((t) => JSON.parse(t) as unknown);
    const texts = out.mode === 'json' ? (rec.items ?? []).map(shown) : [];
    const m = JSON.stringify({ ...meta(), replayed: true });
    for (let i = 0; i < items.length; i++) {
      await write(
        out.stdout,
        out.mode === 'json' ? `{"data":${texts[i]},"meta":${m}}\n` : renderItem(cmd, items[i], ctx),
      );
    }
    return { items, stream: true };
  }
  const payload = JSON.parse(rec.data ?? 'null') as unknown;
  if (out.mode === 'json') {
    const text = shown(rec.data ?? 'null');
    await writeOutcome(out.stdout, `{"data":${text},"meta":${JSON.stringify({ ...meta(), replayed: true })}}\n`);
  } else {
    const text = cmd.render ? cmd.render(payload, ctx) : renderDefault(payload);
    if (typeof text === 'string')
      await writeOutcome(out.stdout, text.endsWith('\n') || text === '' ? text : `${text}\n`);
  }
  return { payload };
}
