/**
 * What a built program's entry hands to `mcp-server` when it serves stdio in place (in-place.ts):
 * the client's stdin and stdout on descriptors of their own, kept on one process-wide record
 * (the entry and the program are separate files: a global is the only thing they share).
 * docs/mcp-server.md#stdio.
 */

/** Where the entry keeps the {@link InPlaceWire}. */
export const IN_PLACE = Symbol.for('ax-ts.stdio-in-place');

/** The client's stdin and stdout, as descriptors or raw pipe handles. */
export interface WireEnds {
  input: number | object;
  output: number | object;
}

/** The entry's record: `take()` gives the client's streams (once). */
export interface InPlaceWire {
  take(): Promise<WireEnds>;
  /** Set by the taker: the streams serve one server. */
  taken?: boolean;
}

/** The entry's record, when this process serves stdio in place. */
export function inPlaceWire(): InPlaceWire | undefined {
  return (globalThis as Record<symbol, unknown>)[IN_PLACE] as InPlaceWire | undefined;
}
