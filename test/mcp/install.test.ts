/**
 * `mcp-server --install <client>` / `--uninstall` / `--print` (docs/mcp-server.md#installing-into-clients),
 * and the same through the hidden commands `mcp install <client...>` / `mcp uninstall`: every check
 * runs in both spellings. The demo written into each client's documented file under a temporary
 * home, where hand-edited files with comments (JSONC, TOML) and other servers already are. Those
 * bytes survive; installing twice is installing once; uninstalling gives the file back byte for
 * byte; the written command starts a server an MCP client can use; bad input changes nothing.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REPO, TSX_LOADER } from '../helpers/mcp.ts';
import { CLIENTS } from '../../mcp/serve/install.ts';
import { CLIENT_NAMES } from '../../mcp/serve/client-names.ts';

const CLI = join(REPO, 'cmd/tasks/main.ts');
const homes: string[] = [];
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })));

/** The files of a home where every client is configured by hand already (Linux paths). */
const SEEDED: Record<string, [string, string]> = {
  'claude-desktop': [
    '.config/Claude/claude_desktop_config.json',
    '{\n  "mcpServers": {\n    "other": { "command": "x" }\n  }\n}\n',
  ],
  'claude-code': ['.claude.json', '{\n  "numStartups": 3,\n  "mcpServers": {}\n}\n'],
  cursor: ['.cursor/mcp.json', '// mine\n{\n  "mcpServers": {\n    "other": { "command": "x" } // keep me\n  }\n}\n'],
  vscode: [
    '.config/Code/User/mcp.json',
    '{\n\t// tabs here\n\t"servers": {\n\t\t"other": { "type": "stdio", "command": "x" },\n\t},\n}\n',
  ],
  codex: [
    '.codex/config.toml',
    '# codex settings\nmodel = "o3"\n\n[mcp_servers.other]\ncommand = "y" # keep\n\n[mcp_servers.other.env]\nA = "1"\n',
  ],
  gemini: ['.gemini/settings.json', '{\n  "theme": "Dark"\n}\n'],
  windsurf: ['.codeium/windsurf/mcp_config.json', '{}'],
};

function seededHome(): string {
  const h = mkdtempSync(join(tmpdir(), 'ax-install-'));
  homes.push(h);
  mkdirSync(join(h, '.claude'));
  for (const [file, text] of Object.values(SEEDED)) {
    mkdirSync(dirname(join(h, file)), { recursive: true });
    writeFileSync(join(h, file), text);
  }
  return h;
}

/**
 * The two spellings of one request, written as `mcp-server`'s flags: those flags, and the command
 * (`--install a --install b --skill` is `mcp install a b --skill`; without --install/--uninstall,
 * `mcp-server` still: `--print-config`).
 */
const SPELLINGS: Record<string, (args: string[]) => string[]> = {
  flags: (args) => ['mcp-server', ...args],
  command: (args) => {
    const rest: string[] = [];
    const named: Record<string, string[]> = { install: [], uninstall: [] };
    for (let i = 0; i < args.length; i++)
      if (args[i] === '--install' || args[i] === '--uninstall') named[args[i]!.slice(2)]!.push(args[++i]!);
      else rest.push(args[i]!);
    const verb = named.install!.length ? 'install' : named.uninstall!.length ? 'uninstall' : undefined;
    return verb ? ['mcp', verb, ...named[verb]!, ...rest] : ['mcp-server', ...rest];
  },
};

function run(home: string, argv: string[]) {
  const r = spawnSync(process.execPath, ['--import', TSX_LOADER, CLI, ...argv, '--format', 'json'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: home },
  });
  return {
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    data: r.status === 0 ? JSON.parse(r.stdout) : undefined,
  };
}
const read = (h: string, c: string) => readFileSync(join(h, SEEDED[c]![0]), 'utf8');

it('the help names exactly the clients there are', () => {
  expect(CLIENT_NAMES).toBe(Object.keys(CLIENTS).join(', '));
});

describe.each(Object.entries(SPELLINGS))('install / uninstall, spelled as %s', (spelling, spell) => {
  const tasks = (home: string, ...args: string[]) => run(home, spell(args));

  it('all: every client found gets the --print-config entry in its own spelling; nothing else changes', () => {
    const h = seededHome();
    const r = tasks(h, '--install', 'all');
    expect(r.code, r.stderr).toBe(0);
    const changes = r.data.changes as { client: string; action: string; backup?: string }[];
    expect(changes.map((c) => [c.client, c.action])).toEqual(Object.keys(SEEDED).map((c) => [c, 'added']));
    const printed = tasks(h, '--print-config').data.mcpServers.tasks as {
      command: string;
      args: string[];
    };
    // each client's own spelling of the same command
    expect(JSON.parse(read(h, 'claude-desktop')).mcpServers).toEqual({ other: { command: 'x' }, tasks: printed });
    expect(JSON.parse(read(h, 'claude-code'))).toEqual({
      numStartups: 3,
      mcpServers: { tasks: { type: 'stdio', ...printed } },
    });
    expect(JSON.parse(read(h, 'gemini'))).toEqual({ theme: 'Dark', mcpServers: { tasks: printed } });
    expect(JSON.parse(read(h, 'windsurf'))).toEqual({ mcpServers: { tasks: printed } });
    // hand-written lines and comments stay byte for byte
    expect(read(h, 'cursor')).toContain(
      '// mine\n{\n  "mcpServers": {\n    "other": { "command": "x" }, // keep me\n    "tasks": {',
    );
    expect(read(h, 'vscode')).toContain(
      '\t// tabs here\n\t"servers": {\n\t\t"other": { "type": "stdio", "command": "x" },\n\t\t"tasks": {\n\t\t\t"type": "stdio",',
    );
    const toml = read(h, 'codex');
    expect(toml.startsWith(SEEDED.codex![1])).toBe(true);
    expect(toml.slice(SEEDED.codex![1].length)).toBe(
      `\n[mcp_servers.tasks]\ncommand = ${JSON.stringify(printed.command)}\nargs = [${printed.args.map((a) => JSON.stringify(a)).join(', ')}]\n`,
    );
    // a backup of each file as it was
    for (const c of changes) expect(readFileSync(c.backup!, 'utf8')).toBe(SEEDED[c.client]![1]);
  }, 60_000);

  it('twice is once: the second run changes nothing and writes nothing', () => {
    const h = seededHome();
    expect(tasks(h, '--install', 'cursor', '--install', 'codex').code).toBe(0);
    const before = ['cursor', 'codex'].map((c) => [read(h, c), statSync(join(h, SEEDED[c]![0])).mtimeMs]);
    const again = tasks(h, '--install', 'cursor', '--install', 'codex');
    expect(again.data.changes.map((c: { action: string; written: boolean }) => [c.action, c.written])).toEqual([
      ['unchanged', false],
      ['unchanged', false],
    ]);
    expect(['cursor', 'codex'].map((c) => [read(h, c), statSync(join(h, SEEDED[c]![0])).mtimeMs])).toEqual(before);
  }, 60_000);

  it('--print says what would change and writes nothing', () => {
    const h = seededHome();
    const r = tasks(h, '--install', 'cursor', '--print');
    expect(r.data.changes).toMatchObject([{ client: 'cursor', action: 'added', written: false }]);
    expect(read(h, 'cursor')).toBe(SEEDED.cursor![1]);
    expect(existsSync(join(h, `${SEEDED.cursor![0]}.ax-ts.bak`))).toBe(false);
  }, 60_000);

  it('--uninstall gives every file back byte for byte; a second one finds nothing', () => {
    const h = seededHome();
    expect(tasks(h, '--install', 'all').code).toBe(0);
    const r = tasks(h, '--uninstall', 'all');
    expect(r.data.changes.every((c: { action: string }) => c.action === 'removed')).toBe(true);
    for (const c of ['cursor', 'vscode', 'codex', 'claude-desktop']) expect(read(h, c), c).toBe(SEEDED[c]![1]);
    expect(tasks(h, '--uninstall', 'cursor').data.changes).toMatchObject([{ action: 'absent', written: false }]);
  }, 60_000);

  it('--skill: the SKILL.md __schema --as=skill prints, in each client’s skills folder; twice is once; --uninstall takes it out', () => {
    const h = seededHome();
    const skillMd = spawnSync(process.execPath, ['--import', TSX_LOADER, CLI, '__schema', '--as=skill'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: h },
    }).stdout;
    const clients = ['--install', 'cursor', '--install', 'codex', '--install', 'claude-desktop', '--skill'];
    const r = tasks(h, ...clients);
    expect(r.code, r.stderr).toBe(0);
    expect(r.data.skill).toBe('tasks');
    expect(
      r.data.skills.map((c: { client: string; action: string; file: string | null }) => [c.client, c.action, c.file]),
    ).toEqual([
      ['cursor', 'added', join(h, '.cursor/skills/tasks/SKILL.md')],
      ['codex', 'added', join(h, '.agents/skills/tasks/SKILL.md')],
      ['claude-desktop', 'unsupported', null],
    ]);
    for (const f of ['.cursor/skills/tasks/SKILL.md', '.agents/skills/tasks/SKILL.md'])
      expect(readFileSync(join(h, f), 'utf8')).toBe(skillMd);
    expect(tasks(h, ...clients).data.skills.map((c: { action: string }) => c.action)).toEqual([
      'unchanged',
      'unchanged',
      'unsupported',
    ]);
    // a SKILL.md that is not this program's (edited by hand) is backed up before it goes
    writeFileSync(join(h, '.agents/skills/tasks/SKILL.md'), `${skillMd}\n# my note\n`);
    const off = tasks(h, '--uninstall', 'cursor', '--uninstall', 'codex', '--skill');
    expect(off.data.skills[1].backup).toBe(join(h, '.agents/skills/tasks.SKILL.md.ax-ts.bak'));
    expect(readFileSync(off.data.skills[1].backup, 'utf8')).toContain('# my note');
    expect(off.data.skills[0].backup).toBeUndefined();
    expect(off.data.skills.map((c: { action: string }) => c.action)).toEqual(['removed', 'removed']);
    expect(existsSync(join(h, '.cursor/skills/tasks'))).toBe(false);
    expect(existsSync(join(h, '.agents/skills/tasks'))).toBe(false);
  }, 60_000);

  it('a client not configured yet gets a new private file', () => {
    const h = mkdtempSync(join(tmpdir(), 'ax-install-'));
    homes.push(h);
    expect(tasks(h, '--install', 'cursor').code).toBe(0);
    const file = join(h, '.cursor/mcp.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).mcpServers)).toEqual(['tasks']);
  }, 60_000);

  it('the written command starts a server an MCP client can use', async () => {
    const h = seededHome();
    tasks(h, '--install', 'cursor');
    const entry = JSON.parse(read(h, 'cursor').replace(/\/\/.*$/gm, '')).mcpServers.tasks as {
      command: string;
      args: string[];
    };
    const client = new Client({ name: 'install-test', version: '1' });
    await client.connect(
      new StdioClientTransport({
        ...entry,
        cwd: '/',
        env: { HOME: h, TASKS_FILE: join(h, 't.json') },
        stderr: 'ignore',
      }),
    );
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('add');
    } finally {
      await client.close();
    }
  }, 60_000);

  it('bad input: a clear validation_error (exit 2) and every file as it was', () => {
    const h = seededHome();
    writeFileSync(join(h, SEEDED.gemini![0]), '{ "theme": ');
    const codexText = '[mcp_servers]\ntasks = { command = "old" }\n';
    writeFileSync(join(h, SEEDED.codex![0]), codexText);
    const cases: [string[], string][] = [
      [['--install', 'emacs'], 'unknown_client'],
      [['--install', 'cursor', '--install', 'gemini'], 'client_config_invalid'], // gemini's file is broken: cursor untouched too
      [['--install', 'claude-desktop', '--transport', 'http', '--addr', '127.0.0.1:8123'], 'client_unsupported'],
      [['--install', 'codex'], 'client_config_invalid'], // tasks defined inline under [mcp_servers]
    ];
    // what only the flags can get wrong; the command's own: no client at all
    const own: [string[], string][] =
      spelling === 'flags'
        ? [
            [['mcp-server', '--install', 'cursor', '--uninstall', 'cursor'], 'mutually_exclusive_flags'],
            [['mcp-server', '--print'], 'invalid_flag_for_command'],
            [['mcp-server', '--skill'], 'invalid_flag_for_command'],
          ]
        : [
            [['mcp', 'install'], 'missing_argument'],
            [['mcp', 'uninstall', '--print'], 'missing_argument'],
          ];
    for (const [argv, reason] of [...cases.map(([a, r]): [string[], string] => [spell(a), r]), ...own]) {
      const r = run(h, argv);
      expect(r.code, argv.join(' ')).toBe(2);
      const line = JSON.parse(r.stderr.trim().split('\n').pop()!);
      expect(line.error).toMatchObject({ kind: 'validation_error', context: { reason } });
      // in the caller's words: the flag, or the command's argument; a missing client lists them
      if (reason === 'unknown_client')
        expect(line.error.context).toMatchObject(spelling === 'flags' ? { flag: '--install' } : { argument: 'client' });
      if (reason === 'missing_argument')
        expect(line.error.context).toMatchObject({ argument: 'client', clients: [...Object.keys(CLIENTS), 'all'] });
    }
    expect(read(h, 'cursor')).toBe(SEEDED.cursor![1]);
    expect(read(h, 'claude-desktop')).toBe(SEEDED['claude-desktop']![1]);
    expect(read(h, 'codex')).toBe(codexText);
    const empty = mkdtempSync(join(tmpdir(), 'ax-install-'));
    homes.push(empty);
    const none = tasks(empty, '--install', 'all');
    expect(none.code).toBe(2);
    expect(JSON.parse(none.stderr.trim()).error.context.reason).toBe('no_client_found');
  }, 90_000);

  it('files as editors and dotfile managers leave them: a BOM and CRLF kept, a dangling link kept as a link, keys defined twice or servers not an object refused', () => {
    const h = seededHome();
    const cursor = join(h, SEEDED.cursor![0]);
    writeFileSync(cursor, `\uFEFF${SEEDED.cursor![1]}`);
    const codex = join(h, SEEDED.codex![0]);
    const crlf = SEEDED.codex![1].replace(/\n/g, '\r\n');
    writeFileSync(codex, crlf);
    const target = join(h, 'dotfiles', 'gemini.json'); // not there yet: the link dangles
    mkdirSync(dirname(target));
    rmSync(join(h, SEEDED.gemini![0]));
    symlinkSync(target, join(h, SEEDED.gemini![0]));
    const r = tasks(h, '--install', 'cursor', '--install', 'codex', '--install', 'gemini');
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(cursor, 'utf8').startsWith('\uFEFF// mine\n')).toBe(true);
    expect(readFileSync(codex, 'utf8')).not.toMatch(/[^\r]\n/); // every line still ends CRLF
    expect(lstatSync(join(h, SEEDED.gemini![0])).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(target, 'utf8')).mcpServers.tasks.command).toBe(process.execPath);
    expect(tasks(h, '--uninstall', 'cursor', '--uninstall', 'codex').code).toBe(0);
    expect(readFileSync(cursor, 'utf8')).toBe(`\uFEFF${SEEDED.cursor![1]}`);
    expect(readFileSync(codex, 'utf8')).toBe(crlf);
    const refused: [string, string][] = [
      ['{ "mcpServers": { "tasks": { "command": "a" }, "tasks": { "command": "b" } } }', 'tasks'], // clients read the last
      ['{ "mcpServers": {}, "mcpServers": { "x": {} } }', 'mcpServers'],
      ['{ "mcpServers": [] }', 'an array'],
    ];
    for (const [text, says] of refused) {
      writeFileSync(join(h, SEEDED['claude-desktop']![0]), text);
      const bad = tasks(h, '--install', 'claude-desktop');
      expect(bad.code, text).toBe(2);
      const line = JSON.parse(bad.stderr.trim().split('\n').pop()!);
      expect(line.error.context.reason, text).toBe('client_config_invalid');
      expect(line.error.message).toContain(says);
      expect(readFileSync(join(h, SEEDED['claude-desktop']![0]), 'utf8')).toBe(text);
    }
  }, 60_000);

  it('all or none: when a later client cannot be written, the ones written before are given back', () => {
    const h = seededHome();
    const gemini = join(h, SEEDED.gemini![0]);
    rmSync(gemini);
    symlinkSync(join(h, 'gone', 'settings.json'), gemini); // its target's directory is not there: no write
    const r = tasks(h, '--install', 'cursor', '--install', 'gemini');
    expect(r.code, r.stderr).toBe(1);
    const line = JSON.parse(r.stderr.trim().split('\n').pop()!);
    expect(line.error.message).toMatch(/cannot write the config file .*given back as before/);
    expect(line.error.context.restored).toEqual([join(h, SEEDED.cursor![0])]);
    expect(line.error.actionable_fix).toMatch(/No client was changed\.$/);
    expect(read(h, 'cursor')).toBe(SEEDED.cursor![1]);
    // a client reached through a dangling link: the link stays, the target it made goes again
    const h2 = seededHome();
    const cursor = join(h2, SEEDED.cursor![0]);
    rmSync(cursor);
    symlinkSync(join(h2, 'store.json'), cursor);
    rmSync(join(h2, SEEDED.gemini![0]));
    symlinkSync(join(h2, 'gone', 'settings.json'), join(h2, SEEDED.gemini![0]));
    expect(tasks(h2, '--install', 'cursor', '--install', 'gemini').code).toBe(1);
    expect(lstatSync(cursor).isSymbolicLink()).toBe(true);
    expect(existsSync(join(h2, 'store.json'))).toBe(false);
  }, 60_000);
});
