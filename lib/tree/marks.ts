/**
 * Marks authors put on commands for the MCP projection. Importing this loads nothing of the MCP SDK.
 */
import type { Command } from './command.ts';

/** Annotation that keeps a command out of the MCP tools (value `"true"`; others ignored). */
export const EXCLUDE_ANNOTATION = 'ax-ts/mcp/exclude';
/** Annotation that sets a command's tool name explicitly (instead of its path joined with `_`). */
export const TOOL_NAME_ANNOTATION = 'ax-ts/mcp/name';
/** Annotation marking commands ax-ts injects (help, __schema, completion, mcp-server…). */
export const BUILTIN_ANNOTATION = 'ax-ts/builtin';

/**
 * Keeps a command out of the MCP tools: sets the annotation `ax-ts/mcp/exclude` = `"true"`. The
 * command stays in `--help` and `__schema --as=ax` (marked), its children stay tools, and calling
 * its would-be tool name gives the unknown-tool error. @returns the command, for chaining.
 */
export function exclude<C extends Command>(cmd: C): C {
  cmd.annotate(EXCLUDE_ANNOTATION, 'true');
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

/** The MCP marks as one namespace: `mcp.exclude(cmd)`, `mcp.toolName(cmd, name)`. */
export const mcp = { exclude, toolName } as const;
