/**
 * A negative number for a typed positional over MCP (docs/contract.md#arguments): the property is a
 * JSON number, so nothing reads it as a flag, unlike `-5` on the command line (which needs `--`).
 * The demo's `show <id>` is an int positional; its handler's own check sees -5 as the number.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectStdio, envelopeOf, REPO, tempDir } from '../helpers/mcp.ts';

describe('a negative number for an int positional over MCP', () => {
  it('arrives as the number: the handler refuses it in its own words, not the parser as a flag', async () => {
    const dir = tempDir();
    const c = await connectStdio(
      ['mcp-server'],
      { TASKS_FILE: join(dir.path, 't.json') },
      join(REPO, 'cmd/tasks/main.ts'),
    );
    try {
      const r = await c.client.callTool({ name: 'show', arguments: { id: -5 } });
      expect(r.isError).toBe(true);
      const e = envelopeOf(r as { content?: unknown }) as {
        error?: { message: string; context: Record<string, unknown> };
      };
      expect(e.error!.context).toMatchObject({ reason: 'invalid_argument', argument: 'id', value: -5 });
      expect(e.error!.message).not.toMatch(/shorthand/);
    } finally {
      await c.close();
      dir.cleanup();
    }
  });
});
