/**
 * The heavy half of `mcp-server`, loaded only when a server starts: startup checks (fail-closed,
 * before any socket opens), then the stdio or HTTP transport. Source: SPEC §8.
 */
import type { Command } from '../lib/tree/command.ts';
import { AxError, validationError } from '../lib/contract/errors.ts';
import { isPlaceholderVersion } from '../lib/run/version.ts';
import { buildModel } from './server.ts';
import { exclusionWarnings } from '../lib/schema/walk.ts';

/** Largest accepted `instructions`, in bytes of UTF-8 (SPEC §8). */
export const MAX_INSTRUCTIONS_BYTES = 8 * 1024;

/** Everything a server run needs. */
export interface ServeSettings {
  transport: 'stdio' | 'http';
  /** `host:port`, `[v6]:port` or `:port`; default 127.0.0.1:8080. */
  addr: string;
  allowNonLoopback: boolean;
  stateless: boolean;
  sessionIdleMs: number;
  maxBodyBytes: number;
  /** stdio: largest message (one line), in bytes; a longer one is skipped and answered -32600. Default 10 MiB. */
  maxLineBytes?: number;
  /** HTTP: most sessions kept at once (default 1000). */
  maxSessions?: number;
  /** Extra host names accepted in Host/Origin. */
  allowedHosts?: string[];
  name?: string;
  version: string;
  instructions?: string;
  env?: Record<string, string | undefined>;
  /** Where the HTTP URL and diagnostics go. Default stderr. */
  log?: (line: string) => void;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** Parses `host:port` (`[::1]:8080`, `:8080` → 127.0.0.1). @throws AxError validation_error (exit 2). */
export function parseAddr(addr: string): { host: string; port: number } {
  const bad = () =>
    validationError(`cannot parse --addr ${JSON.stringify(addr)}: expected host:port such as 127.0.0.1:8080 or [::1]:8080`, 'invalid_address', {
      context: { flag: '--addr', value: addr },
      fix: 'Pass --addr 127.0.0.1:<port>.',
    });
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]*)):(\d{1,5})$/.exec(addr.trim());
  if (!m) throw bad();
  const host = (m[1] ?? m[2] ?? '') || '127.0.0.1';
  const port = Number(m[3]);
  if (port > 65535 || (m[2] !== undefined && !/^[A-Za-z0-9.-]+$/.test(host))) throw bad();
  return { host, port };
}

/** Whether a host is a loopback address (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host.toLowerCase()) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * The fail-closed startup checks: version not a placeholder, instructions ≤ 8 KiB of valid UTF-8,
 * address parsable and loopback unless allowed, tree walk clean. @throws AxError validation_error.
 */
export function checkStartup(root: Command, s: ServeSettings): { host: string; port: number } {
  if (isPlaceholderVersion(s.version)) {
    throw validationError(`refusing to serve with the placeholder version ${JSON.stringify(s.version)}`, 'placeholder_version', {
      fix: 'Give the program a real version (package.json "version", or the version option of mountMcpServer).',
    });
  }
  if (s.instructions !== undefined) {
    const wf = (s.instructions as string & { isWellFormed(): boolean }).isWellFormed();
    const bytes = Buffer.byteLength(s.instructions, 'utf8');
    if (!wf || bytes > MAX_INSTRUCTIONS_BYTES) {
      throw validationError(wf ? `instructions are ${bytes} bytes; at most ${MAX_INSTRUCTIONS_BYTES} are allowed` : 'instructions are not valid UTF-8', 'invalid_instructions', {
        fix: `Shorten the instructions to at most ${MAX_INSTRUCTIONS_BYTES} bytes of valid UTF-8.`,
      });
    }
  }
  if (!Number.isSafeInteger(s.maxBodyBytes) || s.maxBodyBytes < 1) {
    throw validationError(`--max-body must be a positive number of bytes, got ${s.maxBodyBytes}`, 'invalid_flag_value', { context: { flag: '--max-body' }, fix: 'Pass --max-body 4194304 (4 MiB, the default) or another positive size.' });
  }
  if (s.maxLineBytes !== undefined && (!Number.isSafeInteger(s.maxLineBytes) || s.maxLineBytes < 1)) {
    throw validationError(`--max-line must be a positive number of bytes, got ${s.maxLineBytes}`, 'invalid_flag_value', { context: { flag: '--max-line' }, fix: 'Pass --max-line 10485760 (10 MiB, the default) or another positive size.' });
  }
  if (s.maxSessions !== undefined && (!Number.isSafeInteger(s.maxSessions) || s.maxSessions < 1)) {
    throw validationError(`--max-sessions must be a positive integer, got ${s.maxSessions}`, 'invalid_flag_value', { context: { flag: '--max-sessions' }, fix: 'Pass --max-sessions 1000 (the default) or another positive number.' });
  }
  if (!(s.sessionIdleMs > 0)) {
    throw validationError(`--session-idle must be a positive duration, got ${s.sessionIdleMs} ms`, 'invalid_flag_value', { context: { flag: '--session-idle' }, fix: 'Pass --session-idle 30m (the default) or another positive duration.' });
  }
  let where = { host: '127.0.0.1', port: 8080 };
  if (s.transport === 'http') {
    where = parseAddr(s.addr);
    if (!isLoopback(where.host) && !s.allowNonLoopback) {
      throw validationError(`refusing to bind ${where.host}: not a loopback address`, 'non_loopback_bind', {
        context: { addr: s.addr },
        fix: 'Bind 127.0.0.1 (the default), or pass --allow-non-loopback and put authentication in front of the server.',
      });
    }
  }
  return where;
}

/**
 * Runs the server until it is stopped (stdin EOF or SIGTERM for stdio; SIGINT/SIGTERM or `signal`
 * for both). @throws AxError on startup failure (nothing was opened).
 */
export async function runServer(root: Command, s: ServeSettings, signal: AbortSignal): Promise<void> {
  const where = checkStartup(root, s);
  const model = buildModel(root);
  const log = s.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  for (const line of exclusionWarnings(root)) log(line);
  const options = { name: s.name, version: s.version, instructions: s.instructions, env: s.env, log: s.log };
  if (s.transport === 'stdio') {
    const { serveStdio } = await import('./stdio.ts');
    return serveStdio(model, options, signal, { input: process.stdin, maxLineBytes: s.maxLineBytes });
  }
  // express and its body parsers load only for HTTP (in the bundle, a chunk of their own)
  const { serveHttp } = await import('./http.ts');
  const allowedHosts = ['localhost', '127.0.0.1', '::1', where.host, ...(s.allowedHosts ?? [])];
  try {
    await serveHttp(
      model,
      options,
      { host: where.host, port: where.port, stateless: s.stateless, sessionIdleMs: s.sessionIdleMs, maxBodyBytes: s.maxBodyBytes, maxSessions: s.maxSessions ?? 1000, allowedHosts },
      signal,
      (url) => (s.log ?? ((l) => process.stderr.write(`${l}\n`)))(`mcp-server: listening on ${url}`),
    );
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      throw new AxError('network_error', `cannot listen on ${s.addr}: ${(e as Error).message}`, { fix: 'Choose another --addr (port 0 picks a free one).', context: { code } });
    }
    throw e;
  }
}
