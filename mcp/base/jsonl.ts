/**
 * Newline-delimited JSON-RPC over a byte stream (the stdio transport's wire format), in place of the
 * SDK's `StdioServerTransport`, which closes the transport on a line over its buffer limit and
 * answers nothing for a malformed request. Here every bad message that carries an id gets a JSON-RPC
 * error with that id, and the stream goes on:
 * - a line longer than `maxLineBytes` is skipped up to its newline, never buffered whole, and
 *   answered -32600 (with its id when the id can be read from the line's first bytes);
 * - invalid JSON → -32700 (id null); a batch array → -32600 for each member with an id (MCP
 *   2025-06-18 has no batches); `jsonrpc` not "2.0", `method` not a string, `params` not an object,
 *   or an id that is not a string or number → -32600, one line saying which;
 * - a request whose id is that of a request still in flight → -32600 with that id, not run (JSON-RPC
 *   ids identify requests; docs/mcp-server.md#stdio).
 * Source: JSON-RPC 2.0 §4–5.1; MCP 2025-06-18 "Transports" (stdio: messages delimited by newlines).
 */
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';

/** Default largest message (one line, without its newline), in bytes: 10 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 10 * 1024 * 1024;

/** How many bytes of an oversized line are kept to find its id. */
const ID_SNIFF_BYTES = 4096;

type Id = string | number;
/** The release of a request when no `hold` was given. */
const NOTHING = (): void => {};
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is Id => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/**
 * The id of a message from its first bytes, when it comes before any large member: only
 * `"jsonrpc"` and `"method"` (string values) may precede `"id"`. Undefined when it cannot be told.
 */
export function sniffId(head: string): Id | undefined {
  const m =
    /^\s*\{\s*(?:"(?:jsonrpc|method)"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*)*"id"\s*:\s*(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*")\s*[,}]/.exec(
      head,
    );
  if (!m) return undefined;
  try {
    return JSON.parse(m[1]!) as Id;
  } catch {
    return undefined;
  }
}

/**
 * Why a parsed message is not a valid JSON-RPC 2.0 message for MCP, in one line; null when it is.
 * Only the envelope is checked here (the shape of each method's params is the server's to check).
 */
export function messageProblem(m: unknown): string | null {
  if (!isObj(m)) return 'a message must be a JSON object';
  if (m.jsonrpc !== '2.0') return `"jsonrpc" must be "2.0", got ${JSON.stringify(m.jsonrpc) ?? 'nothing'}`;
  if ('id' in m && !(typeof m.id === 'string' || Number.isInteger(m.id)) && !(m.id === null && 'error' in m))
    return '"id" must be a string or an integer';
  if ('method' in m) {
    if (typeof m.method !== 'string') return '"method" must be a string';
    if ('params' in m && !isObj(m.params)) return '"params" must be an object';
    return null;
  }
  if ('result' in m) return isObj(m.result) ? null : '"result" must be an object';
  if (!('error' in m)) return 'a message needs "method" (request, notification) or "result"/"error" (response)';
  const e = m.error;
  return isObj(e) && Number.isInteger(e.code) && typeof e.message === 'string'
    ? null
    : '"error" must be an object with an integer "code" and a string "message"';
}

/** `error.data.reason` of the error response that stands for a client's malformed response. */
export const MALFORMED_RESPONSE = 'malformed_response';

/**
 * A client's response that is not a valid JSON-RPC response (`{"result": null}`, a `result` that is
 * not an object, a bad `error`) as an error response for its id, so the request it answers fails at
 * once with a clear error instead of waiting for an answer that already came; undefined for
 * anything else (a valid message, a request, a notification, a response without a usable id).
 */
export function malformedResponse(m: unknown): JSONRPCMessage | undefined {
  if (!isObj(m) || 'method' in m || !('result' in m || 'error' in m) || !isId(m.id)) return undefined;
  const problem = messageProblem(m);
  if (!problem) return undefined;
  return {
    jsonrpc: '2.0',
    id: m.id,
    error: { code: -32600, message: `Invalid response: ${problem}`, data: { reason: MALFORMED_RESPONSE } },
  } as unknown as JSONRPCMessage;
}

/** Options of {@link JsonLineTransport}. */
export interface JsonLineOptions {
  /** Largest message in bytes (one line without its newline). Default {@link DEFAULT_MAX_LINE_BYTES}. */
  maxLineBytes?: number;
  /** Diagnostics (a dropped invalid notification or response). Default: nowhere. */
  log?: (line: string) => void;
  /** Called for each valid request received; the returned function is called once it is answered. */
  hold?: () => () => void;
}

/** The SDK `Transport` over newline-delimited JSON on `input` / `output` (see the module comment). */
export class JsonLineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private chunks: Buffer[] = [];
  private size = 0;
  /** Inside an oversized line: its first bytes (for the id) until its newline arrives. */
  private skipping: Buffer | undefined;
  private closed = false;
  /** Valid messages of the current read, delivered together at its end ({@link deliver}). */
  private batch: Obj[] = [];
  /** Lines sent in this turn of the event loop, not yet written. */
  private lines: string[] = [];
  /** Releases of the requests those lines answer. */
  private answered: (() => void)[] = [];
  /** Resolves when the queued lines are written, and its resolver (set together, cleared together). */
  private written: { promise: Promise<void>; resolve: () => void } | undefined;
  /** Ids whose next answer is the refusal of a duplicate request (see {@link line}), not the answer of the open one. */
  private readonly refused = new Set<Id>();
  /**
   * Requests received and not yet answered, by id (a list, at most one long: a duplicate id is
   * refused), with their releases.
   */
  private readonly open = new Map<Id, (() => void)[]>();
  private readonly max: number;
  private readonly onData = (chunk: Buffer | string) =>
    this.append(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  private readonly onError = (e: Error) => this.onerror?.(e);

  /**
   * @param input the client's bytes (stdin, or the supervisor's channel).
   * @param output where messages go; only this transport may write to it.
   */
  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly options: JsonLineOptions = {},
  ) {
    this.max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onError);
  }

  /**
   * Writes one message as a line. The answer to the last request still open goes out at once,
   * with any lines queued before it (sequential calls: one write per answer, no wait for the end
   * of the turn); any other message is queued, and the lines queued in one turn of the event loop
   * are written together, in order, in one write (several answers in flight: one system call and
   * one wake-up of the client for all of them). Resolves once its line is handed to the stream
   * (after a drain when it is full).
   */
  send(message: JSONRPCMessage): Promise<void> {
    const m = message as Obj;
    let last = false;
    if (!('method' in m) && isId(m.id)) {
      // the refusal of a duplicate id answers the duplicate, not the request in flight
      const release = this.refused.delete(m.id) ? undefined : this.unopen(m.id);
      if (release) {
        this.answered.push(release); // after the write
        last = this.open.size === 0;
      }
    }
    if (this.closed || this.output.destroyed || this.output.writableEnded) {
      this.flush();
      return Promise.resolve();
    }
    this.lines.push(`${JSON.stringify(message)}\n`);
    if (last) return this.flush() ? Promise.resolve() : new Promise<void>((r) => this.output.once('drain', () => r()));
    if (!this.written) {
      let resolve = () => {};
      const promise = new Promise<void>((r) => (resolve = r));
      this.written = { promise, resolve };
      setImmediate(() => this.flush());
    }
    return this.written.promise;
  }

  /**
   * Writes the queued lines and releases the requests they answer. @returns false when the stream
   * asked to wait for `drain`.
   */
  private flush(): boolean {
    const lines = this.lines;
    const answered = this.answered;
    const done = this.written?.resolve;
    this.lines = [];
    this.answered = [];
    this.written = undefined;
    let ok = true;
    if (lines.length && !this.output.destroyed && !this.output.writableEnded) {
      ok = this.output.write(lines.length === 1 ? lines[0]! : lines.join('')) !== false;
      if (ok) done?.();
      else if (done) this.output.once('drain', done);
    } else done?.();
    for (const release of answered) release();
    return ok;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.flush(); // what was answered before the close still goes out
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onError);
    this.chunks = [];
    for (const list of this.open.values()) for (const release of list) release();
    this.open.clear();
    this.onclose?.();
  }

  private append(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
      this.take(chunk.subarray(start, nl), true);
      start = nl + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start), false);
    this.deliver();
  }

  /**
   * Hands the messages of one read to the server, in order — except a request cancelled in the
   * same read, which is dropped with its cancellation: it never reaches a handler (MCP
   * "Cancellation": a cancelled request may go unanswered), whatever the server's dispatch timing.
   */
  private deliver(): void {
    const batch = this.batch;
    if (!batch.length) return;
    this.batch = [];
    let dropped: Set<Id> | undefined;
    if (batch.length > 1) {
      const requested = new Set<Id>();
      for (const m of batch) {
        if (isId(m.id) && typeof m.method === 'string') requested.add(m.id);
        else if (m.method === 'notifications/cancelled') {
          const id = (m.params as Obj | undefined)?.requestId;
          if (isId(id) && requested.has(id)) (dropped ??= new Set()).add(id);
        }
      }
    }
    for (const m of batch) {
      if (dropped) {
        const id = isId(m.id) ? m.id : (m.params as Obj | undefined)?.requestId;
        if (isId(id) && dropped.has(id) && (typeof m.method === 'string' || m.method === 'notifications/cancelled'))
          continue; // released already: the cancellation took it off the open list when it was read
      }
      this.onmessage?.(m as JSONRPCMessage);
    }
  }

  /** Adds a piece of the current line; `ends` when a newline followed it. */
  private take(piece: Buffer, ends: boolean): void {
    if (this.skipping) {
      if (this.skipping.length < ID_SNIFF_BYTES)
        this.skipping = Buffer.concat([this.skipping, piece.subarray(0, ID_SNIFF_BYTES - this.skipping.length)]);
      if (ends) this.oversized();
      return;
    }
    if (this.size + piece.length > this.max) {
      const head = Buffer.concat([...this.chunks, piece.subarray(0, ID_SNIFF_BYTES)]);
      this.skipping = head.subarray(0, ID_SNIFF_BYTES);
      this.chunks = [];
      this.size = 0;
      if (ends) this.oversized();
      return;
    }
    if (piece.length) {
      this.chunks.push(piece);
      this.size += piece.length;
    }
    if (!ends) return;
    const line = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.chunks = [];
    this.size = 0;
    this.line(line.toString('utf8').replace(/\r$/, ''));
  }

  private oversized(): void {
    const id = sniffId(this.skipping!.toString('utf8'));
    this.skipping = undefined;
    this.reply(
      id ?? null,
      -32600,
      `Invalid Request: the message is longer than ${this.max} bytes (the server's line limit); it was skipped`,
    );
  }

  private line(text: string): void {
    if (!text.trim()) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      this.reply(null, -32700, `Parse error: ${(e as Error).message}`);
      return;
    }
    if (Array.isArray(parsed)) {
      const ids = parsed.filter((m) => isObj(m) && isId(m.id) && 'method' in m).map((m) => (m as Obj).id as Id);
      const why = 'Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18); send one message per line';
      if (!ids.length) this.reply(null, -32600, why);
      for (const id of ids) this.reply(id, -32600, why);
      return;
    }
    const problem = messageProblem(parsed);
    if (!problem) {
      const m = parsed as Obj;
      if (typeof m.method === 'string' && isId(m.id)) {
        if (this.open.has(m.id)) {
          // JSON-RPC ids identify requests: a second one with an id in flight is refused, not run
          this.refused.add(m.id);
          this.reply(
            m.id,
            -32600,
            `Invalid Request: the id ${JSON.stringify(m.id)} is in use by a request ` +
              `still in flight; this request was not run (send each request with its own id)`,
          );
          return;
        }
        const list = this.open.get(m.id) ?? [];
        list.push(this.options.hold?.() ?? NOTHING);
        this.open.set(m.id, list);
      } else if (m.method === 'notifications/cancelled') this.cancelled((m.params as Obj | undefined)?.requestId);
      this.batch.push(m);
      return;
    }
    const m = isObj(parsed) ? parsed : {};
    if ('method' in m && !('id' in m) && m.jsonrpc === '2.0') {
      // JSON-RPC: never answer a notification
      this.options.log?.(`mcp-server: an invalid notification was dropped: ${problem}`);
      return;
    }
    const stand = malformedResponse(m);
    if (stand) {
      this.batch.push(stand as unknown as Obj); // the request it answers fails now, not after its timeout
      return;
    }
    this.reply(isId(m.id) ? m.id : null, -32600, `Invalid Request: ${problem}`);
  }

  /**
   * A request the client cancelled gets no answer (MCP "Cancellation": the SDK sends none once its
   * handler stops), so it is no longer open: its hold is released now, or the server's exit at
   * stdin EOF would wait out the drain for an answer that never comes, and each cancellation would
   * stay in the open list for the life of the session. The call itself, if its handler still runs,
   * is still tracked by the lifecycle until it ends. A cancellation of nothing open changes nothing.
   */
  private cancelled(id: unknown): void {
    if (isId(id)) this.unopen(id)?.();
  }

  /** Takes the oldest open request with this id off the open list: its release, or undefined when none is open. */
  private unopen(id: Id): (() => void) | undefined {
    const waiting = this.open.get(id);
    const release = waiting?.shift();
    if (waiting && !waiting.length) this.open.delete(id);
    return release;
  }

  private reply(id: Id | null, code: number, message: string): void {
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }
}
