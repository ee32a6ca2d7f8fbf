/**
 * The shapes the MCP server's modules share: its options and the tree's MCP view (the model every
 * session reads). Types only, and below every module that uses them (server.ts, tools.ts,
 * progressive.ts, catalog.ts and the transports), so none of those imports another upward.
 */
import type { Command } from '../../lib/tree/command.ts';
import type { IdempotencyStore } from '../../lib/store/idempotency.ts';
import type { InvokeOptions } from '../../lib/run/invoke.ts';
import type { declarations, ToolDef, ToolRef } from '../../lib/schema/walk.ts';
import type { AxError } from '../../lib/contract/errors.ts';
import type { Abortable } from '../base/lifecycle.ts';
import type { TaskBoard } from './task-board.ts';

/** How a server lists its commands: one tool each (`tools`, the default), or the four fixed tools (`progressive`). */
export type Discovery = 'tools' | 'progressive';

/** Environment variable holding the key that signs `requestState` (at least 32 bytes; share it between replicas). */
export const STATE_KEY_ENV = 'AX_MCP_STATE_KEY';

/**
 * The key that signs `requestState`: the one checked at start, else (a server built without those
 * checks) the variable's.
 */
export function stateKeyOf(options: {
  stateKey?: string;
  env?: Record<string, string | undefined>;
}): string | undefined {
  return options.stateKey ?? (options.env ?? process.env)[STATE_KEY_ENV];
}

/** Options of the MCP server. */
export interface McpServerOptions {
  /** serverInfo.name. Default {@link defaultServerName}. */
  name?: string;
  /** serverInfo.version (must not be a placeholder; checked by the caller at start). */
  version: string;
  /** `instructions` returned by initialize and `server/discover` (≤ 8 KiB UTF-8). */
  instructions?: string;
  /** Serve the program's skill: the Skills extension, and the well-known index over HTTP. Default true. */
  skills?: boolean;
  /** Environment handed to handlers. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /**
   * The key that signs `requestState` (checked at start); default `$AX_MCP_STATE_KEY` of `env`,
   * else random per process.
   */
  stateKey?: string;
  /**
   * Called with what aborts every in-flight call (its CallSignal), so shutdown can abort them; returns
   * the unregister function.
   */
  track?: (call: Abortable) => () => void;
  /** Where to log diagnostics (stray rejections, transport errors). Default stderr. */
  log?: (line: string) => void;
  /** Flag values applied to every call (the persistent flags given to `mcp-server`); see InvokeOptions.presets. */
  presets?: InvokeOptions['presets'];
  /**
   * A preview server (`mcp-server --dry-run`): every tools/call runs as a dry run, whatever the
   * client sends as `dry_run`; results carry `meta.dry_run: true`; the instructions say so.
   */
  dryRun?: boolean;
  /** Where replayed retries are recorded; default the file store (see ExecuteOptions.idempotencyStore). */
  idempotencyStore?: IdempotencyStore;
  /** How long a recorded outcome replays, ms. Default 24 h. */
  idempotencyTtlMs?: number;
  /**
   * `progressive`: `tools/list` lists the four discovery tools (progressive.ts) instead of one tool
   * per command (docs/mcp-server.md#progressive-discovery). Default `tools`.
   */
  discovery?: Discovery;
}

/** The tree's MCP view, computed once per server process and shared by every session and request. */
export interface McpModel {
  /** The tree's root: calls run from it, as the command line does. */
  root: Command;
  /**
   * The command whose subtree is served (where `mcp-server` is mounted; the root when mounted
   * there): tool names are relative to it and only its subtree's tools, prompts and resources are
   * served (docs/mcp-server.md#mounting).
   */
  mount: Command;
  refs: ToolRef[];
  byName: Map<string, ToolRef>;
  prompts: ReturnType<typeof declarations>['prompts'];
  resources: ReturnType<typeof declarations>['resources'];
  /** tools/list's tools for a 2025-era client, computed on the first list. */
  toolList?: ToolDef[];
  /** tools/list's tools for a 2026-07-28 client, computed on the first list. */
  modernToolList?: ToolDef[];
  /** Each tool's 2025-era definition (its inputSchema validates calls), computed on its first call. */
  defs: Map<string, ToolDef>;
  /** Lazy subtrees that failed to load: the tool name the stub would have, and the load error. */
  unloaded: { tool: string; error: AxError }[];
  /** The tasks of 2026-07-28 clients (task-board.ts), made on the first task. */
  tasks?: TaskBoard;
}
