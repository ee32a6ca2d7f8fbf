/**
 * Schema diff of one command's flags in two `__schema --as=ax` documents: removed, added, retyped,
 * newly required, shorthands, negation, choices, defaults, deprecation and usage. An inherited flag's
 * change is reported once, on the command that declares it.
 */
import { type Severity, type Json, isObj, eq, show, Collector, diffChoices } from './core.ts';

/** Reports one flag change of a command; an inherited flag's change the parent reported is skipped. */
type Report = (
  sev: Severity,
  kind: string,
  flag: string,
  message: string,
  inherited: boolean,
  before?: unknown,
  after?: unknown,
) => void;

/**
 * Compares the flags of one command present in both documents. @returns the flag-change keys
 * reported here, so that children inheriting the same flag do not repeat them.
 */
export function diffFlags(c: Collector, path: string, x: Json, y: Json, parentReported: Set<string>): Set<string> {
  const here = new Set<string>();
  const fa = new Map<string, Json>(
    (Array.isArray(x.flags) ? x.flags : []).filter(isObj).map((f: Json) => [String(f.name), f]),
  );
  const fb = new Map<string, Json>(
    (Array.isArray(y.flags) ? y.flags : []).filter(isObj).map((f: Json) => [String(f.name), f]),
  );
  const report: Report = (sev, kind, flag, message, inherited, before, after) => {
    const key = `${kind}:${flag}:${show(after)}`;
    here.add(key);
    if (inherited && parentReported.has(key)) return;
    c.add(sev, kind, `${path} --${flag}`, message, before, after);
  };
  for (const [n, f] of fa) {
    const g = fb.get(n);
    const inh = f.inherited === true;
    if (!g) {
      report('breaking', 'flag_removed', n, `flag --${n} of ${path} was removed`, inh);
      continue;
    }
    diffFlag(c, report, path, n, f, g, inh && g.inherited === true);
  }
  for (const [n, g] of fb) {
    if (fa.has(n)) continue;
    if (g.required === true)
      report('breaking', 'required_flag_added', n, `${path} has a new required flag --${n}`, g.inherited === true);
    else report('additive', 'flag_added', n, `${path} has a new flag --${n}`, g.inherited === true);
  }
  return here;
}

/** Compares one flag present in both versions of a command (`inhBoth`: inherited in both). */
function diffFlag(c: Collector, report: Report, path: string, n: string, f: Json, g: Json, inhBoth: boolean): void {
  if (f.type !== g.type)
    report(
      'breaking',
      'flag_type_changed',
      n,
      `flag --${n} of ${path} changed type from ${f.type} to ${g.type}`,
      inhBoth,
      f.type,
      g.type,
    );
  if (f.required !== true && g.required === true)
    report('breaking', 'flag_now_required', n, `flag --${n} of ${path} is now required`, inhBoth);
  if (f.required === true && g.required !== true)
    report('additive', 'flag_now_optional', n, `flag --${n} of ${path} is no longer required`, inhBoth);
  if (f.shorthand && f.shorthand !== g.shorthand)
    report(
      'breaking',
      'flag_shorthand_removed',
      n,
      `shorthand -${f.shorthand} of --${n} (${path}) was ${g.shorthand ? `changed to -${g.shorthand}` : 'removed'}`,
      inhBoth,
      f.shorthand,
      g.shorthand ?? null,
    );
  else if (!f.shorthand && g.shorthand)
    report(
      'additive',
      'flag_shorthand_added',
      n,
      `--${n} of ${path} has a new shorthand -${g.shorthand}`,
      inhBoth,
      undefined,
      g.shorthand,
    );
  if (f.negatable === true && g.negatable !== true)
    report('breaking', 'flag_negation_removed', n, `--no-${n} of ${path} was removed`, inhBoth);
  const mark = c.changes.length;
  diffChoices(c, `${path} --${n}`, `flag --${n} of ${path}`, f.choices, g.choices);
  for (const ch of c.changes.splice(mark)) report(ch.severity, ch.kind, n, ch.message, inhBoth, ch.before, ch.after);
  if (!eq(f.default, g.default))
    report(
      'info',
      'flag_default_changed',
      n,
      `default of --${n} (${path}) changed from ${show(f.default ?? null)} ` +
        `to ${show(g.default ?? null)} (callers that omit it get different behaviour)`,
      inhBoth,
      f.default ?? null,
      g.default ?? null,
    );
  if (!f.deprecated && g.deprecated)
    report('info', 'flag_deprecated', n, `flag --${n} of ${path} is deprecated: ${g.deprecated}`, inhBoth);
  if ((f.usage ?? '') !== (g.usage ?? ''))
    report('info', 'flag_usage_changed', n, `usage of --${n} (${path}) changed`, inhBoth, f.usage ?? '', g.usage ?? '');
}
