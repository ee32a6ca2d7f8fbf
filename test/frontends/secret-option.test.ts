/**
 * A front end's secret option (`secrets` in withAx's `commands`, `ax(cmd).secret(…)`, a wrap
 * declarations file; docs/frontends.md#what-does-not-map): its MCP property is marked `writeOnly`,
 * `format: "password"`; its value is redacted in the error line on the command line and over MCP,
 * in the idempotency record, and in the span; a declared option the command lacks is refused, and so
 * is one with a default or choices (as a native secret flag is), on every front end.
 * Through the public entries: the program as a process, and a real SDK client over stdio.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectEra } from '../helpers/eras.ts';
import { REPO, TSX_LOADER } from '../helpers/mcp.ts';
import { runScript } from '../helpers/spawn.ts';

const CLI = join(REPO, 'test/frontends/fixtures/secret-commander.ts');
const dir = mkdtempSync(join(tmpdir(), 'ax-fe-secret-'));
const SECRET = `tok-${process.pid}-s3cr3t`;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every file's text under `root`, joined. */
function allText(root: string): string {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((f) => join(root, f))
    .filter((p) => statSync(p).isFile())
    .map((p) => readFileSync(p, 'utf8'))
    .join('\n');
}

describe('a commander option declared secret', () => {
  it('the command line: the action works with the value; its failure, its record and its span hold no trace of it', async () => {
    const state = join(dir, 'state');
    const env = { AGENT_MODE: 'json', XDG_STATE_HOME: state, AX_OTEL_DEBUG: '1' };
    const ok = await runScript(CLI, ['login', '--user', 'ann', '--token', SECRET], env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).data).toEqual({ user: 'ann', token_length: SECRET.length });
    const failed = await runScript(
      CLI,
      ['login', '--user', 'fail', '--token', SECRET, '--idempotency-key', 'k-secret'],
      env,
    );
    expect(failed.code).not.toBe(0);
    const line = JSON.parse(failed.stderr.trimEnd().split('\n').pop()!);
    expect(line.error.message).toContain('[redacted]');
    expect(failed.stderr + failed.stdout).not.toContain(SECRET);
    expect(allText(state)).not.toContain(SECRET); // the recorded failure under the key
    // the control: the same program without the declaration shows the value, so the checks above can fail
    const bare = await runScript(CLI, ['login', '--user', 'fail', '--token', SECRET], {
      ...env,
      SECRET_UNDECLARED: '1',
    });
    expect(bare.stderr).toContain(SECRET);
  });

  it('a secret naming no option of the command is refused, naming the options it has', async () => {
    const o = await runScript(
      join(REPO, 'test/frontends/fixtures/secret-commander.ts'),
      ['__schema', '--format', 'json'],
      { SECRET_EXTRA: 'tokn' },
    );
    expect(o.code).toBe(2);
    const e = JSON.parse(o.stderr.trimEnd().split('\n').pop()!).error;
    expect(e.context).toMatchObject({ reason: 'unknown_secret_option', option: 'tokn', options: ['user', 'token'] });
  });

  it('over MCP: the property is writeOnly with format password, and the error result holds no trace of the value', async () => {
    const c = await connectEra('modern', 'stdio', { cli: CLI, env: { XDG_STATE_HOME: join(dir, 'mcp-state') } });
    try {
      const tools = (await c.listTools()).tools as { name: string; inputSchema: { properties: Record<string, any> } }[];
      const token = tools.find((t) => t.name === 'login')!.inputSchema.properties.token;
      expect(JSON.stringify(token)).toContain('"writeOnly":true');
      expect(JSON.stringify(token)).toContain('"format":"password"');
      const r = await c.callTool('login', { user: 'fail', token: SECRET });
      expect(r.isError).toBe(true);
      expect(JSON.stringify(r)).not.toContain(SECRET);
      expect(JSON.stringify(r)).toContain('[redacted]');
      const good = await c.callTool('login', { user: 'bo', token: SECRET });
      expect(good.structuredContent ?? JSON.parse((good.content as { text: string }[])[0]!.text).data).toMatchObject({
        token_length: SECRET.length,
      });
    } finally {
      await c.close();
    }
  });
});

describe('a secret option with a default or choices, or one that takes no value, which a native secret flag may not be', () => {
  const VALUES = join(REPO, 'test/frontends/fixtures/secret-values.ts');
  /** The refusal's error line: validation_error exit 2 naming the option, never an internal_error. */
  function expectRefused(o: { code: number | null; stderr: string }, option: string, declares: string): void {
    expect(o.code, o.stderr).toBe(2);
    const e = JSON.parse(o.stderr.trimEnd().split('\n').pop()!).error;
    expect(e).toMatchObject({
      kind: 'validation_error',
      context: { reason: 'invalid_secret_option', option, declares: [declares] },
    });
    expect(e.message).toContain(`--${option}`);
    expect(e.actionable_fix).toContain(`leave --${option} out of secrets`);
  }

  it.each([
    ["withAx's commands", { SECRET_VIA: 'commands' }],
    ['ax(cmd).secret', { SECRET_VIA: 'chain' }],
    ['yargs ax()', { SECRET_LIB: 'yargs' }],
  ])('%s: refused by name, on a call and on __schema', async (_how, env) => {
    for (const [name, declares] of [
      ['token', 'default'],
      ['key', 'choices'],
    ] as const) {
      const all = { ...env, SECRET_NAME: name, AGENT_MODE: 'json' };
      expectRefused(await runScript(VALUES, ['login'], all), name, declares);
      expectRefused(await runScript(VALUES, ['__schema'], all), name, declares);
    }
    // a switch takes no value to keep secret: refused by name too
    const o = await runScript(VALUES, ['login'], { ...env, SECRET_NAME: 'loud', AGENT_MODE: 'json' });
    expect(o.code, o.stderr).toBe(2);
    expect(JSON.parse(o.stderr.trimEnd().split('\n').pop()!).error.context).toMatchObject({
      reason: 'invalid_secret_option',
      option: 'loud',
      type: 'bool',
    });
  });

  it("ax-ts wrap with a declarations file: refused by name; a person's plain run is the program's own", () => {
    const file = join(dir, 'secret-default.ax.json');
    writeFileSync(file, JSON.stringify({ login: { secrets: ['token'] } }));
    const bin = join(REPO, 'test/frontends/fixtures/wrap/secret-default.mjs');
    const wrap = (args: string[]) =>
      spawnSync(
        process.execPath,
        ['--import', TSX_LOADER, join(REPO, 'cmd/ax-ts/main.ts'), 'wrap', '--declarations', file, bin, ...args],
        { cwd: REPO, encoding: 'utf8', env: { ...process.env, AGENT_MODE: '' } },
      );
    const r = wrap(['login', '--format', 'json']);
    expectRefused({ code: r.status, stderr: r.stderr }, 'token', 'default');
    const person = wrap(['login']);
    expect(person.status).toBe(0);
    expect(person.stdout).toBe('token of 4 characters\n');
  });
});
