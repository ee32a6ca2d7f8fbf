// A secret flag's value leaks through no channel (docs/security.md#secret-flags): a distinctive
// secret is planted in every way a run takes one (env, @file, stdin, MCP argument) and through every
// outcome (success, a failure that quotes it, a recorded and a replayed failure, a stop with next
// steps, a dry run, --explain, help, __schema), then stdout, stderr, the AX_OTEL_DEBUG span lines,
// the state directory's files and the MCP results are searched for it. The positive controls run the
// same collectors over calls that do carry the planted text through a flag that is not secret: each
// channel must show it, so a collector that sees nothing cannot pass the test.
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_CLI } from '../helpers/contract-rules.ts';
import { minimalEnv, stdioPath, type Outcome, type Path } from '../helpers/paths.ts';
import { runScript, type ProcessRun } from '../helpers/spawn.ts';
import { runCli as runCliTree } from '../helpers/run.ts';
import { Command } from '../../lib/index.ts';
import { mountMcpServer } from '../../mcp/index.ts';

type Json = Record<string, any>;
const SECRET = 'AXSECRET-7f3a9c-planted';
const dir = mkdtempSync(join(tmpdir(), 'ax-secrets-'));
const STATE = join(dir, 'state');
const LOG = join(dir, 'effects.log');
const FILE = join(dir, 'token');
writeFileSync(FILE, `${SECRET}\n`, { mode: 0o600 });
const ENV = { ...minimalEnv(), XDG_STATE_HOME: STATE, CONTRACT_LOG: LOG, AX_OTEL_DEBUG: '1' };

type Run = ProcessRun;

function cli(args: string[], opts: { env?: Record<string, string>; input?: string } = {}): Promise<Run> {
  return runScript(CONTRACT_CLI, args, { ...ENV, ...opts.env }, opts.input);
}

/** Every file under `root`, as text. */
function filesUnder(root: string): string[] {
  let out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  for (const n of names) {
    const p = join(root, n);
    out = statSync(p).isDirectory() ? [...out, ...filesUnder(p)] : [...out, readFileSync(p, 'utf8')];
  }
  return out;
}

/** The channels of a set of runs, each as one text, to search. */
function channels(runs: Run[], mcp: Outcome[], serverStderr: string): Record<string, string> {
  const stderr = runs.map((r) => r.stderr).join('\n');
  const spans = [...stderr.split('\n'), ...serverStderr.split('\n')].filter((l) => l.startsWith('{"span":'));
  expect(spans.length, 'AX_OTEL_DEBUG wrote span lines').toBeGreaterThan(0);
  return {
    stdout: runs.map((r) => r.stdout).join('\n'),
    stderr,
    spans: spans.join('\n'),
    state: filesUnder(STATE).join('\n'),
    log: filesUnder(dir)
      .filter((t) => t !== `${SECRET}\n`)
      .join('\n'),
    mcp: JSON.stringify(mcp),
    server_stderr: serverStderr,
  };
}

let mcp: Path & { conn: { stderr(): string } };
beforeAll(async () => {
  mcp = await stdioPath(CONTRACT_CLI, ENV);
}, 60_000);
afterAll(async () => {
  await mcp?.close();
});

describe('a secret flag', () => {
  it('leaks through no channel: stdout, stderr, span lines, state files, logs, MCP results', async () => {
    const viaEnv = { env: { CONTRACT_TOKEN: SECRET } };
    const runs: Run[] = [
      await cli(['secret', 'ok-env', '--idempotency-key', 'k-ok'], viaEnv),
      await cli(['secret', 'ok-file', '--token', `@${FILE}`, '--format', 'json']),
      await cli(['secret', 'ok-stdin', '--token', '-', '--format', 'json'], { input: `${SECRET}\n` }),
      await cli(['secret', 'fail-recorded', '--idempotency-key', 'k-fail'], viaEnv),
      await cli(['secret', 'fail-recorded', '--idempotency-key', 'k-fail'], viaEnv),
      await cli(['secret', 'fail-human', '--format', 'text'], viaEnv),
      await cli(['secret', 'fail-debug', '--format', 'json'], { env: { CONTRACT_TOKEN: SECRET, AX_DEBUG: '1' } }),
      await cli(['secret', 'ok-dry', '--dry-run', '--format', 'json'], viaEnv),
      await cli(['secret', 'confirm-me', '--token', `@${FILE}`, '--format', 'json']),
      await cli(['secret', 'ok-explain', '--explain', 'token', '--format', 'json'], viaEnv),
      await cli(['secret', 'ok-argv', '--token', SECRET, '--format', 'json']),
      await cli(['secret', 'ok-argv', `--token=${SECRET}`, '--format', 'text']),
      await cli(['secret', '--args-json', JSON.stringify({ name: 'ok-json', token: SECRET }), '--format', 'json']),
      await cli(['secret', '--help'], viaEnv),
      await cli(['__schema', 'secret'], viaEnv),
    ];
    const codes = runs.map((r) => r.code);
    expect(codes, JSON.stringify(runs.map((r) => r.stderr.slice(-400)))).toEqual([
      0, 0, 0, 4, 4, 4, 4, 0, 2, 0, 2, 2, 2, 0, 0,
    ]);
    // the run used the secret: its length, from each source
    for (const i of [0, 1, 2]) expect(JSON.parse(runs[i]!.stdout).data.token_length).toBe(SECRET.length);
    expect(JSON.parse(runs[4]!.stderr.trimEnd().split('\n').pop()!).meta.replayed).toBe(true);
    for (const i of [10, 11, 12]) expect(runs[i]!.stderr).toMatch(/secret_on_argv|is a secret/);
    const results: Outcome[] = [
      await mcp.call({ tool: 'secret', argv: [], json: { name: 'm-ok', token: SECRET, idempotency_key: 'm-k' } }),
      await mcp.call({ tool: 'secret', argv: [], json: { name: 'm-ok', token: SECRET, idempotency_key: 'm-k' } }),
      await mcp.call({ tool: 'secret', argv: [], json: { name: 'fail-m', token: SECRET } }),
      await mcp.call({ tool: 'secret', argv: [], json: { name: 'confirm-m', token: SECRET } }),
      await mcp.call({ tool: 'secret', argv: [], json: { name: 'm-dry', token: SECRET, dry_run: true } }),
    ];
    expect(results.map((r) => r.code)).toEqual([0, 0, 4, 2, 0]);
    expect(JSON.parse(results[0]!.stdout).data.token_length).toBe(SECRET.length);
    // the stop's next step names the secret's property with a placeholder, never the value
    const next = results[3]!.error!.error.next as Json[];
    expect(next[0]!.arguments).toMatchObject({ name: 'confirm-m', token: '<token>' });
    const found = Object.entries(channels(runs, results, mcp.conn.stderr())).filter(([, text]) =>
      text.includes(SECRET),
    );
    expect(found.map(([name]) => name)).toEqual([]);
  }, 120_000);

  it('positive control: the same collectors see the planted text when a flag that is not secret carries it', async () => {
    const runs: Run[] = [
      // stdout: data; stderr and span lines: an error quoting it; state: a recorded outcome
      await cli(['echo', '--obj', JSON.stringify({ leak: SECRET }), '--format', 'json']),
      await cli(['gone', SECRET, '--idempotency-key', 'k-control', '--format', 'json']),
    ];
    const results = [await mcp.call({ tool: 'echo', argv: [], json: { obj: JSON.stringify({ leak: SECRET }) } })];
    const seen = channels(runs, results, '');
    for (const ch of ['stdout', 'stderr', 'spans', 'state', 'mcp'])
      expect(seen[ch], `${ch} shows the planted text`).toContain(SECRET);
  }, 60_000);

  it('its MCP property is marked for masking (writeOnly, format password) and says it is never echoed', async () => {
    const schema = await mcp.inputSchema!('secret');
    expect(schema.properties.token).toMatchObject({ format: 'password', writeOnly: true });
    expect(schema.properties.token.description).toContain('secret');
  });
});

/** A program whose root has a persistent secret flag (`--api-token`) and one command that reports its length. */
function persistentSecretTree(): Command {
  const root = new Command({
    use: 'sfx',
    persistentFlags: { 'api-token': { type: 'string', secret: true, env: 'SFX_TOKEN', usage: 'the API token' } },
  });
  root.addCommand(
    new Command({
      use: 'whoami',
      effects: 'read_only',
      run: (ctx) => ({ length: String(ctx.flags.apiToken ?? '').length }),
    }),
  );
  mountMcpServer(root);
  return root;
}

/** A program whose one command `use` takes a secret `--key` on argv (secretArgv) and throws quoting it. */
function argvSecretTree(name: string): Command {
  const root = new Command({ use: name });
  root.addCommand(
    new Command({
      use: 'use',
      flags: { key: { type: 'string', secret: true, secretArgv: true } },
      run: (ctx) => {
        throw new Error(`bad key ${String(ctx.flags.key)}`);
      },
    }),
  );
  return root;
}

describe('a persistent secret flag', () => {
  it('is not written into a client config by mcp-server --print-config (the started server reads it from env)', async () => {
    const r = await runCliTree(persistentSecretTree(), [
      '--api-token',
      `@${FILE}`,
      'mcp-server',
      '--print-config',
      '--format',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(SECRET);
    expect(r.stdout).not.toContain('api-token');
    // the positive control: the same command line without the secret mark carries the flag
    const plain = persistentSecretTree();
    const spec = plain.persistentFlags['api-token']!;
    delete spec.secret;
    const shown = await runCliTree(plain, ['--api-token', SECRET, 'mcp-server', '--print-config', '--format', 'json']);
    expect(shown.stdout).toContain(SECRET);
  });

  it('reads @file and stdin on every command below it; a plain value is refused before the command runs', async () => {
    const tree = persistentSecretTree;
    const fromFile = await runCliTree(tree(), ['whoami', '--api-token', `@${FILE}`, '--format', 'json']);
    expect(JSON.parse(fromFile.stdout).data).toEqual({ length: SECRET.length });
    const fromStdin = await runCliTree(tree(), ['whoami', '--api-token', '-', '--format', 'json'], {
      stdin: `${SECRET}\r\n`,
    });
    expect(JSON.parse(fromStdin.stdout).data).toEqual({ length: SECRET.length });
    const refused = await runCliTree(tree(), ['whoami', `--api-token=${SECRET}`, '--format', 'json']);
    expect(refused.code).toBe(2);
    expect(refused.stdout + refused.stderr).not.toContain(SECRET);
    expect(JSON.parse(refused.stderr).error.context).toEqual({
      reason: 'secret_on_argv',
      flag: '--api-token',
      env: 'SFX_TOKEN',
    });
    const empty = await runCliTree(tree(), ['whoami', '--api-token', '-', '--format', 'json'], { stdin: '\n' });
    expect(JSON.parse(empty.stderr).error.context.reason).toBe('secret_empty');
    // over 64 KiB on stdin is refused as a file of that size is, never cut to a shorter secret
    const big = await runCliTree(tree(), ['whoami', '--api-token', '-', '--format', 'json'], {
      stdin: 'a'.repeat(64 * 1024 + 1),
    });
    expect(big.code, big.stdout).toBe(2);
    expect(JSON.parse(big.stderr).error.context).toMatchObject({ reason: 'secret_unreadable', source: 'stdin' });
    // mcp-server's stdin is the client's JSON-RPC: `-` is refused at once, never read as the secret
    const served = await runCliTree(tree(), ['mcp-server', '--api-token', '-', '--format', 'json'], {
      stdin: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\n',
    });
    expect(served.code, served.stderr).toBe(2);
    expect(JSON.parse(served.stderr.trimEnd().split('\n').pop()!).error.context).toMatchObject({
      reason: 'secret_unreadable',
      source: 'stdin',
    });
  });

  it('secretArgv: true accepts the value on argv, still redacted from errors', async () => {
    const r = await runCliTree(argvSecretTree('afx'), ['use', '--key', SECRET, '--format', 'json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr).error.message).toContain('bad key [redacted]');
    expect(r.stderr).not.toContain(SECRET);
  });

  it("a paged command's next page (meta.next, the human footer) holds a placeholder for an argv secret, however its shorthand is spelled", async () => {
    const tree = (secret: boolean) => {
      const root = new Command({ use: 'pgx' });
      root.addCommand(
        new Command({
          use: 'list',
          effects: 'read_only',
          flags: {
            key: { type: 'string', short: 'k', ...(secret ? { secret: true, secretArgv: true } : {}) },
            verbose: { type: 'bool', short: 'v' },
          },
          output: { paging: { defaultLimit: 1 } },
          run: () => ['a', 'b'],
        }),
      );
      return root;
    };
    const spellings = [
      ['-k', SECRET],
      [`-k${SECRET}`],
      [`-k=${SECRET}`],
      ['-vk', SECRET],
      [`-vk${SECRET}`],
      [`-vk=${SECRET}`],
    ];
    for (const words of spellings) {
      const json = await runCliTree(tree(true), ['list', ...words, '--format', 'json']);
      expect(json.code, json.stderr).toBe(0);
      const step = JSON.parse(json.stdout).meta.next[0];
      expect(json.stdout, words.join(' ')).not.toContain(SECRET);
      expect(step.argv.join(' '), words.join(' ')).toContain('<key>');
      const text = await runCliTree(tree(true), ['list', ...words, '--format', 'text']);
      expect(text.stderr, words.join(' ')).toContain('next page: pgx list');
      expect(text.stderr, words.join(' ')).not.toContain(SECRET);
      // the control: the same words on a flag that is not secret are repeated, so the checks above can fail
      const plain = await runCliTree(tree(false), ['list', ...words, '--format', 'json']);
      expect(plain.stdout, words.join(' ')).toContain(SECRET);
    }
  });

  it("a next step replaces only the words the parse reads as the secret's value: a flag's value spelled like the secret flag, and the positional after it, are kept", async () => {
    const root = new Command({ use: 'pgx' });
    root.addCommand(
      new Command({
        use: 'list [word]',
        effects: 'read_only',
        flags: {
          key: { type: 'string', short: 'k', secret: true, secretArgv: true },
          note: { type: 'string', short: 'n' },
        },
        output: { paging: { defaultLimit: 1 } },
        run: () => ['a', 'b'],
      }),
    );
    for (const [words, kept] of [
      [
        ['--note', '--key', 'plain'],
        ['--note', '--key', 'plain'],
      ],
      [
        ['-n', '-k', 'plain'],
        ['-n', '-k', 'plain'],
      ],
      [
        ['--note=x', '--key', SECRET, 'plain'],
        ['--note=x', '--key', '<key>', 'plain'],
      ],
    ] as const) {
      const r = await runCliTree(root, ['list', ...words, '--format', 'json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toContain(SECRET);
      expect(JSON.parse(r.stdout).meta.next[0].argv.slice(2, 2 + kept.length), words.join(' ')).toEqual(kept);
    }
  });

  it('a declaration that would show the value is refused: a default, choices, examples, a non-string type', () => {
    const bad: Record<string, unknown>[] = [
      { type: 'string', secret: true, default: 'x' },
      { type: 'string', secret: true, choices: ['a'] },
      { type: 'string', secret: true, examples: ['a'] },
      { type: 'int', secret: true },
      { type: 'string', secretArgv: true },
    ];
    for (const spec of bad)
      expect(() => new Command({ use: 'x', flags: { t: spec as never }, run: () => 1 }), JSON.stringify(spec)).toThrow(
        TypeError,
      );
  });
});

describe('an odd secret', () => {
  it("keeps the error line's field names and kind, and a replay's bytes, when it is one letter", async () => {
    const short = { env: { CONTRACT_TOKEN: 'e' } };
    const first = await cli(['secret', 'fail-short', '--idempotency-key', 'k-short'], short);
    const again = await cli(['secret', 'fail-short', '--idempotency-key', 'k-short'], short);
    const line = (r: Run) => JSON.parse(r.stderr.trimEnd().split('\n').pop()!) as Json;
    for (const r of [first, again]) {
      expect(r.code, r.stderr).toBe(4);
      expect(Object.keys(line(r).error)).toEqual(expect.arrayContaining(['kind', 'message', 'exit_code', 'retryable']));
      expect(line(r).error.kind).toBe('auth_error');
      expect(r.stderr).not.toContain('[r[redacted]');
    }
    expect(line(again).meta.replayed).toBe(true);
    expect(line(again).error).toEqual(line(first).error);
  });

  it('is redacted from the error line, the span line and the human lines when it holds a quote or a backslash', async () => {
    const odd = 'pa"ss\\wd-AXSECRET';
    const root = argvSecretTree('qfx');
    for (const format of ['json', 'text']) {
      const r = await runCliTree(root, ['use', '--key', odd, '--format', format], { env: { AX_OTEL_DEBUG: '1' } });
      expect(r.code).toBe(1);
      expect(r.stderr, format).toContain('bad key [redacted]');
      // neither the value nor its JSON-escaped form (pa\"ss\\wd) shows
      expect(r.stderr, format).not.toContain('ss\\');
      expect(r.stderr, format).not.toContain('pa"');
    }
  });
});
