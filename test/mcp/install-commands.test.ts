/**
 * The hidden `mcp install|uninstall` and `skills install|uninstall` commands
 * (docs/mcp-server.md#installing-into-clients) beyond what test/mcp/install.test.ts runs through
 * both spellings: they are no tools, not in `__schema`, the help's list or the completions; their
 * help is there and true; `skills install` writes no server entry; an author's own `mcp` command
 * (before or after the mount), or a root that takes a positional, wins over them.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectStdio, REPO, runCasesCli } from '../helpers/mcp.ts';

const DEMO = join(REPO, 'cmd/tasks/main.ts');
const OWN = join(REPO, 'test/fixtures/own-mcp-cli.ts');
const SUBTREE = join(REPO, 'test/fixtures/mcp-subtree-cli.ts');
const T = 60_000;
const homes: string[] = [];
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })));
const home = () => {
  const h = mkdtempSync(join(tmpdir(), 'ax-installcmd-'));
  homes.push(h);
  return h;
};
const demo = async (args: string[], env: Record<string, string> = {}) => {
  const r = await runCasesCli(args, { cli: DEMO, env });
  return { code: r.code, stdout: r.stdout.toString(), stderr: r.stderr };
};
const HIDDEN = /\b(mcp|skills) (un)?install\b/;

/** Every command name in `__schema`'s (ax) tree. */
function names(c: { name: string; commands?: unknown[] }): string[] {
  return [c.name, ...((c.commands ?? []) as (typeof c)[]).flatMap(names)];
}

describe('mcp install / skills install: hidden commands beside mcp-server', () => {
  it(
    'are no MCP tools and are in no __schema shape, help listing or completion',
    async () => {
      const ax = JSON.parse((await demo(['__schema'])).stdout) as { command: { name: string; commands?: unknown[] } };
      const all = names(ax.command);
      expect(all).toContain('mcp-server');
      expect(all.filter((n) => n === 'mcp' || n === 'skills' || n === 'install')).toEqual([]);
      for (const as of ['mcp', 'skill', 'agents', 'clispec', 'llms']) {
        const r = await demo(['__schema', `--as=${as}`]);
        expect(r.code, as).toBe(0);
        expect(r.stdout, as).not.toMatch(HIDDEN);
      }
      for (const help of [['--help'], ['help']]) {
        const r = await demo(help);
        expect(r.stdout).toMatch(/^ {2}mcp-server /m);
        expect(r.stdout).not.toMatch(/^ {2}(mcp|skills) /m);
      }
      const words = (await demo(['__complete', ''])).stdout.split('\n').map((l) => l.split('\t')[0]);
      expect(words).toContain('mcp-server');
      expect(words.filter((w) => w === 'mcp' || w === 'skills')).toEqual([]);
      const s = await connectStdio(['mcp-server'], { HOME: home() }, DEMO);
      try {
        const tools = (await s.client.listTools()).tools.map((t) => t.name);
        expect(tools).toContain('add');
        expect(tools.filter((t) => /^(mcp|skills)/.test(t))).toEqual([]);
      } finally {
        await s.close();
      }
    },
    T,
  );

  it(
    'their help is there and names what they do, the clients and the flags',
    async () => {
      const group = await demo(['mcp', '--help']);
      expect(group.code).toBe(0);
      expect(group.stdout).toMatch(/^ {2}install +Write this program's MCP server into AI clients' configuration$/m);
      expect(group.stdout).toMatch(/^ {2}uninstall +Take this program's MCP server out/m);
      expect(group.stdout).toContain('The same as tasks mcp-server --install <client>');
      const install = await demo(['mcp', 'install', '--help']);
      expect(install.code).toBe(0);
      expect(install.stdout).toContain('tasks mcp install <client...> [flags]');
      expect(install.stdout).toContain('claude-desktop, claude-code, cursor, vscode, codex, gemini, windsurf, or all');
      for (const flag of ['--print', '--skill', '--transport', '--addr', '--token-file', '--discovery'])
        expect(install.stdout).toContain(flag);
      const skills = await demo(['skills', 'install', '--help']);
      expect(skills.stdout).toContain('tasks skills install <client...> [flags]');
      expect(skills.stdout).toContain('--print');
      expect(skills.stdout).not.toContain('--skill');
      expect(skills.stdout).not.toContain('--transport');
    },
    T,
  );

  it(
    'skills install writes the SKILL.md and no server entry; skills uninstall takes it out; text mode prints the same',
    async () => {
      const h = home();
      const cursor = join(h, '.cursor/mcp.json');
      mkdirSync(join(h, '.cursor'));
      writeFileSync(cursor, '{ "mcpServers": {} }\n');
      const r = await demo(['skills', 'install', 'cursor', 'claude-desktop'], { HOME: h });
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(Object.keys(out)).toEqual(['skill', 'skills']);
      expect(out.skills.map((c: { client: string; action: string }) => [c.client, c.action])).toEqual([
        ['cursor', 'added'],
        ['claude-desktop', 'unsupported'],
      ]);
      expect(readFileSync(cursor, 'utf8')).toBe('{ "mcpServers": {} }\n');
      expect(existsSync(join(h, '.config/Claude'))).toBe(false);
      expect(readFileSync(join(h, '.cursor/skills/tasks/SKILL.md'), 'utf8')).toBe(
        (await demo(['__schema', '--as=skill'])).stdout,
      );
      const text = await demo(['skills', 'uninstall', 'cursor', '--print', '--format', 'text'], { HOME: h });
      expect(JSON.parse(text.stdout).skills).toMatchObject([{ client: 'cursor', action: 'removed', written: false }]);
      expect((await demo(['skills', 'uninstall', 'cursor'], { HOME: h })).code).toBe(0);
      expect(existsSync(join(h, '.cursor/skills/tasks'))).toBe(false);
      expect(readFileSync(cursor, 'utf8')).toBe('{ "mcpServers": {} }\n');
    },
    T,
  );

  it(
    'mounted under a subcommand: grp mcp install writes the server of grp, as grp mcp-server --install does; the help says so',
    async () => {
      const h = home();
      const flags = await runCasesCli(['grp', 'mcp-server', '--install', 'cursor', '--skill', '--print'], {
        cli: SUBTREE,
        env: { HOME: h },
      });
      const command = await runCasesCli(['grp', 'mcp', 'install', 'cursor', '--skill', '--print'], {
        cli: SUBTREE,
        env: { HOME: h },
      });
      expect(command.code, command.stderr).toBe(0);
      expect(command.stdout.toString()).toBe(flags.stdout.toString());
      const out = JSON.parse(command.stdout.toString());
      expect([out.server, out.changes[0].entry.args.slice(-2), out.skill]).toEqual([
        'subfx-grp',
        ['grp', 'mcp-server'],
        'grp',
      ]);
      const help = (await runCasesCli(['grp', 'mcp', 'install', '--help'], { cli: SUBTREE })).stdout.toString();
      expect(help).toContain('Write the MCP server of subfx grp into AI clients');
      expect(help).toContain('subfx grp mcp install cursor');
    },
    T,
  );

  it(
    "an author's own mcp command wins, added before the mount or after it; a root that takes a positional keeps it",
    async () => {
      const h = home();
      for (const when of ['before', 'after']) {
        const r = await runCasesCli(['mcp', 'install', 'cursor', '--format', 'json'], {
          cli: OWN,
          env: { HOME: h, OWN_MCP: when },
        });
        expect(r.code, r.stderr).toBe(0);
        expect(JSON.parse(r.stdout.toString()).data, when).toEqual({ mine: ['install', 'cursor'] });
        // its `skills` is still ax-ts's
        const s = await runCasesCli(['skills', 'install', 'cursor', '--print'], {
          cli: OWN,
          env: { HOME: h, OWN_MCP: when },
        });
        expect(JSON.parse(s.stdout.toString()).skills[0], when).toMatchObject({ client: 'cursor', action: 'added' });
      }
      const arg = await runCasesCli(['mcp', '--format', 'json'], { cli: OWN, env: { HOME: h, OWN_MCP: 'root-args' } });
      expect(JSON.parse(arg.stdout.toString()).data).toEqual({ file: 'mcp' });
      // the flags remain the way in
      const flags = await runCasesCli(['mcp-server', '--install', 'cursor', '--print'], {
        cli: OWN,
        env: { HOME: h, OWN_MCP: 'root-args' },
      });
      expect(JSON.parse(flags.stdout.toString()).changes[0]).toMatchObject({ client: 'cursor', action: 'added' });
      expect(existsSync(join(h, '.cursor'))).toBe(false);
    },
    T,
  );
});
