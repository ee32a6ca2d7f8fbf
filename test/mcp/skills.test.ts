/**
 * The program's skill over MCP (docs/mcp-server.md#skills): the Skills extension advertised,
 * `skills/list` and `skills/get` with each file's digest and size, the files read as `skill://`
 * resources, the texts those of `__schema --as=skill` and `--as=agents` byte for byte, and over HTTP
 * the Agent Skills well-known index. Every path × era with the real SDK clients; the wire shape of a
 * 2026-07-28 answer (resultType, cache hints) with raw requests.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectEra, MODERN, PATHS_BY_ERAS, startHttp, type HttpFixture } from '../helpers/eras.ts';
import { REPO, TSX_LOADER } from '../helpers/mcp.ts';

const CLI = join(REPO, 'cmd/tasks/main.ts');
const ANY = z.looseObject({});
const sha = (t: string) => `sha256:${createHash('sha256').update(t, 'utf8').digest('hex')}`;
const printed = (shape: string) =>
  spawnSync(process.execPath, ['--import', TSX_LOADER, CLI, '__schema', `--as=${shape}`], {
    encoding: 'utf8',
    env: { ...process.env, TASKS_FILE: join(REPO, 'node_modules/.ax-skills-test.json') },
  }).stdout;

const servers: Record<string, HttpFixture> = {};
let skillMd = '';
let agentsMd = '';
beforeAll(async () => {
  [servers.http, servers['http-stateless']] = await Promise.all([startHttp(CLI), startHttp(CLI, ['--stateless'])]);
  skillMd = printed('skill');
  agentsMd = printed('agents');
}, 60_000);
afterAll(async () => {
  await Promise.allSettled(Object.values(servers).map((s) => s.stop()));
});

/** SKILL.md's frontmatter as YAML reads it: `name` plain, `description` a double-quoted (JSON) scalar. */
function frontmatterOf(md: string): Record<string, unknown> {
  const lines = md.split('\n');
  expect(lines[0]).toBe('---');
  const end = lines.indexOf('---', 1);
  return Object.fromEntries(
    lines.slice(1, end).map((l) => {
      const [k, v] = [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)];
      return [k, v.startsWith('"') ? JSON.parse(v) : v];
    }),
  );
}

describe.each(PATHS_BY_ERAS)('the skill over %s (%s era)', (path, era) => {
  it('advertised; listed and got with true digests; read as resources; the texts __schema prints', async () => {
    const c = await connectEra(era, path, { cli: CLI, url: servers[path]?.url });
    try {
      const client = c.client as unknown as {
        getServerCapabilities(): Record<string, any>;
        request(r: object, s: unknown): Promise<Record<string, any>>;
        listResources(): Promise<Record<string, any>>;
      };
      const caps = client.getServerCapabilities();
      expect(caps.extensions?.['io.modelcontextprotocol/skills']).toEqual({});
      expect(caps.resources).toBeDefined();
      const list = await client.request({ method: 'skills/list', params: {} }, ANY);
      expect(list.skills).toHaveLength(1);
      if (era === 'legacy') expect(list).not.toHaveProperty('resultType'); // none of the 2026-07-28 vocabulary
      const [skill] = list.skills as Record<string, any>[];
      expect(skill!.uri).toBe('skill://tasks/SKILL.md');
      expect(skill!.frontmatter).toEqual(frontmatterOf(skillMd));
      expect(skill!.frontmatter.name).toBe('tasks'); // the URI's last segment is the name
      const got = await client.request({ method: 'skills/get', params: { uri: skill!.uri } }, ANY);
      expect(got.skill).toEqual(skill);
      const texts: Record<string, string> = { 'SKILL.md': skillMd, 'AGENTS.md': agentsMd };
      expect(skill!.resources.map((r: { uri: string }) => r.uri)).toEqual([
        'skill://tasks/SKILL.md',
        'skill://tasks/AGENTS.md',
      ]);
      for (const r of skill!.resources as { uri: string; digest: string; size: number }[]) {
        const read = await c.readResource(r.uri);
        const text = read.contents[0].text as string;
        expect(text).toBe(texts[r.uri.slice('skill://tasks/'.length)]);
        expect(r.digest).toBe(sha(text));
        expect(r.size).toBe(Buffer.byteLength(text));
        expect(read.contents[0].mimeType).toBe('text/markdown');
      }
      const listed = (await client.listResources()).resources as { uri: string; name: string }[];
      expect(listed.filter((r) => r.uri.startsWith('skill://')).map((r) => r.uri)).toEqual([
        'skill://tasks/SKILL.md',
        'skill://tasks/AGENTS.md',
      ]);
      // a URI that is no skill of this server, and a cursor no listing handed out: -32602, as resources/read
      for (const [method, params] of [
        ['skills/get', { uri: 'skill://other/SKILL.md' }],
        ['skills/get', { uri: 'skill://tasks/AGENTS.md' }],
        ['skills/get', {}],
        ['skills/list', { cursor: 'x' }],
      ] as const)
        await expect(client.request({ method, params }, ANY)).rejects.toMatchObject({ code: -32602 });
    } finally {
      await c.close();
    }
  }, 60_000);
});

describe('the 2026-07-28 wire', () => {
  it('skills/list and skills/get answer resultType complete with cache hints', async () => {
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
    };
    const _meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
    };
    for (const [method, params] of [
      ['skills/list', {}],
      ['skills/get', { uri: 'skill://tasks/SKILL.md' }],
    ] as const) {
      const res = await fetch(servers['http-stateless']!.url, {
        method: 'POST',
        headers: { ...headers, 'mcp-method': method },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta } }),
      });
      const text = await res.text();
      const body = JSON.parse(
        text.startsWith('{')
          ? text
          : text
              .split('\n')
              .find((l) => l.startsWith('data:'))!
              .slice(5),
      );
      expect(body.result, text).toMatchObject({
        resultType: 'complete',
        ttlMs: expect.any(Number),
        cacheScope: 'public',
      });
    }
  });
});

describe('the well-known index over HTTP', () => {
  it('index.json (format 0.2.0) and the files it names, with GET and HEAD; 404 for anything else', async () => {
    const base = new URL('/.well-known/agent-skills/', servers.http!.url).toString();
    const res = await fetch(`${base}index.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const index = (await res.json()) as { version: string; skills: Record<string, any>[] };
    expect(index.version).toBe('0.2.0');
    expect(index.skills).toHaveLength(1);
    const s = index.skills[0]!;
    expect(s.name).toBe('tasks');
    expect(s.description).toBe(frontmatterOf(skillMd).description);
    expect(s.files).toEqual([
      { path: 'SKILL.md', digest: sha(skillMd) },
      { path: 'AGENTS.md', digest: sha(agentsMd) },
    ]);
    // the skill-level digest: sorted paths, `path\0hex\n` lines, SHA-256 of the lot
    const manifest = [...s.files]
      .sort((a, b) => (a.path < b.path ? -1 : 1))
      .map((f: { path: string; digest: string }) => `${f.path}\0${f.digest.slice(7)}\n`)
      .join('');
    expect(s.digest).toBe(sha(manifest));
    for (const [file, text] of [
      ['SKILL.md', skillMd],
      ['AGENTS.md', agentsMd],
    ]) {
      const r = await fetch(`${base}tasks/${file}`);
      expect(r.headers.get('content-type')).toMatch(/^text\/markdown/);
      expect(await r.text()).toBe(text);
      const head = await fetch(`${base}tasks/${file}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
    }
    for (const miss of ['other/SKILL.md', 'tasks/', 'index.json/x', 'TASKS/SKILL.md'])
      expect((await fetch(`${base}${miss}`)).status, miss).toBe(404);
    // a path fetch would normalise, sent as is
    const { pathname, port } = new URL(base);
    for (const raw of ['tasks/../tasks/SKILL.md', 'tasks/%2e%2e/tasks/SKILL.md', 'tasks//SKILL.md'])
      expect(
        await new Promise((resolve, reject) =>
          httpGet(
            { host: '127.0.0.1', port, path: `${pathname}${raw}` },
            (r) => (r.resume(), resolve(r.statusCode)),
          ).on('error', reject),
        ),
        raw,
      ).toBe(404);
    expect((await fetch(`${base}index.json`, { method: 'POST' })).status).toBe(404);
  });
});
