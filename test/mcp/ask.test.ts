/**
 * Asking the client and answering beyond text, through the real server with the real SDK Client on
 * every transport (stdio; HTTP stateful and stateless), with the client declaring and not declaring
 * elicitation and sampling: ctx.confirm / ctx.elicit (elicitation/create), ctx.sample
 * (sampling/createMessage), bytes from opaque commands (image/audio/blob content), attached
 * resources, byte resources, prompts embedding resources, completion from the shell completers.
 * The CLI side of the same rules (raw bytes on stdout, the flag-naming fixes, a terminal dialogue)
 * is checked through the real process and in-process `execute`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { execute } from '../../lib/index.ts';
import { envelopeOf, REPO, runCasesCli, TSX_LOADER } from '../helpers/mcp.ts';
import { BLOB, PNG, root, WAV } from '../fixtures/ask-cli.ts';
import { announcedUrl } from '../helpers/spawn.ts';

const CLI = `${REPO}/test/fixtures/ask-cli.ts`;
type Mode = 'stdio' | 'http' | 'stateless';
const MODES: Mode[] = ['stdio', 'http', 'stateless'];

/** What the client answers to the next elicitation (set per case), and what it was asked. */
interface Answers {
  elicit: ElicitResult;
  elicited: { message: string; requestedSchema: Record<string, unknown> }[];
  sampled: Record<string, unknown>[];
}

interface Conn {
  client: Client;
  answers: Answers;
  close(): Promise<void>;
}

const servers: ChildProcess[] = [];
const urls = new Map<Mode, string>();
const stderrOf = new Map<Mode, () => string>();

async function startHttp(mode: 'http' | 'stateless'): Promise<void> {
  const proc = spawn(
    process.execPath,
    [
      '--import',
      TSX_LOADER,
      CLI,
      'mcp-server',
      '--transport',
      'http',
      '--addr',
      '127.0.0.1:0',
      ...(mode === 'stateless' ? ['--stateless'] : []),
    ],
    {
      cwd: REPO,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  servers.push(proc);
  const announced = announcedUrl(proc);
  stderrOf.set(mode, announced.stderr);
  const url = await announced.url;
  urls.set(mode, url);
}

async function connect(mode: Mode, declare: boolean): Promise<Conn> {
  const answers: Answers = { elicit: { action: 'accept', content: {} }, elicited: [], sampled: [] };
  const client = new Client(
    { name: 'ask-tests', version: '1.0.0' },
    { capabilities: declare ? { elicitation: {}, sampling: {} } : {} },
  );
  if (declare) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      answers.elicited.push(req.params as never);
      return answers.elicit;
    });
    client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
      answers.sampled.push(req.params as never);
      return {
        role: 'assistant',
        model: 'test-model',
        stopReason: 'endTurn',
        content: { type: 'text', text: 'short.' },
      };
    });
  }
  const transport =
    mode === 'stdio'
      ? new StdioClientTransport({
          command: process.execPath,
          args: ['--import', TSX_LOADER, CLI, 'mcp-server'],
          cwd: REPO,
          stderr: 'pipe',
          env: { PATH: process.env.PATH ?? '' },
        })
      : new StreamableHTTPClientTransport(new URL(urls.get(mode)!));
  await client.connect(transport);
  return { client, answers, close: () => client.close() };
}

const conns = new Map<string, Conn>();
const conn = (mode: Mode, declare: boolean) => conns.get(`${mode}:${declare}`)!;

beforeAll(async () => {
  await Promise.all([startHttp('http'), startHttp('stateless')]);
  for (const mode of MODES)
    for (const declare of [true, false]) conns.set(`${mode}:${declare}`, await connect(mode, declare));
}, 90_000);

afterAll(async () => {
  await Promise.allSettled([...conns.values()].map((c) => c.close()));
  for (const p of servers) if (p.exitCode === null) p.kill('SIGTERM');
});

/** The envelope of a tool result (typed loosely: callTool's result type is a union). */
const envelope = (r: unknown) => envelopeOf(r as { content?: unknown });
const errorOf = (r: unknown) => {
  expect((r as { isError?: unknown }).isError).toBe(true);
  return envelope(r).error as {
    kind: string;
    message: string;
    actionable_fix: string;
    context?: Record<string, unknown>;
  };
};

describe.each(MODES)('asking the client over %s', (mode) => {
  // stateless HTTP has no session: whatever the client declared, a call meets a server that knows none of it
  const canAsk = mode !== 'stateless';

  it('ctx.confirm: elicits when declared (accept goes on), else confirmation_required naming the property', async () => {
    const c = conn(mode, true);
    c.answers.elicit = { action: 'accept', content: { confirm: true } };
    c.answers.elicited.length = 0;
    const r = await c.client.callTool({ name: 'rm', arguments: { id: '7' } });
    if (canAsk) {
      expect(r.isError).toBeFalsy();
      expect(envelope(r).data).toEqual({ deleted: '7' });
      expect(c.answers.elicited).toHaveLength(1);
      expect(c.answers.elicited[0]!.message).toBe('Delete item 7?');
      expect(c.answers.elicited[0]!.requestedSchema).toMatchObject({
        type: 'object',
        properties: { confirm: { type: 'boolean' } },
        required: ['confirm'],
      });
    } else {
      expect(errorOf(r).kind).toBe('confirmation_required');
      expect(c.answers.elicited).toHaveLength(0);
    }
    const plain = errorOf(await conn(mode, false).client.callTool({ name: 'rm', arguments: { id: '7' } }));
    expect(plain.kind).toBe('confirmation_required');
    expect(plain.actionable_fix).toBe('Set the property "yes" to true to confirm (only with the user\'s consent).');
    // the bypass flag never asks
    c.answers.elicited.length = 0;
    expect((await c.client.callTool({ name: 'rm', arguments: { id: '8', yes: true } })).isError).toBeFalsy();
    expect(c.answers.elicited).toHaveLength(0);
  });

  it.runIf(canAsk)(
    'ctx.confirm: decline, cancel and accept-with-false are confirmation_required errors that say which',
    async () => {
      const c = conn(mode, true);
      for (const [answer, words, action] of [
        [{ action: 'decline' }, 'declined', 'decline'],
        [{ action: 'cancel' }, 'cancelled', 'cancel'],
        [{ action: 'accept', content: { confirm: false } }, 'declined', 'accept_false'],
      ] as const) {
        c.answers.elicit = answer as ElicitResult;
        const e = errorOf(await c.client.callTool({ name: 'rm', arguments: { id: '7' } }));
        expect(e.kind).toBe('confirmation_required');
        expect(e.message).toContain(words);
        expect(e.context).toMatchObject({ bypass_flag: 'yes', action });
      }
    },
  );

  it('ctx.elicit: asks only for what the arguments did not give; accept returns the values', async () => {
    const c = conn(mode, true);
    c.answers.elicit = { action: 'accept', content: { name: 'Ann', colour: 'red' } };
    c.answers.elicited.length = 0;
    const r = await c.client.callTool({ name: 'profile', arguments: { age: 41 } });
    if (canAsk) {
      expect(r.isError).toBeFalsy();
      expect(envelope(r).data).toEqual({ age: 41, name: 'Ann', colour: 'red' });
      expect(c.answers.elicited[0]!.message).toBe('Tell us about yourself');
      expect(Object.keys(c.answers.elicited[0]!.requestedSchema.properties as object)).toEqual(['name', 'colour']); // age came as an argument
      expect(c.answers.elicited[0]!.requestedSchema).toMatchObject({
        required: ['name'],
        properties: { colour: { enum: ['red', 'green'], default: 'green' } },
      });
    } else {
      const e = errorOf(r);
      expect(e.kind).toBe('input_required');
      expect(e.actionable_fix).toBe('Set the property "name".');
    }
    // every field given: nothing is asked, on any client
    c.answers.elicited.length = 0;
    const full = await conn(mode, false).client.callTool({ name: 'profile', arguments: { name: 'Bo' } });
    expect(envelope(full).data).toEqual({ name: 'Bo', age: 30, colour: 'green' }); // optional fields: their defaults
  });

  it.runIf(canAsk)(
    'ctx.elicit: decline and cancel are `declined`; an answer that does not fit is a validation_error',
    async () => {
      const c = conn(mode, true);
      for (const action of ['decline', 'cancel'] as const) {
        c.answers.elicit = { action };
        const e = errorOf(await c.client.callTool({ name: 'profile', arguments: {} }));
        expect(e.kind).toBe('declined');
        expect(e.context).toMatchObject({ action });
      }
      c.answers.elicit = { action: 'accept', content: { name: '', colour: 'red' } };
      const bad = errorOf(await c.client.callTool({ name: 'profile', arguments: {} }));
      expect(bad.kind).toBe('validation_error');
      expect(bad.context).toMatchObject({ reason: 'invalid_answer', field: 'name' });
    },
  );

  it('ctx.sample: asks the client model when sampling is declared; else sampling_unavailable', async () => {
    const c = conn(mode, true);
    c.answers.sampled.length = 0;
    const r = await c.client.callTool({ name: 'summarize', arguments: { text: 'a long story' } });
    if (canAsk) {
      expect(envelope(r).data).toEqual({ summary: 'short.', model: 'test-model' });
      expect(c.answers.sampled[0]).toMatchObject({
        maxTokens: 50,
        systemPrompt: 'Be brief.',
        messages: [{ role: 'user', content: { type: 'text', text: 'Summarize: a long story' } }],
      });
    } else expect(errorOf(r).kind).toBe('sampling_unavailable');
    const e = errorOf(await conn(mode, false).client.callTool({ name: 'summarize', arguments: { text: 'x' } }));
    expect(e.kind).toBe('sampling_unavailable');
  });

  it('bytes: image and audio content (base64), other bytes an embedded blob', async () => {
    const c = conn(mode, false);
    const img = await c.client.callTool({ name: 'pixel', arguments: {} });
    expect(img.content).toEqual([{ type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' }]);
    const snd = await c.client.callTool({ name: 'tone', arguments: {} });
    expect(snd.content).toEqual([{ type: 'audio', data: WAV.toString('base64'), mimeType: 'audio/wav' }]);
    const raw = await c.client.callTool({ name: 'dump', arguments: {} });
    expect(raw.content).toEqual([
      {
        type: 'resource',
        resource: { uri: 'urn:ax-ts:output:dump', mimeType: 'application/octet-stream', blob: BLOB.toString('base64') },
      },
    ]);
  });

  it('attached resources follow the envelope (image bytes as image, text as resource); meta.attached lists them', async () => {
    const r = await conn(mode, false).client.callTool({ name: 'report', arguments: { id: '5' } });
    const content = r.content as Record<string, unknown>[];
    expect(content[0]!.type).toBe('text');
    expect(envelope(r).meta?.attached).toEqual(['ask://chart', 'ask://notes/5']);
    expect(content.slice(1)).toEqual([
      { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'ask://notes/5', mimeType: 'text/plain', text: 'notes on 5' } },
    ]);
  });

  it('resources/read serves byte content as a base64 blob; prompts embed resources and images', async () => {
    const c = conn(mode, false).client;
    expect((await c.readResource({ uri: 'ask://blob' })).contents).toEqual([
      { uri: 'ask://blob', mimeType: 'application/octet-stream', blob: BLOB.toString('base64') },
    ]);
    const p = await c.getPrompt({ name: 'review', arguments: { id: '9', focus: 'speed' } });
    expect(p.messages).toEqual([
      {
        role: 'user',
        content: { type: 'resource', resource: { uri: 'ask://notes/9', mimeType: 'text/plain', text: 'notes on 9' } },
      },
      { role: 'user', content: { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Review item 9 with focus on speed.' } },
    ]);
    await expect(c.getPrompt({ name: 'broken' })).rejects.toThrow(/not image bytes/);
  });

  it('completion/complete: prompt and template arguments from the positional and flag completers', async () => {
    const c = conn(mode, false).client;
    expect(
      (await c.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'id', value: '7' } }))
        .completion,
    ).toEqual({ values: ['7', '70'], total: 2, hasMore: false });
    expect(
      (await c.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'focus', value: 's' } }))
        .completion.values,
    ).toEqual(['speed', 'safety', 'style']);
    expect(
      (
        await c.complete({
          ref: { type: 'ref/resource', uri: 'ask://items/{id}' },
          argument: { name: 'id', value: '' },
        })
      ).completion.values,
    ).toEqual(['7', '8', '9', '70']);
    await expect(
      c.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'colour', value: '' } }),
    ).rejects.toThrow(/no argument "colour"/);
  });
});

describe('the same rules on the command line', () => {
  it('an opaque command writes its bytes to stdout as they are', async () => {
    for (const [cmd, bytes] of [
      ['pixel', PNG],
      ['tone', WAV],
      ['dump', BLOB],
    ] as const) {
      const r = await runCasesCli([cmd], { cli: CLI });
      expect(r.code).toBe(0);
      expect(Buffer.compare(r.stdout, bytes)).toBe(0);
    }
  });

  it('bytes are never written to a terminal', async () => {
    let out = '';
    const err: string[] = [];
    const code = await execute(root, {
      args: ['pixel'],
      stdout: { isTTY: true, write: (s) => (out += String(s)) },
      stderr: { write: (s) => void err.push(String(s)) },
      env: {},
    });
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err.join('')).toMatch(/refusing to write 70 bytes of image\/png to a terminal/);
  });

  it('without a terminal, confirm/elicit/sample fail at once with fixes naming the flags', async () => {
    const rm = await runCasesCli(['rm', '7'], { cli: CLI });
    expect(JSON.parse(rm.stderr.trim().split('\n').pop()!).error).toMatchObject({
      kind: 'confirmation_required',
      actionable_fix: "Pass --yes to confirm (only with the user's consent).",
      context: { reason: 'confirmation', outcome: 'prompt_required', bypass_flag: '--yes' },
    });
    const profile = await runCasesCli(['profile', '--age', '3'], { cli: CLI });
    expect(JSON.parse(profile.stderr.trim().split('\n').pop()!).error).toMatchObject({
      kind: 'input_required',
      actionable_fix: 'Pass --name.',
      context: { reason: 'input', fields: ['name'], flags: ['--name'] },
    });
    const given = await runCasesCli(['profile', '--name', 'Cy'], { cli: CLI });
    expect(JSON.parse(given.stdout.toString()).data).toEqual({ name: 'Cy', age: 30, colour: 'green' });
    const sample = await runCasesCli(['summarize', '--text', 'x'], { cli: CLI });
    expect(sample.code).toBe(2);
    expect(JSON.parse(sample.stderr.trim().split('\n').pop()!).error.kind).toBe('sampling_unavailable');
  });

  it('on a terminal (human mode) ctx.elicit asks one field per line; empty takes the default', async () => {
    let out = '';
    let err = '';
    const code = await execute(root, {
      args: ['profile', '--format', 'text'],
      stdin: Readable.from(['Dee\n', '\n', 'red\n']),
      // a person at a terminal: stdin and stdout are terminals (and no agent or CI variable is set)
      stdinIsTTY: true,
      stdout: { write: (s) => void (out += String(s)), isTTY: true },
      stderr: { write: (s) => void (err += String(s)) },
      env: {},
    });
    expect(code, err).toBe(0);
    expect(err).toContain('Tell us about yourself\nName: Age [30]: colour (red|green) [green]: ');
    expect(out).toBe('name:   Dee\nage:    30\ncolour: red\n');
  });

  it('--args-json is the MCP path without a client: the fix names the property', async () => {
    const r = await runCasesCli(['profile', '--args-json', '{}'], { cli: CLI });
    expect(JSON.parse(r.stderr.trim().split('\n').pop()!).error).toMatchObject({
      kind: 'input_required',
      actionable_fix: 'Set the property "name".',
    });
  });
});
