#!/usr/bin/env node
/**
 * ax-ts benchmark (docs/performance.md): `npm run bench` = `npm run build && node test/bench/run.mjs`.
 *
 * Measures, in ONE run, the pair members alternated round by round (A B, B A, A B …, never all A then
 * all B), so that load drifting on the machine hits both sides alike, and prints medians, p99 where
 * asked, and ratios against baselines measured in the same run:
 *   1. cold start of the bundled demo (dist/bin/tasks.js) vs `node -e 0` and vs a bundled commander CLI
 *      of the same shape (fixtures/commander-tasks.mjs → one CommonJS file);
 *   1b. a user's CLI (user.mjs: bm, test/bench/projects) as plain tsc output and as `ax-ts build` output
 *      against its commander and citty twins as tsc output and as one esbuild bundle, vs `node -e 0`;
 *      and its spawn → initialize over stdio vs the minimal SDK server;
 *   2. `__schema` (the default answer), `__schema --as=mcp`, `__schema --full` and one command's
 *      `__schema g001 c00001` on generated trees (gen-tree.mjs) of 100, 1,000 and 5,000 commands: wall
 *      time, work inside the process, CPU, peak RSS, cost per command, and what an agent reads to
 *      discover the tree (bytes, estimated tokens); plus the same tree
 *      built with one addCommand per command, and one command run from each tree;
 *   3. `mcp-server` spawn → initialize answered (stdio) vs a minimal SDK server (fixtures/minimal-server.mjs),
 *      with ax-ts serving one no-op tool (fixtures/ax-noop.ts) alongside, to separate framework from demo,
 *      served in place (the default) and supervised (AX_MCP_IN_PLACE=0);
 *   4. `tools/call` over stdio, HTTP stateful and HTTP stateless, by a 2025-era client (the v1 SDK's
 *      Client) and a 2026-07-28 one (the v2 SDK's, pinned): server CPU per call, latency of sequential
 *      calls (median, p99) and throughput with 8 calls in flight, the same client code for every
 *      server; baselines on the v2 SDK: its low-level Server with a no-op tool (minimal-server.mjs) and
 *      its high-level McpServer with a zod-validated no-op tool (sdk-server.mjs);
 *   5. memory: peak RSS of a command run, VmRSS of the idle servers after initialize;
 *   6. `__schema` sizes (bytes, exact): the demo's bare and whole document, what the injected flags add
 *      per command, ax-go's examples/integration rebuilt with ax-ts against ax-go's own golden
 *      (../shared/data/ax-go-goldens), a one-command tree (fixtures/ax-go-app.ts).
 * Then PASS/FAIL per target (docs/performance.md) (never a failing exit code for a missed target; exit 1 only
 * if the benchmark itself breaks) and the whole report to test/bench/results.md.
 *
 * Plain Node ESM: nothing here goes through tsx. Not part of `npm test` (no `.test.` in any name).
 *
 * Environment:
 *   BENCH_QUICK=1        a fast smoke run (few runs; writes to $TMPDIR unless BENCH_OUT is set)
 *   BENCH_OUT=path       where to write the Markdown report (default test/bench/results.md; quick: tmp)
 *   BENCH_ONLY=a,b       only these sections: cold, user, trees, init, calls, memory, sizes
 *   BENCH_SIZES=100,1000,5000   tree sizes (the 1,000 tree carries the __schema targets)
 *   BENCH_COLD_RUNS, BENCH_TREE_RUNS, BENCH_INIT_RUNS, BENCH_CALLS, BENCH_TPUT_CALLS,
 *   BENCH_TPUT_ROUNDS, BENCH_RSS_RUNS    run counts per member (see COUNTS below)
 *   BENCH_BIN=path       the CLI under test (default dist/bin/tasks.js)
 *   BENCH_KEEP=1         keep the temporary build directory (its path is printed)
 */
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { build } from 'esbuild';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { EXIT_HOOK, lazyTreeFiles, treeSource } from './gen-tree.mjs';
import { buildProgram } from '../../dist/lib/build/index.js';
import { prepareUser } from './user.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const NODE = process.execPath;
const QUICK = process.env.BENCH_QUICK === '1';
const int = (name, full, quick) => {
  const v = process.env[name];
  return v && /^\d+$/.test(v) ? Number(v) : QUICK ? quick : full;
};
const COUNTS = {
  cold: int('BENCH_COLD_RUNS', 35, 5), // per member per row
  tree: int('BENCH_TREE_RUNS', 15, 3), // per member per tree size
  init: int('BENCH_INIT_RUNS', 25, 5), // spawn → initialize, per member
  calls: int('BENCH_CALLS', 2000, 100), // sequential tools/call per member per transport
  tputCalls: int('BENCH_TPUT_CALLS', 1000, 200), // calls per throughput round
  tputRounds: int('BENCH_TPUT_ROUNDS', 5, 2), // throughput rounds per member
  rss: int('BENCH_RSS_RUNS', 5, 2), // /usr/bin/time runs per member
  warmup: QUICK ? 10 : 50, // tools/call warm-up per member
};
const SIZES = (process.env.BENCH_SIZES ?? '100,1000,5000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const ONLY = new Set(
  (process.env.BENCH_ONLY ?? 'cold,user,trees,init,calls,memory,sizes').split(',').map((s) => s.trim()),
);
const BIN = process.env.BENCH_BIN ? resolve(process.env.BENCH_BIN) : join(ROOT, 'dist/bin/tasks.js');
const OUT = process.env.BENCH_OUT
  ? resolve(process.env.BENCH_OUT)
  : QUICK
    ? join(os.tmpdir(), 'ax-bench-results.quick.md')
    : join(HERE, 'results.md');
const INFLIGHT = 8;

// ---------- small helpers ----------

const log = (s = '') => process.stderr.write(`${s}\n`);
const sorted = (xs) => [...xs].sort((a, b) => a - b);
function quantile(xs, q) {
  const s = sorted(xs);
  if (!s.length) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}
const median = (xs) => {
  const s = sorted(xs);
  const n = s.length;
  return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};
const p99 = (xs) => quantile(xs, 0.99);
const ms = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : NaN);
const rx = (r) => (Number.isFinite(r) ? `${r.toFixed(2)}×` : 'n/a');
const mib = (kib) => (Number.isFinite(kib) ? `${(kib / 1024).toFixed(1)} MiB` : 'n/a');
const now = () => Number(process.hrtime.bigint()) / 1e6;
/** Member order for round r: rotated, so each member is first as often as the others. */
const rotate = (xs, r) => xs.map((_, i) => xs[(i + r) % xs.length]);
const pf = (ok) => (ok === undefined ? '—' : ok ? 'PASS' : 'FAIL');

/** Children get a clean environment: no NODE_OPTIONS or AGENT_MODE from the caller. */
function childEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  for (const k of Object.keys(env))
    if (k.startsWith('NODE_') || k === 'AGENT_MODE' || k.startsWith('VITEST')) delete env[k];
  return env;
}

const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();
/** CPU time (ms) of this process's waited-for children so far (Linux /proc; NaN elsewhere). */
function childrenCpu() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // after "pid (comm) ": state is f[0]; cutime and cstime are fields 16 and 17 of stat → f[13], f[14]
    return ((Number(f[13]) + Number(f[14])) * 1000) / CLK_TCK;
  } catch {
    return NaN;
  }
}

/** One timed run: spawnSync, wall time in ms; throws if the child fails (the bench is broken then). */
function timed(member, env) {
  if (member.env) env = member.env(env);
  const c0 = childrenCpu();
  const t0 = now();
  const r = spawnSync(NODE, member.argv, {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 30,
    timeout: 120_000,
  });
  const t = now() - t0;
  const cpu = childrenCpu() - c0;
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${member.label}: exit ${r.status}\n${String(r.stderr).slice(-2000)}`);
  const hook = /__bench (\{.*\})/.exec(String(r.stderr));
  return { wall: t, cpu, hook: hook ? JSON.parse(hook[1]) : undefined, stdoutBytes: r.stdout.length };
}

/**
 * Runs every member `runs` times, interleaved (rotated order per round), after one warm-up each.
 * Per member: wall times; CPU time of the child (from the parent's cutime+cstime, 10 ms ticks, so
 * only the mean over many runs is meaningful); and what the exit hook reports, if the child has one.
 */
function interleave(members, runs, env, progress) {
  const res = new Map(members.map((m) => [m, { wall: [], cpuSum: 0, work: [], cpuIn: [], maxRSS: [], bytes: 0 }]));
  for (const m of members) res.get(m).bytes = timed(m, env).stdoutBytes; // warm-up (page cache), not counted
  for (let r = 0; r < runs; r++) {
    for (const m of rotate(members, r)) {
      const x = timed(m, env);
      const o = res.get(m);
      o.wall.push(x.wall);
      o.cpuSum += x.cpu;
      if (x.hook) {
        o.work.push(x.hook.work);
        o.cpuIn.push(x.hook.cpu);
        o.maxRSS.push(x.hook.maxRSS);
      }
    }
    if (progress) progress(r + 1, runs);
  }
  for (const o of res.values()) o.cpu = o.cpuSum / runs;
  return res;
}

function progressLine(label) {
  let last = 0;
  return (i, n) => {
    const t = Date.now();
    if (i === n || t - last > 2000) {
      last = t;
      process.stderr.write(`\r  ${label}: ${i}/${n}   ${i === n ? '\n' : ''}`);
    }
  };
}

// ---------- machine ----------

function machine() {
  let cpu = os.cpus()[0]?.model ?? 'unknown';
  try {
    const m = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) cpu = m[1].trim();
  } catch {
    /* not Linux */
  }
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['describe', '--always', '--dirty'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    /* not a checkout */
  }
  return {
    cpu,
    cores: os.availableParallelism?.() ?? os.cpus().length,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    date: new Date().toISOString(),
    loadStart: os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' '),
    commit,
  };
}

// ---------- preparation: stores, bundles, trees ----------

function writeStore(file, n) {
  const tasks = [];
  const tags = ['home', 'work', 'admin', 'money', 'garden'];
  for (let i = 1; i <= n; i++) {
    const done = i % 3 === 0;
    tasks.push({
      id: i,
      title: `synthetic task number ${i} with a title of ordinary length`,
      status: done ? 'done' : 'open',
      tags: [tags[i % 5], ...(i % 7 === 0 ? [tags[(i + 2) % 5]] : [])],
      due: i % 4 === 0 ? `2030-0${1 + (i % 9)}-1${i % 10}` : null,
      created_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
      done_at: done ? new Date(Date.UTC(2026, 0, 2) + i * 60_000).toISOString() : null,
    });
  }
  writeFileSync(file, `${JSON.stringify({ version: 1, next_id: n + 1, tasks, idempotency: {} }, null, 2)}\n`);
}

const ESM_BANNER =
  '#!/usr/bin/env node\nimport { createRequire as __axCreateRequire } from "node:module"; const require = __axCreateRequire(import.meta.url);';

async function prepare(dir) {
  const store1000 = join(dir, 'store-1000.json');
  const store3 = join(dir, 'store-3.json');
  writeStore(store1000, 1000);
  writeStore(store3, 3);
  // The repository's package.json at the root of the temporary directory: "type": "module" (without
  // it Node 20 first compiles each .js as CommonJS, fails, and compiles it again as ESM) and the
  // version the demo reads at start.
  cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  // A snapshot of the built CLI (byte-identical, same layout dist/bin/…): a rebuild of dist/ while the
  // benchmark runs cannot change or break what is measured.
  const bin = join(dir, relative(ROOT, BIN).startsWith('..') ? join('dist/bin', basename(BIN)) : relative(ROOT, BIN));
  cpSync(dirname(BIN), dirname(bin), { recursive: true });
  const common = { absWorkingDir: ROOT, bundle: true, platform: 'node', target: 'node20', logLevel: 'warning' };
  // commander, citty and cac users ship CommonJS: a CJS bundle is the fastest thing Node 20 can start.
  const peers = {};
  for (const peer of ['commander', 'citty', 'cac']) {
    peers[peer] = join(dir, `${peer}-tasks.cjs`);
    await build({
      ...common,
      entryPoints: [join(HERE, `fixtures/${peer}-tasks.mjs`)],
      outfile: peers[peer],
      format: 'cjs',
    });
  }
  const commander = peers.commander;
  // The minimal SDK server: ESM with splitting, so its HTTP stack is a lazy chunk.
  const esmSplit = {
    ...common,
    splitting: true,
    format: 'esm',
    chunkNames: 'chunks/[name]-[hash]',
    banner: { js: ESM_BANNER },
  };
  await build({
    ...esmSplit,
    entryPoints: { 'minimal-server': join(HERE, 'fixtures/minimal-server.mjs') },
    outdir: join(dir, 'minimal'),
  });
  const minimal = join(dir, 'minimal/minimal-server.js');
  // The SDK's high-level McpServer, bundled the same way.
  await build({
    ...esmSplit,
    entryPoints: { 'sdk-server': join(HERE, 'fixtures/sdk-server.mjs') },
    outdir: join(dir, 'sdk'),
  });
  const sdk = join(dir, 'sdk/sdk-server.js');
  // ax-ts programs are built exactly as dist/bin is (`ax-ts build`: entry + bundle + chunks), without
  // precomputed answers (the rows that want a manifest write one below).
  const axProgram = async (d, name, entry) => {
    mkdirSync(d, { recursive: true });
    return (await buildProgram({ entry, outDir: d, name, precompute: false })).entry;
  };
  // ax-ts with one no-op tool: the framework's own cost per call.
  const axNoop = await axProgram(join(dir, 'ax-noop'), 'ax-noop', join(HERE, 'fixtures/ax-noop.ts'));
  // Floor of the in-process measure: a CommonJS file holding only the exit hook.
  const floor = join(dir, 'floor.cjs');
  writeFileSync(floor, `${EXIT_HOOK}\n`);
  // Trees: one generated module per size (and style), bundled like dist/bin/tasks.js (`ax-ts build`).
  const trees = new Map();
  const treeBytes = new Map();
  const variants = [
    [1, 'declarative'],
    ...SIZES.flatMap((n) => [
      [n, 'declarative'],
      [n, 'imperative'],
    ]),
  ];
  for (const [n, style] of variants) {
    const name = `tree-${n}${style === 'imperative' ? '-imperative' : ''}`;
    const src = join(dir, `${name}.ts`);
    if (style === 'declarative') {
      // one lazily loaded module per group (docs/performance.md): the build makes each a chunk of its own
      const { main, modules } = lazyTreeFiles(n, join(ROOT, 'lib/index.ts'), name);
      writeFileSync(src, main);
      for (const [f, text] of Object.entries(modules)) writeFileSync(join(dir, f), text);
    } else writeFileSync(src, treeSource(n, join(ROOT, 'lib/index.ts'), style));
    const entry = await axProgram(join(dir, name), name, src);
    trees.set(style === 'imperative' ? `${n}i` : n, entry);
    if (style === 'declarative') {
      const chunks = readdirSync(join(dir, name, 'chunks')).filter((f) => f.startsWith(`${name}-g`));
      const src = [`${name}.ts`, ...readdirSync(dir).filter((f) => f.startsWith(`${name}-g`))].reduce(
        (t, f) => t + statSync(join(dir, f)).size,
        0,
      );
      treeBytes.set(n, {
        source: src,
        bundle: chunks.reduce(
          (t, f) => t + statSync(join(dir, name, 'chunks', f)).size,
          statSync(join(dir, name, `${name}.main.js`)).size,
        ),
      });
    }
  }
  // The 1,000-command tree once more, with `mcp-server` mounted: what `tools/list` weighs, per command
  // and in progressive mode (docs/mcp-server.md#progressive-discovery)
  let mcp1000;
  if (trees.has(1000)) {
    const { main } = lazyTreeFiles(1000, join(ROOT, 'lib/index.ts'), 'tree-1000');
    const src = join(dir, 'tree-1000-mcp.ts');
    const mount = `import { mountMcpServer } from ${JSON.stringify(join(ROOT, 'mcp/index.ts'))};\n`;
    writeFileSync(src, mount + main.replace('void main(root);', 'mountMcpServer(root);\nvoid main(root);'));
    mcp1000 = await axProgram(join(dir, 'tree-1000-mcp'), 'tree-1000-mcp', src);
  }
  // The 1,000-command tree once more, with a schema manifest written ahead of time (ax-ts schema-manifest).
  let manifest1000;
  if (trees.has(1000)) {
    const from = dirname(trees.get(1000));
    const to = join(dir, 'tree-1000-manifest');
    cpSync(from, to, { recursive: true });
    manifest1000 = join(to, basename(trees.get(1000)));
    const r = spawnSync(
      NODE,
      [join(ROOT, 'dist/cmd/ax-ts/main.js'), 'schema-manifest', manifest1000, '--format', 'json'],
      {
        env: childEnv({ HOME: os.tmpdir(), BENCH_NO_HOOK: '1' }),
        encoding: 'utf8',
      },
    );
    if (r.status !== 0) throw new Error(`ax-ts schema-manifest: exit ${r.status}: ${r.stderr}`);
    const stored = JSON.parse(r.stdout).data.shapes;
    if (!stored.includes('ax') || !stored.includes('mcp'))
      throw new Error(
        `ax-ts schema-manifest stored ${stored.join(', ') || 'no shape'} (a shape the program printed with something on stderr is not stored)`,
      );
    // The row must measure the manifest: the answer is the walk's byte for byte, and the tree is not
    // loaded at all (the generated tree's exit hook, which lives in the bundle, prints nothing).
    const env = childEnv({ HOME: os.tmpdir() });
    const served = spawnSync(NODE, [manifest1000, '__schema'], { env, maxBuffer: 1 << 30 });
    const walked = spawnSync(NODE, [trees.get(1000), '__schema'], { env, maxBuffer: 1 << 30 });
    if (served.status !== 0 || walked.status !== 0 || !served.stdout.equals(walked.stdout))
      throw new Error('the schema manifest does not answer `__schema` with the bytes the walk prints');
    if (String(served.stderr).includes('__bench'))
      throw new Error('`__schema` with a schema manifest loaded the tree (the manifest was not used)');
  }
  return {
    bin,
    store1000,
    store3,
    commander,
    peers,
    minimal,
    sdk,
    axNoop,
    floor,
    trees,
    treeBytes,
    dir,
    manifest1000,
    mcp1000,
  };
}

/**
 * The bytes of the `tools/list` answer (one JSON-RPC line over stdio, as a 2025-era client receives
 * it after `initialize`) of `<entry> mcp-server ...extra`.
 */
async function toolsListBytes(entry, extra = []) {
  const child = spawn(NODE, [entry, 'mcp-server', ...extra], {
    env: childEnv({ HOME: os.tmpdir(), BENCH_NO_HOOK: '1' }),
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const send = (m) => child.stdin.write(`${JSON.stringify(m)}\n`);
  try {
    return await new Promise((resolvePromise, reject) => {
      let buf = '';
      const timer = setTimeout(() => reject(new Error('no tools/list answer within 60 s')), 60_000);
      child.once('exit', (code) => reject(new Error(`mcp-server exited (${code}) before answering tools/list`)));
      child.stdout.setEncoding('utf8').on('data', (chunk) => {
        buf += chunk;
        let nl;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          const msg = JSON.parse(line);
          if (msg.id === 1) {
            send({ jsonrpc: '2.0', method: 'notifications/initialized' });
            send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
          } else if (msg.id === 2) {
            clearTimeout(timer);
            resolvePromise({ bytes: Buffer.byteLength(line), tools: msg.result.tools.length });
          }
        }
      });
      send(INIT);
    });
  } finally {
    child.kill('SIGTERM');
  }
}

// ---------- 1. cold start ----------

async function coldStart(p, report) {
  log('\n[1/6] cold start, bundled (ms, median of interleaved runs)');
  // ax-ts's V8 code cache lives under XDG_CACHE_HOME: one directory for "later runs" (filled by the
  // warm-up run), a fresh empty one for every "first run".
  const cacheHome = join(p.dir, 'xdg-cache');
  const env = childEnv({ TASKS_FILE: p.store1000, HOME: os.tmpdir(), XDG_CACHE_HOME: cacheHome });
  let fresh = 0;
  const firstRun = (e) => ({ ...e, XDG_CACHE_HOME: mkdtempSync(join(p.dir, `xdg-first-${fresh++}-`)) });
  const rows = [
    { name: '--version', args: ['--version'], target: true },
    { name: '--help', args: ['--help'], target: true },
    { name: 'list --format json', args: ['list', '--format', 'json'], target: true },
    { name: '__schema', args: ['__schema'] },
    { name: '__schema --as=mcp', args: ['__schema', '--as=mcp'] },
  ];
  const lines = [
    '| command | node -e 0 | ax-ts | ax-ts, first run² | commander | citty | cac | ax-ts / commander | ax-ts / citty | ax-ts / cac | ax-ts / node | first run / node | CPU ms node / ax-ts / commander / citty¹ | target | result |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
  ];
  const results = [];
  for (const row of rows) {
    const node0 = { label: 'node -e 0', argv: ['-e', '0'] };
    const ax = { label: `tasks ${row.name}`, argv: [p.bin, ...row.args] };
    const first = { label: `tasks ${row.name} (first run)`, argv: [p.bin, ...row.args], env: firstRun };
    const peers = ['commander', 'citty', 'cac'].map((k) => ({
      key: k,
      label: `${k} ${row.name}`,
      argv: [p.peers[k], ...row.args],
    }));
    const members = [node0, ax, first, ...peers];
    const res = interleave(members, COUNTS.cold, env, progressLine(row.name));
    const [n, a, f, c, ci, ca] = members.map((m) => median(res.get(m).wall));
    const cpu = [node0, ax, ...peers.slice(0, 2)].map((m) => res.get(m).cpu);
    const rc = ratio(a, c);
    const rci = ratio(a, ci);
    const ok = row.target ? rc <= 1 && rci <= 1 : undefined;
    results.push({
      ...row,
      node: n,
      ax: a,
      first: f,
      commander: c,
      citty: ci,
      cac: ca,
      cpu,
      ok,
      rc,
      rci,
      rca: ratio(a, ca),
    });
    lines.push(
      `| \`tasks ${row.name}\` | ${ms(n)} | ${ms(a)} | ${ms(f)} | ${ms(c)} | ${ms(ci)} | ${ms(ca)} | ${rx(rc)} | ${rx(rci)} | ${rx(ratio(a, ca))} | ${rx(ratio(a, n))} | ${rx(ratio(f, n))} | ${cpu.map((x) => ms(x, 0)).join(' / ')} | ${row.target ? '≤ 1.00× commander and citty' : '—'} | ${pf(ok)} |`,
    );
  }
  report.cold = {
    lines,
    results,
    notes: [
      "¹ mean CPU time (user + system) per run of the child, from the parent's cutime/cstime (10 ms ticks: only the mean over many runs means anything). Less sensitive than wall time to other load on the machine.",
      '² every run with a fresh, empty XDG_CACHE_HOME: no V8 code cache to read, and one written at exit (the other ax-ts column reads the cache the warm-up run wrote).',
    ],
  };
  for (const r of results) {
    if (!r.target) continue;
    const [, cAx, cCm, cCi] = r.cpu;
    report.targets.push({
      target: `\`tasks ${r.name}\` ≤ 1.00× commander`,
      value: `${rx(r.rc)} (${ms(r.ax)} vs ${ms(r.commander)} ms; CPU ${rx(ratio(cAx, cCm))})`,
      ok: r.rc <= 1,
    });
    report.targets.push({
      target: `\`tasks ${r.name}\` ≤ 1.00× citty`,
      value: `${rx(r.rci)} (${ms(r.ax)} vs ${ms(r.citty)} ms; CPU ${rx(ratio(cAx, cCi))}; cac ${rx(r.rca)})`,
      ok: r.rci <= 1,
    });
  }
}

// ---------- 1b. a user's CLI ----------

async function userCli(p, report) {
  log("\n[1b] a user's CLI: bm as tsc output and ax-ts build output, its commander and citty twins");
  const u = await prepareUser(ROOT, join(p.dir, 'user'));
  const env = childEnv({ BM_STORE: u.store, HOME: os.tmpdir(), XDG_CACHE_HOME: join(p.dir, 'xdg-user') });
  const rows = [
    { name: '--version', args: ['--version'], limit: 1.1 },
    { name: 'link list', args: ['link', 'list'], limit: 1.3 },
  ];
  const cols = [
    ['node', 'node -e 0', ['-e', '0']],
    ['bm', 'bm, tsc', [u.bm]],
    ['built', 'bm, ax-ts build', [u.bmBuilt]],
    ['cm', 'commander, tsc', [u.commander]],
    ['cmB', 'commander, bundle', [u.commanderBundle]],
    ['cmAx', 'commander + withAx, tsc', [u.commanderAx]],
    // the plain commander program run by a person through `ax-ts wrap` (the published tool, dist/)
    ['cmWrap', 'commander via ax-ts wrap', [join(ROOT, 'dist/cmd/ax-ts/main.js'), 'wrap', u.commander]],
    ['ci', 'citty, tsc', [u.citty]],
    ['ciB', 'citty, bundle', [u.cittyBundle]],
  ];
  const lines = [
    `| command | ${cols.map((c) => c[1]).join(' | ')} | built / node | tsc / commander tsc | built / commander bundle | built / citty bundle | withAx / commander tsc | wrap / commander tsc |`,
    `|---|${cols.map(() => '---:').join('|')}|---:|---:|---:|---:|---:|---:|`,
  ];
  for (const row of rows) {
    const members = cols.map(([key, label, argv]) => ({
      key,
      label: `${label} ${row.name}`,
      argv: key === 'node' ? argv : [...argv, ...row.args],
    }));
    const res = interleave(members, COUNTS.cold, env, progressLine(`bm ${row.name}`));
    const t = Object.fromEntries(members.map((m) => [m.key, median(res.get(m).wall)]));
    const rNode = ratio(t.built, t.node);
    const rTsc = ratio(t.bm, t.cm);
    const rCm = ratio(t.built, t.cmB);
    const rCi = ratio(t.built, t.ciB);
    const rAx = ratio(t.cmAx, t.cm);
    const rWrap = ratio(t.cmWrap, t.cm);
    lines.push(
      `| \`bm ${row.name}\` | ${cols.map(([k]) => ms(t[k])).join(' | ')} | ${rx(rNode)} | ${rx(rTsc)} | ${rx(rCm)} | ${rx(rCi)} | ${rx(rAx)} | ${rx(rWrap)} |`,
    );
    // what `ax-ts wrap` costs a person's invocation of a program it was not built into
    report.targets.push({
      target: `\`bm ${row.name}\`, the commander twin run through \`ax-ts wrap\` ≤ 1.1× the program alone`,
      value: `${rx(rWrap)} (${ms(t.cmWrap)} vs ${ms(t.cm)} ms)`,
      ok: rWrap <= 1.1,
    });
    // what the commander front end costs a person's invocation: the same program with and without withAx
    report.targets.push({
      target: `\`bm ${row.name}\`, the commander twin with \`withAx\` ≤ 1.1× without`,
      value: `${rx(rAx)} (${ms(t.cmAx)} vs ${ms(t.cm)} ms)`,
      ok: rAx <= 1.1,
    });
    report.targets.push({
      target: `\`bm ${row.name}\`, ax-ts build output ≤ ${row.limit.toFixed(1)}× \`node -e 0\``,
      value: `${rx(rNode)} (${ms(t.built)} vs ${ms(t.node)} ms)`,
      ok: rNode <= row.limit,
    });
    if (row.name !== '--version')
      report.targets.push({
        target: `\`bm ${row.name}\`, ax-ts build output ≤ every peer's bundle`,
        value: `commander ${rx(rCm)}, citty ${rx(rCi)}`,
        ok: rCm <= 1 && rCi <= 1,
      });
    report.targets.push({
      target: `\`bm ${row.name}\`, tsc output ≤ 1.0× the commander twin's tsc output`,
      value: `${rx(rTsc)} (${ms(t.bm)} vs ${ms(t.cm)} ms)`,
      ok: rTsc <= 1,
    });
  }
  // an MCP call through the commander front end runs the program's own entry in a process of its
  // own (docs/frontends.md#how-a-call-runs): at most one Node start over the program's own run
  await frontEndCall(u, env, lines, report);
  // spawn → initialize over stdio: bm built and as tsc output, against the minimal SDK server
  const init = [
    { key: 'built', argv: [u.bmBuilt, 'mcp-server'] },
    { key: 'bm', argv: [u.bm, 'mcp-server'] },
    { key: 'minimal', argv: [p.minimal] },
  ];
  const times = new Map(init.map((m) => [m.key, []]));
  for (const m of init) await initOnce(m.argv, env); // warm-up
  const prog = progressLine('bm spawn → initialize');
  for (let r = 0; r < COUNTS.init; r++) {
    for (const m of rotate(init, r)) times.get(m.key).push((await initOnce(m.argv, env)).t);
    prog(r + 1, COUNTS.init);
  }
  const [b, tsc, min] = init.map((m) => median(times.get(m.key)));
  const rInit = ratio(b, min);
  lines.push(
    '',
    '| spawn → initialize (stdio), median | bm, ax-ts build | bm, tsc | minimal SDK server | built / minimal | tsc / minimal |',
    '|---|---:|---:|---:|---:|---:|',
    `| | ${ms(b)} ms | ${ms(tsc)} ms | ${ms(min)} ms | ${rx(rInit)} | ${rx(ratio(tsc, min))} |`,
  );
  report.targets.push({
    target: '`bm mcp-server`, ax-ts build output: spawn → initialize ≤ 1.2× minimal SDK server',
    value: `${rx(rInit)} (${ms(b)} vs ${ms(min)} ms)`,
    ok: rInit <= 1.2,
  });
  report.user = { lines };
}

/**
 * The row "an MCP call through the commander front end": `link list` of the commander twin with
 * `withAx`, its own run against a `tools/call` of it over stdio, interleaved, medians.
 */
async function frontEndCall(u, env, lines, report) {
  const client = new Client({ name: 'ax-bench', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: NODE, args: [u.commanderAx, 'mcp-server'], env, stderr: 'ignore' }),
  );
  const { tools } = await client.listTools();
  const tool = tools.find((t) => /link[_ ]list$/.test(t.name));
  if (!tool) throw new Error(`commander + withAx: no link list tool among ${tools.map((t) => t.name).join(', ')}`);
  const member = { label: 'commander + withAx link list', argv: [u.commanderAx, 'link', 'list'] };
  const own = [];
  const calls = [];
  const prog = progressLine('commander + withAx: tools/call vs own run');
  for (let r = 0; r <= COUNTS.cold; r++) {
    const o = timed(member, env).wall;
    const t0 = now();
    const res = await client.callTool({ name: tool.name, arguments: {} });
    const c = now() - t0;
    if (res.isError) throw new Error(`tools/call ${tool.name}: ${JSON.stringify(res.content).slice(0, 300)}`);
    if (r === 0) continue; // warm-up
    own.push(o);
    calls.push(c);
    prog(r, COUNTS.cold);
  }
  await client.close();
  const [o, c] = [median(own), median(calls)];
  lines.push(
    '',
    '| an MCP call through the commander front end, median | own run of `bm link list` | `tools/call` of it (stdio) | over the own run |',
    '|---|---:|---:|---:|',
    `| | ${ms(o)} ms | ${ms(c)} ms | ${ms(c - o)} ms |`,
  );
  report.targets.push({
    target: "`bm link list`, an MCP call through the commander front end ≤ 60 ms over the program's own run",
    value: `${ms(c - o)} ms (${ms(c)} vs ${ms(o)} ms)`,
    ok: c - o <= 60,
  });
}

// ---------- 2. __schema on generated trees ----------

const SHAPES = {
  ax: { label: '`__schema`', args: ['__schema'] },
  mcp: { label: '`__schema --as=mcp`', args: ['__schema', '--as=mcp'] },
  full: { label: '`__schema --full` (the whole document)', args: ['__schema', '--full'] },
  one: { label: 'one command (`__schema g001 c00001`)', args: ['__schema', 'g001', 'c00001'], noTarget: true },
  imp: { label: '`__schema`, tree built with `addCommand` one by one', args: ['__schema'], imperative: true },
  run: {
    label: 'run one command (`g001 c00001 x --format json`)',
    args: ['g001', 'c00001', 'x', '--format', 'json'],
    noTarget: true,
  },
};

async function trees(p, report) {
  log('\n[2/6] __schema on generated trees (5 flags per command)');
  const env = childEnv({ HOME: os.tmpdir() });
  const node0 = { label: 'node -e 0', argv: ['-e', '0'] };
  const floor = { label: 'floor', argv: [p.floor] };
  // Every size in ONE interleaved run (the tree of 1 beside the others in every round): a per-command
  // figure subtracts the tree of 1 from the tree of n, and measured in separate runs the two drifted
  // apart with the load of the machine (the last loaded run printed a negative cost per command).
  const bySize = [1, ...SIZES].map((n) => {
    const shapes = Object.entries(SHAPES).filter(([, sh]) => !(sh.imperative && n === 1));
    return [
      n,
      shapes.map(([k, sh]) => [
        k,
        { label: `tree ${n} ${k}`, argv: [p.trees.get(sh.imperative ? `${n}i` : n), ...sh.args] },
      ]),
    ];
  });
  const members = [node0, floor, ...bySize.flatMap(([, ms]) => ms.map(([, m]) => m))];
  const res = interleave(
    members,
    COUNTS.tree,
    env,
    progressLine(`trees of ${[1, ...SIZES].map((n) => n.toLocaleString('en')).join(', ')}`),
  );
  const byTree = new Map();
  for (const [n, byShape] of bySize) {
    byTree.set(n, {
      node: median(res.get(node0).wall),
      floorWork: median(res.get(floor).work),
      shapes: Object.fromEntries(
        byShape.map(([k, m]) => {
          const o = res.get(m);
          return [
            k,
            {
              wall: median(o.wall),
              work: median(o.work),
              cpuIn: median(o.cpuIn),
              maxRSS: median(o.maxRSS),
              bytes: o.bytes,
            },
          ];
        }),
      ),
    });
  }
  const base = byTree.get(1);
  const lines = [
    '| commands | invocation | node -e 0 | wall | wall / node | work in process | CPU in process¹ | work per command² | CPU per command³ | peak RSS | output |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const perCmd = {};
  const cpuPerCmd = {};
  for (const shape of Object.keys(SHAPES)) {
    for (const [n, t] of byTree) {
      const s = t.shapes[shape];
      if (!s) continue;
      const b = base.shapes[SHAPES[shape].imperative ? 'ax' : shape]; // the tree of 1 is only built declaratively
      const per = n > 1 ? ((s.work - b.work) / (n - 1)) * 1000 : NaN;
      const cpuPer = n > 1 ? ((s.cpuIn - b.cpuIn) / (n - 1)) * 1000 : NaN;
      (perCmd[shape] ??= {})[n] = per;
      (cpuPerCmd[shape] ??= {})[n] = cpuPer;
      lines.push(
        `| ${n === 1 ? '1 (floor)' : n.toLocaleString('en')} | ${SHAPES[shape].label} | ${ms(t.node)} | ${ms(s.wall)} | ${rx(ratio(s.wall, t.node))} | ${ms(s.work)} ms | ${ms(s.cpuIn)} ms | ${n > 1 ? `${ms(per, 1)} µs` : '—'} | ${n > 1 ? `${ms(cpuPer, 1)} µs` : '—'} | ${mib(s.maxRSS)} | ${(s.bytes / 1024).toFixed(0)} KiB |`,
      );
    }
  }
  const notes = [
    `Declarations: ${(([n, b]) => `${(b.source / n / 1024).toFixed(2)} KiB of source per command; the ${n.toLocaleString('en')}-command bundle and its group chunks are ${(b.bundle / 2 ** 20).toFixed(2)} MiB`)([...p.treeBytes].at(-1))} (lib included).`,
    '¹ user + system CPU time of the whole process (all threads, bootstrap included), from `process.resourceUsage()` at exit.',
    `² (work(n) − work(tree of 1)) / (n − 1), medians of one interleaved run of every size. A CommonJS file holding nothing but the exit hook does ${ms(base.floorWork)} ms of "work": that much of every row is not ax-ts.`,
    "³ (CPU(n) − CPU(tree of 1)) / (n − 1), the same from the in-process CPU time: less sensitive to other load on the machine than ² (but it counts V8's background threads too).",
  ];
  discovery(byTree, lines, notes, report);
  if (p.mcp1000) {
    // the same table: what a client reads from `tools/list` before its first call
    for (const [label, extra] of [
      ['`tools/list` of `mcp-server` (one tool per command)', []],
      ['`tools/list` of `mcp-server --discovery progressive`', ['--discovery', 'progressive']],
    ]) {
      const r = await toolsListBytes(p.mcp1000, extra);
      lines.push(
        `| 1,000 | ${label}: ${r.tools.toLocaleString('en')} tools | ${r.bytes.toLocaleString('en')} | ${tokens(r.bytes).toLocaleString('en')} |`,
      );
      (report.toolsList ??= {})[extra.length ? 'progressive' : 'tools'] = r;
    }
  }
  report.trees = { lines, notes, byTree, perCmd, cpuPerCmd };
  // The issue-14 targets, paired: the members alternate within one interleaved run.
  if (p.trees.has(1000)) {
    const t1 = p.trees.get(1);
    const t1000 = p.trees.get(1000);
    const members = [
      { key: 'node', label: 'node -e 0', argv: ['-e', '0'] },
      { key: 'run1', label: 'tree of 1: run one command', argv: [t1, ...SHAPES.run.args] },
      { key: 'run1000', label: 'tree of 1,000: run one command', argv: [t1000, ...SHAPES.run.args] },
      {
        key: 'schema',
        label: 'tree of 1,000: `__schema` (the default answer: it loads the tree, a summary past the budget)',
        argv: [t1000, '__schema'],
      },
      { key: 'full', label: 'tree of 1,000: `__schema --full`', argv: [t1000, '__schema', '--full'] },
      ...(p.manifest1000
        ? [
            {
              key: 'manifest',
              label: 'tree of 1,000: `__schema` with a schema manifest',
              argv: [p.manifest1000, '__schema'],
            },
          ]
        : []),
    ];
    const res = interleave(members, COUNTS.tree * 2, env, progressLine('paired targets'));
    const w = Object.fromEntries(members.map((m) => [m.key, median(res.get(m).wall)]));
    const c = Object.fromEntries(members.map((m) => [m.key, res.get(m).cpu]));
    const cpuNote = (x, y) => `; CPU ${rx(ratio(c[x], c[y]))}, ${ms(c[x], 0)} vs ${ms(c[y], 0)} ms`;
    const r1 = ratio(w.run1000, w.run1);
    const rs = ratio(w.schema, w.node);
    report.targets.push({
      target: 'one command of a 1,000-command CLI ≤ 1.2× the 1-command CLI',
      value: `${rx(r1)} (${ms(w.run1000)} vs ${ms(w.run1)} ms${cpuNote('run1000', 'run1')})`,
      ok: r1 <= 1.2,
    });
    const rf = ratio(w.full, w.node);
    report.targets.push({
      target: '`__schema --full` of 1,000 commands ≤ 2.5× `node -e 0`',
      value: `${rx(rf)} (${ms(w.full)} vs ${ms(w.node)} ms${cpuNote('full', 'node')})`,
      ok: rf <= 2.5,
    });
    // without a manifest the default answer loads every lazy subtree, as --full does (docs/schema.md#budgets-and-summaries)
    report.targets.push({
      target: 'default `__schema` answer of 1,000 commands without a manifest (it loads the tree) ≤ 2.5× `node -e 0`',
      value: `${rx(rs)} (${ms(w.schema)} vs ${ms(w.node)} ms${cpuNote('schema', 'node')})`,
      ok: rs <= 2.5,
    });
    if (p.manifest1000) {
      const rm = ratio(w.manifest, w.node);
      report.targets.push({
        target: '`__schema` of 1,000 commands with a schema manifest ≤ 1.3× `node -e 0`',
        value: `${rx(rm)} (${ms(w.manifest)} vs ${ms(w.node)} ms${cpuNote('manifest', 'node')})`,
        ok: rm <= 1.3,
      });
    } else
      report.targets.push({
        target: '`__schema` of 1,000 commands with a schema manifest ≤ 1.3× `node -e 0`',
        value: 'not measured (no manifest built)',
        ok: false,
      });
    lines.push(
      '',
      '| paired run (targets) | median wall | mean CPU¹ |',
      '|---|---:|---:|',
      ...members.map((m) => `| ${m.label} | ${ms(w[m.key])} ms | ${ms(c[m.key], 1)} ms |`),
    );
  }
  const lo = Math.min(...SIZES);
  const hi = Math.max(...SIZES);
  if (lo !== hi) {
    for (const shape of Object.keys(SHAPES).filter((k) => !SHAPES[k].noTarget)) {
      const c = perCmd[shape];
      const u = cpuPerCmd[shape];
      const r = c[hi] / c[lo];
      const mid = SIZES.filter((n) => n !== lo && n !== hi)
        .map((n) => `${ms(c[n])} → `)
        .join('');
      const cpuMid = SIZES.filter((n) => n !== lo && n !== hi)
        .map((n) => `${ms(u[n])} → `)
        .join('');
      // Linear: the cost per command does not grow with the tree (a quadratic walk would make this hi/lo, i.e. 50×).
      // Judged on the in-process CPU time: the wall-time "work" of a 100-command tree is a few ms over
      // the tree of 1, which a loaded machine's scheduling swamps (it has printed negative costs).
      // If the smallest tree's cost is lost in the noise (≤ 0), the ratio is meaningless: no verdict.
      const ru = u[hi] / u[lo];
      report.targets.push({
        target: `${SHAPES[shape].label} linear: CPU per command ${hi.toLocaleString('en')} vs ${lo} ≤ 2×`,
        value: `${u[lo] > 0 ? rx(ru) : 'n/a'} (${ms(u[lo])} → ${cpuMid}${ms(u[hi])} µs; work ${c[lo] > 0 ? rx(r) : 'n/a'}, ${ms(c[lo])} → ${mid}${ms(c[hi])} µs)`,
        ok: u[lo] > 0 ? ru <= 2 : undefined,
      });
    }
  }
}

/** Estimated tokens of a text of `bytes` bytes: about 4 bytes a token (English and JSON, GPT/Claude tokenizers). */
const tokens = (bytes) => Math.round(bytes / 4);

/**
 * Progressive discovery (docs/schema.md#budgets-and-summaries): what an agent reads to discover a
 * tree and one command in it, in bytes and estimated tokens, from the outputs the tree rows printed.
 * Targets: the default whole-tree answer (`__schema`, `--as=mcp`) ≤ 32 KB at any size; one command ≤ 4 KB.
 */
function discovery(byTree, lines, notes, report) {
  const rows = [
    ['ax', '`__schema` (default)'],
    ['mcp', '`__schema --as=mcp` (default)'],
    ['full', '`__schema --full`'],
    ['one', '`__schema g001 c00001`'],
  ];
  lines.push('', '| discovery: commands | answer | bytes | ≈ tokens⁴ |', '|---:|---|---:|---:|');
  for (const [n, t] of byTree) {
    if (n === 1) continue;
    for (const [k, label] of rows) {
      const b = t.shapes[k]?.bytes;
      if (b !== undefined)
        lines.push(
          `| ${n.toLocaleString('en')} | ${label} | ${b.toLocaleString('en')} | ${tokens(b).toLocaleString('en')} |`,
        );
    }
  }
  notes.push("⁴ bytes / 4: an estimate, not a tokenizer's count.");
  for (const [n, t] of byTree) {
    if (n === 1) continue;
    for (const k of ['ax', 'mcp']) {
      const b = t.shapes[k].bytes;
      report.targets.push({
        target: `default ${SHAPES[k].label} of ${n.toLocaleString('en')} commands ≤ 32 KB`,
        value: `${(b / 1024).toFixed(1)} KiB (≈ ${tokens(b).toLocaleString('en')} tokens; whole: ${(t.shapes.full.bytes / 1024).toFixed(0)} KiB)`,
        ok: b <= 32 * 1024,
      });
    }
    const one = t.shapes.one.bytes;
    report.targets.push({
      target: `one command of ${n.toLocaleString('en')} (\`__schema g001 c00001\`) ≤ 4 KB`,
      value: `${(one / 1024).toFixed(1)} KiB (≈ ${tokens(one).toLocaleString('en')} tokens)`,
      ok: one <= 4 * 1024,
    });
  }
}

// ---------- 3. mcp-server spawn → initialize ----------

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'ax-bench', version: '1.0.0' } },
};

function vm(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (k) => Number(new RegExp(`${k}:\\s*(\\d+)`).exec(s)?.[1]);
    return { rss: kib('VmRSS'), hwm: kib('VmHWM') };
  } catch {
    return { rss: NaN, hwm: NaN };
  }
}

/** VmRSS/VmHWM of `pid` plus its descendants (a supervised stdio server is two processes). */
function vmTree(pid) {
  const kids = (p) => {
    try {
      return readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  let rss = 0;
  let hwm = 0;
  for (const q of [pid, ...kids(pid).flatMap((k) => [k, ...kids(k)])]) {
    const m = vm(q);
    if (Number.isFinite(m.rss)) rss += m.rss;
    if (Number.isFinite(m.hwm)) hwm += m.hwm;
  }
  return { rss: rss || NaN, hwm: hwm || NaN };
}

/** Spawns a stdio server, times spawn → initialize result, then reads VmRSS (of its process tree) once idle. */
async function initOnce(argv, env) {
  const t0 = now();
  const child = spawn(NODE, argv, { env, stdio: ['pipe', 'pipe', 'ignore'] });
  child.stdin.write(`${JSON.stringify(INIT)}\n`);
  let buf = '';
  const t = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${argv.join(' ')}: no initialize answer in 30 s`)), 30_000);
    child.once('exit', (code) => reject(new Error(`${argv.join(' ')}: exited ${code} before answering initialize`)));
    child.stdout.on('data', (d) => {
      buf += d;
      if (/"id":1\b/.test(buf) && buf.includes('\n')) {
        clearTimeout(timer);
        resolve(now() - t0);
      }
    });
  });
  if (!/"result"/.test(buf)) throw new Error(`${argv.join(' ')}: initialize failed: ${buf.slice(0, 500)}`);
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  await sleep(150);
  const mem = vmTree(child.pid);
  child.removeAllListeners('exit');
  const exited = new Promise((r) => child.once('exit', r));
  child.stdin.end();
  const killer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(killer);
  return { t, ...mem };
}

async function serverInit(p, report) {
  log('\n[3/6] mcp-server spawn → initialize answered (stdio)');
  const env = childEnv({ TASKS_FILE: p.store3, HOME: os.tmpdir() });
  const members = [
    { key: 'ax', label: 'ax-ts `tasks mcp-server`', argv: [p.bin, 'mcp-server'] },
    { key: 'noop', label: 'ax-ts, one no-op tool', argv: [p.axNoop, 'mcp-server'] },
    { key: 'minimal', label: 'minimal SDK server', argv: [p.minimal] },
    {
      key: 'noopSup',
      label: 'ax-ts, one no-op tool, supervised (AX_MCP_IN_PLACE=0)',
      argv: [p.axNoop, 'mcp-server'],
      env: { AX_MCP_IN_PLACE: '0' },
    },
  ];
  const res = new Map(members.map((m) => [m, { t: [], rss: [], hwm: [] }]));
  for (const m of members) await initOnce(m.argv, { ...env, ...m.env }); // warm-up
  const prog = progressLine('spawn → initialize');
  for (let r = 0; r < COUNTS.init; r++) {
    for (const m of rotate(members, r)) {
      const x = await initOnce(m.argv, { ...env, ...m.env });
      const o = res.get(m);
      o.t.push(x.t);
      o.rss.push(x.rss);
      o.hwm.push(x.hwm);
    }
    prog(r + 1, COUNTS.init);
  }
  const [a, nb, b, nsup] = members.map((m) => res.get(m));
  const r = ratio(median(a.t), median(b.t));
  const rn = ratio(median(nb.t), median(b.t));
  report.init = {
    lines: [
      '| | ax-ts `tasks mcp-server` | ax-ts, one no-op tool | minimal SDK server | tasks / minimal | no-op / minimal | target | result |',
      '|---|---:|---:|---:|---:|---:|---|---|',
      `| spawn → initialize answered, median | ${ms(median(a.t))} ms | ${ms(median(nb.t))} ms | ${ms(median(b.t))} ms | ${rx(r)} | ${rx(rn)} | ≤ 1.20× | ${pf(r <= 1.2)} |`,
      `| p99 | ${ms(p99(a.t))} ms | ${ms(p99(nb.t))} ms | ${ms(p99(b.t))} ms | ${rx(ratio(p99(a.t), p99(b.t)))} | ${rx(ratio(p99(nb.t), p99(b.t)))} | — | — |`,
      '',
      'Served in place (the default for a bundled program: the process the client started serves, with fd 1 on stderr, docs/mcp-server.md#stdio) against the stdio supervisor (the server re-executes itself; `AX_MCP_IN_PLACE=0`): the no-op server both ways.',
      '',
      '| | served in place (default) | supervised (`AX_MCP_IN_PLACE=0`) | cost of the supervisor |',
      '|---|---:|---:|---:|',
      `| spawn → initialize answered, median | ${ms(median(nb.t))} ms | ${ms(median(nsup.t))} ms | +${ms(median(nsup.t) - median(nb.t))} ms (${rx(ratio(median(nsup.t), median(nb.t)))}) |`,
      `| idle RSS of the process tree, median | ${mib(median(nb.rss))} | ${mib(median(nsup.rss))} | +${mib(median(nsup.rss) - median(nb.rss))} |`,
    ],
    mem: Object.fromEntries(
      members.map((m) => [m.key, { label: m.label, rss: median(res.get(m).rss), hwm: median(res.get(m).hwm) }]),
    ),
  };
  report.targets.push({ target: 'server spawn → initialize ≤ 1.2× minimal SDK server', value: rx(r), ok: r <= 1.2 });
}

// ---------- 4. tools/call ----------

async function startHttp(argv, env) {
  const child = spawn(NODE, argv, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${argv.join(' ')}: no URL in 30 s: ${err}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`${argv.join(' ')}: exited ${code}: ${err}`)));
    child.stderr.on('data', (d) => {
      err += d;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  child.removeAllListeners('exit');
  return {
    url,
    pid: child.pid,
    stop: async () => {
      const exited = new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    },
  };
}

const SIDES = {
  ax: {
    label: 'ax-ts `tasks` (`show`)',
    argv: (p) => [p.bin, 'mcp-server'],
    http: (p) => [p.bin, 'mcp-server', '--transport', 'http', '--addr', '127.0.0.1:0'],
    params: { name: 'show', arguments: { id: 1 } },
  },
  noop: {
    label: 'ax-ts no-op',
    argv: (p) => [p.axNoop, 'mcp-server'],
    http: (p) => [p.axNoop, 'mcp-server', '--transport', 'http', '--addr', '127.0.0.1:0'],
    params: { name: 'noop', arguments: {} },
  },
  sdk: {
    label: 'SDK McpServer',
    argv: (p) => [p.sdk],
    http: (p) => [p.sdk, '--http'],
    params: { name: 'noop', arguments: {} },
  },
  minimal: {
    label: 'minimal SDK',
    argv: (p) => [p.minimal],
    http: (p) => [p.minimal, '--http'],
    params: { name: 'noop', arguments: {} },
  },
};

/** The rows of section 4: a transport and the era of the client that drives it. */
const CALL_KINDS = [
  { key: 'stdio', era: 'legacy', label: 'stdio, 2025 era' },
  { key: 'stdio', era: 'modern', label: 'stdio, 2026-07-28' },
  { key: 'http-stateful', era: 'legacy', label: 'HTTP stateful, 2025 era' },
  { key: 'http-stateless', era: 'legacy', label: 'HTTP stateless, 2025 era' },
  { key: 'http-stateless', era: 'modern', label: 'HTTP, 2026-07-28' },
];

async function connect(kind, side, p, env) {
  const S = SIDES[side];
  const info = { name: 'ax-bench', version: '1.0.0' };
  // a 2025-era client: the v1 SDK's; a 2026-07-28 one: the v2 SDK's, pinned to that revision
  const modern = kind.era === 'modern';
  const client = modern
    ? new ModernClient(info, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
    : new Client(info);
  let stop = async () => {};
  let pid;
  if (kind.key === 'stdio') {
    const params = { command: NODE, args: S.argv(p), env, stderr: 'ignore' };
    const t = modern ? new ModernStdioTransport(params) : new StdioClientTransport(params);
    await client.connect(t);
    pid = t.pid;
  } else {
    const srv = await startHttp([...S.http(p), ...(kind.key === 'http-stateless' ? ['--stateless'] : [])], env);
    const url = new URL(srv.url);
    await client.connect(modern ? new ModernHttpTransport(url) : new StreamableHTTPClientTransport(url));
    stop = srv.stop;
    pid = srv.pid;
  }
  const call = async () => {
    const r = await client.callTool(S.params);
    if (r.isError)
      throw new Error(`${side} ${kind.label}: tools/call failed: ${JSON.stringify(r.content).slice(0, 300)}`);
  };
  return {
    call,
    cpu: () => serverCpu(pid),
    close: async () => {
      await client.close().catch(() => {});
      await stop();
    },
  };
}

/**
 * CPU time (ms) a server has used so far: the process `pid` and its descendants (a supervised stdio
 * server is two processes, the supervisor relaying bytes and the server running handlers), all
 * threads, from the schedstat file of each task under /proc/<pid>/task (nanoseconds on the CPU; far
 * finer than the 10 ms ticks of /proc/<pid>/stat). NaN off Linux.
 */
function serverCpu(pid) {
  try {
    let ns = 0;
    for (const q of descendants(pid))
      for (const t of readdirSync(`/proc/${q}/task`))
        ns += Number(readFileSync(`/proc/${q}/task/${t}/schedstat`, 'utf8').split(' ')[0]);
    return ns / 1e6;
  } catch {
    return NaN;
  }
}

/** `pid` and every process below it (from /proc/<pid>/task/<tid>/children). */
function descendants(pid) {
  const out = [];
  const walk = (p) => {
    out.push(p);
    let kids = [];
    try {
      for (const t of readdirSync(`/proc/${p}/task`))
        kids.push(
          ...readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
        );
    } catch {
      kids = [];
    }
    for (const k of kids) walk(k);
  };
  walk(pid);
  return out;
}

async function throughputRound(call, n) {
  let next = 0;
  const t0 = now();
  await Promise.all(
    Array.from({ length: INFLIGHT }, async () => {
      while (next < n) {
        next += 1;
        await call();
      }
    }),
  );
  return (n / (now() - t0)) * 1000;
}

async function toolCalls(p, report) {
  log(`\n[4/6] tools/call: ${COUNTS.calls} sequential calls per side, then ${INFLIGHT} in flight`);
  const env = childEnv({ TASKS_FILE: p.store3, HOME: os.tmpdir() });
  const lines = [
    '| transport, client era | server | server CPU per call | median | p99 | calls/s, 8 in flight | CPU / McpServer | CPU / minimal | throughput / McpServer | target | result |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|',
  ];
  const names = Object.keys(SIDES);
  for (const kind of CALL_KINDS) {
    const sides = {};
    try {
      for (const s of names) sides[s] = await connect(kind, s, p, env);
      for (let i = 0; i < COUNTS.warmup; i++) for (const s of names) await sides[s].call();
      const lat = Object.fromEntries(names.map((s) => [s, []]));
      const cpu0 = Object.fromEntries(names.map((s) => [s, sides[s].cpu()]));
      const prog = progressLine(`${kind.label} sequential`);
      for (let i = 0; i < COUNTS.calls; i++) {
        for (const s of rotate(names, i)) {
          const t0 = now();
          await sides[s].call();
          lat[s].push(now() - t0);
        }
        if ((i + 1) % 100 === 0 || i + 1 === COUNTS.calls) prog(i + 1, COUNTS.calls);
      }
      const cpuPerCall = Object.fromEntries(names.map((s) => [s, ((sides[s].cpu() - cpu0[s]) / COUNTS.calls) * 1000])); // µs
      const tput = Object.fromEntries(names.map((s) => [s, []]));
      for (let r = 0; r < COUNTS.tputRounds; r++)
        for (const s of rotate(names, r)) tput[s].push(await throughputRound(sides[s].call, COUNTS.tputCalls));
      const m = Object.fromEntries(
        names.map((s) => [s, { med: median(lat[s]), p99: p99(lat[s]), tput: median(tput[s]), cpu: cpuPerCall[s] }]),
      );
      for (const s of names) {
        const vsSdk = ratio(m[s].cpu, m.sdk.cpu);
        const vsMinimal = ratio(m[s].cpu, m.minimal.cpu);
        const tr = ratio(m[s].tput, m.sdk.tput);
        // the no-op tool: CPU ≤ 1.0× McpServer's and ≤ 1.5× the minimal server's, throughput ≥ 0.8×
        // McpServer's; the demo's show: CPU ≤ 2× the minimal server's
        const ok = s === 'noop' ? vsSdk <= 1 && vsMinimal <= 1.5 && tr >= 0.8 : s === 'ax' ? vsMinimal <= 2 : undefined;
        const target =
          s === 'noop'
            ? 'CPU ≤ 1.00× McpServer and ≤ 1.50× minimal, throughput ≥ 0.80× McpServer'
            : s === 'ax'
              ? 'CPU ≤ 2.00× minimal'
              : 'baseline';
        const baseline = s === 'minimal';
        lines.push(
          `| ${kind.label} | ${SIDES[s].label} | ${ms(m[s].cpu, 0)} µs | ${ms(m[s].med, 3)} ms | ${ms(m[s].p99, 2)} ms | ${m[s].tput.toFixed(0)} | ${s === 'sdk' ? '—' : rx(vsSdk)} | ${baseline ? '—' : rx(vsMinimal)} | ${s === 'sdk' ? '—' : rx(tr)} | ${target} | ${pf(ok)} |`,
        );
        if (s === 'ax')
          report.targets.push({
            target: `tools/call ${kind.label}: server CPU per call ≤ 2× minimal (\`tasks show\`)`,
            value: `${rx(vsMinimal)} (${ms(m[s].cpu, 0)} vs ${ms(m.minimal.cpu, 0)} µs)`,
            ok: vsMinimal <= 2,
          });
        if (s === 'noop') {
          report.targets.push({
            target: `tools/call ${kind.label}: server CPU per call ≤ 1.0× McpServer (ax-ts no-op tool)`,
            value: `${rx(vsSdk)} (${ms(m[s].cpu, 0)} vs ${ms(m.sdk.cpu, 0)} µs)`,
            ok: vsSdk <= 1,
          });
          report.targets.push({
            target: `tools/call ${kind.label}: server CPU per call ≤ 1.5× minimal (ax-ts no-op tool)`,
            value: `${rx(vsMinimal)} (${ms(m[s].cpu, 0)} vs ${ms(m.minimal.cpu, 0)} µs)`,
            ok: vsMinimal <= 1.5,
          });
          report.targets.push({
            target: `tools/call ${kind.label}: 8-in-flight throughput ≥ 0.8× McpServer (ax-ts no-op tool)`,
            value: `${rx(tr)} (${m[s].tput.toFixed(0)} vs ${m.sdk.tput.toFixed(0)} calls/s)`,
            ok: tr >= 0.8,
          });
        }
      }
    } finally {
      for (const s of Object.values(sides)) await s.close();
    }
  }
  report.calls = {
    lines,
    note:
      "Four servers, driven by the same client code (no `tools/list` first, so the client validates no output schema), calls alternated call by call: by a 2025-era client (the v1 SDK's `Client`: `initialize`, and over HTTP a session unless stateless) and a 2026-07-28 one (the v2 SDK's `Client` pinned to that revision: `_meta` on every request, no session; over HTTP it goes to the `--stateless` server, which serves it exactly as the stateful one does). " +
      "Server CPU per call = the server process's CPU time (all threads, from the schedstat of each task under /proc/<pid>/task) over the sequential calls, divided by their number. " +
      'ax-ts `tasks` calls `show {"id": "1"}` on a 3-task store: Ajv validation of the arguments against the tool\'s inputSchema, the handler reads and shape-checks the store file, the envelope and structuredContent are built. ' +
      'ax-ts no-op = test/bench/fixtures/ax-noop.ts: one command that returns "ok" — the framework\'s own cost per call, nothing else. ' +
      "McpServer = test/bench/fixtures/sdk-server.mjs: the v2 SDK's high-level `McpServer`, one `noop` tool registered with a zod input schema (what a TypeScript author writes by hand). " +
      "Minimal = test/bench/fixtures/minimal-server.mjs: the v2 SDK's low-level `Server`, a `noop` tool returning one text block, no validation, no I/O. " +
      'Both baselines are served as the SDK documents (sdk-hosting.mjs): `serveStdio`, and on express `createMcpHandler` for 2026-07-28 requests and the 2025 era per request (stateless) or in sessions (`NodeStreamableHTTPServerTransport`).',
  };
}

// ---------- 5. memory ----------

function peakRss(argv, env) {
  const r = spawnSync('/usr/bin/time', ['-f', '__maxrss %M', NODE, ...argv], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 60_000,
  });
  if (r.status !== 0)
    throw new Error(`/usr/bin/time ${argv.join(' ')}: exit ${r.status}: ${String(r.stderr).slice(-500)}`);
  return Number(/__maxrss (\d+)/.exec(String(r.stderr))?.[1]);
}

async function memory(p, report) {
  log('\n[5/6] memory');
  const env = childEnv({ TASKS_FILE: p.store1000, HOME: os.tmpdir() });
  const hasTime = existsSync('/usr/bin/time');
  const hookFile = join(dirname(p.floor), 'rss-hook.cjs');
  writeFileSync(
    hookFile,
    "process.on('exit', () => process.stderr.write(`\\n__maxrss ${process.resourceUsage().maxRSS}\\n`));\n",
  );
  const measure = (argv) => {
    if (hasTime) return peakRss(argv, env);
    const r = spawnSync(NODE, ['-r', hookFile, ...argv], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    return Number(/__maxrss (\d+)/.exec(String(r.stderr))?.[1]);
  };
  const members = [
    { label: 'node -e 0', argv: ['-e', '0'] },
    { label: 'ax-ts `tasks list --format json` (1,000-task store)', argv: [p.bin, 'list', '--format', 'json'] },
    { label: 'commander `tasks list --format json`', argv: [p.commander, 'list', '--format', 'json'] },
  ];
  const res = new Map(members.map((m) => [m, []]));
  for (let r = 0; r < COUNTS.rss; r++) for (const m of rotate(members, r)) res.get(m).push(measure(m.argv));
  const how = hasTime ? 'peak RSS (`/usr/bin/time -f %M`)' : 'peak RSS (`process.resourceUsage().maxRSS` at exit)';
  const lines = ['| process | memory | how |', '|---|---:|---|'];
  for (const m of members) lines.push(`| ${m.label} | ${mib(median(res.get(m)))} | ${how} |`);
  const axRss = median(res.get(members[1]));
  if (report.init) {
    for (const v of Object.values(report.init.mem))
      lines.push(
        `| ${v.label}, idle after initialize | ${mib(v.rss)} (peak ${mib(v.hwm)}) | VmRSS (VmHWM) from /proc, 150 ms after initialize |`,
      );
  }
  report.memory = { lines };
  report.targets.push({
    target: 'peak RSS of a command run (`tasks list`) ≤ 45 MiB',
    value: mib(axRss),
    ok: axRss <= 45 * 1024,
  });
}

// ---------- 6. __schema sizes ----------

/** ax-go's own `__schema` golden of examples/integration (reference data beside the repository). */
const AXGO_GOLDEN = join(ROOT, '../shared/data/ax-go-goldens/integration_schema_ax.golden.json');

/** Bytes of the injected flags' entries in an ax document (with their commas), and how many commands it has. */
function injectedBytes(doc) {
  let bytes = 0;
  let commands = 0;
  const walk = (c) => {
    commands++;
    for (const f of c.flags ?? []) if (f.builtin === true) bytes += JSON.stringify(f).length + 1;
    for (const k of c.commands ?? []) walk(k);
  };
  walk(doc.command);
  return { bytes, commands };
}

async function sizes(p, report) {
  log('\n[6/6] __schema sizes (bytes)');
  const env = childEnv({ HOME: os.tmpdir() });
  const out = (argv) => {
    const r = spawnSync(NODE, argv, { env, maxBuffer: 1 << 30 });
    if (r.status !== 0) throw new Error(`${argv.join(' ')}: exit ${r.status}: ${String(r.stderr).slice(-500)}`);
    return r.stdout;
  };
  const axProgram = async (name, fixture) => {
    const d = join(p.dir, name);
    mkdirSync(d, { recursive: true });
    return (await buildProgram({ entry: join(HERE, 'fixtures', fixture), outDir: d, name, precompute: false })).entry;
  };
  const bare = out([p.bin, '__schema']);
  const whole = out([p.bin, '__schema', '--full']);
  const inj = injectedBytes(JSON.parse(String(whole)));
  const perCommand = Math.round(inj.bytes / inj.commands);
  const integration = out([await axProgram('ax-integration', 'ax-go-integration.ts'), '__schema']).length;
  const one = out([await axProgram('app', 'ax-go-app.ts'), '__schema']).length;
  const golden = existsSync(AXGO_GOLDEN) ? statSync(AXGO_GOLDEN).size : undefined;
  const b = (n) => `${n.toLocaleString('en')} B`;
  const lines = ['| document | bytes |', '|---|---:|'];
  lines.push(`| demo: bare \`tasks __schema\` | ${b(bare.length)} |`);
  lines.push(`| demo: \`tasks __schema --full\` (the whole document) | ${b(whole.length)} |`);
  lines.push(
    `| demo: the injected flags' entries, per command (${b(inj.bytes)} over ${inj.commands} commands) | ${b(perCommand)} |`,
  );
  lines.push(`| ax-go's examples/integration rebuilt with ax-ts: \`__schema\` | ${b(integration)} |`);
  if (golden) lines.push(`| the same, ax-go's own golden | ${b(golden)} |`);
  lines.push(`| a one-command tree (ax-go's internal/schema test tree): \`__schema\` | ${b(one)} |`);
  report.sizes = { lines };
  report.targets.push({
    target: "demo's whole `__schema` document ≤ 16 KB, and the bare `__schema` is it",
    value: `${b(whole.length)}${bare.equals(whole) ? ', the same bytes' : ', bare differs'}`,
    ok: whole.length <= 16 * 1024 && bare.equals(whole),
  });
  report.targets.push({
    target: 'the injected flags add ≤ 600 B per command (demo)',
    value: b(perCommand),
    ok: perCommand <= 600,
  });
  if (golden)
    report.targets.push({
      target: "ax-go's examples/integration: ax document ≤ 1.2× ax-go's golden (12,178 B)",
      value: `${(integration / golden).toFixed(2)}× (${b(integration)})`,
      ok: integration <= 1.2 * golden,
    });
  report.targets.push({
    target: "a one-command tree's whole `__schema` document ≤ 6 KB",
    value: b(one),
    ok: one <= 6 * 1024,
  });
}

// ---------- report ----------

function markdown(report, m) {
  const out = [];
  out.push('# ax-ts benchmark results', '');
  out.push(
    `Written by \`node test/bench/run.mjs\`${QUICK ? ' (BENCH_QUICK=1: a smoke run, numbers are not meaningful)' : ''}. Pair members alternate round by round; every ratio compares medians from the same run.`,
    '',
  );
  out.push('## Machine', '');
  out.push(`- CPU: ${m.cpu}, ${m.cores} cores; memory ${m.memory}`);
  out.push(`- ${m.platform}; Node ${m.node}`);
  out.push(`- date ${m.date}; commit ${m.commit}`);
  out.push(`- load average at start (1/5/15 min): ${m.loadStart}; at end: ${m.loadEnd}`);
  out.push(
    `- runs per member: cold start ${COUNTS.cold}, trees ${COUNTS.tree}, spawn→initialize ${COUNTS.init}, sequential calls ${COUNTS.calls}, throughput ${COUNTS.tputRounds} rounds × ${COUNTS.tputCalls} calls, RSS ${COUNTS.rss}; total time ${m.elapsed}`,
  );
  out.push('');
  if (report.targets.length) {
    out.push('## Targets (docs/performance.md)', '', '| target | measured | result |', '|---|---:|---|');
    for (const t of report.targets) out.push(`| ${t.target} | ${t.value} | ${pf(t.ok)} |`);
    out.push('');
  }
  if (report.cold) {
    out.push('## Cold start, bundled (ms, median)', '');
    out.push(
      'ax-ts = `node dist/bin/tasks.js …` (a byte-identical snapshot of dist/bin taken at the start of the run: the entry `ax-ts build` writes, with its precomputed `--version`/`--help`, one CommonJS bundle run through the V8 code cache, and chunks it does not load for these rows). commander, citty and cac = the same six commands on commander 14, citty and cac (test/bench/fixtures/*-tasks.mjs, sharing tasks-core.mjs), each bundled by esbuild into one CommonJS file; their `__schema` is a hand-written walk of their tree. `list` runs on a 1,000-task store (prints 50).',
      '',
    );
    out.push(...report.cold.lines, '', ...report.cold.notes, '');
  }
  if (report.user)
    out.push(
      "## A user's CLI (ms, median)",
      '',
      'bm (test/bench/projects/bm: written from the docs, public API only) with ax-ts from `npm pack` of this checkout, as plain tsc output (`node dist/main.js`) and as `ax-ts build` output (`node dist/bin/main.js`); the same CLI on commander and on citty (test/bench/projects/bm-commander, bm-citty) as tsc output and as one esbuild ESM bundle each. `link list` reads a 20-link store.',
      '',
      ...report.user.lines,
      '',
    );
  if (report.trees) {
    out.push('## `__schema` on generated trees', '');
    out.push(
      'Trees from test/bench/gen-tree.mjs (n leaf commands under n/50 groups, one positional and 5 flags each, declared literally with the public API; each group a lazy subtree in a module of its own, which the build makes a chunk; the `addCommand` variant is one module), each built like dist/bin/tasks.js (`ax-ts build`). "work in process" = time from the end of Node\'s bootstrap to exit, measured inside the process; peak RSS from `process.resourceUsage().maxRSS`.',
      '',
    );
    out.push(...report.trees.lines, '', ...report.trees.notes, '');
  }
  if (report.init)
    out.push(
      '## `mcp-server` spawn → initialize (stdio)',
      '',
      "Time from spawn until the initialize result is read from the child's stdout; the same raw JSON-RPC line is written to each. Minimal = test/bench/fixtures/minimal-server.mjs (SDK low-level `Server`, one no-op tool; its HTTP stack is a lazy chunk), ax-ts no-op = test/bench/fixtures/ax-noop.ts; both bundled like dist/bin/tasks.js.",
      '',
      ...report.init.lines,
      '',
    );
  if (report.calls) out.push('## `tools/call`', '', report.calls.note, '', ...report.calls.lines, '');
  if (report.memory) out.push('## Memory', '', ...report.memory.lines, '');
  if (report.sizes)
    out.push(
      '## `__schema` sizes (bytes)',
      '',
      "Bytes of stdout, exact. The demo is dist/bin/tasks.js; ax-go's trees are rebuilt with ax-ts in test/fixtures/ax-go-trees.ts and built like it (`ax-ts build`, no manifest); ax-go's golden is read from ../shared/data/ax-go-goldens.",
      '',
      ...report.sizes.lines,
      '',
    );
  return out.join('\n');
}

// ---------- main ----------

async function mainBench() {
  const t0 = Date.now();
  if (!existsSync(BIN)) {
    log(`bench: ${relative(process.cwd(), BIN)} is missing: run \`npm run build\` first (npm run bench does).`);
    process.exit(1);
  }
  try {
    createRequire(import.meta.url).resolve('commander');
  } catch {
    log('bench: commander is missing: it is a devDependency of the benchmark (the baseline CLI); run `npm install`.');
    process.exit(1);
  }
  const m = machine();
  log(
    `ax-ts benchmark${QUICK ? ' (BENCH_QUICK=1)' : ''}: ${m.cpu}, ${m.cores} cores, Node ${m.node}, load ${m.loadStart}`,
  );
  const dir = mkdtempSync(join(os.tmpdir(), 'ax-bench-'));
  const report = { targets: [] };
  try {
    log(`preparing bundles and trees in ${dir}`);
    const p = await prepare(dir);
    if (ONLY.has('cold')) await coldStart(p, report);
    if (ONLY.has('user')) await userCli(p, report);
    if (ONLY.has('trees')) await trees(p, report);
    if (ONLY.has('init') || ONLY.has('memory')) await serverInit(p, report);
    if (ONLY.has('calls')) await toolCalls(p, report);
    if (ONLY.has('memory')) await memory(p, report);
    if (ONLY.has('sizes')) await sizes(p, report);
  } finally {
    if (process.env.BENCH_KEEP === '1') log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  m.loadEnd = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  m.elapsed = `${((Date.now() - t0) / 1000).toFixed(0)} s`;
  const md = markdown(report, m);
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${md}\n`);
  process.stdout.write(`\n${md}\n`);
  log(`\nwritten to ${relative(process.cwd(), OUT) || OUT}`);
}

mainBench().catch((e) => {
  log(`bench: broken: ${e?.stack ?? e}`);
  process.exit(1);
});
