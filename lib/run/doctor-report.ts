/**
 * What `<program> doctor` (./doctor.ts) reports, loaded only when it runs: what an agent (or a
 * person) checks before blaming the program — the runtime
 * against its floor, the agent detected, where the program keeps its state and cache with their
 * owners and modes (and whether they may be trusted: docs/security.md#directories-the-program-trusts),
 * whether the idempotency store answers, and the packages bundled inside ax-ts (its bill of
 * materials). Read-only: it creates nothing. Each problem found is in `problems`, with its fix.
 * docs/contract.md#doctor.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command, RunContext } from '../tree/command.ts';
import { MIN_NODE, belowNodeFloor } from '../platform/node-floor.ts';
import { detectAgent } from '../platform/agent.ts';
import { proxyUse, proxyVariables } from '../platform/env-proxy.ts';
import { envProxyRefusal } from '../platform/process-patches.ts';
import { untrustedDirectory, untrustedToMake } from '../platform/trust.ts';
import { defaultIdempotencyDir } from '../store/file-store.ts';
import { IDEMPOTENCY_STORE_ENV } from '../store/idempotency.ts';

type Env = Record<string, string | undefined>;

/** One directory as the doctor sees it. */
interface Place {
  path: string | null;
  exists: boolean;
  owner_uid?: number;
  mode?: string;
  /** Nobody but this user (and root) can change it or a directory above it. */
  trusted?: boolean;
  problem?: string;
}

function place(path: string | undefined, what: string, problems: string[]): Place {
  if (!path) {
    problems.push(`no ${what}: neither XDG_STATE_HOME nor HOME is an absolute path; set one`);
    return { path: null, exists: false };
  }
  let st;
  try {
    st = statSync(path);
  } catch {
    // made on first use: under a directory nobody else can change, or it will be refused then
    try {
      const u = untrustedToMake(path);
      if (!u) return { path, exists: false, trusted: true };
      const problem = `${u.path}: ${u.reason.replace(/_/g, ' ')}`;
      problems.push(`the ${what} ${path} does not exist yet and would be made where it cannot be trusted (${problem})`);
      return { path, exists: false, trusted: false, problem };
    } catch (e) {
      return { path, exists: false, problem: (e as Error).message };
    }
  }
  const out: Place = { path, exists: true, owner_uid: st.uid, mode: `0${(st.mode & 0o7777).toString(8)}` };
  try {
    const u = untrustedDirectory(path);
    out.trusted = u === undefined;
    if (u) {
      out.problem = `${u.path}: ${u.reason.replace(/_/g, ' ')}`;
      problems.push(`the ${what} ${path} is not trusted (${out.problem}); make it yours alone (chmod go-w, chown)`);
    }
  } catch (e) {
    out.problem = (e as Error).message;
  }
  return out;
}

/** The runtime: Node (against the floor), Bun or Deno. */
function runtime(problems: string[]) {
  const v = process.versions as Record<string, string | undefined>;
  const name = v.bun ? 'bun' : v.deno ? 'deno' : 'node';
  const ok = name !== 'node' || !belowNodeFloor();
  if (!ok) problems.push(`Node.js ${process.versions.node} is below ${MIN_NODE}; upgrade Node.js`);
  return { name, version: v[name] ?? process.versions.node, node_floor: MIN_NODE, ok };
}

/**
 * The proxy the environment names (./env-proxy.ts), credentials hidden, and who makes requests follow
 * it; null when none is set. Named but followed by nothing is a problem.
 */
function proxy(env: Env, problems: string[]) {
  const variables = proxyVariables(env);
  const use = proxyUse(env);
  if (!variables || use === 'none') return null;
  const refused = use === 'ax-ts' ? envProxyRefusal() : undefined;
  if (refused) {
    problems.push(
      `a proxy is set (${Object.keys(variables).join(', ')}) but Node.js cannot use it (${refused}), so requests ` +
        'go straight to their hosts; give it as http://host:port or https://host:port',
    );
    return { variables, followed_by: 'unsupported' as const };
  }
  if (use === 'unsupported')
    problems.push(
      `a proxy is set (${Object.keys(variables).join(', ')}) but Node.js ${process.versions.node} cannot make ` +
        'fetch() follow it at run time; use Node.js 24.14 or later, or on Node.js 22 set NODE_USE_ENV_PROXY=1 ' +
        'in the environment the program starts with',
    );
  return { variables, followed_by: use };
}

/** The idempotency store a key would use, and whether it answers (a read of a key nobody writes). */
async function store(env: Env, problems: string[]) {
  const url = env[IDEMPOTENCY_STORE_ENV]?.trim();
  if (!url) return { kind: 'file', url: null, reachable: null };
  // never the password, even one with an unescaped @ or / in it: all before the last @ goes
  const at = url.lastIndexOf('@');
  const start = url.indexOf('//') + 2;
  const secret = start > 1 && at > start ? url.slice(start, at) : '';
  const hide = (s: string) => (secret ? s.split(secret).join('***') : s);
  const shown = hide(url);
  try {
    const { redisStoreFromEnv } = await import('../store/redis-store.ts');
    const s = redisStoreFromEnv(url);
    try {
      await s.getDocument!('ax-ts-doctor-probe'); // a key nobody writes: a round trip, nothing changed
    } finally {
      await s.close();
    }
    return { kind: 'redis', url: shown, reachable: true };
  } catch (e) {
    const message = hide((e as Error).message);
    problems.push(`the idempotency store ${shown} does not answer: ${message}`);
    return { kind: 'redis', url: shown, reachable: false, error: message };
  }
}

/** The packages bundled inside ax-ts, from its bill of materials; null when this program is a bundle. */
function bundled(): { sbom: string; components: { name: string; version: string }[] } | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++, dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (!existsSync(pkg)) continue;
    try {
      if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name !== 'ax-ts') return null;
      const sbom = join(dir, 'dist', 'sbom.cdx.json');
      const doc = JSON.parse(readFileSync(sbom, 'utf8')) as {
        components?: { group?: string; name: string; version: string }[];
      };
      const named = (c: { group?: string; name: string }) => (c.group ? `${c.group}/${c.name}` : c.name);
      return { sbom, components: (doc.components ?? []).map((c) => ({ name: named(c), version: c.version })) };
    } catch {
      return null;
    }
  }
  return null;
}

/** The cache ax-ts keeps compiled code in (lib/build/code-cache.ts). */
function cacheDir(env: Env): string | undefined {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : env.HOME && isAbsolute(env.HOME) ? join(env.HOME, '.cache') : undefined;
  return base && join(base, 'ax-ts', 'v8');
}

/** The doctor's report for `root`'s run `ctx`. */
export async function doctorReport(root: Command, ctx: RunContext): Promise<Record<string, unknown>> {
  const problems: string[] = [];
  const ids = defaultIdempotencyDir(root.name, ctx.env);
  return {
    program: { name: root.name, version: ctx.version },
    runtime: runtime(problems),
    agent: detectAgent(ctx.env) ?? null,
    interactive: ctx.interactive,
    state: place(ids && dirname(ids), 'state directory', problems),
    cache: place(cacheDir(ctx.env), 'cache directory', []),
    store: await store(ctx.env, problems),
    proxy: proxy(ctx.env, problems),
    bundled: bundled(),
    problems,
    ok: problems.length === 0,
  };
}
