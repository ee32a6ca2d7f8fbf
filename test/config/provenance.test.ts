/**
 * Where each value came from (docs/config.md, part 4): flags with an env var and a config key resolve in
 * one order — flag > env > config > default — on every path (in-process execute, the real CLI,
 * --args-json, MCP over stdio with the SDK client); --explain <flag> says which source won and what
 * it beat without running the command; json envelopes carry meta.provenance; __schema lists the
 * sources; bad env or config values are structured errors (exit 2).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { connectStdio } from '../helpers/mcp.ts';
import { runScript } from '../helpers/spawn.ts';
import { runCli } from '../helpers/run.ts';
import { buildSourcesCli } from '../fixtures/sources-cli.ts';

const CLI = fileURLToPath(new URL('../fixtures/sources-cli.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ax-sources-'));
let n = 0;
function config(text: string): string {
  const p = join(dir, `c${n++}.jsonc`);
  writeFileSync(p, text);
  return p;
}
const CFG = config(
  '{\n  // page size from the file\n  "limit": 10,\n  "cloud": { "region": "from-config" },\n  "tags": ["a", "b"],\n}\n',
);

describe('flag > env > config > default (in-process execute)', () => {
  it.each([
    ['default only', [], {}, { limit: 50, source: 'default', beat: [] }],
    ['config beats default', [], { SRC_CONFIG: CFG }, { limit: 10, source: 'config', beat: ['default'] }],
    [
      'env beats config and default',
      [],
      { SRC_CONFIG: CFG, SRC_LIMIT: '20' },
      { limit: 20, source: 'env', beat: ['config', 'default'] },
    ],
    [
      'flag beats env, config and default',
      ['--limit', '30'],
      { SRC_CONFIG: CFG, SRC_LIMIT: '20' },
      { limit: 30, source: 'flag', beat: ['env', 'config', 'default'] },
    ],
    [
      'an empty env var is unset',
      [],
      { SRC_CONFIG: CFG, SRC_LIMIT: '' },
      { limit: 10, source: 'config', beat: ['default'] },
    ],
    [
      'a missing config file supplies nothing',
      [],
      { SRC_CONFIG: join(dir, 'absent.jsonc') },
      { limit: 50, source: 'default', beat: [] },
    ],
  ])('%s', async (_name, args, env: Record<string, string>, want) => {
    const r = await runCli(buildSourcesCli(), ['show', '--region', 'r', ...args], { env });
    expect(r.code, r.stderr).toBe(0);
    const { data, meta } = JSON.parse(r.stdout);
    expect(data.limit).toBe(want.limit);
    expect(data.limitChanged).toBe(want.source === 'flag'); // pflag's Changed: given on the command line only
    expect(meta.provenance['--limit']).toEqual({
      source: want.source,
      env: 'SRC_LIMIT',
      config: { key: 'limit', file: env.SRC_CONFIG ?? null },
      beat: want.beat,
    });
  });

  it('typed values: env text is read as flag text, config values as JSON; a required flag is satisfied by config', async () => {
    const r = await runCli(buildSourcesCli(), ['show'], { env: { SRC_CONFIG: CFG, SRC_VERBOSE: 'true' } });
    expect(r.code, r.stderr).toBe(0);
    const { data, meta } = JSON.parse(r.stdout);
    expect(data).toMatchObject({ region: 'from-config', verbose: true, tags: ['a', 'b'] });
    expect(meta.provenance['--region']).toMatchObject({ source: 'config' });
    expect(meta.provenance['--verbose']).toEqual({ source: 'env', env: 'SRC_VERBOSE', beat: [] });
    // every flag of the author's is there, the source-less ones too (given, or their default)
    expect(meta.provenance['--plain']).toEqual({ source: 'default', beat: [] });
    expect(Object.keys(meta.provenance)).not.toContain('--format'); // the injected ones are the caller's own words
    const missing = await runCli(buildSourcesCli(), ['show']);
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stderr.trim().split('\n').at(-1)!).error.context.reason).toBe('missing_required_flag');
  });

  it.each([
    ['a bad env value', { SRC_LIMIT: 'ten' }, 'validation_error', 'invalid_env_value'],
    ['a config value of the wrong type', { SRC_CONFIG: config('{"limit": "ten"}') }, 'config_invalid', 'wrong_type'],
    ['an invalid config file', { SRC_CONFIG: config('{"limit": 1,,}') }, 'config_invalid', undefined],
  ])('%s is a structured error, exit 2, the handler not run', async (_n, env, kind, reason) => {
    const r = await runCli(buildSourcesCli(), ['show', '--region', 'r'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('ran\n');
    const { error } = JSON.parse(r.stderr.trim().split('\n').at(-1)!);
    expect(error.kind).toBe(kind);
    if (reason) expect(error.context.reason).toBe(reason);
    // the value is never echoed (an environment variable or a config key may hold a secret)
    expect(r.stderr).not.toContain('ten');
  });
});

describe('--explain <flag>', () => {
  it('human: which source won and what it beat; the command does not run', async () => {
    const r = await runCli(buildSourcesCli(), ['show', '--explain', 'limit', '--format', 'text'], {
      env: { SRC_CONFIG: CFG, SRC_LIMIT: '20' },
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      `--limit: from env SRC_LIMIT; beat config key "limit" in ${CFG}, default\n  order: flag > env > config > default (declared: env SRC_LIMIT, config key "limit" in ${CFG})\n`,
    );
  });

  it('json: an envelope with the one flag as data and every flag in meta.provenance; -l and --limit name it too', async () => {
    for (const asked of ['limit', '--limit', '-l']) {
      const r = await runCli(buildSourcesCli(), ['show', `--explain=${asked}`, '--limit', '5'], {
        env: { SRC_CONFIG: CFG },
      });
      expect(r.code, r.stderr).toBe(0);
      const { data, meta } = JSON.parse(r.stdout);
      expect(data).toEqual({
        flag: '--limit',
        source: 'flag',
        env: 'SRC_LIMIT',
        config: { key: 'limit', file: CFG },
        beat: ['config', 'default'],
      });
      // --explain's envelope gives every flag of the command, the injected ones too
      expect(meta.provenance['--plain']).toEqual({ source: 'default', beat: [] });
      expect(meta.provenance['--format']).toEqual({ source: 'default', beat: [] });
      expect(Object.keys(meta.provenance)).toEqual(
        expect.arrayContaining(['--limit', '--region', '--tags', '--verbose']),
      );
    }
  });

  it('an unknown flag is a validation error with suggestions (exit 2); a source-less one is explained', async () => {
    const r = await runCli(buildSourcesCli(), ['show', '--explain', 'limt']);
    expect(r.code).toBe(2);
    const { error } = JSON.parse(r.stderr.trim().split('\n').at(-1)!);
    expect(error.context.reason).toBe('unknown_flag');
    expect(error.suggestions).toEqual(['--limit']);
    const plain = await runCli(buildSourcesCli(), ['show', '--explain', 'plain', '--plain', 'x', '--format', 'text']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toBe('--plain: from the flag --plain\n  order: flag > env > config > default\n');
    const dflt = await runCli(buildSourcesCli(), ['show', '--explain', 'dry-run']);
    expect(JSON.parse(dflt.stdout).data).toEqual({ flag: '--dry-run', source: 'default', beat: [] });
  });

  it('is injected on every command (a global flag), listed in --help, and never an MCP input', async () => {
    const help = await runCli(buildSourcesCli(), ['show', '--help']);
    expect(help.stdout).toMatch(/--explain string +print where a flag's value came from/);
    expect(help.stdout).toMatch(/-l, --limit int +page size \(default 50\) \(env SRC_LIMIT, config limit\)\n/);
    expect(help.stdout).toMatch(
      /--region string +cloud region \(required\) \(env SRC_REGION, config cloud\.region\)\n/,
    );
    expect(help.stdout).toMatch(/--plain string +no sources\n/);
    const plain = await runCli(buildSourcesCli(), ['--help']);
    expect(plain.stdout).toContain('--explain');
    const ax = JSON.parse((await runCli(buildSourcesCli(), ['__schema', '--as=ax', '--full'])).stdout);
    const doc = ax.data ?? ax;
    const show = (doc.command.commands as any[]).find((c) => c.name === 'show');
    const flags = Object.fromEntries((show.flags as any[]).map((f) => [f.name, f]));
    expect(flags.limit).toMatchObject({ env: 'SRC_LIMIT', config_key: 'limit' });
    expect(flags.tags).toMatchObject({ config_key: 'tags' });
    expect(flags.tags.env).toBeUndefined();
    expect(flags.plain.env).toBeUndefined();
    const mcp = JSON.parse((await runCli(buildSourcesCli(), ['__schema', '--as=mcp', '--full'])).stdout);
    const tool = ((mcp.data ?? mcp).tools as any[]).find((t) => t.name === 'show');
    expect(Object.keys(tool.inputSchema.properties)).not.toContain('explain');
  });
});

describe('the same order on the other paths', () => {
  it('the real CLI and --args-json (properties: source "argument", keys by property name)', async () => {
    const env = { PATH: process.env.PATH ?? '', SRC_CONFIG: CFG, SRC_LIMIT: '20' };
    const cli = await runScript(CLI, ['show', '--region', 'r'], env);
    expect(JSON.parse(cli.stdout).meta.provenance['--limit']).toMatchObject({ source: 'env' });
    const aj = await runScript(CLI, ['show', '--args-json', '{"region":"r","limit":3}'], env);
    const { data, meta } = JSON.parse(aj.stdout);
    expect(data.limit).toBe(3);
    expect(meta.provenance.limit).toMatchObject({ source: 'argument', beat: ['env', 'config', 'default'] });
    const viaEnv = await runScript(CLI, ['show', '--args-json', '{"region":"r"}'], env);
    expect(JSON.parse(viaEnv.stdout).data.limit).toBe(20);
  }, 60_000);

  it('MCP stdio: arguments beat the server env and config; absent arguments fall back to them', async () => {
    const c = await connectStdio(['mcp-server'], { SRC_CONFIG: CFG, SRC_LIMIT: '20' }, CLI);
    try {
      const given = (await c.client.callTool({ name: 'show', arguments: { limit: 4 } })) as {
        content: { text: string }[];
      };
      const a = JSON.parse(given.content[0]!.text);
      expect(a.data).toMatchObject({ limit: 4, region: 'from-config' });
      expect(a.meta.provenance.limit).toMatchObject({ source: 'argument', beat: ['env', 'config', 'default'] });
      const absent = (await c.client.callTool({ name: 'show', arguments: {} })) as { content: { text: string }[] };
      const b = JSON.parse(absent.content[0]!.text);
      expect(b.data.limit).toBe(20);
      expect(b.meta.provenance.limit.source).toBe('env');
    } finally {
      await c.close();
    }
  }, 60_000);

  it("MCP stdio: the server's env or config value of the wrong type never reaches the client", async () => {
    const envs: Record<string, string>[] = [
      { SRC_LIMIT: 's3cret-ten' },
      { SRC_CONFIG: config('{"limit": "s3cret-ten"}') },
    ];
    for (const env of envs) {
      const c = await connectStdio(['mcp-server'], env, CLI);
      try {
        const r = (await c.client.callTool({ name: 'show', arguments: { region: 'r' } })) as {
          isError?: boolean;
          content: { text: string }[];
        };
        expect(r.isError).toBe(true);
        expect(JSON.parse(r.content[0]!.text).error.exit_code).toBe(2);
        expect(JSON.stringify(r)).not.toContain('s3cret');
      } finally {
        await c.close();
      }
    }
  }, 60_000);
});
