// Test-only fixture CLI for the MCP conformance suite (@modelcontextprotocol/conformance@0.1.13,
// `server` mode, run by test/conformance/run.mjs). Its commands, prompts and resources carry the
// fixture names the suite's scenarios call, so the suite exercises the real bridge: each tool is an
// ordinary ax-ts command, run in-process by `mcp-server --transport http` exactly as for any CLI.
// Scenarios that need what a CLI command cannot produce (image/audio/embedded-resource content,
// sampling, elicitation, subscriptions…) are listed, with reasons, in expected-failures.yml.
import { setTimeout as sleep } from 'node:timers/promises';
import { AxError, Command, declarePrompt, declareResource, main } from '../../lib/index.ts';
import { mountMcpServer } from '../../mcp/index.ts';

const root = new Command({
  use: 'conformance-cli',
  short: 'fixture: the MCP conformance suite\'s tools, prompts and resources as CLI commands',
  version: '0.1.0',
});

root.addCommand(
  // tools-call-simple-text
  new Command({
    use: 'test_simple_text',
    short: 'Return a simple text response',
    effects: 'read_only',
    run: () => ({ text: 'This is a simple text response for testing.' }),
  }),
  // tools-call-error: a failing command is an isError result carrying the error envelope
  new Command({
    use: 'test_error_handling',
    short: 'Always fail',
    effects: 'read_only',
    run: () => {
      throw new AxError('conformance_error', 'This tool intentionally returns an error for testing');
    },
  }),
  // tools-call-with-progress: 0/100, 50/100, 100/100, ~50 ms apart
  new Command({
    use: 'test_tool_with_logging',
    short: 'Log three lines while running (forwarded as notifications/message)',
    effects: 'read_only',
    run: async (ctx) => {
      ctx.log('Tool execution started');
      await sleep(50, undefined, { signal: ctx.signal });
      ctx.log('Tool processing data');
      await sleep(50, undefined, { signal: ctx.signal });
      ctx.log('Tool execution completed');
      return { logged: 3 };
    },
  }),
  new Command({
    use: 'test_tool_with_progress',
    short: 'Report progress three times',
    effects: 'read_only',
    run: async (ctx) => {
      ctx.progress(0, 100);
      await sleep(50, undefined, { signal: ctx.signal });
      ctx.progress(50, 100);
      await sleep(50, undefined, { signal: ctx.signal });
      ctx.progress(100, 100);
      return { done: true };
    },
  }),
);

// prompts-list, prompts-get-simple
declarePrompt(root, {
  name: 'test_simple_prompt',
  description: 'A simple prompt without arguments',
  template: 'This is a simple prompt for testing.',
});
// prompts-get-with-args (also the target of completion-complete)
declarePrompt(root, {
  name: 'test_prompt_with_arguments',
  description: 'A prompt with two required arguments',
  arguments: [
    { name: 'arg1', description: 'First test argument', required: true },
    { name: 'arg2', description: 'Second test argument', required: true },
  ],
  template: "Prompt with arguments: arg1='{{arg1}}', arg2='{{arg2}}'",
});

// resources-list, resources-read-text
declareResource(root, {
  name: 'static-text',
  uri: 'test://static-text',
  description: 'A static text resource',
  mimeType: 'text/plain',
  content: 'This is the content of the static text resource.',
});
// resources-templates-read: {id} is substituted in the URI and the content
declareResource(root, {
  name: 'template-data',
  uriTemplate: 'test://template/{id}/data',
  description: 'A resource template with one parameter',
  mimeType: 'application/json',
  content: '{"id":"{id}","templateTest":true,"data":"Data for ID: {id}"}',
});

mountMcpServer(root);
void main(root);
