/**
 * Redaction of secret values (docs/security.md#secret-flags): a run knows the values of its secret
 * flags, and every error it reports — message, fix, suggestions, context, next steps — is written
 * with each of them replaced by {@link REDACTED}, whoever put it there (a flag check, the handler, a
 * library that quotes an Authorization header).
 */
import { AxError } from './errors.ts';

/** What a secret's value is shown as. */
export const REDACTED = '[redacted]';

/**
 * `text` with every occurrence of each secret replaced by {@link REDACTED}, outside the
 * {@link REDACTED} marks already there: redacting twice (a recorded error replayed, a second
 * secret) changes nothing more, even for a secret that occurs in the mark.
 */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets)
    if (s !== '' && out.includes(s))
      out = out
        .split(REDACTED)
        .map((part) => part.replaceAll(s, REDACTED))
        .join(REDACTED);
  return out;
}

/** Every string inside a JSON-like value, redacted (keys too); other values as they are. */
export function redactValue(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[redactText(k, secrets)] = redactValue(v, secrets, depth + 1);
  return out;
}

/**
 * `err` with every secret redacted from what its error line shows: the same error when none occurs
 * (nothing is copied), else an AxError of the same kind, exit code and retry fields whose message
 * and `toJSON()` are the redacted ones (its `cause` the original's cause, whose stack only
 * `AX_DEBUG` prints, redacted too). The line's own field names and its `kind` are the contract's
 * words and stay as they are, whatever the secret; an error in which the secrets occur only inside
 * marks already there is returned as it is.
 */
export function redactError(err: AxError, secrets: readonly string[] | undefined): AxError {
  if (!secrets?.length) return err;
  const json = err.toJSON();
  const text = JSON.stringify(json);
  // the text is JSON: a secret holding a quote, a backslash or a control character occurs escaped
  if (!secrets.some((s) => s !== '' && text.includes(JSON.stringify(s).slice(1, -1)))) return err;
  const shown: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(json)) shown[k] = k === 'kind' ? v : redactValue(v, secrets);
  // nothing but marks already there (a replayed record, redacted before it was recorded): as it is
  if (JSON.stringify(shown) === text) return err;
  const out = new AxError(err.kind, redactText(err.message, secrets), {
    exitCode: err.exitCode,
    retryable: err.retryable,
    retryAfterSeconds: err.retryAfterSeconds,
    fix: err.fix === undefined ? undefined : redactText(err.fix, secrets),
    suggestions: err.suggestions?.map((s) => redactText(s, secrets)),
    context: shown.context as Record<string, unknown> | undefined,
    usage: err.usage,
    next: shown.next as AxError['next'],
    cause: err.cause,
  });
  out.toJSON = () => shown;
  return out;
}
