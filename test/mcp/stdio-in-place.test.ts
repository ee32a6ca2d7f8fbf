/**
 * Served in place: a program built with `ax-ts build` run as a bare `mcp-server` over pipes or sockets
 * serves in the process the client started (lib/build/in-place.ts), with fd 0 on /dev/null,
 * fd 1 on stderr and the client's streams on descriptors of their own, so the supervisor's second
 * Node start is gone while its guarantee stays: every stdout byte is JSON-RPC, whatever writes to
 * fd 1 (the five ways of the cases CLI's `bypass` tool) lands on stderr, and a child a handler spawns
 * holds neither protocol stream. Shown for the three shapes clients start a server with: Node's
 * socketpairs with stderr piped (fd 1 then goes to stderr through a `cat`) or ignored, and a shell
 * pipeline's kernel pipes; plus SIGTERM, stdin EOF, and the fallback to the supervisor when stderr is
 * a regular file. Linux only (reads /proc). Requires `npm run build` (npm test runs it first).
 */
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { closeSync, mkdtempSync, openSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundledFixture } from '../helpers/bundled.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { INIT_LINES } from '../helpers/pipeline.ts';

const linux = process.platform === 'linux';
const T = 60_000;
let entry: string;
/** A bundled program without an MCP server (test/fixtures/words-cli.ts). */
let words: string;
let dir: string;

beforeAll(async () => {
  if (!linux) return;
  ({ entry, dir } = await bundledFixture('test/fixtures/mcp-cases-cli.ts', 'cases', { prefix: 'ax-in-place-' }));
  words = (await bundledFixture('test/fixtures/words-cli.ts', 'words', { dir: join(dir, 'words') })).entry;
}, 120_000);

const env = (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: dir,
  XDG_CACHE_HOME: join(dir, 'cache'),
  ...extra,
});
const WAYS = ['writesync', 'stream', 'devstdout', 'captured-spawn', 'stdout-end'] as const;
const call = (id: number, name: string, args: object = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const LINES = [
  ...INIT_LINES,
  ...WAYS.map((how, i) => call(30 + i, 'bypass', { how })),
  call(40, 'pong'),
  call(41, 'fds'),
  call(42, 'printer'),
];
const IDS = [...WAYS.map((_, i) => 30 + i), 40, 41, 42];

type Msg = { jsonrpc?: string; id?: unknown; result?: { isError?: boolean; content: { text: string }[] } };
type Fds = { self: string[]; child: string[] };
const textOf = (m: Msg | undefined) =>
  JSON.parse(m!.result!.content[0]!.text) as { data?: Record<string, unknown>; error?: { message: string } };
const target = (fds: string[], fd: string) => fds.find((l) => l.split(' ')[0] === fd)?.split(' ')[1];

/** The targets of this process's own descriptors. */
function heldHere(): string[] {
  const out: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      out.push(readlinkSync(`/proc/self/fd/${fd}`));
    } catch {
      /* closed meanwhile */
    }
  }
  return out;
}

/** The pids of the child processes of `pid` (from /proc). */
function kidsOf(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const t of readdirSync(`/proc/${pid}/task`))
      out.push(
        ...readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
      );
  } catch {
    /* gone */
  }
  return out;
}

/** A process's command line, space-joined ('' once gone). */
function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** The command lines of the child processes of `pid`. */
function childrenOf(pid: number): string[] {
  return kidsOf(pid).map(cmdline).filter(Boolean);
}

/** Every process below `pid`. */
function descendants(pid: number): number[] {
  const kids = kidsOf(pid);
  return [...kids, ...kids.flatMap(descendants)];
}

interface Run {
  code: number | null;
  messages: Msg[];
  stdout: string;
  stderr: string;
  /** The command lines of the server's children once every answer was in. */
  kids: string[];
  byId(id: number): Msg | undefined;
}

/**
 * Spawns the fixture's `mcp-server` as Node's spawn does (socketpairs on stdin and stdout), stderr
 * piped or ignored; feeds `lines`, keeps stdin open until every id in `ids` is answered, then ends it.
 */
async function overSockets(
  stderr: 'pipe' | 'ignore' | number,
  lines: string[],
  ids: number[],
  extra: Record<string, string> = {},
): Promise<Run> {
  const p = spawn(process.execPath, [entry, 'mcp-server'], {
    env: env(extra),
    stdio: ['pipe', 'pipe', stderr],
  }) as ChildProcessByStdio<Writable, Readable, Readable | null>;
  let out = '';
  let err = '';
  p.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const answered = new Promise<void>((resolve) => {
    p.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const got = new Set(
        out
          .split('\n')
          .filter(Boolean)
          .map((l) => (JSON.parse(l) as Msg).id),
      );
      if (ids.every((id) => got.has(id))) resolve();
    });
  });
  p.stdin.write(`${lines.join('\n')}\n`);
  await answered;
  const kids = childrenOf(p.pid!);
  p.stdin.end();
  const code = await new Promise<number | null>((r) => p.once('exit', r));
  await new Promise((r) => setTimeout(r, 100)); // the relay's last bytes
  return result(code, out, err, kids);
}

/**
 * The same through a shell pipeline, `(cat in; wait) | server 2> >(cat >err) | cat >out`: stdin stays
 * open until every answer is out and the server's process tree has been read. `stderrSocket`: the
 * server's stderr is the shell's own, a socketpair from Node's spawn, instead of a pipe.
 */
async function overKernelPipes(lines: string[], ids: number[], stderrSocket = false): Promise<Run> {
  const d = mkdtempSync(join(dir, 'pipe-'));
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const [inFile, outFile, errFile, seen] = ['in', 'out', 'err', 'seen'].map((f) => join(d, f)) as [
    string,
    string,
    string,
    string,
  ];
  writeFileSync(inFile, `${lines.join('\n')}\n`);
  const feed = `(cat ${q(inFile)}; until [ -e ${q(seen)} ]; do sleep 0.05; done)`;
  const toErr = stderrSocket ? '' : ` 2> >(cat >${q(errFile)})`;
  const script = `${feed} | ${q(process.execPath)} ${q(entry)} mcp-server${toErr} | cat >${q(outFile)}; echo "\${PIPESTATUS[1]}" >${q(join(d, 'rc'))}`;
  const sh = spawn('bash', ['-c', script], {
    env: env(),
    stdio: ['ignore', 'ignore', stderrSocket ? 'pipe' : 'ignore'],
  });
  let err = '';
  sh.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<void>((resolve) => sh.once('exit', () => resolve()));
  const answered = () => {
    try {
      const got = new Set(
        readFileSync(outFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => (JSON.parse(l) as Msg).id),
      );
      return ids.every((id) => got.has(id));
    } catch {
      return false;
    }
  };
  // the servers of this pipeline: processes running the fixture's entry under this bash
  const serversNow = () =>
    descendants(sh.pid!).filter((pid) => cmdline(pid) === `${process.execPath} ${entry} mcp-server`);
  // a server that fails ends the wait (and the feed, below), so no shell is left polling
  let started = false;
  for (
    const until = Date.now() + 20_000;
    !answered() && Date.now() < until;
    await new Promise((r) => setTimeout(r, 50))
  ) {
    if (serversNow().length) started = true;
    else if (started) break;
  }
  const servers = serversNow();
  const kids = servers.flatMap((pid) => childrenOf(pid));
  writeFileSync(seen, '');
  await exited;
  await new Promise((r) => setTimeout(r, 200)); // the process substitution's cat
  const code = Number(readFileSync(join(d, 'rc'), 'utf8'));
  return result(code, readFileSync(outFile, 'utf8'), stderrSocket ? err : readFileSync(errFile, 'utf8'), kids);
}

function result(code: number | null, stdout: string, stderr: string, kids: string[]): Run {
  const messages = stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Msg); // a stray line is not JSON: throws
  return { code, messages, stdout, stderr, kids, byId: (id) => messages.find((m) => m.id === id) };
}

const CLIENTS = [
  {
    name: "Node's spawn, stderr piped (socketpairs; fd 1 copied to stderr by a cat)",
    run: () => overSockets('pipe', LINES, IDS),
    fd1: 'relay',
    seen: true,
  },
  {
    name: "Node's spawn, stderr ignored (socketpairs; fd 1 on /dev/null, stderr's own file)",
    run: () => overSockets('ignore', LINES, IDS),
    fd1: 'stderr',
    seen: false,
  },
  {
    name: 'a shell pipeline (kernel pipes), stderr a pipe',
    run: () => overKernelPipes(LINES, IDS),
    fd1: 'stderr',
    seen: true,
  },
  // the only spawn is the relay's, Node's first: it puts /dev/null on the closed fd 1 before its pipe (review of 06b1796)
  {
    name: 'a shell pipeline (kernel pipes), stderr a unix socket (fd 1 copied to stderr by a cat)',
    run: () => overKernelPipes(LINES, IDS, true),
    fd1: 'relay',
    seen: true,
  },
] as const;

describe.runIf(linux).concurrent('mcp-server served in place (bundled entry)', () => {
  it.each(CLIENTS)(
    '$name: only JSON-RPC on stdout, fd 1 lands on stderr, children hold no protocol stream, exit 0 at EOF',
    async ({ run, fd1, seen }) => {
      const r = await run();
      expect(r.code).toBe(0);
      for (const m of r.messages) expect(m.jsonrpc).toBe('2.0');
      expect(textOf(r.byId(40)).data).toEqual({ pong: true });
      // console.log during a call: in that call's result (docs/mcp-server.md#printed-output), nowhere else
      expect(r.byId(42)!.result!.content[1]!.text).toBe('printed line one\nprinted two\n');
      expect(r.stderr).not.toContain('printed line one');
      for (const [i, how] of WAYS.entries()) {
        const answer = r.byId(30 + i);
        if (how === 'devstdout' && fd1 === 'relay') {
          // fd 1 is a socket, which cannot be opened by path (as under the supervisor with a piped stderr)
          expect(textOf(answer).error?.message).toMatch(/ENXIO/);
          continue;
        }
        expect(textOf(answer).data, how).toEqual({ how });
        if (seen) expect(r.stderr, how).toContain(`stray bytes by ${how}`);
      }
      const fds = textOf(r.byId(41)).data as unknown as Fds;
      expect(target(fds.self, '0')).toBe('/dev/null');
      if (fd1 === 'stderr') expect(target(fds.self, '1')).toBe(target(fds.self, '2'));
      else expect(target(fds.self, '1')).toMatch(/^socket:/);
      // what the server holds besides fds 0-2 (the client's streams among it), less what it inherited
      // from outside (descriptors this test process holds too, left open by whoever started it)
      const outside = new Set(heldHere());
      const own = new Set(fds.self.filter((l) => Number(l.split(' ')[0]) > 2).map((l) => l.split(' ')[1]!));
      const inChild = fds.child
        .map((l) => l.split(' ')[1]!)
        .filter((t) => own.has(t) && !outside.has(t) && t !== target(fds.self, '2'));
      expect(inChild).toEqual([]);
      // no server process of its own, no helper left: the process the client started serves
      expect(r.kids.filter((k) => k.includes(entry))).toEqual([]);
    },
    T,
  );

  it(
    'a start busier than the hand-back limit (10 s) is still served: the limit counts from the server being ready',
    async () => {
      const r = await overSockets('ignore', [...INIT_LINES, call(40, 'pong')], [40], {
        MCP_CASES_BUSY_START_MS: '10500',
      });
      expect(r.code).toBe(0);
      expect(textOf(r.byId(40)).data).toEqual({ pong: true });
    },
    T,
  );

  it(
    "a NODE_OPTIONS preload's writes to fd 1 (an exit hook) never reach the protocol: not from the server, not from the helper",
    async () => {
      const pre = join(dir, 'preload.cjs');
      writeFileSync(
        pre,
        `process.on('exit', () => { try { require('fs').writeSync(1, 'exit hook of ' + process.pid + '\\n'); } catch {} });\n`,
      );
      const r = await overSockets('pipe', [...INIT_LINES, call(40, 'pong')], [40], {
        NODE_OPTIONS: `--require ${pre}`,
      });
      expect(r.code).toBe(0);
      for (const m of r.messages) expect(m.jsonrpc).toBe('2.0'); // a stray line would not even parse
      expect(r.stderr).toMatch(/exit hook of \d+/); // the server's own, on stderr
    },
    T,
  );

  it.each([
    [
      'stderr a named FIFO whose reader has gone (an open would wait for one)',
      'mkfifo "$D/f"; exec 3<>"$D/f" 4>"$D/f"; exec 3<&-; rm "$D/f"; ERR=4',
    ],
    ['stderr the read end of the stdin pipe (2<&0)', 'ERR=0'],
  ])(
    '%s: not served in place — answered, exit 0',
    async (_, setup) => {
      const d = mkdtempSync(join(dir, 'odd-'));
      const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
      writeFileSync(join(d, 'in'), `${[...INIT_LINES, call(40, 'pong')].join('\n')}\n`);
      const script = `D=${q(d)}; ${setup}; (cat "$D/in"; sleep 1) | ${q(process.execPath)} ${q(entry)} mcp-server 2>&$ERR | cat >"$D/out"; echo "\${PIPESTATUS[1]}" >"$D/rc"`;
      await new Promise<void>((resolve) =>
        spawn('bash', ['-c', `timeout 20 bash -c ${q(script)}`], { env: env(), stdio: 'ignore' }).once('exit', () =>
          resolve(),
        ),
      );
      expect(readFileSync(join(d, 'rc'), 'utf8').trim()).toBe('0');
      const r = result(0, readFileSync(join(d, 'out'), 'utf8'), '', []);
      expect(textOf(r.byId(40)).data).toEqual({ pong: true });
    },
    T,
  );

  it.each([
    ['served in place', {}],
    ['supervised', { AX_MCP_IN_PLACE: '0' }],
  ])(
    '%s: a 2 MB answer to a reader that starts reading 2.5 s after stdin ended arrives whole, exit 0',
    async (_, extra) => {
      const d = mkdtempSync(join(dir, 'slow-'));
      const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
      const text = 'x'.repeat(2_000_000);
      writeFileSync(join(d, 'in'), `${[...INIT_LINES, call(40, 'echo', { text })].join('\n')}\n`);
      const script = `cat "$D/in" | ${q(process.execPath)} ${q(entry)} mcp-server 2>"$D/err" | (sleep 2.5; cat >"$D/out"); echo "\${PIPESTATUS[1]}" >"$D/rc"`;
      await new Promise<void>((resolve) =>
        spawn('bash', ['-c', script], { env: { ...env(extra), D: d }, stdio: 'ignore' }).once('exit', () => resolve()),
      );
      expect(readFileSync(join(d, 'rc'), 'utf8').trim()).toBe('0');
      const r = result(0, readFileSync(join(d, 'out'), 'utf8'), '', []); // a cut line would not parse
      expect(textOf(r.byId(40)).data).toEqual({ text });
      expect(readFileSync(join(d, 'err'), 'utf8')).toBe('');
    },
    T,
  );

  it(
    'a bundled program without an MCP server, given `mcp-server` as its one word over pipes, is not switched: its envelope reaches stdout',
    async () => {
      const r = spawnSync(process.execPath, [words, 'mcp-server'], { env: env(), input: '', encoding: 'utf8' }); // stdin, stdout, stderr: socketpairs
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).data).toEqual({ words: { word: ['mcp-server'] } });
      expect(r.stderr).toBe('');
    },
    T,
  );

  it(
    'SIGTERM: answered calls, exit 0, nothing on stderr',
    async () => {
      const p = spawn(process.execPath, [entry, 'mcp-server'], { env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      p.stderr.on('data', (c: Buffer) => (err += c.toString()));
      const pong = new Promise<void>((resolve) =>
        p.stdout.on('data', (c: Buffer) => ((out += c.toString()), out.includes('"id":40') && resolve())),
      );
      p.stdin.write(`${[...INIT_LINES, call(40, 'pong')].join('\n')}\n`);
      await pong;
      p.kill('SIGTERM');
      const code = await new Promise<number | null>((r) => p.once('exit', r));
      expect(code).toBe(0);
      expect(err).toBe('');
    },
    T,
  );

  it(
    'stderr a regular file: not served in place — the supervisor and its server process serve, the same answers',
    async () => {
      const errFile = join(dir, 'stderr.log');
      const fd = openSync(errFile, 'w');
      try {
        const r = await overSockets(fd, [...INIT_LINES, call(40, 'pong')], [40]);
        expect(r.code).toBe(0);
        expect(textOf(r.byId(40)).data).toEqual({ pong: true });
        expect(r.kids.filter((k) => k.includes(entry))).toHaveLength(1); // the server process
      } finally {
        closeSync(fd);
      }
      expect(readFileSync(errFile, 'utf8')).toBe('');
    },
    T,
  );

  it(
    'AX_MCP_IN_PLACE=0: the supervisor serves, as before',
    async () => {
      const r = await overSockets('pipe', [...INIT_LINES, call(40, 'pong')], [40], { AX_MCP_IN_PLACE: '0' });
      expect(r.code).toBe(0);
      expect(textOf(r.byId(40)).data).toEqual({ pong: true });
      expect(r.kids.filter((k) => k.includes(entry))).toHaveLength(1);
    },
    T,
  );
});
