/**
 * Honest dry runs over MCP in both protocol eras, on every transport (docs/contract.md#dry-run-ctxguard-ctxperform-ctxconfirm):
 * a tool whose command offers no dry run has no `dry_run` property and refuses one
 * (`dry_run_unsupported`, nothing run); a read-only tool offers one undeclared; a declared dry run
 * the handler never checks claims none (`dry_run_unchecked`). Real SDK clients against the contract
 * fixture (test/fixtures/contract-tree.ts).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { envelopeOf, eraServers, PATHS_BY_ERAS } from '../helpers/eras.ts';

const CONTRACT_CLI = fileURLToPath(new URL('../fixtures/contract-cli.ts', import.meta.url));
const T = 60_000;
const dir = mkdtempSync(join(tmpdir(), 'ax-dry-run-eras-'));
const LOG = join(dir, 'effects.log');
const ENV = { CONTRACT_LOG: LOG, XDG_STATE_HOME: join(dir, 'state') };
const servers = eraServers(CONTRACT_CLI, ENV, () => rmSync(dir, { recursive: true, force: true }));

/** How many side effects the log holds for `name`. */
const effects = (name: string) =>
  existsSync(LOG)
    ? readFileSync(LOG, 'utf8')
        .split('\n')
        .filter((l) => l !== '' && (JSON.parse(l) as { name?: string }).name === name).length
    : 0;

describe.each(PATHS_BY_ERAS)('dry runs over %s, %s era', (path, era) => {
  it(
    'no dry_run where none is offered, and asking for one is dry_run_unsupported (nothing run); read-only offers one; an unchecked one claims none',
    async () => {
      const c = await servers.connect(era, path);
      try {
        const tools = (await c.listTools()).tools as { name: string; inputSchema: { properties?: object } }[];
        const props = (n: string) => Object.keys(tools.find((t) => t.name === n)!.inputSchema.properties ?? {});
        expect(props('nopreview')).not.toContain('dry_run');
        expect(props('write')).toContain('dry_run');
        expect(props('read')).toContain('dry_run');

        const name = `${path}-${era}`;
        const refused = await c.callTool('nopreview', { name, dry_run: true });
        expect(refused.isError).toBe(true);
        expect(envelopeOf(refused).error).toMatchObject({
          kind: 'dry_run_unsupported',
          exit_code: 2,
          retryable: false,
          context: { property: 'dry_run' },
        });
        expect(envelopeOf(refused).error.actionable_fix).toContain('Leave dry_run out');
        expect(effects(name)).toBe(0);

        const read = await c.callTool('read', { dry_run: true });
        expect(envelopeOf(read).meta.dry_run).toBe(true);

        const blind = await c.callTool('unchecked', { name: `${name}-u`, dry_run: true });
        expect(envelopeOf(blind).meta.dry_run).toBeUndefined();
        expect(envelopeOf(blind).meta.warnings).toEqual([expect.objectContaining({ code: 'dry_run_unchecked' })]);
      } finally {
        await c.close();
      }
    },
    T,
  );
});
