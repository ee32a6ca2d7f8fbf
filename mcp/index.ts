/**
 * `ax-ts/mcp`: serve a command tree as MCP tools, prompts and resources. This module is light: the
 * MCP SDK, express and ajv are loaded only when a server starts (`mcp-server` runs, or `serve()`).
 * Source: docs/mcp-server.md; ax-go mcp package (opt-in mount).
 */
import { Command, type RunContext } from '../lib/tree/command.ts';
import type { FlagSpec } from '../lib/tree/flag-spec.ts';
import { loadTreeSettled } from '../lib/tree/lazy.ts';
import { STDIN_PROTOCOL_ANNOTATION } from '../lib/tree/marks.ts';
import { resolveVersion } from '../lib/platform/version.ts';
import type { ServeSettings } from './serve/startup.ts';
import { AxError, validationError } from '../lib/contract/errors.ts';
import type { IdempotencyStore } from '../lib/store/idempotency.ts';
import { replaySettingsOf } from '../lib/run/context.ts';
import { TOKEN_ENV } from './transport/token.ts';
import type { EventStore } from './transport/events.ts';
import { presetFlags } from './serve/carried.ts';
import { CLIENT_NAMES } from './serve/client-names.ts';
import { mountInstallCommands } from './serve/install-commands.ts';

export { MemoryEventStore, type MemoryEventStoreOptions, type EventStore } from './transport/events.ts';
export { clientConfig } from './serve/client-config.ts';

/** Options of {@link mountMcpServer} and {@link serve}. */
export interface McpMountOptions {
  /**
   * serverInfo.version. Default: the version given to `main()`/`execute()`, else
   * resolveVersion(root.version). A placeholder refuses to start (exit 2).
   */
  version?: string;
  /** `instructions` sent in initialize and in server/discover (≤ 8 KiB UTF-8, else exit 2 at start). */
  instructions?: string;
  /**
   * Serve the program's skill (its SKILL.md and AGENTS.md, as `__schema --as=skill`/`--as=agents`
   * print them) through the MCP Skills extension and, over HTTP, at `/.well-known/agent-skills/`.
   * Default true; false for a program that ships a skill of its own (docs/mcp-server.md#skills).
   */
  skills?: boolean;
  /**
   * serverInfo.name, and the key `--print-config` prints. Default: the root command's name; mounted
   * under a subcommand, its path joined with `-` (`tasks-grp`).
   */
  name?: string;
  /**
   * Where the tools' replayed retries are recorded. Default: the `idempotencyStore` given to
   * `execute`/`main` for the run that started the server, else the file store under the state
   * directory — the same one the CLI uses, so a CLI call and a tool call with one key replay each other.
   */
  idempotencyStore?: IdempotencyStore;
  /** How long a recorded outcome replays, ms. Default: the run's, else 24 h. */
  idempotencyTtlMs?: number;
  /**
   * stdio: nothing in the process (handlers, libraries, children, `fs.writeSync(1)`) can reach the
   * protocol pipe. Default true. A program built with `ax-ts build` started as a bare `mcp-server`
   * over pipes is served in place (its entry has already given the client's streams descriptors of
   * their own and made fd 1 stderr); otherwise the server runs in a second copy of the program,
   * started as this one was, whose fd 1 is stderr, and code before the server starts runs twice
   * (docs/mcp-server.md#stdio). false gives up the guarantee: no second copy — served in place as
   * above when the entry did so, else in this process on its own stdin and stdout, guarding
   * `process.stdout` only.
   */
  isolateStdio?: boolean;
  /**
   * How `tools/list` shows the commands: `tools` (default), one tool per command; `progressive`,
   * four fixed tools — `search_tools`, `describe_tool`, `call_read_only_tool`, `call_tool` — that
   * find, describe and run them, so the list stays small for a large tree
   * (docs/mcp-server.md#progressive-discovery). The default of `mcp-server --discovery`.
   */
  discovery?: 'tools' | 'progressive';
}

/** Options of {@link serve}: the mount options plus the transport settings (`mcp-server`'s flags). */
export interface ServeOptions extends McpMountOptions {
  /** Default `stdio`. */
  transport?: 'stdio' | 'http';
  /** Default `127.0.0.1:8080`. */
  addr?: string;
  /** Allow binding a non-loopback address. Default false. */
  allowNonLoopback?: boolean;
  /**
   * HTTP: no sessions for 2025-era clients, one server per request (2026-07-28 requests have none
   * either way: docs/mcp-server.md#protocol-eras). Default false.
   */
  stateless?: boolean;
  /** HTTP: idle time before a session is closed, ms. Default 30 minutes. */
  sessionIdleMs?: number;
  /** HTTP: largest POST body in bytes. Default 4 MiB. */
  maxBodyBytes?: number;
  /** stdio: largest message (one line) in bytes; a longer one is skipped and answered -32600. Default 10 MiB. */
  maxLineBytes?: number;
  /** HTTP: most sessions kept at once; a new one beyond it gets 503. Default 1000. */
  maxSessions?: number;
  /** HTTP: extra host names accepted in Host/Origin (loopback names and the bound host always are). */
  allowedHosts?: string[];
  /** HTTP: time to receive a request's headers, ms; then 408 and the connection closes. Default 10 000. */
  headersTimeoutMs?: number;
  /** HTTP: time to receive a whole request, headers and body, ms; then 408. Default 30 000. */
  requestTimeoutMs?: number;
  /** HTTP: most connections open at once; one beyond it is closed unanswered. Default 1024. */
  maxConnections?: number;
  /**
   * HTTP: the bearer token every request must carry (`Authorization: Bearer <token>`; else 401),
   * at least 16 characters. Default: the content of `tokenFile`, else `$AX_MCP_TOKEN`, else none.
   * Required to bind a non-loopback address.
   */
  token?: string;
  /** HTTP: a file holding the bearer token (trimmed). */
  tokenFile?: string;
  /** Stops the server when aborted. */
  signal?: AbortSignal;
  /** Environment for handlers. Default process.env. */
  env?: Record<string, string | undefined>;
  /**
   * HTTP, stateful sessions: makes each session's event store, so a client whose SSE stream drops
   * resumes with `Last-Event-ID` and loses nothing (the SDK's `EventStore` interface; plug in a
   * shared one here). `false` turns resumability off. Default: a {@link MemoryEventStore} per
   * session (1000 events, 8 MiB, 5 minutes).
   */
  eventStore?: false | (() => EventStore);
}

const DEFAULTS = {
  addr: '127.0.0.1:8080',
  sessionIdleMs: 30 * 60_000,
  maxBodyBytes: 4 * 1024 * 1024,
  maxLineBytes: 10 * 1024 * 1024,
  maxSessions: 1000,
} as const;

/**
 * Serves a tree programmatically until stopped: `root`'s subtree, under tool names relative to it
 * (any command of a tree; docs/mcp-server.md#mounting). Loads the SDK on call (under the stdio supervisor,
 * in the re-executed server process only).
 * @throws AxError `validation_error` on a failed startup check (placeholder version, bad or
 *   non-loopback address, instructions too long, tool-name collision, duplicate declarations).
 */
export async function serve(root: Command, options: ServeOptions = {}): Promise<void> {
  const settings: ServeSettings = {
    transport: options.transport ?? 'stdio',
    addr: options.addr ?? DEFAULTS.addr,
    allowNonLoopback: options.allowNonLoopback ?? false,
    stateless: options.stateless ?? false,
    sessionIdleMs: options.sessionIdleMs ?? DEFAULTS.sessionIdleMs,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    maxLineBytes: options.maxLineBytes ?? DEFAULTS.maxLineBytes,
    maxSessions: options.maxSessions ?? DEFAULTS.maxSessions,
    allowedHosts: options.allowedHosts ?? [],
    token: options.token,
    tokenFile: options.tokenFile,
    isolate: options.isolateStdio,
    name: options.name,
    version: options.version ?? resolveVersion(root.version),
    instructions: options.instructions,
    skills: options.skills,
    env: options.env,
    eventStore: options.eventStore,
    discovery: options.discovery,
    bounds: {
      ...(options.headersTimeoutMs !== undefined ? { headersTimeoutMs: options.headersTimeoutMs } : {}),
      ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
      ...(options.maxConnections !== undefined ? { maxConnections: options.maxConnections } : {}),
    },
  };
  await startServer(root, settings, options.signal ?? new AbortController().signal);
}

/**
 * Starts the server: under stdio (unless `isolate` is false, or this process cannot re-execute
 * itself) as the supervisor of a re-executed server process (supervise.ts), which needs only the
 * SDK-free start-up checks here — the MCP runtime loads in the server process alone; otherwise the
 * runtime in this process. @throws AxError on a failed start-up check or a failed server process.
 */
async function startServer(
  root: Command,
  settings: ServeSettings,
  signal: AbortSignal,
  traceparent?: string,
): Promise<void> {
  // tools/list describes every command: load the lazy subtrees first; one that fails is left out
  // (and its calls answered with its load error) rather than taking every healthy tool down with it
  settings.unloaded = await loadTreeSettled(root);
  if (settings.transport === 'stdio' && settings.isolate !== false) {
    const supervision = await import('./transport/supervise.ts');
    if (!supervision.supervisedServer() && !supervision.servedInPlace() && supervision.canSupervise()) {
      const { checkStartup, checkTree, unloadedWarnings } = await import('./serve/startup.ts');
      checkStartup(root, settings); // fail closed here, exit 2, before the server process starts
      checkTree(root);
      const { exclusionWarnings } = await import('../lib/schema/walk.ts');
      const log = settings.log ?? ((l: string) => process.stderr.write(`${l}\n`));
      for (const line of [...unloadedWarnings(settings.unloaded), ...exclusionWarnings(root)]) log(line);
      return supervision.superviseStdio(signal, traceparent);
    }
  }
  const { runServer } = await import('./serve/runtime.ts');
  await runServer(root, settings, signal);
}

/**
 * Adds the `mcp-server` command to `root` (opt-in: it runs commands on a client's behalf): the root
 * command, or any command below it — then the server serves that command's subtree, its tools named
 * relative to it (`grp add` is `add`), and `--print-config` starts `<program> grp mcp-server`
 * (docs/mcp-server.md#mounting). Mount it once the command has its place in the tree (its help
 * examples are its command path at that moment).
 * Flags: `--transport stdio|http`, `--addr`, `--allow-non-loopback`, `--stateless`,
 * `--session-idle`, `--max-body`, `--max-line`, `--max-sessions`, `--allowed-host`, `--token-file`,
 * `--print-config`, `--install`/`--uninstall`. Beside it, hidden, `mcp install|uninstall` and
 * `skills install|uninstall`, the install flags spelled as commands (serve/install-commands.ts).
 * @returns the added `mcp-server` command.
 */
export function mountMcpServer(root: Command, options: McpMountOptions = {}): Command {
  const top = root.parent === undefined;
  const at = root.commandPath();
  const flags = mcpServerFlags(options);
  const cmd = new Command({
    use: 'mcp-server',
    ...mcpServerText(top, at),
    effects: 'non_idempotent',
    replay: false, // a server is not a call to replay; --idempotency-key is refused below
    dryRun: true, // --dry-run makes it a preview server (every call it serves is a dry run)
    output: { kind: 'opaque', mediaType: 'application/json' },
    finishOnSigterm: true, // SIGTERM is the normal way to stop a server: shut down cleanly, exit 0
    flags,
    run: (ctx) => runMcpServer(ctx, root, options),
    // over stdio its stdin is the client's JSON-RPC: no input (a secret's `-`) is read from it
    annotations: { [STDIN_PROTOCOL_ANNOTATION]: 'true' },
  });
  root.addCommand(cmd);
  // `mcp install|uninstall`, `skills install|uninstall`: the same, spelled as commands (hidden)
  mountInstallCommands(root, { flags, settings: (ctx) => serveSettings(ctx, options), name: options.name });
  return cmd;
}

/** The help texts of `mcp-server` mounted at `at` (`top`: on the program's root). */
function mcpServerText(top: boolean, at: string): { short: string; long: string; example: string } {
  return {
    short: top
      ? "Serve this program's commands as MCP tools (stdio or loopback HTTP)"
      : `Serve the commands of ${at} as MCP tools (stdio or loopback HTTP)`,
    long:
      `Serve every command${top ? '' : ` of ${at}`} as an MCP tool, with the declared ` +
      `prompts and resources, over stdio (default) or Streamable HTTP at /mcp.\n` +
      'HTTP binds loopback only unless --allow-non-loopback is given ' +
      '(then --token-file is required); Host and Origin are checked.\n' +
      'With --dry-run the server is a preview: every tool call runs as a dry run and nothing is changed.\n' +
      'Use --print-config to get the mcpServers block for Claude Desktop, Claude Code or Cursor, or ' +
      "--install <client> to write it into a client's configuration (--print to see the change first).",
    example:
      `${at} mcp-server\n${at} mcp-server --transport http --addr 127.0.0.1:8080\n${at} ` +
      `mcp-server --print-config\n${at} mcp-server --install cursor --print`,
  };
}

/** The flags of `mcp-server` (docs/mcp-server.md#flags). */
function mcpServerFlags(options: McpMountOptions) {
  return {
    transport: { type: 'string', choices: ['stdio', 'http'], default: 'stdio', usage: 'transport' },
    addr: {
      type: 'string',
      default: DEFAULTS.addr,
      usage: 'HTTP address to bind (host:port; port 0 picks a free one)',
    },
    'allow-non-loopback': {
      type: 'bool',
      usage: 'allow binding a non-loopback address (requires a bearer token: --token-file)',
    },
    stateless: { type: 'bool', usage: 'HTTP without sessions (for several replicas behind a load balancer)' },
    'session-idle': { type: 'duration', default: '30m', usage: 'HTTP: close sessions idle this long' },
    'max-body': { type: 'int', default: DEFAULTS.maxBodyBytes, usage: 'HTTP: largest request body in bytes' },
    'max-line': {
      type: 'int',
      default: DEFAULTS.maxLineBytes,
      usage: 'stdio: largest message (one line) in bytes; a longer one is skipped and answered with a JSON-RPC error',
    },
    'max-sessions': {
      type: 'int',
      default: DEFAULTS.maxSessions,
      usage: 'HTTP: most sessions kept at once (a new one beyond it gets 503)',
    },
    'token-file': {
      type: 'string',
      usage:
        `HTTP: file holding the bearer token clients must send ` +
        `(else $${TOKEN_ENV}); required for a non-loopback --addr`,
    },
    'allowed-host': {
      type: 'stringArray',
      usage: 'HTTP: another host name accepted in Host/Origin (repeatable; e.g. the name a proxy uses)',
    },
    discovery: {
      type: 'string',
      choices: ['tools', 'progressive'],
      default: options.discovery ?? 'tools',
      usage: 'tools: one MCP tool per command; progressive: four tools that search, describe and call them',
    },
    'print-config': { type: 'bool', usage: 'print the mcpServers block for desktop clients and exit' },
    install: {
      type: 'stringArray',
      usage:
        `write this server into a client's MCP configuration and exit ` +
        `(repeatable): ${CLIENT_NAMES}, or all (every client found)`,
    },
    uninstall: {
      type: 'stringArray',
      usage: "take this server out of a client's MCP configuration and exit (repeatable; names as --install)",
    },
    print: { type: 'bool', usage: 'with --install/--uninstall: say what would change, write nothing' },
    skill: {
      type: 'bool',
      usage:
        "with --install/--uninstall: also put the program's SKILL.md in (or take it out of) the client's skills folder",
    },
  } satisfies Record<string, FlagSpec>;
}

/**
 * The server settings a run of `mcp-server` (or of `mcp install`, which has only the flags that
 * shape a client's entry: the others take their defaults) gives.
 */
function serveSettings(ctx: RunContext, options: McpMountOptions): ServeSettings {
  const f = ctx.flags;
  return {
    transport: (f.transport as 'stdio' | 'http' | undefined) ?? 'stdio',
    addr: (f.addr as string | undefined) ?? DEFAULTS.addr,
    allowNonLoopback: f.allowNonLoopback === true,
    stateless: f.stateless === true,
    sessionIdleMs: (f.sessionIdle as number | undefined) ?? DEFAULTS.sessionIdleMs,
    maxBodyBytes: (f.maxBody as number | undefined) ?? DEFAULTS.maxBodyBytes,
    maxLineBytes: (f.maxLine as number | undefined) ?? DEFAULTS.maxLineBytes,
    maxSessions: (f.maxSessions as number | undefined) ?? DEFAULTS.maxSessions,
    allowedHosts: (f.allowedHost as string[] | undefined) ?? [],
    tokenFile: f.tokenFile as string | undefined,
    isolate: options.isolateStdio,
    name: options.name,
    version: options.version ?? ctx.version, // main()'s version, else the root's, else resolved
    instructions: options.instructions,
    skills: options.skills,
    env: ctx.env,
    log: (line) => ctx.stderr.write(`${line}\n`),
    presets: presetFlags(ctx),
    dryRun: ctx.dryRun,
    idempotencyStore: options.idempotencyStore ?? replaySettingsOf(ctx)?.store,
    idempotencyTtlMs: options.idempotencyTtlMs ?? replaySettingsOf(ctx)?.ttlMs,
    discovery: (f.discovery as 'tools' | 'progressive' | undefined) ?? options.discovery ?? 'tools',
  };
}

/** `mcp-server`'s handler: print or install a client's configuration, else serve until stopped. */
async function runMcpServer(ctx: RunContext, root: Command, options: McpMountOptions): Promise<unknown> {
  if (ctx.idempotencyKeyGiven) {
    throw validationError(
      '--idempotency-key makes no sense for mcp-server: a server is not a call that can be retried',
      'invalid_flag_for_command',
      {
        context: { flag: ctx.flagLabel('idempotency-key'), command: ctx.command.commandPath() },
        fix: 'Drop --idempotency-key; a client gives idempotency_key per tool call instead.',
      },
    );
  }
  const settings = serveSettings(ctx, options);
  const install = ctx.flags.install as string[];
  const uninstall = ctx.flags.uninstall as string[];
  for (const only of ['print', 'skill'] as const)
    if (ctx.flags[only] && !install.length && !uninstall.length)
      throw validationError(`--${only} goes with --install or --uninstall`, 'invalid_flag_for_command', {
        context: { flag: `--${only}` },
        fix: `Add --install <client> (or --uninstall <client>), or drop --${only}.`,
      });
  if (ctx.flags.printConfig || install.length || uninstall.length) {
    const { configureClients, flagEdit } = await import('./serve/configure.ts');
    return configureClients(ctx, root, settings, options.name, flagEdit(ctx));
  }
  // the server process's own run continues this run's trace (its span a child of this one)
  await startServer(root, settings, ctx.signal, ctx.traceparent);
  // SIGTERM is the normal way to stop a server (exit 0); SIGINT is reported as the interrupt it is (130)
  const reason: unknown = ctx.signal.aborted ? ctx.signal.reason : undefined;
  if (reason instanceof AxError && reason.kind === 'interrupted' && reason.context?.signal === 'SIGINT') throw reason;
  return undefined;
}
