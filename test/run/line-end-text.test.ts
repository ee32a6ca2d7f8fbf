// In text mode too, the runner's own lines start on a line of their own (docs/contract.md#errors):
// an error after a print on stdout that did not end its line, where stdout and stderr are one file
// (a terminal, `2>&1`), a warning after such a print on stderr, and the text rendering of a result
// after such a print on stdout (or on stderr, where both are one file). A stdout that is another
// file keeps its bytes as printed, and stderr gets no stray newline then.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, TSX_LOADER } from '../helpers/spawn.ts';
import { minimalEnv } from '../helpers/paths.ts';

const CLI = join(REPO, 'test/fixtures/line-end-cli.ts');
const dir = mkdtempSync(join(tmpdir(), 'ax-line-end-'));

/** Runs the fixture in text mode with stdout and stderr on one file (`same`) or two. */
function run(cmd: string, same: boolean): { out: string; err: string } {
  const outFile = join(dir, `${cmd}-${same}-out`);
  const errFile = join(dir, `${cmd}-${same}-err`);
  const out = openSync(outFile, 'w');
  const err = same ? out : openSync(errFile, 'w');
  spawnSync(process.execPath, ['--import', TSX_LOADER, CLI, cmd, '--format', 'text'], {
    cwd: REPO,
    env: minimalEnv(),
    stdio: ['ignore', out, err],
  });
  closeSync(out);
  if (!same) closeSync(err);
  return { out: readFileSync(outFile, 'utf8'), err: same ? '' : readFileSync(errFile, 'utf8') };
}

describe('text mode: the runner’s lines after a print that did not end its line', () => {
  it('an error after an unfinished stdout print, both on one file (2>&1, a terminal), starts on its own line', () => {
    expect(run('out', true).out).toMatch(/^partial\nError: boom\n/);
  });

  it('with stdout on another file, stdout keeps its bytes and stderr starts with the error', () => {
    const r = run('out', false);
    expect(r.out).toBe('partial');
    expect(r.err).toMatch(/^Error: boom\n/);
  });

  it('a warning after an unfinished stderr print starts on its own line', () => {
    const r = run('warn', false);
    expect(r.err).toBe('progress...\ncareful\n');
    expect(r.out).toBe('ok: 1\n');
  });

  it('a rendered result after an unfinished stdout print starts on its own line, on a file of its own or shared', () => {
    expect(run('done', false).out).toBe('partial\nok: 1\n');
    expect(run('done', true).out).toBe('partial\nok: 1\n');
  });

  it('a rendered result after an unfinished stderr print: on its own line where both are one file, else stdout untouched', () => {
    expect(run('note', true).out).toBe('note\nok: 1\n');
    const r = run('note', false);
    expect(r.out).toBe('ok: 1\n');
    expect(r.err).toBe('note');
  });

  it('a print that ended its line gets no blank line before the rendering', () => {
    expect(run('whole', false).out).toBe('line\nok: 1\n');
  });
});
