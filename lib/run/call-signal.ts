/**
 * A run's AbortSignal, made only when something reads it (docs/performance.md). An MCP call is aborted by
 * the client's cancellation (the SDK's signal for the request) or by the server's shutdown; a
 * handler that returns without waiting never reads its signal, and neither does the runner, which
 * only asks whether the run is aborted. So the AbortController, and the listener that links it to
 * the client's signal, are made on the first read of {@link CallSignal.signal} — by `ctx.signal`, a
 * handler that returns a promise (the runner races it against the signal), a hook, a stream, a
 * prompt — and never for a synchronous handler. Measured: an AbortController and a listener added
 * and removed cost about 18 µs per call over a fresh process's first 2,000 (and ~8 % of a no-op
 * MCP call's server CPU).
 *
 * Whichever comes first wins, as with an eager controller: the source's abort (reason: its own,
 * else `cancelledReason`), or {@link CallSignal.abort}. Once the run has ended
 * ({@link CallSignal.dispose}), the source is no longer followed, made signal or not: a signal first
 * read later (a timer of the handler's) stays as the run ended.
 */

const NONE: unique symbol = Symbol('not aborted');

/** The reason of a cancellation that came without one (one function for every call, not a closure per call). */
const CANCELLED_BY_CLIENT = (): unknown => new Error('cancelled by the client');

/** The signal of one run, built on first read; see the module comment. */
export class CallSignal {
  #ac: AbortController | undefined;
  #reason: unknown = NONE;
  #onAbort: (() => void) | undefined;
  #source: AbortSignal | undefined;
  readonly #cancelledReason: () => unknown;

  /**
   * @param source a signal this one follows (the client's cancellation of an MCP request); none: only
   *   {@link abort} aborts it.
   * @param cancelledReason the reason given when `source` aborts without one (default: an Error
   *   "cancelled by the client").
   */
  constructor(source?: AbortSignal, cancelledReason: () => unknown = CANCELLED_BY_CLIENT) {
    this.#source = source;
    this.#cancelledReason = cancelledReason;
  }

  /** Whether the run is aborted, without making the signal. */
  get aborted(): boolean {
    if (this.#ac) return this.#ac.signal.aborted;
    return this.#reason !== NONE || this.#source?.aborted === true;
  }

  /** The run's AbortSignal (made on first read, already aborted when the run is). */
  get signal(): AbortSignal {
    if (this.#ac) return this.#ac.signal;
    const ac = (this.#ac = new AbortController());
    const source = this.#source;
    if (this.#reason !== NONE) ac.abort(this.#reason);
    else if (source?.aborted) ac.abort(this.#sourceReason(source));
    else if (source) {
      this.#onAbort = () => ac.abort(this.#sourceReason(source));
      source.addEventListener('abort', this.#onAbort, { once: true });
    }
    return ac.signal;
  }

  /** Aborts the run with `reason` (no effect once it is aborted). */
  abort(reason: unknown): void {
    if (this.#ac) this.#ac.abort(reason);
    else if (!this.aborted) this.#reason = reason;
  }

  /** Stops following the source (call it once the run has ended); an abort it had already made stands. */
  dispose(): void {
    const source = this.#source;
    if (!source) return;
    if (this.#onAbort) source.removeEventListener('abort', this.#onAbort);
    this.#onAbort = undefined;
    if (!this.#ac && this.#reason === NONE && source.aborted) this.#reason = this.#sourceReason(source);
    this.#source = undefined;
  }

  #sourceReason(source: AbortSignal): unknown {
    return source.reason ?? this.#cancelledReason();
  }
}
