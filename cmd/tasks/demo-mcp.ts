/**
 * The MCP half of `npm run demo`: a real MCP session. The SDK's `Client` starts `tasks mcp-server`
 * over stdio, lists the tools, adds and lists tasks, shows one failure, and prints what it saw.
 * @returns the number of steps that did not behave as expected.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

interface ToolText {
  isError?: boolean;
  content?: { type: string; text?: string }[];
  structuredContent?: unknown;
}

function text(r: ToolText): string {
  return (r.content ?? []).map((c) => c.text ?? '').join('');
}

function indent(s: string): string {
  return s
    .trimEnd()
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
}

/**
 * Runs the session against a server started as `node [execArgv…] <main> mcp-server`.
 * @param main the tasks entry file; @param env the server's environment (TASKS_FILE set).
 */
export async function mcpDemo(main: string, execArgv: string[], env: Record<string, string>): Promise<number> {
  const out = (s: string) => process.stdout.write(s);
  let failures = 0;
  const expect = (ok: boolean, what: string) => {
    if (!ok) failures += 1;
    out(ok ? '' : `  <-- UNEXPECTED: ${what}\n`);
  };
  out(`\nax-ts demo, part 1: an MCP client drives "tasks mcp-server" over stdio.\n`);
  out(`$ node ${[...execArgv, main, 'mcp-server'].join(' ')}   (started by the SDK's StdioClientTransport)\n`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...execArgv, main, 'mcp-server'],
    env,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'ax-ts-demo', version: '1.0.0' });
  await client.connect(transport);
  try {
    const info = client.getServerVersion();
    out(
      `\n# initialize → server ${info?.name} ${info?.version}; ` +
        `instructions: ${JSON.stringify(client.getInstructions())}\n`,
    );
    const { tools } = await client.listTools();
    out(`\n# tools/list → ${tools.length} tools\n`);
    for (const t of tools) {
      const props = Object.keys((t.inputSchema as { properties?: object }).properties ?? {});
      const hints = t.annotations
        ? Object.entries(t.annotations)
            .filter(([, v]) => v === true)
            .map(([k]) => k)
            .join(',')
        : '';
      out(
        `  ${t.name.padEnd(7)} ${t.description?.split('\n')[0]}\n` +
          `          properties: ${props.join(', ')}${hints ? `; hints: ${hints}` : ''}\n`,
      );
    }
    expect(
      ['add', 'done', 'export', 'list', 'rm', 'show'].every((n) => tools.some((t) => t.name === n)),
      'the six task tools',
    );

    const calls: [string, Record<string, unknown>, (r: ToolText) => boolean, string][] = [
      [
        'add',
        { title: ['buy', 'milk'], tag: ['home'] },
        (r) => !r.isError && (r.structuredContent as { id?: number })?.id === 1,
        'task 1 created',
      ],
      [
        'add',
        { title: ['call the plumber'], due: '2026-12-01' },
        (r) => !r.isError && (r.structuredContent as { id?: number })?.id === 2,
        'task 2 created',
      ],
      [
        'done',
        { id: 1 },
        (r) => !r.isError && (r.structuredContent as { status?: string })?.status === 'done',
        'task 1 done',
      ],
      [
        'list',
        { status: 'all' },
        (r) => !r.isError && ((r.structuredContent as { result?: unknown[] })?.result?.length ?? 0) === 2,
        'two tasks listed',
      ],
      [
        'show',
        { id: 99 },
        (r) => r.isError === true && text(r).includes('"kind":"not_found"'),
        'an isError result with not_found',
      ],
      [
        'rm',
        { id: 2 },
        (r) => r.isError === true && text(r).includes('"kind":"action_required"') && text(r).includes('\\"yes\\":true'),
        'a stop (action_required) whose next steps are tool calls: rm with yes, or done',
      ],
      [
        'add',
        { titel: ['typo'] },
        (r) => r.isError === true && text(r).includes('did you mean \\"title\\"'),
        'unknown property refused, pointing to title',
      ],
    ];
    for (const [name, args, ok, what] of calls) {
      const r = (await client.callTool({ name, arguments: args })) as ToolText;
      out(
        `\n# tools/call ${name} ${JSON.stringify(args)}\n` +
          `  isError: ${r.isError === true}\n  content[0].text:\n${indent(text(r))}\n`,
      );
      if (r.structuredContent !== undefined) out(`  structuredContent: ${JSON.stringify(r.structuredContent)}\n`);
      expect(ok(r), what);
    }
  } finally {
    const t0 = Date.now();
    await client.close();
    out(`\n# client closed stdin; the server exited cleanly (${Date.now() - t0} ms)\n`);
  }
  return failures;
}
