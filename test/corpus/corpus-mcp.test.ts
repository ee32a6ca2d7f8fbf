/**
 * Real published CLIs from the npm registry (test/corpus/package.json) served by `ax-ts wrap` over
 * MCP on every path and era (docs/frontends.md#ax-ts-wrap-a-program-you-do-not-own): a real command
 * through the real SDK clients returns what the program printed and its exit status. Skips, saying
 * so in its titles, when the corpus is not installed (`npm ci --prefix test/corpus`; `.ci/run` does).
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEra, envelopeOf, PATHS_BY_ERAS, startHttp, type EraClient, type HttpFixture } from '../helpers/eras.ts';
import { REPO } from '../helpers/mcp.ts';

const BIN = join(REPO, 'test/corpus/node_modules/.bin');
const AX = join(REPO, 'cmd/ax-ts/main.ts');
const installed = existsSync(join(BIN, 'markdownlint'));
const SKIP = installed ? '' : ' [SKIPPED: the corpus is not installed; run npm ci --prefix test/corpus]';

const dir = mkdtempSync(join(tmpdir(), 'ax-corpus-mcp-'));
const BAD_MD = join(dir, 'bad.md');
const HTML = join(dir, 'a.html');
const TYPO = join(dir, 'typo.txt');
writeFileSync(BAD_MD, '#bad\n');
writeFileSync(TYPO, 'helo wrld\n');
writeFileSync(HTML, '<p>  hi   </p>\n');

/** The programs called over MCP: the tool, its arguments, the exit status and what it printed. */
const CALLS = [
  { bin: 'markdownlint', args: { files: [BAD_MD] }, exit: 1, printed: 'MD018/no-missing-space-atx' },
  { bin: 'html-minifier-terser', args: { files: [HTML], collapse_whitespace: true }, exit: 0, printed: '<p>hi</p>' },
  { bin: 'concurrently', args: { operands: ['echo hi'] }, exit: 0, printed: '[0] hi' },
  // the default command's own tool; its "issues found" is a throw carrying exitCode 1
  {
    bin: 'cspell',
    tool: 'lint',
    args: { globs: [TYPO], root: dir, no_progress: true },
    exit: 1,
    printed: 'Unknown word (helo)',
  },
] as const;

describe.each(PATHS_BY_ERAS)(`corpus over MCP: %s, a %s client${SKIP}`, (path, era) => {
  describe.each(CALLS)('$bin', (call) => {
    let server: HttpFixture | undefined;
    let c: EraClient | undefined;
    const words = ['wrap', join(BIN, call.bin), 'mcp-server'];
    beforeAll(async () => {
      if (!installed) return;
      if (path !== 'stdio') server = await startHttp(AX, path === 'http-stateless' ? ['--stateless'] : [], {}, words);
      c = await connectEra(era, path, { cli: AX, url: server?.url, server: words });
    }, 60_000);
    afterAll(async () => {
      await c?.close();
      await server?.stop();
    });

    it.skipIf(!installed)('a real command returns what it printed and its exit status', async () => {
      const r = await c!.callTool('tool' in call ? call.tool : call.bin, call.args);
      const env = envelopeOf(r);
      if (call.exit === 0) {
        expect(r.isError, JSON.stringify(r)).toBeFalsy();
        expect(env).toMatchObject({ data: null });
      } else {
        expect(r.isError).toBe(true);
        expect(env).toMatchObject({ error: { kind: 'command_failed', exit_code: call.exit } });
      }
      const printed = (r.content as { text?: string }[])
        .slice(1)
        .map((i) => i.text ?? '')
        .join('');
      expect(printed).toContain(call.printed);
    });
  });
});
