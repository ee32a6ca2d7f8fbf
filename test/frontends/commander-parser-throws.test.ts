/**
 * A commander parser that throws something other than an Error (`undefined`, `{code: 'x'}`) is a
 * clean `validation_error` (exit 2) in json mode, not commander's own TypeError reading the thrown
 * value nor `[object Object]` (docs/frontends.md#how-a-call-runs). Real processes, both commanders.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDERS } from '../helpers/commanders.ts';
import { REPO, TSX_LOADER } from '../helpers/mcp.ts';

const CLI = join(REPO, 'test/frontends/fixtures/throws-commander.ts');

const CASES: [string, string[], string][] = [
  [
    'an option parser that throws undefined',
    ['undef', '--n', '7'],
    'invalid value "7": the parser refused it (it threw undefined)',
  ],
  [
    'an argument parser that throws {code}',
    ['obj', '7'],
    'invalid value "7": the parser refused it (it threw {"code":"x"})',
  ],
];

describe.each(COMMANDERS)('commander %s', (_version, env) => {
  it.each(CASES)(
    '%s: validation_error saying what was thrown',
    (_what, words, message) => {
      const r = spawnSync(process.execPath, ['--import', TSX_LOADER, CLI, ...words, '--format', 'json'], {
        cwd: REPO,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      });
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ error: { kind: 'validation_error', message } });
    },
    30_000,
  );
});
