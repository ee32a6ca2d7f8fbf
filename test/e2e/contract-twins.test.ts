/**
 * The contract table (test/helpers/contract-rules.ts) over twins of its fixture written with another
 * library (test/helpers/contract-twins.ts: commander and yargs programs wrapped by withAx), on every
 * path that applies. Each front-end call over MCP runs the program as a process of its own, so this
 * file is part of `npm run test:rest` (test/vitest.config.ts), with the native table in
 * test/e2e/contract-paths.test.ts.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpPath, PATH_NAMES, processPath, progressivePath, stdioPath, type Path } from '../helpers/paths.ts';
import { TWINS } from '../helpers/contract-twins.ts';
import { dataBytes, dir, effects, ENV, meta, RULES, writeCall } from '../helpers/contract-rules.ts';

const NAMES: readonly Path['name'][] = PATH_NAMES;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The same rules over twins of the fixture written with another library (test/helpers/contract-twins.ts):
 * each path that applies, on the file store (the store is ax-ts's, the same whatever built the
 * program: its Redis rows run on the native fixture above). A rule or path that cannot apply is
 * listed there with its reason, and shown here as skipped with it.
 */
describe.each(TWINS.map((t) => [t.library, t] as const))('the %s twin', (_library, twin) => {
  const twinPaths: Path[] = [];
  const env = { ...ENV, ...twin.env };
  const named = (name: string) => twinPaths.find((x) => x.name === name)!;
  beforeAll(async () => {
    const names = NAMES.filter((n) => !twin.paths[n]);
    for (const n of ['cli', 'args-json'] as const) if (names.includes(n)) twinPaths.push(processPath(n, twin.cli, env));
    twinPaths.push(
      ...(await Promise.all([
        ...(names.includes('mcp-stdio') ? [stdioPath(twin.cli, env)] : []),
        ...(names.includes('mcp-http') ? [httpPath(twin.cli, env, false)] : []),
        ...(names.includes('mcp-http-stateless') ? [httpPath(twin.cli, env, true)] : []),
        ...(names.includes('mcp-progressive') ? [progressivePath(twin.cli, env)] : []),
      ])),
    );
  }, 120_000);
  afterAll(() => Promise.all(twinPaths.map((p) => p.close())));

  it('every rule it leaves out names exactly one rule of the table', () => {
    for (const na of twin.rules)
      expect(
        RULES.filter((r) => r.name.startsWith(na.rule)),
        na.rule,
      ).toHaveLength(1);
  });

  describe.each(NAMES)('path %s', (name) => {
    RULES.forEach((rule, i) => {
      const na = twin.rules.find((r) => rule.name.startsWith(r.rule) && (!r.paths || r.paths.includes(name)));
      const reason = twin.paths[name] ?? na?.reason;
      if (reason) return it.skip(`${rule.name} (not applicable: ${reason})`, () => {});
      it.concurrent(
        rule.name,
        async () => {
          const p = named(name);
          if (rule.on && !rule.on(p)) return;
          await rule.run(p, `${twin.library}-${name}-r${i}`);
        },
        120_000,
      );
    });
  });

  it('a key used on its CLI replays over every other path that applies, and back', async () => {
    const id = `${twin.library}-shared`;
    const call = writeCall('write', id, { key: `k-${id}`, tags: ['x'] });
    const first = await named('cli').call(call);
    expect(first.code, JSON.stringify(first)).toBe(0);
    for (const p of twinPaths.filter((x) => x.name !== 'cli')) {
      const again = await p.call(call);
      expect(again.code, `${p.name}: ${JSON.stringify(again)}`).toBe(0);
      expect(dataBytes(again.stdout), p.name).toBe(dataBytes(first.stdout));
      expect(meta(again).replayed, p.name).toBe(true);
    }
    expect(effects(id)).toHaveLength(1);
  }, 60_000);
});
