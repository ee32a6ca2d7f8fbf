/** The README's 20-line example, run as written (imports pointed at this checkout). */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const TSX = import.meta.resolve('tsx');

describe('README', () => {
  it('has exactly the two set-up commands in its Quick start', () => {
    const quick = readme.split('## Quick start')[1]!.split('##')[0]!;
    const cmds = [...quick.matchAll(/^(npm ci && npm [^#\n]+?)\s*(#|$)/gm)].map((m) => m[1]);
    expect(cmds).toEqual(['npm ci && npm run demo', 'npm ci && npm test']);
  });

  it('runs the 20-line example as shown', () => {
    const code = /```ts\n([\s\S]*?)```/.exec(readme)![1]!;
    expect(code.trim().split('\n').length).toBeLessThanOrEqual(22);
    const dir = mkdtempSync(join(tmpdir(), 'ax-readme-'));
    const file = join(dir, 'greeter.ts');
    writeFileSync(
      file,
      code
        .replace("from 'ax-ts/mcp'", `from '${join(root, 'mcp/index.ts')}'`)
        .replace("from 'ax-ts'", `from '${join(root, 'lib/index.ts')}'`),
    );
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', TSX, file, ...args], {
        encoding: 'utf8',
        cwd: dir,
        env: { ...process.env, AGENT_MODE: '' },
      });
    const ok = run('hello', 'ann', '--format', 'json');
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout).data).toEqual({ greeting: 'hello, ann' });
    expect(JSON.parse(run('hello', 'ann', '-s', '--format', 'json').stdout).data).toEqual({ greeting: 'HELLO, ANN' });
    const bad = run('helo', 'ann');
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe('');
    expect(JSON.parse(bad.stderr.trim().split('\n').pop()!).error).toMatchObject({
      kind: 'validation_error',
      message: 'unknown command "helo" for "greeter"',
      exit_code: 2,
    });
    const nobody = run('hello', 'nobody');
    expect(nobody.status).toBe(2);
    expect(JSON.parse(nobody.stderr.trim()).error.actionable_fix).toBe('Give a name.');
  });
});
