/**
 * Network failures recognised in anything a handler throws (docs/contract.md#network-failures): a
 * connection refused, reset or timed out, a name that does not resolve, a host or network that
 * cannot be reached (Node's errno codes, and undici's for `fetch`), and a server certificate that is
 * not trusted. {@link toAxError} makes them `network_error` (exit 3) instead of `internal_error`,
 * naming the code and the peer, so a caller knows to check the network rather than report a bug.
 */

/** Codes of a connection that failed or broke: retrying later may work. */
const TRANSIENT = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/** Codes of a server certificate the runtime does not trust: retrying alone will not help. */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** A network failure found in a thrown value's `cause` chain. */
export interface NetworkFailure {
  /** The error that carries the code. */
  error: Error & { code: string };
  /** Whether a retry may work (a connection failure), or not (an untrusted certificate). */
  retryable: boolean;
}

/**
 * The first error of `chain` whose `code` is a network failure's; else `fetch()`'s own rejection
 * (a `TypeError` "fetch failed", which the Fetch standard makes a network error, whatever its cause
 * says: a proxy's 407 reaches it as a cancelled request), its code `fetch_failed`; else undefined.
 */
export function networkFailure(chain: readonly unknown[]): NetworkFailure | undefined {
  for (const c of chain) {
    const code = c instanceof Error ? (c as { code?: unknown }).code : undefined;
    if (typeof code !== 'string') continue;
    if (TRANSIENT.has(code)) return { error: c as NetworkFailure['error'], retryable: true };
    if (UNTRUSTED.has(code)) return { error: c as NetworkFailure['error'], retryable: false };
  }
  // by name, as an error rebuilt from another process's report (a front end's call) is no TypeError
  const fetchFailed = chain.find((c) => c instanceof Error && c.name === 'TypeError' && c.message === 'fetch failed');
  if (!fetchFailed) return undefined;
  const cause = (fetchFailed as Error).cause;
  const detail = cause instanceof Error && cause.message ? cause.message : 'fetch failed';
  // a copy: the thrown error is the caller's, never changed
  return { error: Object.assign(new Error(detail), { code: 'fetch_failed' }), retryable: true };
}

/** What the failure says of itself: the code, the system call and the peer, where it has them. */
export function networkContext(f: NetworkFailure): Record<string, unknown> {
  const e = f.error as NetworkFailure['error'] & Record<string, unknown>;
  const out: Record<string, unknown> = { code: e.code };
  for (const key of ['syscall', 'hostname', 'address', 'port'] as const) {
    const v = e[key];
    if (typeof v === 'string' || typeof v === 'number') out[key] = v;
  }
  return out;
}

/** The fix a caller of a failed connection, or of an untrusted certificate, can act on. */
export function networkFix(f: NetworkFailure): string {
  return f.retryable
    ? 'Check the network, and the proxy settings (HTTPS_PROXY, HTTP_PROXY, NO_PROXY) if one is in the way; then retry.'
    : "The server's certificate is not trusted: if a proxy or a private authority signs it, " +
        'give its certificate to the program with NODE_EXTRA_CA_CERTS=<file.pem>, then retry.';
}
