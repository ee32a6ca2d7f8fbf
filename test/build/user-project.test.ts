/**
 * `ax-ts build` on a user's project, as a user has it: `npm pack` of this checkout installed into
 * fresh projects (npm; pnpm's symlinked store and bun's installer too when `npx pnpm@latest` and
 * `npx bun@latest` run here), with the esbuild package and the optional peers (OpenTelemetry, redis)
 * beside it (test/build/optional-peers.test.ts builds without them). A TypeScript ESM entry with a shebang and a lazy subtree, and a
 * JavaScript CommonJS one, are built with the installed `ax-ts build`; the programs answer `--help`
 * and `__schema` exactly as uncached, `--version` with the version of the user's package.json
 * (embedded), a json command, a lazy command, and `mcp-server` over stdio to the SDK's client; the
 * MCP SDK, express, Ajv, pino, OpenTelemetry, jsonc-parser and redis are chunks, none in the main
 * bundle. Needs `npm run build` first (npm test does it).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'ax-user-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const ESBUILD = (
  JSON.parse(readFileSync(join(repo, 'node_modules/esbuild/package.json'), 'utf8')) as { version: string }
).version;
/** The optional peer dependencies of ax-ts (OpenTelemetry export, the Redis store), at the checkout's versions. */
const PEERS = [
  'redis',
  '@opentelemetry/api',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/resources',
].map(
  (p) =>
    `${p}@${(JSON.parse(readFileSync(join(repo, 'node_modules', p, 'package.json'), 'utf8')) as { version: string }).version}`,
);
const quiet = {
  ...process.env,
  npm_config_loglevel: 'error',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
  npm_config_update_notifier: 'false',
};

const CLI_TS = `#!/usr/bin/env node
import { Command, main } from 'ax-ts';
import { mountMcpServer } from 'ax-ts/mcp';

const root = new Command({
  use: 'mycli',
  short: 'A user-shaped CLI',
  commands: [
    new Command({
      use: 'greet <name>',
      short: 'Greet someone',
      effects: 'read_only',
      args: [{ name: 'name', description: 'who to greet' }],
      run: (ctx) => ({ hello: ctx.args.name }),
    }),
    new Command({ use: 'ops', short: 'Operations', load: () => import('./ops.ts') }),
  ],
});
mountMcpServer(root);
void main(root);
`;
const OPS_TS = `import { Command } from 'ax-ts';
export default new Command({
  use: 'ops',
  short: 'Operations',
  commands: [new Command({ use: 'status', short: 'Status', effects: 'read_only', run: () => ({ up: true }) })],
});
`;
const LEGACY_CJS = `#!/usr/bin/env node
'use strict';
const { Command, main } = require('ax-ts');
const { mountMcpServer } = require('ax-ts/mcp');
const root = new Command({ use: 'legacy', short: 'A CommonJS CLI' });
root.addCommand(new Command({ use: 'ping', short: 'Ping', effects: 'read_only', run: () => ({ pong: true }) }));
mountMcpServer(root);
main(root);
`;

/** A fresh project at `dir` with the CLI's sources and package.json (version 2.3.4). */
function project(dir: string): void {
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'mycli', version: '2.3.4', private: true, type: 'module' }),
  );
  writeFileSync(join(dir, 'src/cli.ts'), CLI_TS);
  writeFileSync(join(dir, 'src/ops.ts'), OPS_TS);
  writeFileSync(join(dir, 'src/legacy.cjs'), LEGACY_CJS);
}

let tarball: string;
const built: Record<string, string> = {}; // installer → project dir
let withoutEsbuild: { status: number | null; stdout: string; error: { error: Record<string, unknown> } };

/** `ax-ts build` as the project's own installed binary. */
function build(dir: string, entry: string, name: string): void {
  execFileSync(
    join(dir, 'node_modules/.bin/ax-ts'),
    ['build', entry, '--name', name, '--metafile', '--format', 'json'],
    {
      cwd: dir,
      encoding: 'utf8',
      timeout: 240_000,
    },
  );
}

/** Why `npx <pkg>` cannot run here (undefined when it can). */
function unavailable(pkg: string): string | undefined {
  const r = spawnSync('npx', ['--yes', pkg, '--version'], { encoding: 'utf8', timeout: 120_000, env: quiet });
  return r.status === 0 ? undefined : `npx ${pkg} does not run here: ${(r.stderr || r.error?.message || '').trim()}`;
}
const noPnpm = unavailable('pnpm@latest');
const noBun = unavailable('bun@latest');

beforeAll(() => {
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: repo, encoding: 'utf8', env: quiet }),
  ) as { filename: string }[];
  tarball = join(tmp, packed[0]!.filename);
  const npmDir = join(tmp, 'npm');
  project(npmDir);
  // first without esbuild (an optional peer dependency: not installed with ax-ts)
  execFileSync('npm', ['install', '--prefer-offline', '--no-package-lock', tarball], {
    cwd: npmDir,
    env: quiet,
    timeout: 300_000,
  });
  const bare = spawnSync(join(npmDir, 'node_modules/.bin/ax-ts'), ['build', 'src/cli.ts', '--format', 'json'], {
    cwd: npmDir,
    encoding: 'utf8',
  });
  withoutEsbuild = {
    status: bare.status,
    stdout: bare.stdout,
    error: JSON.parse(bare.stderr.trim().split('\n').pop()!),
  };
  execFileSync('npm', ['install', '--prefer-offline', '--no-package-lock', tarball, `esbuild@${ESBUILD}`, ...PEERS], {
    cwd: npmDir,
    env: quiet,
    timeout: 300_000,
  });
  build(npmDir, 'src/cli.ts', 'mycli');
  build(npmDir, 'src/legacy.cjs', 'legacy');
  built.npm = npmDir;
  if (!noBun) {
    const bunDir = join(tmp, 'bun');
    project(bunDir);
    execFileSync('npx', ['--yes', 'bun@latest', 'add', tarball, `esbuild@${ESBUILD}`, ...PEERS], {
      cwd: bunDir,
      env: quiet,
      timeout: 300_000,
    });
    build(bunDir, 'src/cli.ts', 'mycli');
    built.bun = bunDir;
  }
  if (noPnpm) return;
  const pnpmDir = join(tmp, 'pnpm');
  project(pnpmDir);
  execFileSync(
    'npx',
    [
      '--yes',
      'pnpm@latest',
      'add',
      tarball,
      `esbuild@${ESBUILD}`,
      ...PEERS,
      '--config.dangerously-allow-all-builds=true',
    ],
    {
      cwd: pnpmDir,
      env: quiet,
      timeout: 300_000,
    },
  );
  build(pnpmDir, 'src/cli.ts', 'mycli');
  built.pnpm = pnpmDir;
}, 900_000);

const run = (bin: string, args: string[], env: Record<string, string> = {}) => {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: tmp, ...env },
  });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
};

const HEAVY: Record<string, RegExp> = {
  'mcp-runtime.js': /node_modules\/ax-ts\/dist\/chunks\/mcp-sdk\.js$/, // the SDK, published inside ax-ts
  'mcp-http.js': /node_modules\/express\//,
  'arguments.js': /node_modules\/ajv\//,
  'pino.js': /node_modules\/pino\//,
  'otel.js': /node_modules\/@opentelemetry\/sdk-trace-base\//,
  'jsonc-parser.js': /node_modules\/ax-ts\/dist\/vendor\/jsonc-parser\.cjs$/, // published inside ax-ts
  'redis.js': /node_modules\/@redis\/client\//,
};

describe.each(['npm', 'pnpm', 'bun'])('a user project installed with %s', (installer) => {
  const skip = installer === 'pnpm' ? noPnpm : installer === 'bun' ? noBun : undefined;
  const bin = () => join(built[installer]!, 'dist/bin/mycli.js');

  it.skipIf(skip !== undefined)(
    `--help and __schema answer as uncached; --version is the package's 2.3.4; a json and a lazy command run${skip ? ` (skipped: ${skip})` : ''}`,
    () => {
      for (const args of [['--help'], ['__schema'], ['__schema', '--as=mcp']]) {
        const fast = run(bin(), args);
        expect(fast.status).toBe(0);
        expect(fast).toEqual(run(bin(), args, { AX_PRECOMPUTED: '0', AX_CODE_CACHE: '0' }));
      }
      expect(JSON.parse(run(bin(), ['--version']).stdout).data).toEqual({ name: 'mycli', version: '2.3.4' });
      expect(JSON.parse(run(bin(), ['greet', 'ada', '--format', 'json']).stdout).data).toEqual({ hello: 'ada' });
      expect(JSON.parse(run(bin(), ['ops', 'status', '--format', 'json']).stdout).data).toEqual({ up: true });
    },
    60_000,
  );

  it.skipIf(skip !== undefined)(
    `mcp-server over stdio serves the SDK's client${skip ? ` (skipped: ${skip})` : ''}`,
    async () => {
      const client = new Client({ name: 'user-project', version: '1.0.0' });
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [bin(), 'mcp-server'],
        env: { PATH: process.env.PATH ?? '', HOME: tmp },
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
      await client.connect(transport);
      try {
        expect(client.getServerVersion()).toMatchObject({ name: 'mycli', version: '2.3.4' });
        expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['greet', 'ops_status']);
        const r = (await client.callTool({ name: 'greet', arguments: { name: 'mcp' } })) as {
          content: { text: string }[];
        };
        expect(JSON.parse(r.content[0]!.text).data).toEqual({ hello: 'mcp' });
      } finally {
        await client.close();
      }
      expect(stderr).toBe('');
    },
    60_000,
  );

  it.skipIf(skip !== undefined)(
    `the heavy libraries are chunks of their own, none in the main bundle; the lazy subtree is a chunk${skip ? ` (skipped: ${skip})` : ''}`,
    () => {
      const meta = JSON.parse(readFileSync(join(built[installer]!, 'dist/bin/mycli.meta.json'), 'utf8')) as {
        outputs: Record<string, { inputs: Record<string, unknown> }>;
      };
      const outputs = Object.entries(meta.outputs).map(
        ([f, o]) => [f.split('/').pop()!, Object.keys(o.inputs)] as const,
      );
      for (const [chunk, library] of Object.entries(HEAVY)) {
        const holders = outputs.filter(([, ins]) => ins.some((i) => library.test(i))).map(([f]) => f);
        expect(holders, chunk).toContain(chunk);
        expect(holders, chunk).not.toContain('mycli.main.js');
      }
      expect(outputs.some(([f]) => /^ops-[0-9a-f]{8}\.js$/.test(f))).toBe(true);
    },
  );
});

describe('without esbuild', () => {
  it('ax-ts build fails with build_failed (exit 1) naming the package to install', () => {
    expect(withoutEsbuild.status).toBe(1);
    expect(withoutEsbuild.stdout).toBe('');
    expect(withoutEsbuild.error.error).toMatchObject({
      kind: 'build_failed',
      exit_code: 1,
      context: { reason: 'missing_dependency', package: 'esbuild' },
    });
    expect(String(withoutEsbuild.error.error.actionable_fix)).toContain('npm install --save-dev esbuild');
  });
});

describe('a CommonJS JavaScript entry with a shebang (npm)', () => {
  it('builds and runs: a command, --version, mcp-server', async () => {
    const bin = join(built.npm!, 'dist/bin/legacy.js');
    expect(JSON.parse(run(bin, ['ping', '--format', 'json']).stdout).data).toEqual({ pong: true });
    expect(JSON.parse(run(bin, ['--version']).stdout).data).toEqual({ name: 'legacy', version: '2.3.4' });
    const client = new Client({ name: 'user-project', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp-server'],
        env: { PATH: process.env.PATH ?? '', HOME: tmp },
      }),
    );
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['ping']);
    } finally {
      await client.close();
    }
  }, 60_000);
});
