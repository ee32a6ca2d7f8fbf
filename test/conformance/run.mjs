#!/usr/bin/env node
// Runs the MCP conformance suite (server mode) against the real Streamable HTTP bridge: starts the
// fixture CLI test/conformance/cli.ts with `mcp-server --transport http --addr 127.0.0.1:0`
// (`--stateless` too with --stateless), reads the announced URL from its stderr, runs
//   @modelcontextprotocol/conformance@<version> server --url <url> --expected-failures <file>
// and exits with the suite's code (0: every applicable scenario passed and every listed one failed),
// after a closing line `conformance: N passed, N failed, N skipped` counted in scenarios (the listed,
// inapplicable ones are `skipped`), and one `conformance: checks: N passed, N failed` with the
// suite's own count of checks. Nonzero too if the fixture server did not survive the suite.
//
// Options (ours, removed before the rest goes to the suite, e.g. `--scenario tools-call-image`):
//   --suite-version V   the suite release (default 0.1.13, the last that runs on Node 20). Releases
//                       from 0.1.14 on need Node 22: the `node@22` package and the suite are installed
//                       from the npm registry into a scratch folder outside the repository
//                       ($AX_CONFORMANCE_DIR, default <tmpdir>/ax-ts-conformance-<V>), and the suite runs
//                       with that Node; the system's Node is left alone.
//   --requirements R    run exactly what protocol revision R requires (e.g. 2026-07-28; 0.2.0 releases)
//   --stateless         serve the fixture with --stateless (over --stdio: the bridge without sessions)
//   --stdio             serve the fixture over stdio, bridged to HTTP by supergateway (npm, installed
//                       into the same scratch folder): the suite has no stdio mode of its own
//   --url URL           run against a server already listening (e.g. replicas behind nginx) instead
//                       of starting the fixture
// The expected failures are expected-failures[-<V>][-<R>][-stateless].yml (0.1.13 stateful:
// expected-failures.yml; -stateless only without --requirements: the 2026-07-28 era has no sessions
// either way), and with --stdio also the same name ending -stdio.yml: what the bridge adds.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const repo = here('../../');
const fixture = here('./cli.ts');
const argv = process.argv.slice(2);
function take(name, hasValue) {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const v = hasValue ? argv[i + 1] : true;
  argv.splice(i, hasValue ? 2 : 1);
  return v;
}
const version = take('--suite-version', true) ?? '0.1.13';
const requirements = take('--requirements', true);
const stateless = take('--stateless', false) === true;
const stdio = take('--stdio', false) === true;
const givenUrl = take('--url', true);
const extra = [
  ...(requirements ? ['--requirements', requirements] : []),
  ...(stdio && !version.startsWith('0.1.')
    ? ['--timeout', '180000']
    : []) /* 0.2 releases: each bridged request starts a server */,
  ...argv,
];
const SUITE = `@modelcontextprotocol/conformance@${version}`;
/** The bridge for --stdio (its own HTTP side relays every request to the fixture's stdio). */
const BRIDGE = 'supergateway@4.0.0';
const stem = `./expected-failures${version === '0.1.13' ? '' : `-${version}`}${requirements ? `-${requirements}` : ''}${stateless && !requirements ? '-stateless' : ''}`;
const expectedFiles = [here(`${stem}.yml`), ...(stdio ? [here(`${stem}-stdio.yml`)] : [])];
const needsNode22 = stdio || (version !== '0.1.13' && !/^0\.1\.([0-9]|1[0-3])$/.test(version));

/** The suite's command: npx on Node 20 for 0.1.13; else Node 22 and the suite from a scratch folder. */
function suiteCommand() {
  if (!needsNode22) return { cmd: process.platform === 'win32' ? 'npx.cmd' : 'npx', args: ['-y', SUITE] };
  const dir = process.env.AX_CONFORMANCE_DIR ?? join(tmpdir(), `ax-ts-conformance-${version}`);
  const node = join(dir, 'node_modules', 'node', 'bin', 'node');
  const entry = join(dir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
  const bridge = join(dir, 'node_modules', 'supergateway', 'dist', 'index.js');
  if (!existsSync(node) || !existsSync(entry) || (stdio && !existsSync(bridge))) {
    // install into a private folder, then rename: two runs at once never see a half-installed one
    const staging = `${dir}.tmp-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    const packages = ['node@22', SUITE, BRIDGE];
    process.stdout.write(`conformance: installing ${packages.join(' ')} into ${dir}\n`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--prefix', staging, ...packages], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (r.status !== 0) {
      process.stderr.write(`conformance: npm install ${packages.join(' ')} failed (exit ${r.status})\n`);
      process.exit(1);
    }
    rmSync(dir, { recursive: true, force: true }); // an older install without the bridge
    try {
      renameSync(staging, dir);
    } catch {
      rmSync(staging, { recursive: true, force: true }); // another run got there first
    }
  }
  return { cmd: node, args: [entry], bridge: [node, bridge] };
}

let server;
let serverLog = '';
let serverExited = Promise.resolve({ code: 0, signal: null });
function stopServer() {
  if (!server) return serverExited;
  if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
  const timer = setTimeout(() => server.kill('SIGKILL'), 3000);
  return serverExited.finally(() => clearTimeout(timer));
}

/** A port free now on the loopback (for the bridge, which cannot pick one and announce it). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * How the bridge starts the fixture: built as users ship a program (`ax-ts build`, from dist/), which
 * starts in a fraction of the time tsx takes — the bridge starts one server per 2026-07-28 request —
 * else through tsx when dist/ is not built.
 */
function fixtureCommand() {
  const axTs = join(repo, 'dist/cmd/ax-ts/main.js');
  if (existsSync(axTs)) {
    const out = mkdtempSync(join(tmpdir(), 'ax-conformance-fixture-'));
    const args = [axTs, 'build', fixture, '--out-dir', out, '--name', 'conformance-cli', '--precompute=false'];
    const r = spawnSync(process.execPath, args, { cwd: repo, encoding: 'utf8' });
    if (r.status === 0) {
      builtFixture = out;
      return [process.execPath, join(out, 'conformance-cli.js'), 'mcp-server'];
    }
    process.stderr.write(`conformance: ax-ts build failed (exit ${r.status}), serving through tsx:\n${r.stderr}`);
    rmSync(out, { recursive: true, force: true });
  }
  return [process.execPath, '--import', join(repo, 'node_modules/tsx/dist/loader.mjs'), fixture, 'mcp-server'];
}
/** The directory of the built fixture, removed at the end. */
let builtFixture;

/** The fixture over stdio behind supergateway's HTTP side; resolves its URL once it accepts connections. */
async function startBridge(bridge) {
  const port = await freePort();
  const quote = (a) => `'${a.replace(/'/g, "'\\''")}'`;
  const child = fixtureCommand();
  server = spawn(
    bridge[0],
    [
      bridge[1],
      '--stdio',
      child.map(quote).join(' '),
      '--outputTransport',
      'streamableHttp',
      '--port',
      String(port),
      '--logLevel',
      'none',
      ...(stateless ? [] : ['--stateful']),
    ],
    { cwd: repo, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  serverExited = new Promise((resolve) => server.once('exit', (code, signal) => resolve({ code, signal })));
  server.stderr.setEncoding('utf8');
  server.stderr.on('data', (chunk) => (serverLog += chunk));
  const bridgeUrl = `http://127.0.0.1:${port}/mcp`;
  for (let i = 0; i < 300; i++) {
    if (server.exitCode !== null) throw new Error(`the bridge exited (code ${server.exitCode}) before listening`);
    const up = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) return bridgeUrl;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the bridge did not listen within 30 s');
}

const { cmd, args, bridge } = suiteCommand();
let url = givenUrl;
if (!url && stdio) {
  url = await startBridge(bridge).catch(async (e) => {
    process.stderr.write(`conformance: ${e.message}\n${serverLog}`);
    await stopServer();
    process.exit(1);
  });
  process.stdout.write(
    `conformance: fixture over stdio, bridged by ${BRIDGE} at ${url}${stateless ? ' (stateless)' : ''}\n`,
  );
} else if (!url) {
  server = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      fixture,
      'mcp-server',
      '--transport',
      'http',
      '--addr',
      '127.0.0.1:0',
      ...(stateless ? ['--stateless'] : []),
    ],
    {
      cwd: repo,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  serverExited = new Promise((resolve) => server.once('exit', (code, signal) => resolve({ code, signal })));
  url = await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('the fixture server did not announce its URL within 30 s')),
      30_000,
    );
    server.stderr.setEncoding('utf8');
    server.stderr.on('data', (chunk) => {
      serverLog += chunk;
      const m = /mcp-server: listening on (http:\/\/\S+\/mcp)/.exec(serverLog);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    void serverExited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the fixture server exited (code ${code}, signal ${signal}) before listening`));
    });
  }).catch(async (e) => {
    process.stderr.write(`conformance: ${e.message}\n${serverLog}`);
    await stopServer();
    process.exit(1);
  });
  process.stdout.write(`conformance: fixture listening on ${url}${stateless ? ' (stateless)' : ''}\n`);
}

// the expected failures: one file, or the run's and the bridge's merged into one list; a file's
// `unjudged:` list names scenarios whose outcome is reported but counts neither way
const listOf = (text, key) =>
  [
    ...(new RegExp(`^${key}:\\n((?:(?:\\s+-.*|\\s*#.*)?\\n)*)`, 'm').exec(`${text}\n`)?.[1] ?? '').matchAll(
      /^\s*-\s*([A-Za-z0-9_/-]+)/gm,
    ),
  ].map((m) => m[1]);
const texts = expectedFiles.map((f) => readFileSync(f, 'utf8'));
const listed = new Set(texts.flatMap((t) => listOf(t, 'server')));
const unjudged = new Set(texts.flatMap((t) => listOf(t, 'unjudged')));
let expected = expectedFiles[0];
if (expectedFiles.length > 1) {
  expected = join(mkdtempSync(join(tmpdir(), 'ax-conformance-')), 'expected-failures.yml');
  writeFileSync(expected, `server:\n${[...listed].map((n) => `  - ${n}\n`).join('')}`);
}
const shown = expectedFiles.map((f) => f.slice(repo.length)).join(' + ');
process.stdout.write(
  `conformance: ${SUITE}${requirements ? ` (requirements ${requirements})` : ''} against ${url}, expected failures ${shown}\n`,
);
const suite = spawn(cmd, [...args, 'server', '--url', url, '--expected-failures', expected, ...extra], {
  cwd: repo,
  stdio: ['ignore', 'pipe', 'inherit'],
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => suite.kill(sig));
// Echo the suite's report, and keep its per-scenario summary lines (`✓ name: 1 passed, 0 failed`).
let report = '';
suite.stdout.setEncoding('utf8');
suite.stdout.on('data', (chunk) => {
  report += chunk;
  process.stdout.write(chunk);
});
const code = await new Promise((resolve) => {
  suite.once('error', (e) => {
    process.stderr.write(`conformance: cannot run ${SUITE}: ${e.message}\n`);
    resolve(1);
  });
  suite.once('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
});

// One closing line in the plain `N passed, N failed, N skipped` form, counted in scenarios: an
// expected failure (listed in the expected-failures file) is `skipped`; an unexpected failure or a
// listed scenario that passed is `failed`. (The suite's own `Total:` line counts checks.)
const tally = { passed: 0, failed: 0, skipped: 0 };
const plain = report.replace(/\x1b\[[0-9;]*m/g, '');
const outcomes = [...plain.matchAll(/^([✓✗]) ([A-Za-z0-9_/-]+): \d+ passed, \d+ failed/gm)].map((m) => ({
  name: m[2],
  ok: m[1] === '✓',
}));
const single = extra.indexOf('--scenario');
if (outcomes.length === 0 && single >= 0) {
  // one scenario: the suite prints `Passed: a/b, n failed, w warnings` instead of a summary
  const m = /^Passed: \d+\/\d+, (\d+) failed, (\d+) warnings/m.exec(plain);
  if (m) outcomes.push({ name: extra[single + 1], ok: m[1] === '0' && m[2] === '0' });
}
// The suite counts a scenario with warnings as failed in its baseline check while its summary line
// still shows ✓: take the baseline check's verdict (`  ✗ name` under "Unexpected failures").
// Likewise `  ~ name` under "Expected failures" is a listed scenario the suite saw fail.
const unexpected = /Unexpected failures[^\n]*\n((?:\s+✗ \S+\n?)+)/.exec(plain);
const expectedSeen = /Expected failures[^\n]*\n((?:\s+~ \S+\n?)+)/.exec(plain);
for (const m of [
  ...(unexpected ? unexpected[1].matchAll(/✗ (\S+)/g) : []),
  ...(expectedSeen ? expectedSeen[1].matchAll(/~ (\S+)/g) : []),
]) {
  const o = outcomes.find((x) => x.name === m[1]);
  if (o) o.ok = false;
  else outcomes.push({ name: m[1], ok: false });
}
const notJudged = [];
for (const { name, ok } of outcomes) {
  if (unjudged.has(name)) notJudged.push(`${name} ${ok ? 'passed' : 'failed'}`);
  else if (listed.has(name)) tally[ok ? 'failed' : 'skipped'] += 1;
  else tally[ok ? 'passed' : 'failed'] += 1;
}
if (notJudged.length) process.stdout.write(`\nconformance: not judged here: ${notJudged.join(', ')}\n`);
const checks = /^Total: (\d+) passed, (\d+) failed/m.exec(plain);
const how = [requirements && `requirements ${requirements}`, stdio && 'stdio', stateless && 'stateless'].filter(
  Boolean,
);
process.stdout.write(
  `\nconformance: checks: ${checks ? `${checks[1]} passed, ${checks[2]} failed` : 'no total'}\n` +
    `conformance: ${tally.passed} passed, ${tally.failed} failed, ${tally.skipped} skipped (${SUITE}${how.length ? `, ${how.join(', ')}` : ''})\n`,
);

const { code: serverCode, signal: serverSignal } = await stopServer();
if (expected !== expectedFiles[0]) rmSync(dirname(expected), { recursive: true, force: true });
if (builtFixture) rmSync(builtFixture, { recursive: true, force: true });
if (server) {
  // at default verbosity the bridge writes nothing on stderr but its listening line, whatever the suite sent
  const others = serverLog.split('\n').filter((l) => l.trim() && !/mcp-server: listening on /.test(l));
  process.stdout.write(
    `conformance: fixture stderr: ${others.length} other line(s)${others.length ? `:\n${others.join('\n')}` : ''}\n`,
  );
}
if (serverCode !== 0) {
  // the bridge must survive the whole suite and shut down cleanly
  process.stderr.write(
    `conformance: the fixture server ended badly (code ${serverCode}, signal ${serverSignal}); its stderr:\n${serverLog}`,
  );
  process.exit(code || 1);
}
// with scenarios not judged here, the suite's own verdict counts them: ours decides
process.exit(unjudged.size && code !== 0 && outcomes.length ? (tally.failed === 0 ? 0 : 1) : code);
