/**
 * Timestamps in a golden's JSON are UTC (ax-go's `ValidateTimestamps`): every string value that is an
 * RFC 3339 date-time (https://www.rfc-editor.org/rfc/rfc3339#section-5.6) must have the offset `Z`
 * or `+00:00`/`-00:00`, so that output does not depend on the machine's time zone. Other values,
 * and strings that are not RFC 3339 date-times, are left alone; no timestamp at all is no failure.
 */

/** An RFC 3339 date-time: `2024-01-02T03:04:05Z`, with optional fractional seconds and any offset. */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/** Whether `s` is a valid RFC 3339 date-time (the fields in range, the date a real one). */
function isRfc3339(m: RegExpExecArray): boolean {
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 60) return false;
  if (m[10] !== undefined && (Number(m[10]) > 23 || Number(m[11]) > 59)) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

/** Every RFC 3339 date-time in `v` that is not UTC, with where it is (`$.data.due`). */
function walk(v: unknown, at: string, out: string[]): void {
  if (typeof v === 'string') {
    const m = RFC3339.exec(v);
    if (m && isRfc3339(m) && !/^[Zz]$|^[+-]00:00$/.test(m[8]!)) out.push(`${at}: ${JSON.stringify(v)} is not UTC`);
  } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${at}[${i}]`, out));
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${at}.${k}`, out);
}

/**
 * The timestamps of a JSON text that are not UTC: one JSON document, or NDJSON / a transcript (each
 * line that is a JSON document is read; other lines are skipped). Each problem names the line, the
 * path and the value (`line 1: $.data.created_at: "2024-01-02T03:04:05+02:00" is not UTC`).
 */
export function nonUtcTimestamps(text: string): string[] {
  const out: string[] = [];
  const whole = text.trim();
  const docs: [string, unknown][] = [];
  try {
    docs.push(['', JSON.parse(whole)]);
  } catch {
    text.split('\n').forEach((line, i) => {
      const t = line.trim();
      if (!t.startsWith('{') && !t.startsWith('[')) return;
      try {
        docs.push([`line ${i + 1}: `, JSON.parse(t)]);
      } catch {
        /* not JSON: no timestamps to check */
      }
    });
  }
  for (const [where, doc] of docs) {
    const found: string[] = [];
    walk(doc, '$', found);
    out.push(...found.map((f) => `${where}${f}`));
  }
  return out;
}

/**
 * Checks that every RFC 3339 timestamp in a JSON text (a document, NDJSON or a transcript) is UTC.
 * @throws Error listing each timestamp that is not, with where it is.
 */
export function expectUtcTimestamps(text: string): void {
  const bad = nonUtcTimestamps(text);
  if (bad.length) throw new Error(`timestamps that are not UTC:\n${bad.map((b) => `  ${b}`).join('\n')}`);
}
