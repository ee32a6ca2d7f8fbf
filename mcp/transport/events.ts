/**
 * Resumable Streamable HTTP streams: an in-memory implementation of the SDK's `EventStore`. With one
 * in place, every message the server sends on an SSE stream gets an event id and is kept for a while,
 * so a client whose stream drops mid-call reconnects (`GET /mcp` with `Last-Event-ID`) and receives
 * what it missed — progress, log lines, the result — then the rest live. One store per session (the
 * SDK's standalone-stream id is the same in every session). Bounded by count, bytes and age.
 * Source: MCP 2025-11-25 transports, "Resumability and Redelivery"; SDK `EventStore`.
 */
/**
 * One JSON-RPC 2.0 message as a stream carries it (a request, notification, result or error): what
 * an {@link EventStore} keeps and gives back unchanged. The SDK's own type is the exact union; this
 * one is what a store needs to know (it never reads a message).
 */
export interface JSONRPCMessage {
  jsonrpc: '2.0';
  [key: string]: unknown;
}

/**
 * Where a Streamable HTTP server keeps the messages it sent on SSE streams, so a client that
 * reconnects with `Last-Event-ID` receives what it missed (the MCP SDK's `EventStore`; MCP
 * 2025-11-25 transports, "Resumability and Redelivery"). Declared here so that a program's
 * type-check needs no SDK; the SDK accepts it as its own (test/mcp/resume.test.ts checks both ways).
 */
export interface EventStore {
  /** Keeps `message`, sent on stream `streamId`; resolves to the new event's id (unique, opaque). */
  storeEvent(streamId: string, message: JSONRPCMessage): Promise<string>;
  /** The stream an event id belongs to, or undefined when unknown (optional). */
  getStreamIdForEventId?(eventId: string): Promise<string | undefined>;
  /**
   * Sends every event of `lastEventId`'s stream stored after it, in order, through `send`; resolves
   * to that stream's id. Rejects when the id is unknown or expired.
   */
  replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string>;
}

/** Limits of a {@link MemoryEventStore}. */
export interface MemoryEventStoreOptions {
  /** Most events kept (oldest dropped first). Default 1000. */
  maxEvents?: number;
  /** Most bytes of JSON kept. Default 8 MiB. */
  maxBytes?: number;
  /** How long an event may be replayed, ms. Default 5 minutes. */
  ttlMs?: number;
}

interface Stored {
  streamId: string;
  message: JSONRPCMessage;
  bytes: number;
  at: number;
}

/**
 * The default event store: in memory, per session, bounded (see {@link MemoryEventStoreOptions}). An
 * event id older than what is kept replays nothing (the client gets the stream from now on). Event
 * ids are a random prefix of this store and a counter, so they cannot be guessed from one another
 * store's ids.
 */
export class MemoryEventStore implements EventStore {
  private readonly events = new Map<string, Stored>();
  private readonly streams = new Map<string, string[]>();
  private seq = 0;
  private readonly prefix = randomTag(9);
  private bytes = 0;
  private readonly maxEvents: number;
  private readonly maxBytes: number;
  private readonly ttlMs: number;

  constructor(options: MemoryEventStoreOptions = {}) {
    this.maxEvents = options.maxEvents ?? 1000;
    this.maxBytes = options.maxBytes ?? 8 * 1024 * 1024;
    this.ttlMs = options.ttlMs ?? 5 * 60_000;
  }

  /** Number of events kept now. */
  get size(): number {
    return this.events.size;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${this.prefix}-${++this.seq}`;
    const bytes = JSON.stringify(message).length;
    this.events.set(id, { streamId, message, bytes, at: Date.now() });
    this.bytes += bytes;
    let ids = this.streams.get(streamId);
    if (!ids) this.streams.set(streamId, (ids = []));
    ids.push(id);
    this.evict();
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    this.evict();
    const last = this.events.get(lastEventId);
    if (!last) return '';
    const ids = this.streams.get(last.streamId) ?? [];
    for (const id of ids.slice(ids.indexOf(lastEventId) + 1)) {
      const e = this.events.get(id);
      // priming events (empty, only there to hand the client an id) are not messages
      if (e && Object.keys(e.message).length > 0) await send(id, e.message);
    }
    return last.streamId;
  }

  /** Drops the oldest events beyond the count, byte and age limits (insertion order is age order). */
  private evict(): void {
    const horizon = Date.now() - this.ttlMs;
    for (const [id, e] of this.events) {
      if (this.events.size <= this.maxEvents && this.bytes <= this.maxBytes && e.at >= horizon) break;
      this.events.delete(id);
      this.bytes -= e.bytes;
      const ids = this.streams.get(e.streamId);
      if (ids) {
        ids.shift(); // the oldest of its stream, too
        if (ids.length === 0) this.streams.delete(e.streamId);
      }
    }
  }
}

/**
 * One session's view of an event store that may be shared by every session (an author's
 * `eventStore` factory may return the same store each time): each event id it hands out carries a
 * random tag of this session (128 bits), and a `Last-Event-ID` without that tag — another session's
 * event, or a made-up one — resumes nothing (the SDK answers 400 "Invalid event ID"). So a client
 * can only ever resume its own session's streams, whatever store sits behind.
 */
export function sessionBound(store: EventStore): EventStore {
  const tag = `${randomTag(16)}.`;
  const own = (eventId: string): string | undefined =>
    eventId.startsWith(tag) ? eventId.slice(tag.length) : undefined;
  const bound: EventStore = {
    storeEvent: async (streamId, message) => tag + (await store.storeEvent(streamId, message)),
    // a foreign id replays nothing (and with a lookup, the SDK answers 400 before replaying)
    replayEventsAfter: async (lastEventId, { send }) => {
      const id = own(lastEventId);
      if (id === undefined) return '';
      return store.replayEventsAfter(id, { send: (eventId, message) => send(tag + eventId, message) });
    },
  };
  const lookup = store.getStreamIdForEventId?.bind(store);
  if (lookup) {
    bound.getStreamIdForEventId = async (eventId) => {
      const id = own(eventId);
      return id === undefined ? undefined : lookup(id);
    };
  }
  return bound;
}

/**
 * `n` random bytes from the OS CSPRNG as base64url. The global Web Crypto rather than `node:crypto`:
 * this module is part of what every program loads at start, and `node:crypto` costs ~1.5 ms to load
 * (docs/performance.md); Web Crypto's internals load on the first call, which only a serving run makes.
 */
function randomTag(n: number): string {
  return Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(n))).toString('base64url');
}
