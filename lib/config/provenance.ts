/**
 * Where each flag value came from. A flag may declare an environment variable (`FlagSpec.env`) and
 * a config key (`FlagSpec.config`, read from the root's `config.file`); a value resolves in one
 * fixed order — flag (or MCP/`--args-json` property) > env > config > default — and the provenance
 * of every flag says which source won and which lower ones it beat. `--explain <flag>` prints it for
 * any flag of any command; json envelopes of commands with such flags carry it in `meta.provenance`
 * (for every flag of the author's). Source: ax-go's documented precedence (flags
 * over environment over config over defaults, as in viper); docs/config.md.
 */
import type { Command } from '../tree/command.ts';
import { resolvedView } from '../tree/resolved.ts';
import type { Flag } from '../tree/flags.ts';
import { applyFlagText, checkConfigValue } from '../tree/flag-values.ts';
import { flagsOf } from '../tree/flagset.ts';
import { AxError, validationError } from '../contract/errors.ts';
import type { Invocation } from '../parse/parse.ts';
import { flagLabel } from '../parse/validate.ts';
import { suggestionsFor } from '../tree/suggest.ts';
import { builtinModule } from '../platform/builtin.ts';

/** The provenance of one flag's value. */
export interface FlagProvenance {
  /** The source that won: `flag` (CLI), `argument` (MCP or `--args-json` property), `env`, `config` or `default`. */
  source: 'flag' | 'argument' | 'env' | 'config' | 'default';
  /** The environment variable the flag reads, when it declares one. */
  env?: string;
  /** The config key the flag reads and the file, when it declares one. */
  config?: { key: string; file: string | null };
  /** Lower-precedence sources that also had a value and lost, in precedence order. */
  beat: ('env' | 'config' | 'default')[];
}

/**
 * Flags of `cmd` that declare an env var or a config key (cached with the flag set until the tree
 * changes: every run asks, and most commands have none). Read-only.
 */
export function sourcedFlags(cmd: Command): readonly Flag[] {
  return (resolvedView(cmd).sourced ??= [...flagsOf(cmd).values()].filter(
    (f) => f.spec.env !== undefined || f.spec.config !== undefined,
  ));
}

function configPath(root: Command, env: Record<string, string | undefined>): string | undefined {
  const decl = root.config;
  if (!decl) return undefined;
  const p = typeof decl.file === 'function' ? decl.file(env) : decl.file;
  if (!p) return undefined;
  // node:os only when HOME is unset (loaded then: a static import costs every start ~0.1 ms)
  return p.startsWith('~/') ? `${env.HOME ?? builtinModule('node:os').homedir()}${p.slice(1)}` : p;
}

function lookup(doc: unknown, key: string): { found: boolean; value?: unknown } {
  let cur = doc;
  for (const seg of key.split('.')) {
    if (
      cur === null ||
      typeof cur !== 'object' ||
      Array.isArray(cur) ||
      !Object.prototype.hasOwnProperty.call(cur, seg)
    )
      return { found: false };
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur === null ? { found: false } : { found: true, value: cur };
}

/**
 * The provenance of a flag with no env or config source: the caller (`flag` on the command line,
 * `argument` from MCP or `--args-json`) when given, else `default` (beating nothing).
 */
function plainProvenance(inv: Invocation, f: Flag): FlagProvenance {
  if (!inv.values.has(f.name)) return { source: 'default', beat: [] };
  return {
    source: inv.source === 'values' ? 'argument' : 'flag',
    beat: f.spec.default !== undefined ? ['default'] : [],
  };
}

/**
 * The provenance of every flag of the command (injected ones too), keyed by label, for
 * `--explain`: the env and config sources resolved as {@link resolveSources} does.
 * @throws as resolveSources.
 */
export async function allProvenance(
  inv: Invocation,
  env: Record<string, string | undefined>,
): Promise<Record<string, FlagProvenance>> {
  const sourced = resolveSources(inv, env);
  const known = sourced ? await sourced : {};
  const out: Record<string, FlagProvenance> = {};
  for (const f of inv.resolved.all.values()) {
    const label = flagLabel(inv, f.name);
    out[label] = known[label] ?? plainProvenance(inv, f);
  }
  return out;
}

/**
 * Fills `inv.sourced` with the env and config values of the flags not given, and returns the
 * provenance of every flag of the author's (own and inherited; not the injected ones) when some
 * flag has an env or config source (keyed by its label: `--limit` on the CLI, `limit` over MCP);
 * undefined — not a promise — when the command has none (nothing is read).
 * @throws AxError `validation_error` (reason `invalid_env_value`) when an environment variable does
 *   not parse as the flag's type; `config_invalid` when the config file is invalid or a key holds a
 *   value of the wrong type; `config_too_large` as readConfig.
 */
export function resolveSources(
  inv: Invocation,
  env: Record<string, string | undefined>,
): Promise<Record<string, FlagProvenance>> | undefined {
  const flags = sourcedFlags(inv.command);
  return flags.length === 0 ? undefined : resolveFrom(inv, env, flags); // none: no promise either (docs/performance.md)
}

async function resolveFrom(
  inv: Invocation,
  env: Record<string, string | undefined>,
  flags: ReturnType<typeof sourcedFlags>,
): Promise<Record<string, FlagProvenance>> {
  const root = inv.command.root();
  const file = flags.some((f) => f.spec.config !== undefined) ? configPath(root, env) : undefined;
  let doc: unknown;
  if (file) {
    const { readConfig } = await import('./config.ts');
    try {
      doc = await readConfig(file, { maxBytes: root.config?.maxBytes });
    } catch (e) {
      // a missing file supplies nothing
      if (!(e instanceof AxError && e.kind === 'config_invalid' && e.context?.reason === 'not_found')) throw e;
    }
  }
  const out: Record<string, FlagProvenance> = {};
  const sourced = (inv.sourced ??= new Map());
  for (const f of flags) {
    const { spec, name } = f;
    const label = flagLabel(inv, name);
    const raw = spec.env !== undefined ? env[spec.env] : undefined;
    const hasEnv = raw !== undefined && raw !== '';
    const cfg = spec.config !== undefined && doc !== undefined ? lookup(doc, spec.config) : { found: false };
    const hasDefault = spec.default !== undefined;
    const p = { source: 'default' } as FlagProvenance;
    if (spec.env !== undefined) p.env = spec.env;
    if (spec.config !== undefined) p.config = { key: spec.config, file: file ?? null };
    p.beat = [];
    if (inv.values.has(name)) {
      p.source = inv.source === 'values' ? 'argument' : 'flag';
      if (hasEnv) p.beat.push('env');
      if (cfg.found) p.beat.push('config');
      if (hasDefault) p.beat.push('default');
    } else if (hasEnv) {
      p.source = 'env';
      try {
        sourced.set(name, applyFlagText(name, spec, undefined, raw, true));
      } catch (e) {
        const why = e instanceof AxError ? String(e.context?.expected ?? e.message) : String(e);
        // the value itself is never echoed: an environment variable may hold a secret, and under
        // mcp-server this error reaches the client (docs/security.md)
        throw validationError(
          `the value in ${spec.env} (for ${label}) is not valid: expected ${why}`,
          'invalid_env_value',
          {
            context: { env: spec.env, flag: label },
            fix: `Set ${spec.env} to ${why}, unset it, or give ${label} explicitly.`,
          },
        );
      }
      if (cfg.found) p.beat.push('config');
      if (hasDefault) p.beat.push('default');
    } else if (cfg.found) {
      p.source = 'config';
      try {
        // a config file writes a map flag's value as a JSON object ({"a": "1"}), the natural spelling
        // of a file; MCP and --args-json send the inputSchema's portable [{key, value}] items
        sourced.set(name, checkConfigValue(`${spec.config}`, spec, cfg.value));
      } catch (e) {
        const why = e instanceof AxError ? String(e.context?.expected ?? e.message) : String(e);
        throw new AxError(
          'config_invalid',
          `the config key ${JSON.stringify(spec.config)} in ${file} ` +
            `(for ${label}) holds ${jsonType(cfg.value)}: expected ${why}`,
          {
            context: { path: file, key: spec.config, flag: label, reason: 'wrong_type' },
            fix: `Set ${JSON.stringify(spec.config)} in ${file} to ${why}, or give ${label} explicitly.`,
          },
        );
      }
      if (hasDefault) p.beat.push('default');
    }
    out[label] = p;
  }
  // the author's other flags too: every value of the envelope says where it came from
  for (const f of inv.resolved.all.values()) {
    if (f.builtin || f.spec.env !== undefined || f.spec.config !== undefined) continue;
    out[flagLabel(inv, f.name)] = plainProvenance(inv, f);
  }
  return out;
}

/** What kind of JSON value `v` is (`a string`, `an array`), never the value: a config value may be a secret. */
function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  if (v === null) return 'null';
  const t = typeof v;
  return t === 'object' ? 'an object' : t === 'string' ? 'a string' : t === 'number' ? 'a number' : `a ${t}`;
}

/** Human text of `--explain <flag>`: which source won and what it beat. */
export function explainText(label: string, p: FlagProvenance): string {
  const where = (s: string) =>
    s === 'env'
      ? `env ${p.env}`
      : s === 'config'
        ? `config key ${JSON.stringify(p.config?.key)}${p.config?.file ? ` in ${p.config.file}` : ' (no config file)'}`
        : s;
  const won =
    p.source === 'flag' ? `the flag ${label}` : p.source === 'argument' ? `the property ${label}` : where(p.source);
  const sources = [p.env !== undefined ? `env ${p.env}` : undefined, p.config ? where('config') : undefined]
    .filter(Boolean)
    .join(', ');
  return (
    `${label}: from ${won}${p.beat.length ? `; beat ${p.beat.map(where).join(', ')}` : ''}\n` +
    `  order: flag > env > config > default${sources ? ` (declared: ${sources})` : ''}\n`
  );
}

/**
 * The flag `--explain` names (`limit`, `--limit` or `-l`'s long name) among the command's flags.
 * @throws AxError `validation_error` (reason `unknown_flag`) naming the flags it can explain.
 */
export function explainTarget(inv: Invocation, asked: string): Flag {
  const name = asked.replace(/^--?/, '');
  const flags = [...inv.resolved.all.values()].filter((f) => !f.spec.hidden);
  const found = flags.find(
    (f) => f.name === name || (asked.startsWith('-') && !asked.startsWith('--') && f.spec.short === name),
  );
  if (found) return found;
  const names = flags.map((f) => f.name);
  const suggestions = suggestionsFor(name, names).map((n) => `--${n}`);
  throw validationError(
    `--explain ${asked}: ${JSON.stringify(inv.command.commandPath())} has no flag named ${JSON.stringify(name)}`,
    'unknown_flag',
    {
      suggestions,
      context: { flag: asked, explainable: names.map((n) => `--${n}`) },
      fix: `Pass one of: ${names.map((n) => `--${n}`).join(', ')}.`,
      usage: inv.command.commandPath(),
    },
  );
}
