/**
 * The agent-facing failure cases of ../shared/cases.md against the real `mcp-server` of the fixture
 * CLI (test/fixtures/mcp-cases-cli.ts), driven by the real SDK `Client` over stdio. One server is
 * shared by the cases that do not need isolation (calls are isolated per call by design, and that is
 * part of what is tested); cases that need their own process start one. Transport-level checks
 * (stdout purity, EOF, signals, startup) are in mcp-stdio.test.ts.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  CallToolResultSchema,
  ErrorCode,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive, connectStdio, envelopeOf, runCasesCli, tempDir, until, type StdioConnection } from '../helpers/mcp.ts';
import { flat } from '../fixtures/schema-trees.ts';
import { expandAxDocument } from '../../lib/schema/index.ts';

const T = 30_000;
const dir = tempDir('ax-mcp-cases-');
let s: StdioConnection;
let tools: Tool[];
const tool = (name: string) => {
  const t = tools.find((x) => x.name === name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
};
const call = (name: string, args?: Record<string, unknown>) =>
  s.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
const dataOf = (r: CallToolResult) => {
  expect(r.isError, JSON.stringify(r)).toBeFalsy();
  return envelopeOf(r).data as Record<string, unknown>;
};
const errorOf = (r: CallToolResult) => {
  expect(r.isError, JSON.stringify(r)).toBe(true);
  return envelopeOf(r).error as {
    kind: string;
    message: string;
    actionable_fix?: string;
    context?: Record<string, unknown>;
    suggestions?: string[];
  };
};
/** A `__schema` document; the ax one read in full (`expandAxDocument`: paths, properties, positions). */
const schemaDoc = async (as: 'mcp' | 'ax') => {
  const r = await runCasesCli(['__schema', `--as=${as}`, '--full']);
  expect(r.code, r.stderr).toBe(0);
  const doc = JSON.parse(r.stdout.toString('utf8')) as Record<string, unknown>;
  return as === 'ax' ? expandAxDocument(doc) : doc;
};
type AxCmd = {
  path: string;
  flags: { name: string; cli: string; property: string; choices?: string[] }[];
  args: { name: string; property: string; position: number; variadic: boolean; required: boolean }[];
  commands: AxCmd[];
};
const findAx = (c: AxCmd, path: string): AxCmd | undefined =>
  c.path === path ? c : c.commands.map((x) => findAx(x, path)).find(Boolean);

beforeAll(async () => {
  s = await connectStdio(['mcp-server'], { YC_DIR: dir.path });
  s.client.onerror = () => {}; // progress for a token the SDK did not issue ("p1") is reported here
  tools = (await s.client.listTools()).tools;
}, T);
afterAll(async () => {
  await s?.close();
  dir.cleanup();
});

describe.concurrent('MCP cases over stdio (shared server)', () => {
  it(
    'B03: rm without --yes never prompts and keeps the marker; the MCP hint names the property "yes"',
    async () => {
      const marker = join(dir.path, 'yc-42');
      writeFileSync(marker, 'x');
      const env = { YC_DIR: dir.path };
      // 1. stdin at EOF (</dev/null), 2. a piped "y" that must not be read as consent.
      for (const stdin of ['', 'y\n']) {
        const t0 = Date.now();
        const r = await runCasesCli(['rm', '42', '--format', 'json'], { stdin, env });
        // A prompt waiting on stdin would never return; the bound is far from both that and a loaded start-up.
        expect(Date.now() - t0).toBeLessThan(20_000);
        expect(r.code).toBe(2);
        expect(r.stdout.length).toBe(0);
        expect(r.stderr).not.toContain('[y/N]');
        const line = JSON.parse(r.stderr.trimEnd().split('\n').pop()!) as {
          error: { kind: string; actionable_fix: string };
        };
        expect(line.error.kind).toBe('confirmation_required');
        expect(line.error.actionable_fix).toContain('--yes');
        expect(existsSync(marker)).toBe(true);
      }
      // 3. MCP: isError with the hint spelled as the MCP argument.
      const t0 = Date.now();
      const e = errorOf(await call('rm', { id: '42' }));
      expect(Date.now() - t0).toBeLessThan(10_000);
      expect(e.kind).toBe('confirmation_required');
      expect(e.actionable_fix).toContain('"yes"'); // the MCP property…
      expect(e.context?.bypass_flag).toBe('yes');
      expect(e.actionable_fix).not.toContain('--yes');
      expect(existsSync(marker)).toBe(true);
      expect(flat(tool('rm').inputSchema).properties).toHaveProperty('yes');
      // 4. --yes deletes.
      const r = await runCasesCli(['rm', '42', '--yes', '--format', 'json'], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(existsSync(marker)).toBe(false);
      // and over MCP with the property
      writeFileSync(marker, 'x');
      expect(dataOf(await call('rm', { id: '42', yes: true }))).toEqual({ deleted: '42', existed: true });
      expect(existsSync(marker)).toBe(false);
    },
    T,
  );

  it(
    'B04: snake_case properties, default-true booleans settable to false, MCP-vocabulary errors',
    async () => {
      const schema = flat(tool('fmt').inputSchema) as {
        properties: Record<string, { type: string; default?: unknown }>;
      };
      const props = schema.properties;
      expect(Object.keys(props).every((k) => /^[a-z0-9_]+$/.test(k))).toBe(true);
      expect(props.skip_blank).toMatchObject({ type: 'boolean' });
      expect(props.max_width).toMatchObject({ type: 'integer', default: 80 });
      expect(props.verify).toMatchObject({ type: 'boolean', default: true });
      expect(props.color).toMatchObject({ type: 'boolean', default: true });
      expect(Object.keys(props).some((k) => k.startsWith('no_'))).toBe(false);

      const base = { skipBlank: false, maxWidth: 80, verify: true, color: true };
      expect(dataOf(await call('fmt', { skip_blank: true, max_width: 100 }))).toEqual({
        ...base,
        skipBlank: true,
        maxWidth: 100,
      });
      expect(dataOf(await call('fmt', { verify: false }))).toEqual({ ...base, verify: false });
      expect(dataOf(await call('fmt', { color: false }))).toEqual({ ...base, color: false });
      expect(dataOf(await call('fmt', { color: true }))).toEqual(base);

      const bad = errorOf(await call('fmt', { max_width: 'abc' }));
      expect(bad.kind).toBe('validation_error');
      expect(bad.message).toContain('max_width');
      expect(JSON.stringify(bad)).not.toContain('--max-width');

      const unknown = errorOf(await call('fmt', { maxWidth: 100 }));
      expect(unknown.kind).toBe('validation_error');
      expect(unknown.message).toContain('maxWidth');
      expect(unknown.suggestions).toEqual(['max_width']);
      expect(unknown.actionable_fix).toContain('"max_width"');

      // __schema lists both spellings of every flag.
      const ax = (await schemaDoc('ax')).command as AxCmd;
      const fmt = findAx(ax, 'yourcli fmt')!;
      const byName = Object.fromEntries(fmt.flags.map((f) => [f.name, f]));
      expect(byName['skip-blank']).toMatchObject({ cli: '--skip-blank', property: 'skip_blank' });
      expect(byName['max-width']).toMatchObject({ cli: '--max-width', property: 'max_width' });
      expect(fmt.flags.every((f) => typeof f.cli === 'string' && typeof f.property === 'string')).toBe(true);
    },
    T,
  );

  it(
    'B06: multi-word positionals and variadics arrive intact; missing query names the property',
    async () => {
      const search = flat(tool('search').inputSchema) as { properties: Record<string, unknown>; required?: string[] };
      expect(search.required).toContain('query');
      expect(search.properties).not.toHaveProperty('args');
      const label = flat(tool('label_add').inputSchema) as {
        properties: Record<string, Record<string, unknown>>;
        required?: string[];
      };
      expect(label.required).toEqual(expect.arrayContaining(['issue', 'labels']));
      expect(label.properties.labels).toMatchObject({ type: 'array', items: { type: 'string' }, minItems: 1 });
      expect(label.properties).not.toHaveProperty('args');

      expect(dataOf(await call('search', { query: 'New York City', tag: ['a', 'b'] }))).toEqual({
        query: 'New York City',
        tags: ['a', 'b'],
      });
      expect(dataOf(await call('label_add', { issue: '17', labels: ['needs review', 'p1'] }))).toEqual({
        issue: '17',
        labels: ['needs review', 'p1'],
      });
      // A value that looks like a flag stays a value.
      expect(dataOf(await call('search', { query: '--tag=x' }))).toEqual({ query: '--tag=x', tags: [] });
      const e = errorOf(await call('search', {}));
      expect(e.kind).toBe('validation_error');
      expect(e.message).toContain('"query"');
      const ax = (await schemaDoc('ax')).command as AxCmd;
      expect(
        findAx(ax, 'yourcli label add')!.args.map((a) => [a.name, a.property, a.position, a.variadic, a.required]),
      ).toEqual([
        ['issue', 'issue', 1, false, true],
        ['labels', 'labels', 2, true, true],
      ]);
    },
    T,
  );

  it(
    'B07: array flags keep commas, objects arrive as objects, int arrays as numbers; CLI repeats',
    async () => {
      const props = (flat(tool('send').inputSchema) as { properties: Record<string, Record<string, unknown>> })
        .properties;
      expect(props.header).toMatchObject({ type: 'array', items: { type: 'string' } });
      expect(props.id).toMatchObject({ type: 'array', items: { type: 'integer' } });
      expect(props.data).toMatchObject({ type: 'object' });
      expect(dataOf(await call('send', { header: ['Accept: a, b', 'X: 1'] }))).toEqual({
        headers: ['Accept: a, b', 'X: 1'],
        data: null,
        ids: [],
      });
      const data = { a: 1, b: [1, 2] };
      expect(dataOf(await call('send', { data }))).toEqual({ headers: [], data, ids: [] });
      expect(dataOf(await call('send', { id: [3, 4] }))).toEqual({ headers: [], data: null, ids: [3, 4] });
      const r = await runCasesCli(['send', '--header', 'A: 1, 2', '--header', 'B: 3', '--format', 'json']);
      expect(r.code, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout.toString()) as { data: { headers: string[] } }).data.headers).toEqual([
        'A: 1, 2',
        'B: 3',
      ]);
    },
    T,
  );

  it(
    'B08: null optional = not given; missing arguments = {}; null for a required property names it',
    async () => {
      const defaults = { limit: 20, since: null, sort: null };
      expect(dataOf(await call('list', { limit: null, since: null }))).toMatchObject(defaults);
      // No `arguments` key at all, exactly as some clients send it.
      const bare = (await s.client.request(
        { method: 'tools/call', params: { name: 'list' } },
        CallToolResultSchema,
      )) as CallToolResult;
      expect(dataOf(bare)).toMatchObject(defaults);
      expect(dataOf(await call('list', {}))).toMatchObject(defaults);
      expect(dataOf(await call('list', { limit: 5, since: 'x' }))).toMatchObject({ limit: 5, since: 'x' });
      const e = errorOf(await call('get', { id: null }));
      expect(e.kind).toBe('validation_error');
      expect(e.message).toMatch(/\bid\b/);
      expect(e.context?.property).toBe('id');
    },
    T,
  );

  it(
    'B09: every tool has an object inputSchema with properties; __schema --as=mcp equals the live lists',
    async () => {
      const status = tool('status');
      expect(status.inputSchema).toMatchObject({ type: 'object', properties: expect.any(Object) });
      for (const t of tools) {
        expect(t.inputSchema.type, t.name).toBe('object');
        expect(t.inputSchema, t.name).toHaveProperty('properties');
      }
      const doc = (await schemaDoc('mcp')) as {
        tools: Tool[];
        prompts: unknown[];
        resources: unknown[];
        resourceTemplates: unknown[];
      };
      const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : 1);
      expect([...tools].sort(byName)).toEqual([...doc.tools].sort(byName));
      // __schema --as=mcp prompts carry their template (docs/mcp-server.md#prompts-and-resources); the live list is MCP-shaped
      expect((await s.client.listPrompts()).prompts).toEqual(
        (doc.prompts as Record<string, unknown>[]).map(({ template: _t, ...p }) => p),
      );
      // the declared resources, then the program's skill files (docs/mcp-server.md#skills)
      const listed = (await s.client.listResources()).resources;
      expect(listed.filter((r) => !r.uri.startsWith('skill://'))).toEqual(doc.resources);
      expect(listed.filter((r) => r.uri.startsWith('skill://')).map((r) => r.uri)).toEqual([
        'skill://yourcli/SKILL.md',
        'skill://yourcli/AGENTS.md',
      ]);
      expect((await s.client.listResourceTemplates()).resourceTemplates).toEqual(doc.resourceTemplates);
      expect(dataOf(await call('status', {}))).toEqual({ ok: true });
    },
    T,
  );

  it(
    'B13: structuredContent valid on success, error results readable, arrays wrapped in an object',
    async () => {
      const ajv = new Ajv2020({ strict: false });
      const get = tool('user_get');
      const ok = await call('user_get', { id: '1' });
      expect(ok.isError).toBeFalsy();
      expect(ajv.validate(get.outputSchema!, ok.structuredContent)).toBe(true);
      expect(envelopeOf(ok).data).toEqual(ok.structuredContent);
      // The v1.x client validates structuredContent even on errors: it must not throw here.
      const nf = await call('user_get', { id: '404' });
      expect(nf.isError).toBe(true);
      expect((nf.content as { text: string }[])[0]!.text).toContain('user not found');
      if (nf.structuredContent !== undefined) expect(ajv.validate(get.outputSchema!, nf.structuredContent)).toBe(true);
      const list = tool('user_list');
      expect(list.outputSchema!.type).toBe('object');
      const l = await call('user_list', {});
      expect(l.structuredContent).toEqual({
        result: [
          { id: '1', name: 'ann' },
          { id: '2', name: 'bob' },
        ],
      });
      expect(ajv.validate(list.outputSchema!, l.structuredContent)).toBe(true);
      expect(envelopeOf(l).data).toEqual([
        { id: '1', name: 'ann' },
        { id: '2', name: 'bob' },
      ]);
      const ax = (await schemaDoc('ax')).command as AxCmd & {
        commands: (AxCmd & { output?: Record<string, unknown> })[];
      };
      const axList = findAx(ax, 'yourcli user list') as AxCmd & { output?: { mcp_structured_content?: string } };
      expect(axList.output?.mcp_structured_content).toMatch(/result/);
    },
    T,
  );

  it(
    'B18: --format json stdout is one JSON document without ESC bytes; logs and deprecation notices go to stderr',
    async () => {
      const ESC = 0x1b;
      // 1. FORCE_COLOR=1 --format json
      const r1 = await runCasesCli(['list', '--format', 'json'], { env: { FORCE_COLOR: '1' } });
      expect(r1.code, r1.stderr).toBe(0);
      expect(r1.stdout.includes(ESC)).toBe(false);
      expect(() => JSON.parse(r1.stdout.toString())).not.toThrow();
      expect(r1.stdout.toString().trimEnd().split('\n')).toHaveLength(1);
      expect(r1.stderr).toContain('fetching…');
      // 2. a deprecated flag: the notice on stderr and in meta.warnings, never on stdout
      const r2 = await runCasesCli(['list', '--old-sort', 'name', '--format', 'json']);
      expect(r2.code, r2.stderr).toBe(0);
      expect(r2.stdout.includes(ESC)).toBe(false);
      const doc = JSON.parse(r2.stdout.toString()) as {
        data: { sort: string };
        meta: { warnings?: { code: string; message: string }[] };
      };
      expect(doc.data.sort).toBe('name');
      expect(doc.meta.warnings).toEqual([
        { code: 'deprecated_flag', message: expect.stringMatching(/--old-sort.*deprecated.*use --sort/) },
      ]);
      expect(r2.stderr).toContain('deprecated');
      expect(r2.stdout.toString()).not.toContain('fetching');
      // 3. text mode into a pipe: no colour
      const r3 = await runCasesCli(['list', '--format', 'text']);
      expect(r3.code, r3.stderr).toBe(0);
      expect(r3.stdout.includes(ESC)).toBe(false);
      expect(r3.stdout.toString()).toContain('ID  NAME');
      // 4. MCP: no ESC bytes, no log lines in the content
      const r4 = await call('list', {});
      const text = JSON.stringify(r4.content);
      expect(text.includes('\u001b') || text.includes('\x1b')).toBe(false);
      expect(text).not.toContain('fetching');
      const r5 = await call('list', { old_sort: 'name' });
      expect(dataOf(r5)).toMatchObject({ sort: 'name' });
      expect(JSON.stringify(r5.content)).not.toContain('fetching');
      expect(envelopeOf(r5).meta?.warnings).toEqual([
        { code: 'deprecated_flag', message: expect.stringMatching(/old_sort.*deprecated.*use --sort/) },
      ]);
    },
    T,
  );

  it(
    'B21: progress notifications carry the token, increase, and precede the result; pong is not held up',
    async () => {
      const seen: number[] = [];
      const started = Date.now();
      const build = s.client.callTool(
        { name: 'build', arguments: { seconds: 3, marker: 'built-progress' } },
        CallToolResultSchema,
        {
          onprogress: (p) => seen.push(p.progress),
        },
      );
      let buildDone = 0;
      const built = build.then((x) => ((buildDone = Date.now()), x));
      await new Promise((r) => setTimeout(r, 1000));
      expect(dataOf((await call('pong', {})) as CallToolResult)).toEqual({ pong: true });
      const pongDone = Date.now();
      expect(buildDone, 'pong answered while build still ran').toBe(0); // not held up: order, not a clock bound
      const r = (await built) as CallToolResult;
      expect(buildDone).toBeGreaterThanOrEqual(pongDone);
      expect(buildDone - started).toBeGreaterThan(2500);
      expect(dataOf(r)).toEqual({ built: true, marker: 'built-progress' });
      // On the wire: ≥ 3 notifications with the request's token (the SDK uses the request id), increasing, all before the response.
      const at = s.received.findIndex((m) => 'result' in m && JSON.stringify(m.result).includes('built-progress'));
      const id = (s.received[at] as { id: number }).id;
      const wire = s.received
        .map((m, i) => ({ m: m as { method?: string; params?: { progressToken?: unknown; progress: number } }, i }))
        .filter(({ m }) => m.method === 'notifications/progress' && m.params?.progressToken === id);
      expect(wire.map(({ m }) => m.params!.progress)).toEqual([1, 2, 3]);
      expect(wire.every(({ i }) => i < at)).toBe(true);
      // The v1.x client dispatches notifications a microtask later than responses, so a last notification
      // that arrives in the same read as the response is reported as an "unknown token" and not delivered
      // (modelcontextprotocol/typescript-sdk#2580). Everything earlier reaches onprogress, in order.
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(seen).toEqual([1, 2, 3].slice(0, seen.length));
      expect(existsSync(join(dir.path, 'built-progress'))).toBe(true);
    },
    T,
  );

  it(
    'B21: a string progressToken ("p1") from a raw request is echoed in every notification',
    async () => {
      const r = (await s.client.request(
        {
          method: 'tools/call',
          params: {
            name: 'build',
            arguments: { seconds: 3, tick_ms: 100, marker: 'built-p1' },
            _meta: { progressToken: 'p1' },
          },
        },
        CallToolResultSchema,
      )) as CallToolResult;
      expect(dataOf(r)).toEqual({ built: true, marker: 'built-p1' });
      const notes = s.received.filter(
        (m) =>
          'method' in m &&
          m.method === 'notifications/progress' &&
          (m.params as { progressToken: unknown }).progressToken === 'p1',
      );
      expect(notes.map((n) => (n as unknown as { params: Record<string, unknown> }).params)).toEqual([
        { progressToken: 'p1', progress: 1, total: 3, message: 'tick 1' },
        { progressToken: 'p1', progress: 2, total: 3, message: 'tick 2' },
        { progressToken: 'p1', progress: 3, total: 3, message: 'tick 3' },
      ]);
    },
    T,
  );

  it(
    'B21: cancelling through the AbortSignal aborts the handler’s signal; no marker, no result',
    async () => {
      const ac = new AbortController();
      const started = Date.now();
      const p = s.client.callTool(
        { name: 'build', arguments: { seconds: 4, marker: 'built-cancel' } },
        CallToolResultSchema,
        { signal: ac.signal },
      );
      setTimeout(() => ac.abort('user cancelled'), 1500);
      await expect(p).rejects.toThrow();
      const marker = join(dir.path, 'built-cancel');
      // The handler saw its signal abort (it records that in <marker>.aborted).
      expect(await until(() => existsSync(`${marker}.aborted`), 3000)).toBe(true);
      await s.waitStderr('build: signal aborted (built-cancel)');
      // Wait past the time the build would have finished.
      await new Promise((r) => setTimeout(r, Math.max(0, started + 5000 - Date.now())));
      expect(existsSync(marker)).toBe(false);
      const results = s.received.filter((m) => 'result' in m && JSON.stringify(m.result).includes('built-cancel'));
      expect(results).toEqual([]);
      // The server is still healthy.
      await s.client.ping();
    },
    T,
  );

  it(
    'B21: cancelling a call kills the child process it started (TERM, then KILL)',
    async () => {
      const ac = new AbortController();
      const before = (s.stderr().match(/child-pid=\d+/g) ?? []).length;
      const p = s.client.callTool({ name: 'shell-out', arguments: { ms: 30_000 } }, CallToolResultSchema, {
        signal: ac.signal,
      });
      p.catch(() => {});
      await until(() => (s.stderr().match(/child-pid=\d+/g) ?? []).length > before, 10_000);
      const pid = Number(
        s
          .stderr()
          .match(/child-pid=(\d+)/g)!
          .at(-1)!
          .split('=')[1],
      );
      expect(alive(pid)).toBe(true);
      ac.abort('stop');
      await expect(p).rejects.toThrow();
      expect(await until(() => !alive(pid), 3000)).toBe(true);
      await s.client.ping();
    },
    T,
  );

  it(
    'a handler that never settles: cancelling it frees the client, and the server stays healthy',
    async () => {
      const ac = new AbortController();
      const p = s.client.callTool({ name: 'hang', arguments: {} }, CallToolResultSchema, { signal: ac.signal });
      const pong = await call('pong', {});
      expect(dataOf(pong)).toEqual({ pong: true });
      ac.abort('give up');
      await expect(p).rejects.toThrow();
      await s.client.ping();
      expect(dataOf(await call('ok', {}))).toEqual({ ok: true });
    },
    T,
  );

  it(
    'B25: a local --format / --dry-run wins over the global one, and reaches the handler',
    async () => {
      const exp = flat(tool('export').inputSchema) as { properties: Record<string, Record<string, unknown>> };
      expect(Object.keys(exp.properties).filter((k) => k === 'format')).toHaveLength(1);
      expect(exp.properties.format).toMatchObject({ type: 'string', enum: ['csv', 'xlsx'] });
      expect(dataOf(await call('export', { format: 'csv' }))).toEqual({ format: 'csv', out: null });
      const rep = flat(tool('report').inputSchema) as { properties: Record<string, Record<string, unknown>> };
      expect(rep.properties.dry_run).toMatchObject({ type: 'string' });
      const r = await call('report', { dry_run: 'plan' });
      expect(dataOf(r)).toEqual({ dryRun: 'plan', ctxDryRun: false });
      expect(envelopeOf(r).meta).not.toHaveProperty('dry_run');
      // 1. CLI
      const cli = await runCasesCli(['export', '--format', 'csv']);
      expect(cli.code, cli.stderr).toBe(0);
      expect((JSON.parse(cli.stdout.toString()) as { data: unknown }).data).toEqual({ format: 'csv', out: null });
      // 4. __schema: one entry per property; the local flag is the one listed.
      const ax = (await schemaDoc('ax')).command as AxCmd;
      for (const path of ['yourcli export', 'yourcli report']) {
        const props = findAx(ax, path)!.flags.map((f) => f.property);
        expect(new Set(props).size, path).toBe(props.length);
      }
      expect(findAx(ax, 'yourcli export')!.flags.find((f) => f.name === 'format')!.choices).toEqual(['csv', 'xlsx']);
    },
    T,
  );

  it(
    'B26 (tree B): prompts and resources listed, rendered and read; errors are -32602 / -32002',
    async () => {
      expect(s.client.getServerCapabilities()).toMatchObject({ tools: {}, prompts: {}, resources: {} });
      expect((await s.client.listPrompts()).prompts).toEqual([
        {
          name: 'triage',
          description: 'Triage an issue',
          arguments: [{ name: 'issue', description: 'issue number', required: true }],
        },
      ]);
      expect((await s.client.listResources()).resources.filter((r) => !r.uri.startsWith('skill://'))).toEqual([
        { uri: 'yourcli://config', name: 'config', mimeType: 'application/json' },
      ]);
      expect((await s.client.listResourceTemplates()).resourceTemplates).toEqual([
        { uriTemplate: 'yourcli://logs/{date}', name: 'logs', mimeType: 'text/plain' },
      ]);
      const p = await s.client.getPrompt({ name: 'triage', arguments: { issue: '7' } });
      expect(p.messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Triage issue 7. Keep {{ this }} literal.' } },
      ]);
      await expect(s.client.getPrompt({ name: 'triage', arguments: {} })).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
      });
      expect((await s.client.readResource({ uri: 'yourcli://config' })).contents).toEqual([
        { uri: 'yourcli://config', mimeType: 'application/json', text: '{"theme":"dark"}' },
      ]);
      expect((await s.client.readResource({ uri: 'yourcli://logs/2024-01-01' })).contents).toEqual([
        { uri: 'yourcli://logs/2024-01-01', mimeType: 'text/plain', text: 'logs of 2024-01-01' },
      ]);
      const nope = await s.client.readResource({ uri: 'yourcli://nope' }).catch((e: unknown) => e);
      expect(nope).toBeInstanceOf(McpError);
      expect((nope as McpError).code).toBe(-32002);
    },
    T,
  );

  it(
    '16 parallel calls each get their own arguments back',
    async () => {
      const texts = Array.from({ length: 16 }, (_, i) => `call ${i} — ${'é😀'.repeat(i)}`);
      const results = await Promise.all(
        texts.map((text, i) =>
          i % 2 ? call('echo', { text }) : call('search', { query: text, tag: [`t${i}`, `a,${i}`] }),
        ),
      );
      results.forEach((r, i) => {
        expect(dataOf(r)).toEqual(i % 2 ? { text: texts[i] } : { query: texts[i], tags: [`t${i}`, `a,${i}`] });
      });
    },
    T,
  );

  it(
    'an excluded or unknown tool name gets the same unknown-tool error and runs nothing',
    async () => {
      expect(tools.map((t) => t.name)).not.toContain('secret');
      const e1 = (await call('secret', {}).catch((e: unknown) => e)) as McpError;
      const e2 = (await call('no-such-tool', {}).catch((e: unknown) => e)) as McpError;
      expect(e1).toBeInstanceOf(McpError);
      expect(e1.code).toBe(e2.code);
      expect(e1.message.replace('secret', 'X')).toBe(e2.message.replace('no-such-tool', 'X'));
    },
    T,
  );
});

describe('MCP cases: tree A (tools only) on its own server', () => {
  let a: StdioConnection;
  beforeAll(async () => {
    a = await connectStdio(['mcp-server'], { MCP_CASES_VARIANT: 'tools-only', YC_DIR: dir.path });
  }, T);
  afterAll(async () => a?.close());

  it(
    'B26 (tree A): every list method answers with an empty array, never -32601',
    async () => {
      const caps = a.client.getServerCapabilities()!;
      expect(caps.tools).toBeDefined();
      expect(caps.prompts).toBeUndefined();
      expect(caps.resources).toBeUndefined();
      expect(caps.extensions).toBeUndefined(); // served with skills: false
      expect(a.client.getInstructions()).toBe(
        'Fixture server for the MCP failure cases. Tools mirror the CLI commands.',
      );
      // The SDK client refuses to send these when the capability is absent, so ask over the raw request API.
      const { ListPromptsResultSchema, ListResourcesResultSchema, ListResourceTemplatesResultSchema } =
        await import('@modelcontextprotocol/sdk/types.js');
      expect(await a.client.request({ method: 'prompts/list', params: {} }, ListPromptsResultSchema)).toEqual({
        prompts: [],
      });
      expect(await a.client.request({ method: 'resources/list', params: {} }, ListResourcesResultSchema)).toEqual({
        resources: [],
      });
      expect(
        await a.client.request({ method: 'resources/templates/list', params: {} }, ListResourceTemplatesResultSchema),
      ).toEqual({ resourceTemplates: [] });
    },
    T,
  );

  it(
    'B21: a call without a progressToken gets no progress notifications',
    async () => {
      const r = (await a.client.callTool({
        name: 'build',
        arguments: { seconds: 3, tick_ms: 100, marker: 'built-quiet' },
      })) as CallToolResult;
      expect(envelopeOf(r).data).toEqual({ built: true, marker: 'built-quiet' });
      expect(a.received.filter((m) => 'method' in m && m.method === 'notifications/progress')).toEqual([]);
    },
    T,
  );
});
