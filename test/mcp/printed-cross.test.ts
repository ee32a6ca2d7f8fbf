/**
 * Printed output never crosses calls (docs/mcp-server.md#printed-output): over stateless HTTP, two
 * clients — what a timer left by one call prints while another call runs is not in the other's
 * result but in the server's own output; so is what a listener one call attached to a shared
 * emitter prints when another call fires it; what a call prints from a listener on a pooled socket
 * another call opened is its own. The call's own prints stay its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { connectEra, startHttp, type EraClient, type HttpFixture } from '../helpers/eras.ts';
import { REPO } from '../helpers/spawn.ts';

const CLI = join(REPO, 'test/fixtures/printed-cross-cli.ts');
let server: HttpFixture;
const clients: EraClient[] = [];

beforeAll(async () => {
  server = await startHttp(CLI, ['--stateless']);
}, 60_000);
afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await server?.stop();
});

const texts = (r: Record<string, any>) => (r.content as { text: string }[]).map((c) => c.text);
const client = async (era: 'legacy' | 'modern') => {
  const c = await connectEra(era, 'http-stateless', { cli: CLI, url: server.url });
  clients.push(c);
  return c;
};

describe('stateless HTTP, two clients', () => {
  it('a timer call A left prints during call B: not in B’s result, in the server’s output', async () => {
    const [a, b] = await Promise.all([client('modern'), client('legacy')]);
    expect(texts(await a.callTool('leave'))).toHaveLength(1);
    const r = await b.callTool('linger');
    expect(texts(r).slice(1)).toEqual(['linger start\nlinger end\n']);
    await expect.poll(() => server.stdout()).toContain('timer of leave\n');
  }, 60_000);

  it('a listener call A attached to a shared emitter, fired by call B: not in B’s result, in the server’s output', async () => {
    const [a, b] = await Promise.all([client('modern'), client('legacy')]);
    expect(texts(await a.callTool('listen'))).toHaveLength(1);
    const r = await b.callTool('linger');
    expect(texts(r).slice(1)).toEqual(['linger start\nlinger end\n']);
    await expect.poll(() => server.stdout()).toContain('listener of listen\n');
  }, 60_000);

  it('call B reuses a pooled socket call A opened while A runs: what B’s listener prints is B’s, not A’s', async () => {
    const [a, b] = await Promise.all([client('modern'), client('legacy')]);
    const held = a.callTool('pool-hold');
    await new Promise((r) => setTimeout(r, 300));
    const used = await b.callTool('pool-use');
    expect(texts(used).slice(1)).toEqual(['data of pool-use\n']);
    expect(texts(await held)).toHaveLength(1);
  }, 60_000);
});
