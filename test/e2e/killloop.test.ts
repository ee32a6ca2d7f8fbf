/**
 * kill -9 at random instants, on CLI writers and on a writing MCP server, against one demo store
 * (the built `dist/bin/tasks.js`, as users run it): every acknowledged task is present afterwards,
 * the store is valid after every kill, any lock left behind names its owner, and no writer is ever
 * blocked by a lock whose owner is dead (every writer not killed succeeds). Issue 13.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readStore } from '../../cmd/tasks/store.ts';
import { childrenOf } from '../helpers/mcp.ts';

const BIN = resolve(import.meta.dirname, '../../dist/bin/tasks.js');
const dir = mkdtempSync(join(tmpdir(), 'ax-killloop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = (file: string) => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, TASKS_FILE: file });

/** After a kill: the store parses and validates; a lock, if any, names a pid. */
async function checkStore(file: string): Promise<void> {
  await readStore(file); // throws store_corrupt on a broken file
  if (existsSync(`${file}.lock`)) {
    let raw: string;
    try {
      raw = readFileSync(`${file}.lock`, 'utf8');
    } catch {
      return; // released meanwhile
    }
    expect(typeof (JSON.parse(raw) as { pid?: unknown }).pid, `lock content: ${JSON.stringify(raw)}`).toBe('number');
  }
}

/** Kills `pid` and the processes it started (a server's helpers), all with SIGKILL. */
function killTree(pid: number): void {
  for (const c of childrenOf(pid)) killTree(c);
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* gone */
  }
}

describe('kill -9 loop on the demo store', () => {
  it('200 CLI writers (4 at a time), each killed at a random instant or left to finish', async () => {
    expect(existsSync(BIN), `${BIN} is missing: run npm run build`).toBe(true);
    const file = join(dir, 'cli.json');
    const acked = new Map<number, string>();
    let typical = 400; // ms an uninterrupted `add` takes here; adapted as runs complete
    let finished = 0;
    let killed = 0;
    const t0 = Date.now();
    const lane = async (l: number) => {
      for (let i = 0; i < 50; i++) {
        const title = `cli-${l}-${i}`;
        const child = spawn(process.execPath, [BIN, 'add', title, '--format', 'json'], {
          env: env(file),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (c: Buffer) => (out += c));
        child.stderr.on('data', (c: Buffer) => (err += c));
        const started = Date.now();
        const kill = i % 5 !== 4; // one in five runs to completion
        const timer = kill ? setTimeout(() => child.kill('SIGKILL'), typical * (0.4 + Math.random() * 0.8)) : undefined;
        const [code, signal] = await new Promise<[number | null, string | null]>((r) =>
          child.once('close', (c, s) => r([c, s])),
        );
        clearTimeout(timer);
        if (signal === 'SIGKILL') killed++;
        else {
          expect(code, `writer ${title} was not killed and failed: ${err}`).toBe(0); // never store_locked by a dead owner
          const id = (JSON.parse(out) as { data: { id: number } }).data.id;
          acked.set(id, title);
          finished++;
          typical = typical * 0.8 + (Date.now() - started) * 0.2;
        }
        await checkStore(file);
      }
    };
    await Promise.all([0, 1, 2, 3].map(lane));
    const ms = Date.now() - t0;
    const data = await readStore(file);
    for (const [id, title] of acked)
      expect(data.tasks.find((t) => t.id === id)?.title, `acknowledged task ${id}`).toBe(title);
    expect(finished + killed).toBe(200);
    expect(finished).toBeGreaterThanOrEqual(40);
    process.stderr.write(
      `kill loop (CLI): 200 rounds in ${ms} ms, ${killed} killed, ${finished} finished, ${data.tasks.length} tasks in the store\n`,
    );
  }, 120_000);

  it('a writing MCP server killed at random instants, 40 rounds (2 at a time): every acknowledged add is in the store', async () => {
    expect(existsSync(BIN), `${BIN} is missing: run npm run build`).toBe(true);
    const file = join(dir, 'mcp.json');
    const acked = new Map<number, string>();
    let rounds = 0;
    const t0 = Date.now();
    const lane = async (l: number) => {
      for (let i = 0; i < 20; i++) {
        const child = spawn(process.execPath, [BIN, 'mcp-server'], { env: env(file), stdio: ['pipe', 'pipe', 'pipe'] });
        child.stdin.on('error', () => {});
        let buf = '';
        let ready = () => {};
        const initialized = new Promise<void>((r) => (ready = r));
        child.stdout.on('data', (c: Buffer) => {
          buf += c;
          for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
            const m = JSON.parse(buf.slice(0, nl)) as {
              id?: number;
              result?: { isError?: boolean; structuredContent?: { id: number; title: string } };
            };
            buf = buf.slice(nl + 1);
            if (m.id === 0) ready();
            const sc = m.result?.structuredContent;
            if (typeof m.id === 'number' && !m.result?.isError && sc) acked.set(sc.id, sc.title);
          }
        });
        const send = (o: object) => child.stdin.write(`${JSON.stringify(o)}\n`);
        send({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'kill', version: '1' } },
        });
        send({ jsonrpc: '2.0', method: 'notifications/initialized' });
        for (let k = 1; k <= 8; k++)
          send({
            jsonrpc: '2.0',
            id: k,
            method: 'tools/call',
            params: { name: 'add', arguments: { title: [`mcp-${l}-${i}-${k}`] } },
          });
        // kill while the adds run: a random instant in the first 120 ms after initialize is answered
        await Promise.race([initialized, new Promise((r) => setTimeout(r, 10_000))]);
        await new Promise((r) => setTimeout(r, Math.random() * 120));
        if (child.pid) killTree(child.pid);
        await new Promise((r) => child.once('close', r));
        rounds++;
        await checkStore(file);
      }
    };
    await Promise.all([0, 1].map(lane));
    const ms = Date.now() - t0;
    const data = await readStore(file);
    for (const [id, title] of acked)
      expect(data.tasks.find((t) => t.id === id)?.title, `acknowledged task ${id}`).toBe(title);
    expect(acked.size).toBeGreaterThan(0);
    // the store is free: a writer after the loop is not blocked by any dead owner's lock
    const after = spawn(process.execPath, [BIN, 'add', 'after', '--format', 'json'], {
      env: env(file),
      stdio: 'ignore',
    });
    expect(await new Promise((r) => after.once('close', r))).toBe(0);
    process.stderr.write(
      `kill loop (MCP): ${rounds} rounds in ${ms} ms, ${acked.size} adds acknowledged, ${data.tasks.length} tasks in the store\n`,
    );
  }, 120_000);
});
