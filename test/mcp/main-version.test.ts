/**
 * A version given only to main() is the server's version too: mcp-server starts (no placeholder
 * refusal) and reports it in serverInfo over stdio and HTTP, as `--version` and meta.version do.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectStdio, REPO, TSX_LOADER } from '../helpers/mcp.ts';
import { httpClient, startHttp } from '../helpers/paths.ts';

const CLI = join(REPO, 'test/fixtures/main-version-cli.ts');
const stops: (() => Promise<unknown>)[] = [];
afterAll(async () => void (await Promise.all(stops.map((s) => s()))));

describe('version given to main() only', () => {
  it("--version and the error line's meta.version say it", () => {
    const v = spawnSync(process.execPath, ['--import', TSX_LOADER, CLI, '--version'], { encoding: 'utf8' });
    expect(v.stdout).toContain('3.1.4');
    const r = spawnSync(process.execPath, ['--import', TSX_LOADER, CLI, 'nope', '--format', 'json'], {
      encoding: 'utf8',
    });
    expect(JSON.parse(r.stderr.trim()).meta.version).toBe('3.1.4');
  });

  it('mcp-server over stdio starts and reports it in serverInfo', async () => {
    const c = await connectStdio(['mcp-server'], {}, CLI);
    stops.push(() => c.close());
    expect(c.client.getServerVersion()?.version).toBe('3.1.4');
  }, 30_000);

  it('mcp-server over HTTP starts and reports it in serverInfo', async () => {
    const server = await startHttp(CLI, {});
    stops.push(() => server.stop());
    const client = await httpClient(server.url);
    stops.push(() => client.close());
    expect(client.getServerVersion()?.version).toBe('3.1.4');
  }, 30_000);
});
