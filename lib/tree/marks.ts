/**
 * Marks authors put on commands for the MCP projection. Importing this loads nothing of the MCP SDK.
 */
import type { Command } from './command.ts';
import { BUILTIN_ANNOTATION } from './builtin.ts';

/**
 * Annotation that keeps a command out of the MCP tools: `"true"` drops the command alone (its
 * children stay tools), `"subtree"` drops it with every descendant. Other values are ignored.
 */
export const EXCLUDE_ANNOTATION = 'ax-ts/mcp/exclude';
/**
 * ax-go's exclusion annotation (`github.com/rshade/ax-go/mcp/exclude` = `"true"`), honoured like
 * {@link EXCLUDE_ANNOTATION} = `"true"` so a tree ported from ax-go keeps its exclusions.
 */
export const AXGO_EXCLUDE_ANNOTATION = 'github.com/rshade/ax-go/mcp/exclude';
/** Annotation that sets a command's tool name explicitly (instead of its path joined with `_`). */
export const TOOL_NAME_ANNOTATION = 'ax-ts/mcp/name';
/**
 * Annotation marking a command whose stdin is a protocol's channel (`mcp-server`: the client's
 * JSON-RPC): nothing of the run may read it as input, so a secret flag's `-` (stdin) is refused
 * there (docs/security.md#secret-flags).
 */
export const STDIN_PROTOCOL_ANNOTATION = 'ax-ts/stdin-protocol';
export { BUILTIN_ANNOTATION };
/** ax-ts's own marks among a command's annotations: never shown as the author's. */
export const OWN_ANNOTATIONS: ReadonlySet<string> = new Set([BUILTIN_ANNOTATION, STDIN_PROTOCOL_ANNOTATION]);

/**
 * Whether the root takes positionals (declared ones, or any its own Args validator accepts): then a
 * word there is an argument, and no built-in that only the root's words would reach (`schema`,
 * `doctor`) is added.
 */
export function rootTakesPositionals(root: Command): boolean {
  return root.args.length > 0 || (root.runnable() && root.argsValidatorSet());
}

/** Options of {@link exclude}. */
export interface ExcludeOptions {
  /**
   * Drop every descendant too (annotation value `"subtree"`). Default false: only the command itself
   * is dropped and its children stay tools — so excluding a pure group without `subtree` removes
   * nothing, and `__schema` and `mcp-server` warn about it on stderr.
   */
  subtree?: boolean;
}

/**
 * Keeps a command out of the MCP tools: sets the annotation `ax-ts/mcp/exclude` to `"true"`, or to
 * `"subtree"` with `{ subtree: true }`. The command stays in `--help`, runs from the command line and
 * stays in `__schema --as=ax` (marked `mcp: {"tool": null, "reason": "excluded"}`); calling its
 * would-be tool name gives the unknown-tool error. Every projection for agents (`--as=mcp`, `llms`,
 * `skill`, clispec) leaves it out. @returns the command, for chaining.
 */
export function exclude<C extends Command>(cmd: C, options: ExcludeOptions = {}): C {
  cmd.annotate(EXCLUDE_ANNOTATION, options.subtree ? 'subtree' : 'true');
  return cmd;
}

/**
 * Sets a command's tool name explicitly (annotation `ax-ts/mcp/name`), e.g. to shorten a long path.
 * The name is still checked against `^[A-Za-z_][A-Za-z0-9_-]{0,63}$` and for collisions when the
 * tree is walked. @returns the command.
 */
export function toolName<C extends Command>(cmd: C, name: string): C {
  cmd.annotate(TOOL_NAME_ANNOTATION, name);
  return cmd;
}

/**
 * The MCP marks as one namespace: `mcp.exclude(cmd)`, `mcp.exclude(cmd, { subtree: true })`,
 * `mcp.toolName(cmd, name)`.
 */
export const mcp = { exclude, toolName } as const;
