/**
 * Finding and describing one tool of a loaded tree without listing them all: what an opt-in
 * progressive MCP mode serves with a small fixed set of tools (search, describe, call) instead of
 * one tool per command (docs/mcp-server.md#progressive-discovery), and what an agent on the command
 * line reaches with `__schema <command…>`. Same walk as `tools/list` (walk.ts), so a tool found
 * here is one the server would list, under the same name, with the same definition.
 */
import type { Command } from '../tree/command.ts';
import { toolDef, toolRefs, type ToolDef, type ToolRef } from './walk.ts';

/** One search hit: the tool, its command and its one line. */
export interface ToolHit {
  tool: string;
  /** The command path as typed (`tasks add`). */
  command: string;
  /** The command's one line. */
  short: string;
  /** How well it matched: higher is better (words found in the name weigh most). */
  score: number;
}

/**
 * The tools whose name, command path or help text contain every word of `query` (case-insensitive;
 * an empty query matches every tool), best first — a word in the tool name or path counts 3, in
 * the one line 2, in the long help 1 — then in tree order; at most `limit` (default 20).
 * @throws AxError `validation_error` as `toolRefs` (tool-name collisions, invalid names).
 */
export function searchTools(root: Command, query: string, limit = 20): ToolHit[] {
  return searchRefs(toolRefs(root), query).slice(0, Math.max(0, limit));
}

/**
 * {@link searchTools} over tools already walked (a server's, named as it serves them): every hit,
 * best first, then in the order of `refs`.
 */
export function searchRefs(refs: readonly ToolRef[], query: string): ToolHit[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const hits: ToolHit[] = [];
  for (const r of refs) {
    const c = r.command;
    const name = `${r.name} ${c.commandPath()}`.toLowerCase();
    const short = c.short.toLowerCase();
    const long = `${c.long} ${c.example}`.toLowerCase();
    let score = 0;
    let all = true;
    for (const w of words) {
      const s = name.includes(w) ? 3 : short.includes(w) ? 2 : long.includes(w) ? 1 : 0;
      if (s === 0) {
        all = false;
        break;
      }
      score += s;
    }
    if (all) hits.push({ tool: r.name, command: c.commandPath(), short: c.short, score });
  }
  // a stable sort: equal scores keep tree order
  return hits.sort((a, b) => b.score - a.score);
}

/**
 * The full MCP definition of one tool by name (what `tools/list` would show for it), or undefined
 * when no tool has that name.
 * @throws AxError as `toolRefs`.
 */
export function describeTool(root: Command, name: string): (ToolDef & { command: string }) | undefined {
  const ref = toolRefs(root).find((r) => r.name === name);
  return ref ? { ...toolDef(ref), command: ref.command.commandPath() } : undefined;
}
