/**
 * AGENTS.md's "Install and verify" section (docs/skill.md#install-and-verify): every command it
 * writes runs as written — the demo's `--version` and `doctor`, and a declared package's
 * `npm install --global <package>@<version>`, run twice against a registry served here (npm's own
 * client; only the registry's address and the install prefix come from the environment, as an
 * agent's machine gives them).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Command } from '../../lib/index.ts';
import { runCli } from '../helpers/run.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const TSX = import.meta.resolve('tsx');
const TASKS = join(REPO, 'cmd/tasks/main.ts');

/** The commands of the section (the backquoted text of each item that starts with `prefix`). */
function sectionCommands(agents: string, prefix: string): string[] {
  const section = agents.split('## Install and verify\n\n')[1]?.split('\n\n')[0] ?? '';
  return [...section.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).filter((c) => c.startsWith(prefix));
}

/** A tree with `package` declared (or not) and a subcommand, so `doctor` is its built-in. */
function tree(decl: { package?: string; version?: string } = {}): Command {
  const root = new Command({ use: 'fx', short: 'A fixture', version: decl.version ?? '1.2.3', ...decl });
  root.addCommand(new Command({ use: 'ping', short: 'Ping', effects: 'read_only', run: () => ({ ok: true }) }));
  return root;
}

/** Runs a command line in a shell, stdin closed, without blocking this process (it serves the registry). */
function shell(line: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((res) => {
    const child = spawn('sh', ['-c', line], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('close', (code) => res({ code, stderr }));
  });
}

const agentsOf = async (root: Command) => {
  const r = await runCli(root, ['__schema', '--as=agents'], { version: root.version });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
};

describe('AGENTS.md: Install and verify', () => {
  it("the demo's verify commands (--version, doctor) run verbatim and exit 0; no package is declared, so no install command is written", () => {
    const agents = readFileSync(join(REPO, 'cmd/tasks/AGENTS.md'), 'utf8');
    const commands = sectionCommands(agents, 'tasks ');
    expect(commands).toEqual(['tasks --version --format json', 'tasks doctor --format json']);
    expect(agents).not.toContain('npm install');
    const state = mkdtempSync(join(tmpdir(), 'ax-install-state-'));
    for (const c of commands) {
      const r = spawnSync(process.execPath, ['--import', TSX, TASKS, ...c.split(' ').slice(1)], {
        encoding: 'utf8',
        env: { ...process.env, XDG_STATE_HOME: state, XDG_CACHE_HOME: state, AGENT_MODE: '' },
      });
      expect(r.status, `${c}: ${r.stderr}`).toBe(0);
      const data = JSON.parse(r.stdout).data;
      if (c.includes('--version')) expect(data).toEqual({ name: 'tasks', version: expect.any(String) });
      else expect(data).toMatchObject({ program: { name: 'tasks' }, ok: expect.any(Boolean) });
    }
  }, 60_000);

  it("a release version is pinned, any other is not; an author's own --version gets no line; each line runs", async () => {
    expect(sectionCommands(await agentsOf(tree({ package: '@acme/fx' })), 'npm ')).toEqual([
      'npm install --global @acme/fx@1.2.3',
    ]);
    expect(sectionCommands(await agentsOf(tree({ package: 'fx', version: 'abc1234-dirty' })), 'npm ')).toEqual([
      'npm install --global fx',
    ]);
    const own = new Command({
      use: 'fx',
      version: '1.0.0',
      flags: { version: { type: 'bool', usage: 'its own' } },
      run: () => ({}),
    });
    // its own --version answers what it likes: no line for it; doctor is still the built-in, and runs
    const lines = sectionCommands(await agentsOf(own), 'fx ');
    expect(lines).toEqual(['fx doctor --format json']);
    for (const root of [own, tree({ package: 'fx' })])
      for (const c of sectionCommands(await agentsOf(root), 'fx ')) {
        const r = await runCli(root, c.split(' ').slice(1), { env: { XDG_STATE_HOME: tmpdir() } });
        expect(r.code, `${c}: ${r.stderr}`).toBe(0);
      }
    expect(() => new Command({ use: 'fx', package: 'Not A Name' })).toThrow(/package must be an npm package name/);
  });

  describe('a declared package', () => {
    let server: Server | undefined;
    afterAll(() => server?.close());

    it('npm install --global <package>@<version> runs verbatim, asks nothing, and run again exits 0', async () => {
      const agents = await agentsOf(tree({ package: 'ax-install-fx' }));
      const [install] = sectionCommands(agents, 'npm ');
      expect(install).toBe('npm install --global ax-install-fx@1.2.3');

      // the package as a registry holds it: a tarball with a bin, and its document
      const dir = mkdtempSync(join(tmpdir(), 'ax-install-'));
      const pkg = join(dir, 'pkg');
      mkdirSync(pkg);
      const manifest = { name: 'ax-install-fx', version: '1.2.3', bin: { 'ax-install-fx': 'bin.js' } };
      writeFileSync(join(pkg, 'package.json'), JSON.stringify(manifest));
      writeFileSync(join(pkg, 'bin.js'), '#!/usr/bin/env node\nconsole.log("installed");\n');
      const packed = spawnSync('npm', ['pack', '--pack-destination', dir], { cwd: pkg, encoding: 'utf8' });
      expect(packed.status, packed.stderr).toBe(0);
      const tarball = readFileSync(join(dir, 'ax-install-fx-1.2.3.tgz'));
      server = createServer((req, res) => {
        const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
        if (req.url === '/ax-install-fx') {
          const dist = {
            tarball: `${base}/ax-install-fx/-/ax-install-fx-1.2.3.tgz`,
            shasum: createHash('sha1').update(tarball).digest('hex'),
            integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
          };
          res.setHeader('content-type', 'application/json');
          res.end(
            JSON.stringify({
              name: manifest.name,
              'dist-tags': { latest: '1.2.3' },
              versions: { '1.2.3': { ...manifest, dist } },
            }),
          );
        } else if (req.url === '/ax-install-fx/-/ax-install-fx-1.2.3.tgz') res.end(tarball);
        else res.writeHead(404).end('{}');
      });
      await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
      const prefix = join(dir, 'prefix');
      const env = {
        ...process.env,
        npm_config_registry: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
        npm_config_prefix: prefix,
        npm_config_cache: join(dir, 'cache'),
        npm_config_update_notifier: 'false',
      };
      for (const round of [1, 2]) {
        // stdin closed: a prompt would end the install, not wait (and the registry answers meanwhile)
        const r = await shell(install!, env);
        expect(r.code, `round ${round}: ${r.stderr}`).toBe(0);
      }
      const bin = join(prefix, 'bin', 'ax-install-fx');
      expect(existsSync(bin)).toBe(true);
      expect(spawnSync(bin, { encoding: 'utf8' }).stdout).toBe('installed\n');
    }, 180_000);
  });
});
