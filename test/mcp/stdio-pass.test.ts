/**
 * How the stdio supervisor hands the client's streams to the server process (mcp/supervise.ts):
 * - pipes or sockets (a shell pipeline's kernel pipes; the socketpairs an SDK client spawns with) are
 *   passed: the server process holds the very pipes the supervisor got as fd 0 and fd 1, so no byte is
 *   relayed — and a child the handler spawns still inherits neither;
 * - anything else (stdin from a file) is relayed over a private socket, and is answered the same.
 * Linux only (reads /proc); the behaviour elsewhere is the relay, covered by the other stdio tests.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASES_CLI, connectStdio, envelopeOf, REPO, tempDir, TSX_LOADER } from '../helpers/mcp.ts';
import { INIT_LINES } from '../helpers/pipeline.ts';

const T = 30_000;
const linux = process.platform === 'linux';
type Fds = { self: string[]; parent: string[]; child: string[] };
const target = (line: string) => line.slice(line.indexOf(' ') + 1);
const call = (id: number) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'fds', arguments: {} } });
const fdsOf = (text: string) => (JSON.parse(text) as { data: Fds }).data;

/** The supervisor's fd 0 and fd 1 targets, and which of them the server process and its child hold. */
function where(fds: Fds) {
  const protocol = fds.parent.map(target);
  expect(protocol).toHaveLength(2);
  return {
    protocol,
    inServer: protocol.filter((p) => fds.self.map(target).includes(p)),
    inChild: protocol.filter((p) => fds.child.map(target).includes(p)),
  };
}

/**
 * Runs the fixture's `mcp-server` in the bash command `script(server, input, out)` builds (quoted
 * paths), feeding initialize and one `fds` call, and returns the exit code and that call's answer.
 */
async function shell(
  script: (server: string, input: string, out: string) => string,
): Promise<{ code: number | null; fds: Fds; inFile: string }> {
  const dir = tempDir('ax-pass-');
  try {
    const inFile = join(dir.path, 'in');
    writeFileSync(inFile, `${[...INIT_LINES, call(2)].join('\n')}\n`);
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const server = [process.execPath, '--import', TSX_LOADER, CASES_CLI, 'mcp-server'].map(q).join(' ');
    const out = join(dir.path, 'out');
    const code = await new Promise<number | null>((resolve) => {
      const sh = spawn('bash', ['-c', script(server, q(inFile), q(out))], {
        cwd: REPO,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' },
        stdio: 'ignore',
      });
      sh.once('exit', (c) => resolve(c));
    });
    const msgs = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id?: unknown; result?: { content: { text: string }[] } });
    const answer = msgs.find((m) => m.id === 2);
    expect(answer?.result, JSON.stringify(msgs)).toBeDefined();
    return { code, fds: fdsOf(answer!.result!.content[0]!.text), inFile };
  } finally {
    dir.cleanup();
  }
}

describe.runIf(linux).concurrent('the stdio supervisor passes pipes, relays the rest', () => {
  it(
    'a shell pipeline (kernel pipes): the server process holds both client pipes itself; its child holds neither',
    async () => {
      // stdin stays open until the answer is out, so the server still holds it when it answers
      const r = await shell(
        (server, input, out) =>
          `(cat ${input}; until grep -q '"id":2' ${out} 2>/dev/null; do sleep 0.05; done) | ${server} 2>/dev/null | cat >${out}; exit "\${PIPESTATUS[1]}"`,
      );
      expect(r.code).toBe(0);
      const w = where(r.fds);
      expect(w.protocol.every((p) => p.startsWith('pipe:['))).toBe(true);
      expect(w.inServer).toEqual(w.protocol);
      expect(w.inChild).toEqual([]);
    },
    T,
  );

  it(
    'the SDK client (socketpairs): passed the same way; the call is answered through them',
    async () => {
      const c = await connectStdio();
      try {
        const res = await c.client.callTool({ name: 'fds', arguments: {} });
        const w = where(envelopeOf(res as { content?: unknown }).data as Fds);
        expect(w.protocol.every((p) => p.startsWith('socket:['))).toBe(true);
        expect(w.inServer).toEqual(w.protocol);
        expect(w.inChild).toEqual([]);
      } finally {
        await c.client.close();
      }
    },
    T,
  );

  it(
    "stdin from a file: relayed — the server process holds neither of the supervisor's streams, answers the same, exits 0",
    async () => {
      const r = await shell(
        (server, input, out) => `${server} <${input} 2>/dev/null | cat >${out}; exit "\${PIPESTATUS[0]}"`,
      );
      expect(r.code).toBe(0);
      const w = where(r.fds);
      expect(w.protocol[0]).toBe(r.inFile);
      expect(w.inServer).toEqual([]);
      expect(w.inChild).toEqual([]);
    },
    T,
  );
});
