// In text mode, a --strict failure whose handler went on after its warning and then failed shows
// that later failure too (the `Then:` line): the fix points at context.then, which a person
// reading text never sees otherwise (docs/contract.md#warnings-and---strict).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { REPO, TSX_LOADER } from '../helpers/spawn.ts';
import { minimalEnv } from '../helpers/paths.ts';

const CLI = join(REPO, 'test/fixtures/compose-cli.ts');

it('the Error: line is the warning, the Then: line the failure that came after it', () => {
  const r = spawnSync(
    process.execPath,
    ['--import', TSX_LOADER, CLI, 'items', '--count', '3', '--catch-warn', '--strict', '--format', 'text'],
    { cwd: REPO, env: minimalEnv(), encoding: 'utf8' },
  );
  expect(r.status).toBe(2);
  expect(r.stdout).toBe(''); // the held items stay withheld
  const lines = r.stderr.split('\n');
  const at = lines.indexOf('Error: a warning under --strict: item 1 is stale');
  expect(at).toBeGreaterThanOrEqual(0);
  expect(lines[at + 1]).toBe('Then: the feed went away after item 1 (network_error)');
});
