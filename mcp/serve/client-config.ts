/**
 * The `mcpServers` block `mcp-server --print-config` prints (docs/mcp-server.md#connecting-a-client):
 * the command a client runs to start this program's server, with absolute paths, from any working
 * directory. Light (node:fs and node:path only): `--print-config` starts no server.
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { isStandaloneBinary } from '../../lib/platform/relaunch.ts';

/**
 * The `mcpServers` block for Claude Desktop, Claude Code and Cursor, with absolute paths: the
 * runtime running now and what it needs to start the program as it runs now — Node's exec
 * arguments (e.g. a loader), Yarn Plug'n'Play's hooks (which Yarn passes in `NODE_OPTIONS`, absent
 * from a client's environment), Deno's `run -A` — then the real path of the entry script (a single
 * executable or bun-compiled binary: the binary itself, no script) — no bare `npx` that must be
 * found on PATH. `path` (the words of the command `mcp-server` is mounted under, e.g. `['grp']`;
 * default none: the root) comes after the script, then `args` (e.g. persistent flags such as
 * `--store=/data/tasks.json`), then `mcp-server`, then `serverFlags` (its own flags the server must
 * start with, e.g. `--discovery=progressive`). docs/mcp-server.md#connecting-a-client.
 */
export function clientConfig(
  name: string,
  entry: string = process.argv[1] ?? '',
  http?: { url: string; token?: string },
  args: readonly string[] = [],
  path: readonly string[] = [],
  serverFlags: readonly string[] = [],
): Record<string, unknown> {
  if (http)
    return {
      mcpServers: {
        [name]: {
          type: 'http',
          url: http.url,
          ...(http.token ? { headers: { Authorization: `Bearer ${http.token}` } } : {}),
        },
      },
    };
  // a single executable or bun-compiled binary is the program itself: no script to name
  if (isStandaloneBinary())
    return {
      mcpServers: { [name]: { command: process.execPath, args: [...path, ...args, 'mcp-server', ...serverFlags] } },
    };
  let script = entry;
  try {
    script = realpathSync(entry);
  } catch {
    /* keep as given */
  }
  const runtime =
    process.versions.deno !== undefined
      ? ['run', '-A'] // Deno asks for permissions a server started by a client cannot grant
      : [...pnpHooks(process.execArgv, process.env.NODE_OPTIONS), ...absoluteExecArgv(process.execArgv)];
  return {
    mcpServers: {
      [name]: { command: process.execPath, args: [...runtime, script, ...path, ...args, 'mcp-server', ...serverFlags] },
    },
  };
}

/** The words of a `NODE_OPTIONS` value (double-quoted words may hold spaces, as Node reads them). */
function optionWords(text: string): string[] {
  return [...text.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) =>
    m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!,
  );
}

/**
 * Yarn Plug'n'Play's hooks, when this process runs under them: the `--require <…/.pnp.cjs>` and
 * `--experimental-loader <…/.pnp.loader.mjs>` Yarn puts in `NODE_OPTIONS` (and that are not in
 * `execArgv` already), as absolute paths. Without them the started program finds no package.
 */
function pnpHooks(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  if (process.versions.pnp === undefined || !nodeOptions) return [];
  const words = optionWords(nodeOptions);
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const m = /^(--require|-r|--experimental-loader|--loader|--import)(?:=(.*))?$/.exec(words[i]!);
    if (!m) continue;
    const value = m[2] ?? words[++i];
    if (!value || !/(^|[/\\])\.pnp\.(cjs|loader\.mjs)$/.test(value)) continue;
    const flag = m[1] === '-r' ? '--require' : m[1]!;
    const abs = /^[a-z]+:/.test(value) ? value : resolve(value);
    if (!execArgv.some((a, j) => a === `${flag}=${abs}` || (a === flag && execArgv[j + 1] === abs)))
      out.push(flag, abs);
  }
  return out;
}

/**
 * Node options with their module arguments made absolute — bare specifiers of `--import`/`--loader`
 * (`--import tsx`) resolved, relative paths (`--require ./setup.cjs`) against the working directory
 * — so the printed command works from any working directory (a desktop client starts servers in `/`).
 */
function absoluteExecArgv(argv: string[]): string[] {
  const out = [...argv];
  for (let i = 0; i < out.length; i++) {
    const m = /^(--import|--loader|--experimental-loader|--require|-r)(?:=(.*))?$/.exec(out[i]!);
    if (!m) continue;
    const at = m[2] !== undefined ? i : i + 1;
    const spec = m[2] ?? out[at];
    if (!spec || spec.startsWith('/') || /^[a-z]+:/.test(spec)) continue;
    if (spec.startsWith('.')) {
      // a relative path is relative to the working directory, which a client does not keep
      const abs = resolve(spec);
      out[at] = m[2] !== undefined ? `${m[1]}=${abs}` : abs;
      continue;
    }
    if (m[1] === '--require' || m[1] === '-r') continue; // a bare module id: node resolves it from the script
    try {
      const url = import.meta.resolve(spec);
      out[at] = m[2] !== undefined ? `${m[1]}=${url}` : url;
    } catch {
      /* leave it as given */
    }
  }
  return out;
}
