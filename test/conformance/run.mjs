#!/usr/bin/env node
// Runs the MCP conformance suite (server mode) against the real Streamable HTTP bridge: starts the
// fixture CLI test/conformance/cli.ts with `mcp-server --transport http --addr 127.0.0.1:0`, reads the
// announced URL from its stderr, runs
//   npx -y @modelcontextprotocol/conformance@0.1.13 server --url <url> --expected-failures expected-failures.yml
// and exits with the suite's code (0: every applicable scenario passed and every listed one failed),
// after a closing line `conformance: N passed, N failed, N skipped` counted in scenarios (the listed,
// inapplicable ones are `skipped`). Nonzero too if the fixture server did not survive the suite.
// Extra arguments are passed to the suite (e.g. `--scenario tools-call-simple-text`, `--verbose`).
// 0.1.13 is the last release that runs on Node 20.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SUITE = '@modelcontextprotocol/conformance@0.1.13';
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const repo = here('../../');
const fixture = here('./cli.ts');
const expected = here('./expected-failures.yml');
const extra = process.argv.slice(2);

const server = spawn(process.execPath, ['--import', 'tsx', fixture, 'mcp-server', '--transport', 'http', '--addr', '127.0.0.1:0'], {
  cwd: repo,
  stdio: ['ignore', 'ignore', 'pipe'],
});
let serverLog = '';
const serverExited = new Promise((resolve) => server.once('exit', (code, signal) => resolve({ code, signal })));

function stopServer() {
  if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
  const timer = setTimeout(() => server.kill('SIGKILL'), 3000);
  return serverExited.finally(() => clearTimeout(timer));
}

const url = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('the fixture server did not announce its URL within 30 s')), 30_000);
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

process.stdout.write(`conformance: fixture listening on ${url}\n`);
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const suite = spawn(npx, ['-y', SUITE, 'server', '--url', url, '--expected-failures', expected, ...extra], { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] });
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
// expected failure (listed in expected-failures.yml) is `skipped`; an unexpected failure or a listed
// scenario that passed is `failed`. (The suite's own `Total:` line counts checks, failures included.)
const listed = new Set([...readFileSync(expected, 'utf8').matchAll(/^\s*-\s*([A-Za-z0-9_-]+)/gm)].map((m) => m[1]));
const tally = { passed: 0, failed: 0, skipped: 0 };
const plain = report.replace(/\x1b\[[0-9;]*m/g, '');
const outcomes = [...plain.matchAll(/^([✓✗]) ([A-Za-z0-9_/-]+): \d+ passed, \d+ failed/gm)].map((m) => ({ name: m[2], ok: m[1] === '✓' }));
const single = extra.indexOf('--scenario');
if (outcomes.length === 0 && single >= 0) {
  // one scenario: the suite prints `Passed: a/b, n failed, w warnings` instead of a summary
  const m = /^Passed: \d+\/\d+, (\d+) failed, (\d+) warnings/m.exec(plain);
  if (m) outcomes.push({ name: extra[single + 1], ok: m[1] === '0' && m[2] === '0' });
}
for (const { name, ok } of outcomes) {
  if (listed.has(name)) tally[ok ? 'failed' : 'skipped'] += 1;
  else tally[ok ? 'passed' : 'failed'] += 1;
}
process.stdout.write(`\nconformance: ${tally.passed} passed, ${tally.failed} failed, ${tally.skipped} skipped\n`);

const { code: serverCode, signal: serverSignal } = await stopServer();
if (serverCode !== 0) {
  // the bridge must survive the whole suite and shut down cleanly
  process.stderr.write(`conformance: the fixture server ended badly (code ${serverCode}, signal ${serverSignal}); its stderr:\n${serverLog}`);
  process.exit(code || 1);
}
process.exit(code);
