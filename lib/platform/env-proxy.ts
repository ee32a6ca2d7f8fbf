/**
 * The proxy a program is told to use by its environment (docs/contract.md#proxies): `HTTPS_PROXY`,
 * `HTTP_PROXY` and `NO_PROXY` (or their lowercase forms), as curl and most HTTP clients read them.
 * Reading only: the process-wide switch that makes `fetch` and `http.request` follow them is
 * process-patches.ts's ({@link useEnvProxy}); this module says what is set, with any credentials in a
 * proxy's URL hidden, and whether the runtime applies it.
 */

type Env = Readonly<Record<string, string | undefined>>;

/** The variables that name a proxy URL, upper case first (the form a program most often sets). */
export const PROXY_URL_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

/** Every variable read: the proxy URLs, then the hosts that go around them. */
export const PROXY_VARIABLES = [...PROXY_URL_VARIABLES, 'NO_PROXY', 'no_proxy'];

/** Where a proxy URL's user and password are: from the scheme's `//` (or the start) to the last `@`, if any. */
function userinfoSpan(value: string): { start: number; at: number } | undefined {
  const at = value.lastIndexOf('@');
  if (at < 0) return undefined;
  const scheme = value.indexOf('://');
  return { start: scheme >= 0 && scheme < at ? scheme + 3 : 0, at };
}

/**
 * A proxy URL with its user and password replaced by `***`: all between the scheme's `//` (or the
 * start, for a value without a scheme) and the last `@` goes, so a password is hidden however it is
 * written (an unescaped `@`, `/` or `#` in it, a value no URL parser accepts). Without an `@` a value
 * holds no credentials and is shown as it is, unless it does not parse even as `http://<value>` (`***`).
 */
export function redactProxyUrl(value: string): string {
  const span = userinfoSpan(value);
  if (!span) return URL.canParse(value) || URL.canParse(`http://${value}`) ? value : '***';
  return `${value.slice(0, span.start)}***${value.slice(span.at)}`;
}

/**
 * The proxy variables of `env` as Node's proxy support must be given them: a URL without a scheme
 * (`proxy.corp:3128`, `user:pw@proxy.corp:3128`) is an `http://` one, as curl, Go and Python read it;
 * Node's own support refuses it.
 */
export function withProxySchemes(env: Env): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = { ...env };
  for (const name of PROXY_URL_VARIABLES) {
    const v = out[name]?.trim();
    if (v && !v.includes('://')) out[name] = `http://${v}`;
  }
  return out;
}

/**
 * The credentials in the proxy URLs of `env`, as they may be quoted by an error: each URL's user and
 * password as written and %-decoded, its password alone, and the `Basic` token a request sends the
 * proxy (docs/contract.md#proxies: an error quoting them is shown with them redacted).
 */
export function proxyCredentials(env: Env): string[] {
  const out = new Set<string>();
  for (const name of PROXY_URL_VARIABLES) {
    const v = env[name];
    const span = v ? userinfoSpan(v) : undefined;
    if (!v || !span) continue;
    const userinfo = v.slice(span.start, span.at);
    const colon = userinfo.indexOf(':');
    for (const raw of [userinfo, colon >= 0 ? userinfo.slice(colon + 1) : '']) {
      if (!raw) continue;
      out.add(raw);
      try {
        out.add(decodeURIComponent(raw));
      } catch {
        /* not %-encoded: as written */
      }
    }
    const user = colon >= 0 ? userinfo.slice(0, colon) : userinfo;
    const password = colon >= 0 ? userinfo.slice(colon + 1) : '';
    try {
      out.add(Buffer.from(`${decodeURIComponent(user)}:${decodeURIComponent(password)}`).toString('base64'));
    } catch {
      out.add(Buffer.from(userinfo).toString('base64'));
    }
  }
  return [...out];
}

/** The proxy variables `env` sets (non-empty), their URLs redacted; undefined when none is. */
export function proxyVariables(env: Env): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const name of PROXY_VARIABLES) {
    const v = env[name];
    if (v) out[name] = name.toUpperCase() === 'NO_PROXY' ? v : redactProxyUrl(v);
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * Who makes `fetch` and `http.request` follow the proxy variables in this process:
 * - `none`: no proxy variable is set;
 * - `runtime`: Bun and Deno follow them of themselves; Node did at its start (`NODE_USE_ENV_PROXY=1`);
 * - `ax-ts`: ax-ts turns Node's own support on (http.setGlobalProxyFromEnv) for the run;
 * - `off`: `NODE_USE_ENV_PROXY=0` keeps Node from following them;
 * - `unsupported`: this Node has no way to follow them at run time (before 24.14), or (doctor) Node's
 *   support refused their URLs (`socks4://`, a value that does not parse).
 */
export type ProxyUse = 'none' | 'runtime' | 'ax-ts' | 'off' | 'unsupported';

/** {@link ProxyUse} for `env` in this runtime. */
export function proxyUse(env: Env): ProxyUse {
  const set = PROXY_URL_VARIABLES.some((n) => env[n]);
  if (!set) return 'none';
  if (process.versions.bun || process.versions.deno) return 'runtime';
  if (env.NODE_USE_ENV_PROXY === '1') return 'runtime';
  if (env.NODE_USE_ENV_PROXY === '0') return 'off';
  const http = process.getBuiltinModule?.('node:http') as { setGlobalProxyFromEnv?: unknown } | undefined;
  return typeof http?.setGlobalProxyFromEnv === 'function' ? 'ax-ts' : 'unsupported';
}
