// Test-only fixture CLI for the MCP conformance suite (@modelcontextprotocol/conformance 0.1.13,
// 0.1.16 and 0.2.0-alpha.12 — the 2025 era and 2026-07-28 — `server` mode, run by test/conformance/run.mjs). Its commands, prompts and resources carry
// the fixture names the suite's scenarios call, so the suite exercises the real bridge: each tool is
// an ordinary ax-ts command, run in-process by `mcp-server --transport http` exactly as for any CLI —
// binary output, attached resources, ctx.elicit and ctx.sample included. What cannot apply
// (subscriptions to static resources; over stateless HTTP, asking the client) is listed, with
// reasons, in expected-failures*.yml.
import { setTimeout as sleep } from 'node:timers/promises';
import { AxError, Command, declarePrompt, declareResource, main } from '../../lib/index.ts';
import { mountMcpServer } from '../../mcp/index.ts';

const root = new Command({
  use: 'conformance-cli',
  short: "fixture: the MCP conformance suite's tools, prompts and resources as CLI commands",
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

// A 1×1 red PNG and a 1-sample WAV (RIFF header + one 16-bit sample), as a CLI would produce them.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
const WAV = Buffer.from('UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQIAAAAAAA==', 'base64');

root.addCommand(
  // tools-call-image / tools-call-audio: an opaque command returning bytes of an image/audio media type
  new Command({
    use: 'test_image_content',
    short: 'Return a PNG image',
    effects: 'read_only',
    output: { kind: 'opaque', mediaType: 'image/png' },
    run: () => new Uint8Array(PNG),
  }),
  new Command({
    use: 'test_audio_content',
    short: 'Return a WAV sound',
    effects: 'read_only',
    output: { kind: 'opaque', mediaType: 'audio/wav' },
    run: () => new Uint8Array(WAV),
  }),
  // tools-call-embedded-resource / tools-call-mixed-content: declared resources attached to the result
  new Command({
    use: 'test_embedded_resource',
    short: 'Return data with a declared resource attached',
    effects: 'read_only',
    run: (ctx) => {
      ctx.attach('test://embedded-resource');
      return { text: 'See the embedded resource.' };
    },
  }),
  new Command({
    use: 'test_multiple_content_types',
    short: 'Return data with an image and a JSON resource attached',
    effects: 'read_only',
    run: (ctx) => {
      ctx.attach('test://pixel');
      ctx.attach('test://mixed-content-resource');
      return { text: 'Multiple content types test:' };
    },
  }),
  // tools-call-sampling: ctx.sample asks the client's model
  new Command({
    use: 'test_sampling',
    short: "Ask the client's model",
    effects: 'read_only',
    flags: { prompt: { type: 'string', required: true, usage: 'the prompt to send to the model' } },
    run: async (ctx) => {
      const r = await ctx.sample({ messages: String(ctx.flags.prompt), maxTokens: 100 });
      return { text: `LLM response: ${r.text}` };
    },
  }),
  // tools-call-elicitation, elicitation-sep1034-defaults, elicitation-sep1330-enums: ctx.elicit forms
  new Command({
    use: 'test_elicitation',
    short: 'Ask the user for a user name and an email address',
    effects: 'read_only',
    flags: { message: { type: 'string', required: true, usage: 'the message to show the user' } },
    run: async (ctx) => {
      const content = await ctx.elicit(
        {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
        String(ctx.flags.message),
      );
      return { text: `User response: <action: accept, content: ${JSON.stringify(content)}>` };
    },
  }),
  new Command({
    use: 'test_elicitation_sep1034_defaults',
    short: 'Ask for a form whose fields all have defaults',
    effects: 'read_only',
    run: async (ctx) => {
      const content = await ctx.elicit(
        {
          type: 'object',
          properties: {
            name: { type: 'string', default: 'John Doe' },
            age: { type: 'integer', default: 30 },
            score: { type: 'number', default: 95.5 },
            status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
            verified: { type: 'boolean', default: true },
          },
        },
        'Please review and update the form fields with defaults',
      );
      return { text: `Elicitation completed: action=accept, content=${JSON.stringify(content)}` };
    },
  }),
  new Command({
    use: 'test_elicitation_sep1330_enums',
    short: 'Ask for a form with every kind of choice',
    effects: 'read_only',
    run: async (ctx) => {
      const content = await ctx.elicit(
        {
          type: 'object',
          properties: {
            untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            titledSingle: {
              type: 'string',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
            titledMulti: {
              type: 'array',
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
        },
        'Please pick from each kind of choice',
      );
      return { text: `Elicitation completed: action=accept, content=${JSON.stringify(content)}` };
    },
  }),
);

// server-stateless (2026-07-28) diagnostics: a tool that needs the client's model (sampling_unavailable
// without it: a client that did not declare sampling gets -32021), one that asks a form field no
// property can set (a client that declared elicitation is not asked yet: an isError result, never a
// request of the server's own on the response stream), and one that logs (only with a logLevel in _meta).
root.addCommand(
  new Command({
    use: 'test_missing_capability',
    short: "Ask the client's model (needs the sampling capability)",
    effects: 'read_only',
    run: async (ctx) => ({ text: (await ctx.sample({ messages: 'Say hello', maxTokens: 20 })).text }),
  }),
  new Command({
    use: 'test_streaming_elicitation',
    short: 'Ask the user for a colour (needs the elicitation capability)',
    effects: 'read_only',
    run: async (ctx) =>
      ctx.elicit({ type: 'object', properties: { colour: { type: 'string' } }, required: ['colour'] }, 'Which colour?'),
  }),
  new Command({
    use: 'test_logging_tool',
    short: 'Log two lines while running',
    effects: 'read_only',
    run: (ctx) => {
      ctx.log('first line');
      ctx.log('second line');
      return { logged: 2 };
    },
  }),
);

// input-required-result-* (2026-07-28 multi round-trip requests): ordinary ctx.elicit / ctx.sample /
// ctx.roots calls, each named by its `key` as the scenario expects; a 2026-07-28 client is asked
// through the call's input_required result and the handler runs again with the answers.
const NAME_FORM = {
  type: 'object' as const,
  properties: { name: { type: 'string' as const } },
  required: ['name'],
};
const OK_FORM = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };
root.addCommand(
  new Command({
    use: 'test_input_required_result_elicitation',
    short: 'Ask the user for their name, then greet them',
    effects: 'read_only',
    run: async (ctx) => {
      const { name } = await ctx.elicit(NAME_FORM, 'What is your name?', { key: 'user_name' });
      return { text: `Hello, ${String(name)}!` };
    },
  }),
  new Command({
    use: 'test_input_required_result_sampling',
    short: "Ask the client's model a question",
    effects: 'read_only',
    run: async (ctx) => {
      const r = await ctx.sample(
        { messages: 'What is the capital of France?', maxTokens: 100 },
        { key: 'capital_question' },
      );
      return { text: r.text };
    },
  }),
  new Command({
    use: 'test_input_required_result_list_roots',
    short: "List the client's roots",
    effects: 'read_only',
    run: async (ctx) => ({ roots: await ctx.roots({ key: 'client_roots' }) }),
  }),
  new Command({
    use: 'test_input_required_result_request_state',
    short: 'Ask for a confirmation carried by a signed requestState',
    effects: 'read_only',
    run: async (ctx) => {
      const { ok } = await ctx.elicit(OK_FORM, 'Please confirm', { key: 'confirm' });
      return { text: `state-ok: ${String(ok)}` };
    },
  }),
  new Command({
    use: 'test_input_required_result_tampered_state',
    short: 'Ask for a confirmation (a tampered requestState is refused)',
    effects: 'read_only',
    run: async (ctx) => {
      const { ok } = await ctx.elicit(OK_FORM, 'Please confirm', { key: 'confirm' });
      return { text: `confirmed: ${String(ok)}` };
    },
  }),
  new Command({
    use: 'test_input_required_result_multiple_inputs',
    short: "Ask a form, the client's model and the client's roots at once",
    effects: 'read_only',
    run: async (ctx) => {
      const [form, greeting, roots] = await Promise.all([
        ctx.elicit(NAME_FORM, 'What is your name?', { key: 'user_name' }),
        ctx.sample({ messages: 'Generate a greeting', maxTokens: 50 }, { key: 'greeting' }),
        ctx.roots({ key: 'client_roots' }),
      ]);
      return { name: form.name, greeting: greeting.text, roots };
    },
  }),
  new Command({
    use: 'test_input_required_result_multi_round',
    short: 'Ask two questions, one after the other',
    effects: 'read_only',
    run: async (ctx) => {
      const { name } = await ctx.elicit(NAME_FORM, 'Step 1: What is your name?', { key: 'step1' });
      const { color } = await ctx.elicit(
        { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
        'Step 2: What is your favorite color?',
        { key: 'step2' },
      );
      return { text: `${String(name)} likes ${String(color)}` };
    },
  }),
  new Command({
    use: 'test_input_required_result_capabilities',
    short: "Ask an optional form and the client's model (each only when the client declares it)",
    effects: 'read_only',
    run: async (ctx) => {
      const { mood } = await ctx.elicit(
        { type: 'object', properties: { mood: { type: 'string', default: 'fine' } } },
        'How are you?',
      );
      const r = await ctx.sample({ messages: `Say something ${String(mood)}`, maxTokens: 20 });
      return { text: r.text };
    },
  }),
);

// tasks-* (the Tasks extension): commands declared `task`, run as tasks for a client that declares
// the extension; their questions wait for tasks/update, and tasks/cancel aborts ctx.signal.
root.addCommand(
  new Command({
    use: 'greet',
    short: 'Greet someone (never a task)',
    effects: 'read_only',
    flags: { name: { type: 'string', required: true, usage: 'who to greet' } },
    run: (ctx) => ({ text: `Hello, ${String(ctx.flags.name)}!` }),
  }),
  new Command({
    use: 'slow_compute',
    short: 'Sleep a number of seconds, then answer (a task for a client that declares the extension)',
    effects: 'read_only',
    task: 'optional',
    flags: {
      seconds: { type: 'int', required: true, usage: 'how long to sleep' },
      label: { type: 'string', usage: 'a label echoed in the result' },
    },
    run: async (ctx) => {
      await sleep(Number(ctx.flags.seconds) * 1000, undefined, { signal: ctx.signal });
      return { text: `computed ${String(ctx.flags.label ?? '')}` };
    },
  }),
  new Command({
    use: 'failing_job',
    short: 'Fail after a second (only as a task)',
    effects: 'read_only',
    task: 'required',
    run: async (ctx) => {
      await sleep(1000, undefined, { signal: ctx.signal });
      throw new AxError('job_failed', 'the job failed, as it always does');
    },
  }),
  new Command({
    use: 'protocol_error_job',
    short: 'Crash (a handler bug: the task fails)',
    effects: 'read_only',
    task: 'optional',
    run: () => {
      throw new TypeError('a bug in the handler');
    },
  }),
  new Command({
    use: 'confirm_delete',
    short: 'Delete a file after confirmation (a task)',
    effects: 'read_only',
    task: 'optional',
    flags: { filename: { type: 'string', required: true, usage: 'the file' } },
    run: async (ctx) => {
      await ctx.confirm(`Delete ${String(ctx.flags.filename)}?`, 'yes');
      return { text: `deleted ${String(ctx.flags.filename)}` };
    },
  }),
  new Command({
    use: 'multi_input',
    short: 'Ask two questions at once (a task)',
    effects: 'read_only',
    task: 'optional',
    run: async (ctx) => {
      const [a, b] = await Promise.all([
        ctx.elicit(NAME_FORM, 'First name?', { key: 'first' }),
        ctx.elicit(NAME_FORM, 'Second name?', { key: 'second' }),
      ]);
      return { text: `${String(a.name)} and ${String(b.name)}` };
    },
  }),
);

// Beyond the suite: the multi-replica tests (test/e2e/cluster.test.ts) call `echo` with unique ids
// and check that every answer carries its own id (none crossed), and which replica answered.
root.addCommand(
  new Command({
    use: 'echo',
    short: 'Echo an id, with the replica that answered',
    effects: 'read_only',
    flags: { id: { type: 'string', required: true, usage: 'any text' } },
    run: (ctx) => ({ id: ctx.flags.id, replica: ctx.env.AX_REPLICA ?? null }),
  }),
  // the cross-replica replay test: one countable side effect per run (INCR of a counter in the
  // cluster's Redis, AX_REDIS_URL), so a replayed retry on another replica provably ran nothing
  new Command({
    use: 'bump',
    short: 'Add one to a counter in Redis (a side effect), with the replica that ran it',
    effects: 'non_idempotent',
    destructive: false,
    flags: { counter: { type: 'string', required: true, usage: 'name of the counter' } },
    run: async (ctx) => {
      const url = ctx.env.AX_REDIS_URL;
      if (!url)
        throw new AxError('validation_error', 'AX_REDIS_URL is not set', {
          fix: 'Start the fixture with AX_REDIS_URL=redis://host:port.',
        });
      const { createClient } = await import('redis');
      const client = createClient({ url, socket: { connectTimeout: 2000, reconnectStrategy: false } });
      client.on('error', () => {});
      await client.connect();
      try {
        const count = await client.incr(`ax-test:bump:${String(ctx.flags.counter)}`);
        return { counter: ctx.flags.counter, count, replica: ctx.env.AX_REPLICA ?? null };
      } finally {
        client.destroy();
      }
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

// tools-call-embedded-resource, tools-call-mixed-content, resources-read-binary, prompts-get-*:
// declared resources, some of them bytes
declareResource(root, {
  name: 'embedded-resource',
  uri: 'test://embedded-resource',
  mimeType: 'text/plain',
  content: 'This is an embedded resource content.',
});
declareResource(root, {
  name: 'mixed-content-resource',
  uri: 'test://mixed-content-resource',
  mimeType: 'application/json',
  content: '{"test":"data","value":123}',
});
declareResource(root, { name: 'pixel', uri: 'test://pixel', mimeType: 'image/png', content: new Uint8Array(PNG) });
declareResource(root, {
  name: 'static-binary',
  uri: 'test://static-binary',
  description: 'A binary resource (a PNG)',
  mimeType: 'image/png',
  content: new Uint8Array(PNG),
});
declareResource(root, {
  name: 'example-resource',
  uri: 'test://example-resource',
  mimeType: 'text/plain',
  content: 'Embedded resource content for testing.',
});
// prompts-get-embedded-resource: the resource named by the argument, then the text
declarePrompt(root, {
  name: 'test_prompt_with_embedded_resource',
  description: 'A prompt that embeds the declared resource it is given',
  arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
  embed: [{ resource: '{{resourceUri}}' }],
  template: 'Please process the embedded resource above.',
});
// prompts-get-with-image
declarePrompt(root, {
  name: 'test_prompt_with_image',
  description: 'A prompt with an image',
  embed: [{ image: 'test://static-binary' }],
  template: 'Please analyze the image above.',
});

mountMcpServer(root);
void main(root);
