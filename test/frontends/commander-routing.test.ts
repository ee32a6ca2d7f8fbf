/**
 * Which invocations of a commander program go to ax-ts (docs/frontends.md#which-invocations-go-to-ax-ts):
 * an option spelled like an injected flag on the command the words reach is the program's own, and
 * the words after `--` are operands, never routing words. Each case runs the program plain and with
 * the front end (real processes, both commanders) and compares stdout, stderr and the exit code.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDERS } from '../helpers/commanders.ts';
import { REPO, TSX_LOADER } from '../helpers/mcp.ts';

const CLI = join(REPO, 'test/frontends/fixtures/words-commander.ts');
const NOTES = join(REPO, 'test/frontends/fixtures/notes-commander.ts');

const CASES: [string, string[], string][] = [
  ["a subcommand's own --format", ['fmt', '--format', 'md'], 'fmt md\n'],
  ["a subcommand's own --format=", ['fmt', '--format=md'], 'fmt md\n'],
  ['--format json after --', ['echo', 'x', '--', '-y', '--format', 'json'], '["x","-y","--format","json"]\n'],
  ['an ax-ts command word after --', ['echo', '--', '__schema'], '["__schema"]\n'],
];

describe.each(COMMANDERS)('commander %s', (_version, env) => {
  const run = (words: string[]) =>
    spawnSync(process.execPath, ['--import', TSX_LOADER, CLI, ...words], {
      cwd: REPO,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    });
  it.each(CASES)(
    '%s: as plain commander runs it',
    (_what, words, stdout) => {
      const plain = run(['--plain', ...words]);
      const withAx = run(words);
      expect(plain.stdout).toBe(stdout);
      expect({ stdout: withAx.stdout, stderr: withAx.stderr, status: withAx.status }).toEqual({
        stdout: plain.stdout,
        stderr: plain.stderr,
        status: plain.status,
      });
    },
    30_000,
  );

  it("json mode: commander's version flag -V is ax-ts's version answer", () => {
    const r = spawnSync(process.execPath, ['--import', TSX_LOADER, NOTES, '-V', '--format', 'json'], {
      cwd: REPO,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NOTES_AX: '1', ...env },
    });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ data: { name: 'notes', version: '1.2.3' } });
  }, 30_000);

  it("json mode: a command's own -h is its option, not help", () => {
    const r = run(['span', '-h', '3', '--format', 'json']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ data: { hours: '3' } });
  }, 30_000);
});
