/**
 * A yargs program through ax-ts/yargs: the same call gives the same data, error and exit code on
 * every path — a json-mode command line, `--args-json`, and MCP over stdio, HTTP and stateless HTTP
 * with both eras' SDK clients — since every path becomes the argv yargs itself parses
 * (docs/frontends.md#how-a-call-runs). tools/list carries the declarations on every MCP path.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEra, PATHS_BY_ERAS, startHttp, type EraClient, type HttpFixture } from '../helpers/eras.ts';
import { REPO, TSX_LOADER } from '../helpers/mcp.ts';

const CLI = join(REPO, 'test/frontends/fixtures/bm-yargs.ts');
const ENV = { BOOKMARKS_AX: '1' };

type Json = Record<string, any>;

/** What a call gave, the same shape on every path. */
interface Outcome {
  code: number;
  /** `data` of the success envelope. */
  data?: unknown;
  /** The error's kind and reason. */
  error?: { kind: string; reason?: string };
  /** What the handler printed. */
  printed: string;
}

/** One call: its tool, argv and arguments, and the outcome every path must give. */
interface Case {
  label: string;
  tool: string;
  argv: string[];
  json: Json;
  want: Outcome;
}

const CASES: Case[] = [
  {
    label: 'positionals, a choice, a negated boolean, a count and the middleware',
    tool: 'link_add',
    argv: ['link', 'add', 'https://a.example', 'x', 'y', '-t', 'A', '--kind', 'pdf', '--no-pin', '-vv'],
    json: { url: 'https://a.example', tags: ['x', 'y'], title: 'A', kind: 'pdf', pin: false, verbose: 2 },
    want: {
      code: 0,
      data: {
        url: 'https://a.example',
        title: 'A',
        tags: ['x', 'y'],
        kind: 'pdf',
        rating: null,
        pinned: false,
        store: '/stores/main',
        verbose: 2,
      },
      printed: '',
    },
  },
  {
    label: 'a coerced number that passes',
    tool: 'link_add',
    argv: ['link', 'add', 'u', '-t', 'A', '--rating', '4', '--store', 'work'],
    json: { url: 'u', title: 'A', rating: 4, store: 'work' },
    want: {
      code: 0,
      data: {
        url: 'u',
        title: 'A',
        tags: [],
        kind: 'web',
        rating: 4,
        pinned: true,
        store: '/stores/work',
        verbose: 0,
      },
      printed: '',
    },
  },
  {
    label: 'a coerce that throws',
    tool: 'link_add',
    argv: ['link', 'add', 'u', '-t', 'A', '--rating', '9'],
    json: { url: 'u', title: 'A', rating: 9 },
    want: { code: 2, error: { kind: 'validation_error', reason: 'invalid_argument' }, printed: '' },
  },
  {
    label: 'a demanded option left out (yargs’ own validation)',
    tool: 'link_add',
    argv: ['link', 'add', 'u'],
    json: { url: 'u' },
    want: { code: 2, error: { kind: 'validation_error', reason: 'invalid_argument' }, printed: '' },
  },
  {
    label: 'an array option; a handler that prints',
    tool: 'link_list',
    argv: ['link', 'list', '--tag', 'web', '--tag', 'demo'],
    json: { tag: ['web', 'demo'] },
    want: { code: 0, data: null, printed: '- Example <https://example.com>\n' },
  },
  {
    label: 'an async handler',
    tool: 'link_rm',
    argv: ['link', 'rm', 'https://a.example'],
    json: { url: 'https://a.example' },
    want: { code: 0, data: { removed: 'https://a.example', store: '/stores/main' }, printed: '' },
  },
];

/** How a json-mode process is asked: `AGENT_MODE=json` with argv or `--args-json`, or `--args-json` alone on a pipe. */
type Spelling = 'cli' | 'args-json' | 'args-json on a pipe';

/** A json-mode process: argv (`cli`) or the command words and `--args-json`. */
function processCall(spelling: Spelling, c: Case): Outcome {
  const argv = spelling === 'cli' ? c.argv : [...c.tool.split('_'), '--args-json', JSON.stringify(c.json)];
  // on a pipe with no AGENT_MODE, --args-json alone makes the call a machine's (json), as on a native tree
  const mode = spelling === 'args-json on a pipe' ? {} : { AGENT_MODE: 'json' };
  const r = spawnSync(process.execPath, ['--import', TSX_LOADER, CLI, ...argv], {
    cwd: REPO,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...ENV, ...mode },
  });
  if (r.status === 0) return { code: 0, data: (JSON.parse(r.stdout) as Json).data, printed: r.stderr };
  const lines = r.stderr.trimEnd().split('\n');
  const error = (JSON.parse(lines.pop()!) as Json).error as Json;
  return { code: r.status ?? -1, error: { kind: error.kind, reason: error.context?.reason }, printed: '' };
}

/**
 * An MCP tools/call result as an outcome: `content[0].text` is the envelope alone, what the handler
 * printed the next text item (docs/mcp-server.md#printed-output).
 */
function fromTool(result: Json): Outcome {
  const items = result.content as { text?: string }[];
  const envelope = JSON.parse(items[0]!.text!) as Json;
  if (result.isError) {
    const error = envelope.error as Json;
    return { code: error.exit_code, error: { kind: error.kind, reason: error.context?.reason }, printed: '' };
  }
  return { code: 0, data: envelope.data, printed: items[1]?.text ?? '' };
}

describe.each(['cli', 'args-json', 'args-json on a pipe'] as const)('a json-mode process (%s)', (spelling) => {
  it.each(CASES)('$label', (c) => {
    expect(processCall(spelling, c)).toEqual(c.want);
  });
});

describe.each(PATHS_BY_ERAS)('MCP over %s, a %s client', (path, era) => {
  let server: HttpFixture | undefined;
  let client: EraClient;
  beforeAll(async () => {
    if (path !== 'stdio') server = await startHttp(CLI, path === 'http-stateless' ? ['--stateless'] : [], ENV);
    client = await connectEra(era, path, { cli: CLI, url: server?.url, env: ENV });
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it('tools/list: every command of the nested builders; the withheld and hidden one left out; declared effects as annotations', async () => {
    const tools = (await client.listTools()).tools as { name: string; annotations?: Json }[];
    expect(tools.map((t) => t.name).sort()).toEqual(['link_add', 'link_list', 'link_rm', 'serve']);
    expect(tools.find((t) => t.name === 'link_list')!.annotations).toMatchObject({ readOnlyHint: true });
  });

  it.each(CASES)('$label', async (c) => {
    expect(fromTool(await client.callTool(c.tool, c.json))).toEqual(c.want);
  });
});
