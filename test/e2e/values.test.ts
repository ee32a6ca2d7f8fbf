/**
 * Values agents send mean the same on every path: a `json` flag with a
 * declared schema is that schema over MCP and is checked against it on the CLI and in --args-json
 * too; without one it is JSON text; the demo's task ids are integers; `--store` is no tool property
 * and no error message quotes a file's content. Through the real server (SDK client) and the CLI.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectStdio, envelopeOf, REPO, tempDir, type StdioConnection } from '../helpers/mcp.ts';
import { runCli } from '../helpers/run.ts';
import { buildAgentsCli } from '../fixtures/agents-cli.ts';

const T = 60_000;
type Json = Record<string, any>;
const result = (r: unknown) => envelopeOf(r as { content?: unknown });

describe('json flags over MCP and on the CLI', () => {
  let s: StdioConnection;
  beforeAll(async () => {
    s = await connectStdio(['mcp-server'], {}, join(REPO, 'test/fixtures/agents-cli.ts'));
  }, T);
  afterAll(async () => s?.close());

  it(
    'a declared schema is the property schema (nullable when optional); without one, a string of JSON text',
    async () => {
      const read = (await s.client.listTools()).tools.find((t) => t.name === 'read')!;
      const props = read.inputSchema.properties as Json;
      expect(props.where.anyOf[0]).toEqual({
        type: 'object',
        properties: { key: { type: 'string' }, max: { type: 'integer' } },
        required: ['key', 'max'],
        additionalProperties: false,
      });
      expect(props.where.anyOf[1]).toEqual({ type: 'null' });
      expect(props.extra.anyOf[0]).toEqual({ type: 'string' });
      expect(props.extra.description).toContain('JSON text');
    },
    T,
  );

  it(
    'the value itself is sent and checked against the schema; JSON text is parsed',
    async () => {
      const ok = await s.client.callTool({
        name: 'read',
        arguments: { where: { key: 'a', max: 3 }, extra: '{"deep":[1,{"x":null}]}' },
      });
      expect(ok.isError ?? false).toBe(false);
      expect((result(ok).data as Json).flags).toMatchObject({
        where: { key: 'a', max: 3 },
        extra: { deep: [1, { x: null }] },
      });
      const bad = await s.client.callTool({ name: 'read', arguments: { where: { key: 'a' } } });
      expect(bad.isError).toBe(true);
      expect(result(bad).error).toMatchObject({ kind: 'validation_error', context: { property: 'where' } });
      const obj = await s.client.callTool({ name: 'read', arguments: { extra: { deep: 1 } } });
      expect(obj.isError).toBe(true);
      expect(result(obj).error!.message).toContain('extra');
      const notJson = await s.client.callTool({ name: 'read', arguments: { extra: 'not json' } });
      expect(notJson.isError).toBe(true);
      expect(result(notJson).error).toMatchObject({ kind: 'validation_error', context: { property: 'extra' } });
    },
    T,
  );

  it('the CLI and --args-json check the same schema, naming the flag as each path spells it', async () => {
    const ok = await runCli(buildAgentsCli(), ['read', '--where', '{"key":"a","max":3}']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).data.flags.where).toEqual({ key: 'a', max: 3 });
    const bad = await runCli(buildAgentsCli(), ['read', '--where', '{"key":"a","max":"3"}']);
    expect(bad.code).toBe(2);
    const err = JSON.parse(bad.stderr.trim().split('\n').pop()!).error;
    expect(err).toMatchObject({ kind: 'validation_error', context: { reason: 'invalid_flag_value', flag: '--where' } });
    expect(err.message).toContain('--where.max');
    const viaJson = await runCli(buildAgentsCli(), ['read', '--args-json', '{"where":{"key":"a"}}']);
    expect(viaJson.code).toBe(2);
    expect(JSON.parse(viaJson.stderr.trim().split('\n').pop()!).error.context.property).toBe('where');
    const text = await runCli(buildAgentsCli(), ['read', '--args-json', '{"extra":"{\\"a\\":1}"}']);
    expect(text.code, text.stderr).toBe(0);
    expect(JSON.parse(text.stdout).data.flags.extra).toEqual({ a: 1 });
  });
});

describe('the demo as an agent meets it', () => {
  let s: StdioConnection;
  const tmp = tempDir('ax-demo-agent-');
  const store = join(tmp.path, 'tasks.json');
  beforeAll(async () => {
    s = await connectStdio(['mcp-server'], { TASKS_FILE: store }, join(REPO, 'cmd/tasks/main.ts'));
  }, T);
  afterAll(async () => {
    await s?.close();
    tmp.cleanup();
  });

  it(
    'task ids are integers: {"id": 1} works, "1" is refused by the schema; no tool has a store property',
    async () => {
      const { tools } = await s.client.listTools();
      for (const t of tools) expect(Object.keys(t.inputSchema.properties ?? {}), t.name).not.toContain('store');
      for (const name of ['show', 'done', 'rm'])
        expect((tools.find((t) => t.name === name)!.inputSchema.properties as Json).id.type, name).toBe('integer');
      await s.client.callTool({ name: 'add', arguments: { title: ['buy', 'milk'] } });
      const shown = await s.client.callTool({ name: 'show', arguments: { id: 1 } });
      expect(shown.isError ?? false).toBe(false);
      expect(shown.structuredContent).toMatchObject({ id: 1, title: 'buy milk' });
      const asText = await s.client.callTool({ name: 'show', arguments: { id: '1' } });
      expect(asText.isError).toBe(true);
      const zero = await s.client.callTool({ name: 'done', arguments: { id: 0 } });
      expect(result(zero).error).toMatchObject({ kind: 'validation_error', context: { reason: 'invalid_argument' } });
    },
    T,
  );

  it(
    'a client cannot choose the store: store is an unknown property and nothing runs',
    async () => {
      const r = await s.client.callTool({ name: 'list', arguments: { store: '/etc/passwd' } });
      expect(r.isError).toBe(true);
      expect(result(r).error).toMatchObject({ context: { reason: 'unknown_property', property: 'store' } });
    },
    T,
  );

  it(
    'a corrupt store is reported without quoting its content',
    async () => {
      writeFileSync(store, '{"api_key": "sk-live-0123456789", broken');
      const r = await s.client.callTool({ name: 'list', arguments: {} });
      expect(r.isError).toBe(true);
      const text = JSON.stringify(r.content);
      expect(result(r).error!.kind).toBe('store_corrupt');
      expect(text).not.toContain('sk-live');
      expect(text).not.toContain('api_key');
      expect(text).not.toContain('broken');
    },
    T,
  );
});

describe('the demo served over MCP with a store that never ends', () => {
  it(
    'a device as the store (/dev/zero) fails each call with store_error, and the server keeps serving',
    async () => {
      // before: the server read /dev/zero until it died with std::bad_alloc, and every call after was lost
      const s = await connectStdio(['mcp-server'], { TASKS_FILE: '/dev/zero' }, join(REPO, 'cmd/tasks/main.ts'));
      try {
        for (const call of [
          { name: 'list', arguments: {} },
          { name: 'show', arguments: { id: 1 } },
        ]) {
          const r = await s.client.callTool(call);
          expect(r.isError, call.name).toBe(true);
          expect(result(r).error, call.name).toMatchObject({
            kind: 'store_error',
            exit_code: 9,
            context: { path: '/dev/zero', reason: 'store_io' },
          });
        }
      } finally {
        await s.close();
      }
    },
    T,
  );
});
