/**
 * A person's run that ax-ts takes over (a word of ax-ts's, `--format text`, on a front-end program)
 * still gives the program the terminal: its stdin and its TTY, as when it runs alone
 * (docs/frontends.md#how-a-call-runs). Real processes through `ax-ts wrap`; the TTY case under
 * `script` (util-linux), when the machine has it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, TSX_LOADER } from './../helpers/mcp.ts';

const AX = join(REPO, 'cmd/ax-ts/main.ts');
const BIN = join(REPO, 'test/frontends/fixtures/wrap/reads-stdin.mjs');
const SCRIPT = ['/usr/bin/script', '/bin/script'].find((p) => existsSync(p));

function run(input: string, words: string[]) {
  return spawnSync(process.execPath, ['--import', TSX_LOADER, AX, 'wrap', BIN, 'read', ...words], {
    cwd: REPO,
    input,
    encoding: 'utf8',
    env: { ...process.env, AGENT_MODE: '' },
    timeout: 60_000,
  });
}

describe("a person's run ax-ts takes over keeps the terminal", () => {
  it('the program reads the stdin the person gave (--format text), as when run alone', () => {
    const alone = spawnSync(process.execPath, [BIN, 'read'], { input: 'hello\n', encoding: 'utf8' });
    const taken = run('hello\n', ['--format', 'text']);
    expect(taken.status, taken.stderr).toBe(0);
    expect(taken.stdout).toBe(alone.stdout);
    expect(taken.stdout).toBe('got "hello\\n" tty=false\n');
  });

  it("the program's exit status is the run's, and what it said on failing is all the person reads", () => {
    const alone = spawnSync(process.execPath, [BIN, 'read'], { input: 'fail\n', encoding: 'utf8' });
    const taken = run('fail\n', ['--format', 'text']);
    expect(taken.stdout).toBe('got "fail\\n" tty=false\n');
    expect(taken.status).toBe(3);
    expect(alone.status).toBe(3);
    // no `Error: the command exited with status 3` of ax-ts's after the program's own words
    expect(taken.stderr).toBe(alone.stderr);
    expect(taken.stderr).toBe('reads-stdin: the input says fail\n');
  });

  it("an action's throw reads as when the program runs alone: Node's own report, its exit status", () => {
    const alone = spawnSync(process.execPath, [BIN, 'read'], { input: 'throw\n', encoding: 'utf8' });
    const taken = run('throw\n', ['--format', 'text']);
    expect(alone.status).toBe(1);
    expect(taken.status).toBe(1);
    expect(taken.stderr).toBe(alone.stderr);
    expect(taken.stderr).toContain('Error: the input says throw');
  });

  it.skipIf(!SCRIPT)('on a terminal the program sees its TTY', () => {
    const line = `${JSON.stringify(process.execPath)} --import ${JSON.stringify(TSX_LOADER)} ${JSON.stringify(AX)} wrap ${JSON.stringify(BIN)} read --format text < /dev/null`;
    const r = spawnSync(SCRIPT!, ['-qec', line, '/dev/null'], {
      cwd: REPO,
      encoding: 'utf8',
      env: { ...process.env, AGENT_MODE: '' },
      timeout: 60_000,
    });
    expect(r.stdout.replace(/\r/g, '')).toContain('got "" tty=true\n');
  });
});
