/**
 * The fail-closed startup checks of `mcp-server`, free of the MCP SDK so `--print-config` can make
 * them too (it refuses what the server would refuse) without loading the server stack.
 * Source: docs/mcp-server.md.
 */
import type { IdempotencyStore } from '../../lib/store/idempotency.ts';
import type { Command } from '../../lib/tree/command.ts';
import type { LoadFailure } from '../../lib/tree/lazy.ts';
import { validationError } from '../../lib/contract/errors.ts';
import { isPlaceholderVersion } from '../../lib/platform/version.ts';
import { declarations, toolRefs } from '../../lib/schema/walk.ts';
import { toolProperties } from '../../lib/tree/properties.ts';
import type { FlagSpec } from '../../lib/tree/flags.ts';
import type { EventStore } from '../transport/events.ts';
import type { HttpBounds } from '../transport/http.ts';
import { resolveStateKey, resolveToken, withoutSecrets } from '../transport/token.ts';
import { taskLimits } from '../call/task-board.ts';

/** Largest accepted `instructions`, in bytes of UTF-8 (docs/mcp-server.md). */
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
  /**
   * stdio: run the server in a re-executed process whose fd 1 is stderr, so nothing a handler or a
   * child does can reach the protocol pipe (supervise.ts). Default true; false serves in this
   * process behind the `process.stdout` guard only (one Node start less).
   */
  isolate?: boolean;
  /** HTTP: file holding the bearer token (else `$AX_MCP_TOKEN`; see token.ts). */
  tokenFile?: string;
  /** HTTP: the bearer token itself (serve()); wins over the file. Set by {@link checkStartup} once resolved. */
  token?: string;
  /** The key that signs `requestState`, from `$AX_MCP_STATE_KEY`: set by {@link checkStartup} once checked. */
  stateKey?: string;
  /** Lazy stubs whose loader failed: not served; a call to a tool below one gets its load error. */
  unloaded?: LoadFailure[];
  /** HTTP: connection bounds (serve() options; defaults in http.ts HTTP_BOUNDS). */
  bounds?: Partial<HttpBounds>;
  /** HTTP: most sessions kept at once (default 1000). */
  maxSessions?: number;
  /** Extra host names accepted in Host/Origin. */
  allowedHosts?: string[];
  name?: string;
  version: string;
  instructions?: string;
  /** Serve the program's skill (McpServerOptions.skills). */
  skills?: boolean;
  env?: Record<string, string | undefined>;
  /** HTTP, stateful: each session's event store factory, or false for none. Default in memory. */
  eventStore?: false | (() => EventStore);
  /** Where the HTTP URL and diagnostics go. Default stderr. */
  log?: (line: string) => void;
  /** Flag values applied to every tool call (the persistent flags given to `mcp-server`). */
  presets?: ReadonlyMap<string, { spec: FlagSpec; value: unknown; builtin?: boolean }>;
  /** A preview server: every tools/call runs as a dry run (`mcp-server --dry-run`). */
  dryRun?: boolean;
  /** Where replayed retries are recorded; default the file store. */
  idempotencyStore?: IdempotencyStore;
  /** How long a recorded outcome replays, ms. Default 24 h. */
  idempotencyTtlMs?: number;
  /** `progressive`: the four discovery tools instead of one tool per command (progressive.ts). Default `tools`. */
  discovery?: 'tools' | 'progressive';
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** Parses `host:port` (`[::1]:8080`, `:8080` → 127.0.0.1). @throws AxError validation_error (exit 2). */
export function parseAddr(addr: string): { host: string; port: number } {
  const bad = () =>
    validationError(
      `cannot parse --addr ${JSON.stringify(addr)}: expected host:port such as 127.0.0.1:8080 or [::1]:8080`,
      'invalid_address',
      {
        context: { flag: '--addr', value: addr },
        fix: 'Pass --addr 127.0.0.1:<port>.',
      },
    );
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

/** Whether a host is a wildcard address (all interfaces): never a name a client sends in Host. */
export function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || /^(?:0*:){2,7}0*$/.test(host);
}

/**
 * Why an address that is loopback in another spelling is refused, or undefined: `127.1`, `2130706433`
 * or `0x7f.1` (short or numeric IPv4 forms), `::ffff:127.0.0.1` (IPv4-mapped), `0:0:0:0:0:0:0:1`
 * (::1 written out). Clients send these spellings in Host, where they would not match.
 */
export function loopbackSpelling(host: string): string | undefined {
  const h = host.toLowerCase();
  if (/^::ffff:(?:0+:)?127\./.test(h) || /^(?:0{1,4}:){5}ffff:127\./.test(h)) {
    return (
      `${host} is 127.0.0.1 written as an IPv4-mapped IPv6 address; bind ` +
      `127.0.0.1 (or ::1) so clients and the Host check name the same address`
    );
  }
  if (h.includes(':') && h !== '::1' && /^[0:]*1$/.test(h.replace(/^0*:/, ':'))) {
    return `${host} is ::1 written out; bind ::1 (or 127.0.0.1) so clients and the Host check name the same address`;
  }
  if (!isLoopback(h) && /^(?:0x[0-9a-f]+|\d+)(?:\.(?:0x[0-9a-f]+|\d+)){0,3}$/.test(h)) {
    const parts = h.split('.').map((p) => Number(p));
    const first = parts.length === 1 ? Math.floor(parts[0]! / 2 ** 24) : parts[0];
    if (first === 127)
      return (
        `${host} is a short or numeric spelling of a 127.x.x.x loopback ` +
        `address; bind it as four decimal parts, such as 127.0.0.1`
      );
  }
  return undefined;
}

/**
 * The fail-closed startup checks: version not a placeholder, instructions ≤ 8 KiB of valid UTF-8,
 * `$AX_MCP_STATE_KEY` (when set) at least 32 bytes (resolved into `s.stateKey`), the task limits
 * (`$AX_MCP_MAX_TASKS`, `$AX_MCP_MAX_TASKS_PER_CALLER`) positive integers, sizes and durations
 * positive; for HTTP the address parsable, not a loopback address in another
 * spelling, loopback unless allowed, and a bearer token (resolved into `s.token`) for a non-loopback
 * bind. @throws AxError validation_error (exit 2).
 */
export function checkStartup(root: Command, s: ServeSettings): { host: string; port: number } {
  s.stateKey = resolveStateKey(s.env ?? process.env) ?? s.stateKey;
  taskLimits(s.env ?? process.env);
  if (isPlaceholderVersion(s.version)) {
    throw validationError(
      `refusing to serve with the placeholder version ${JSON.stringify(s.version)}`,
      'placeholder_version',
      {
        fix: 'Give the program a real version (package.json "version", or the version option of mountMcpServer).',
      },
    );
  }
  if (s.instructions !== undefined) {
    const wf = (s.instructions as string & { isWellFormed(): boolean }).isWellFormed();
    const bytes = Buffer.byteLength(s.instructions, 'utf8');
    if (!wf || bytes > MAX_INSTRUCTIONS_BYTES) {
      throw validationError(
        wf
          ? `instructions are ${bytes} bytes; at most ${MAX_INSTRUCTIONS_BYTES} are allowed`
          : 'instructions are not valid UTF-8',
        'invalid_instructions',
        {
          fix: `Shorten the instructions to at most ${MAX_INSTRUCTIONS_BYTES} bytes of valid UTF-8.`,
        },
      );
    }
  }
  checkBounds(s);
  return s.transport === 'http' ? checkBind(s) : { host: '127.0.0.1', port: 8080 };
}

/** The sizes, counts and durations a server is given: each a positive number. */
function checkBounds(s: ServeSettings): void {
  if (!Number.isSafeInteger(s.maxBodyBytes) || s.maxBodyBytes < 1) {
    throw validationError(
      `--max-body must be a positive number of bytes, got ${s.maxBodyBytes}`,
      'invalid_flag_value',
      {
        context: { flag: '--max-body' },
        fix: 'Pass --max-body 4194304 (4 MiB, the default) or another positive size.',
      },
    );
  }
  if (s.maxLineBytes !== undefined && (!Number.isSafeInteger(s.maxLineBytes) || s.maxLineBytes < 1)) {
    throw validationError(
      `--max-line must be a positive number of bytes, got ${s.maxLineBytes}`,
      'invalid_flag_value',
      {
        context: { flag: '--max-line' },
        fix: 'Pass --max-line 10485760 (10 MiB, the default) or another positive size.',
      },
    );
  }
  if (s.maxSessions !== undefined && (!Number.isSafeInteger(s.maxSessions) || s.maxSessions < 1)) {
    throw validationError(`--max-sessions must be a positive integer, got ${s.maxSessions}`, 'invalid_flag_value', {
      context: { flag: '--max-sessions' },
      fix: 'Pass --max-sessions 1000 (the default) or another positive number.',
    });
  }
  for (const [name, value] of Object.entries(s.bounds ?? {})) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 1)) {
      throw validationError(`${name} must be a positive integer, got ${value}`, 'invalid_flag_value', {
        context: { option: name },
        fix: `Leave ${name} out for its default, or pass a positive integer.`,
      });
    }
  }
  if (!(s.sessionIdleMs > 0)) {
    throw validationError(
      `--session-idle must be a positive duration, got ${s.sessionIdleMs} ms`,
      'invalid_flag_value',
      {
        context: { flag: '--session-idle' },
        fix: 'Pass --session-idle 30m (the default) or another positive duration.',
      },
    );
  }
}

/**
 * The address an HTTP server binds: loopback, spelled plainly, unless `--allow-non-loopback` and a
 * bearer token. Resolves the token and takes the secrets out of the handlers' environment.
 */
function checkBind(s: ServeSettings): { host: string; port: number } {
  const where = parseAddr(s.addr);
  const spelling = loopbackSpelling(where.host);
  if (spelling) {
    throw validationError(`refusing to bind ${where.host}: ${spelling}`, 'loopback_spelling', {
      context: { addr: s.addr },
      fix: 'Pass --addr 127.0.0.1:<port> (or [::1]:<port>).',
    });
  }
  if (!isLoopback(where.host) && !s.allowNonLoopback) {
    throw validationError(`refusing to bind ${where.host}: not a loopback address`, 'non_loopback_bind', {
      context: { addr: s.addr },
      fix: 'Bind 127.0.0.1 (the default), or pass --allow-non-loopback with --token-file (or $AX_MCP_TOKEN).',
    });
  }
  s.token = resolveToken(s.tokenFile, s.env ?? process.env, s.token);
  // the secrets stop here: handlers (ctx.env) and the processes they start never see them
  s.env = withoutSecrets(s.env ?? process.env);
  if (!isLoopback(where.host) && s.token === undefined) {
    throw validationError(
      `refusing to bind ${where.host} without a bearer token: anyone who can reach the address could run the tools`,
      'token_required',
      {
        context: { addr: s.addr },
        fix:
          'Pass --token-file FILE (or set $AX_MCP_TOKEN) with a ' +
          'token of 16+ characters, e.g. from `openssl rand -hex 32`.',
      },
    );
  }
  return where;
}

/**
 * The tree walk's checks (tool names, collisions, property names, declarations) without building
 * the server: what {@link checkStartup} leaves to the walk. @throws AxError `validation_error` or
 * `invalid_schema_declaration` (exit 2).
 */
export function checkTree(root: Command): void {
  for (const r of toolRefs(root)) toolProperties(r.command);
  declarations(root);
}

/** One warning line per lazy subtree that failed to load (printed at start, once). */
export function unloadedWarnings(unloaded: readonly LoadFailure[] = []): string[] {
  return unloaded.map(
    (f) =>
      `warning: mcp-server does not serve ${JSON.stringify(f.command.commandPath())} ` +
      `or anything below it: ${f.error.message}`,
  );
}
