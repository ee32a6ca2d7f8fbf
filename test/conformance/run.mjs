#!/usr/bin/env node
// Runs the MCP conformance suite (server mode) against the real Streamable HTTP bridge: starts the
// fixture CLI test/conformance/cli.ts with `mcp-server --transport http --addr 127.0.0.1:0`
// (`--stateless` too with --stateless), reads the announced URL from its stderr, runs
//   @modelcontextprotocol/conformance@<version> server --url <url> --expected-failures <file>
// and exits with the suite's code (0: every applicable scenario passed and every listed one failed),
// after a closing line `conformance: N passed, N failed, N skipped` counted in scenarios (the listed,
// inapplicable ones are `skipped`). Nonzero too if the fixture server did not survive the suite.
//
// Options (ours, removed before the rest goes to the suite, e.g. `--scenario tools-call-image`):
//   --suite-version V   the suite release (default 0.1.13, the last that runs on Node 20). Releases
//                       from 0.1.14 on need Node 22: the `node@22` package and the suite are installed
//                       from the npm registry into a scratch folder outside the repository
//                       ($AX_CONFORMANCE_DIR, default <tmpdir>/ax-ts-conformance-<V>), and the suite runs
//                       with that Node; the system's Node is left alone.
//   --stateless         serve the fixture with --stateless
//   --url URL           run against a server already listening (e.g. replicas behind nginx) instead
//                       of starting the fixture
// The expected failures are expected-failures[-<V>][-stateless].yml (0.1.13 stateful: expected-failures.yml).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
const stateless = take('--stateless', false) === true;
const givenUrl = take('--url', true);
const extra = argv;
const SUITE = `@modelcontextprotocol/conformance@${version}`;
const expected = here(
  `./expected-failures${version === '0.1.13' ? '' : `-${version}`}${stateless ? '-stateless' : ''}.yml`,
);
const needsNode22 = version !== '0.1.13' && !/^0\.1\.([0-9]|1[0-3])$/.test(version);

/** The suite's command: npx on Node 20 for 0.1.13; else Node 22 and the suite from a scratch folder. */
function suiteCommand() {
  if (!needsNode22) return { cmd: process.platform === 'win32' ? 'npx.cmd' : 'npx', args: ['-y', SUITE] };
  const dir = process.env.AX_CONFORMANCE_DIR ?? join(tmpdir(), `ax-ts-conformance-${version}`);
  const node = join(dir, 'node_modules', 'node', 'bin', 'node');
  const entry = join(dir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
  if (!existsSync(node) || !existsSync(entry)) {
    // install into a private folder, then rename: two runs at once never see a half-installed one
    const staging = `${dir}.tmp-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    process.stdout.write(`conformance: installing node@22 and ${SUITE} into ${dir}\n`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--prefix', staging, 'node@22', SUITE], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (r.status !== 0) {
      process.stderr.write(`conformance: npm install node@22 ${SUITE} failed (exit ${r.status})\n`);
      process.exit(1);
    }
    try {
      renameSync(staging, dir);
    } catch {
      rmSync(staging, { recursive: true, force: true }); // another run got there first
    }
  }
  return { cmd: node, args: [entry] };
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

const { cmd, args } = suiteCommand();
let url = givenUrl;
if (!url) {
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

process.stdout.write(`conformance: ${SUITE} against ${url}, expected failures ${expected.slice(repo.length)}\n`);
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
const listed = new Set([...readFileSync(expected, 'utf8').matchAll(/^\s*-\s*([A-Za-z0-9_-]+)/gm)].map((m) => m[1]));
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
for (const { name, ok } of outcomes) {
  if (listed.has(name)) tally[ok ? 'failed' : 'skipped'] += 1;
  else tally[ok ? 'passed' : 'failed'] += 1;
}
process.stdout.write(
  `\nconformance: ${tally.passed} passed, ${tally.failed} failed, ${tally.skipped} skipped (${SUITE}${stateless ? ', stateless' : ''})\n`,
);

const { code: serverCode, signal: serverSignal } = await stopServer();
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
process.exit(code);
